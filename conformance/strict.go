package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeStrict decodes b, the whole text of the file name, into v as the kit's data files are read: one JSON value,
// no member v does not define, nothing after it. A misspelt member in a hand-written file is then an error naming the
// file, not a setting silently ignored.
func DecodeStrict(name string, b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: more data after the file's JSON value", name)
	}
	return nil
}
