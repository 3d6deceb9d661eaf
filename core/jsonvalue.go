package core

import (
	"bytes"
	"encoding/json"
)

// EqualJSON reports whether two decoded JSON values are equal as JSON: objects by members regardless of order,
// numbers by value (1 equals 1.0).
func EqualJSON(a, b any) bool { return jsonEqual(a, b) }

// CanonicalJSON encodes a decoded JSON value compactly with object members sorted by name, strings escaped only
// where JSON requires, and numbers exactly as written (json.Number). Two documents with the same members and the
// same number text encode the same whatever their member order or whitespace; the collector hashes it to tell a
// duplicate from a conflicting response.
func CanonicalJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Decoded JSON values always encode; anything else is a programming error.
		panic("core: CanonicalJSON: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
