package core

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// EqualJSON reports whether two decoded JSON values are the same JSON value: objects by members regardless of
// order, numbers by exact decimal value (1 equals 1.0 and 1e0; 0.1 does not equal 0.1000000000000000055511151231257827,
// which a double cannot tell apart), strings by code points.
func EqualJSON(a, b any) bool { return jsonEqual(a, b) }

// CompactJSON encodes a decoded JSON value compactly with object members sorted by name (byte order), strings
// escaped only where JSON requires (", \ and control characters), and numbers exactly as written (json.Number).
// It is the writer for documents a collector composes (requests, receipts): it keeps every number's text, so an
// issuer's jsonSchema reads back as the issuer wrote it (D19). It is not the canonical form two documents are
// compared by: that is EncodeCanonical. It panics on a value that is not JSON (a channel, NaN), which only a
// program's own defect can pass it.
func CompactJSON(v any) []byte {
	return appendCanonical(make([]byte, 0, 512), v)
}

func appendCanonical(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return appendString(b, x)
	case json.Number:
		return append(b, x...)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendCanonical(b, x[k])
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e)
		}
		return append(b, ']')
	}
	// Anything else (float64 from a caller's own value, a json.RawMessage): decode it into a JSON value first.
	raw, err := json.Marshal(v)
	if err != nil {
		panic("core: CompactJSON: " + err.Error())
	}
	dv, derr := decodeJSON(raw)
	if derr != nil {
		panic("core: CompactJSON: " + derr.Message)
	}
	return appendCanonical(b, dv)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string, escaping ", \ and the control characters U+0000–U+001F, and replacing
// invalid UTF-8 (which validated documents never hold) with U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, "\ufffd"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
