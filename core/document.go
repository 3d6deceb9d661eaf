package core

import (
	"sync"
)

// MaxDocumentBytes bounds one document. AQP's own members are bounded far below it (a prompt is at most 4,000 code
// points); what it bounds is an answer or a jsonSchema, which the schemas leave open.
const MaxDocumentBytes = 1 << 20

// MaxNesting is the nesting past which a body is no JSON any binding must read: the depth at which the JSON-RPC
// envelope readers of MCP and A2A (encoding/json, jsontext) stop, as RFC 8259 §9 lets a parser. A body nested
// deeper gets no receipt on any binding (D34); one nested deeper than MaxDepth but not past MaxNesting gets the
// core's invalid_response.
const MaxNesting = 10000

// NestsDeeperThan reports whether objects and arrays in a JSON text nest more than n deep, in one pass that needs
// no memory per level (strings and their escapes are skipped, nothing else is checked).
func NestsDeeperThan(b []byte, n int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > n {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// Document is one decoded AQP document: its bytes, the JSON value they hold (numbers kept exact as json.Number),
// and, once validated, its schema failures. Paired checks and the collector work from Documents so that a document
// is decoded and validated once however many checks read it.
type Document struct {
	// Kind is the kind the document was validated as.
	Kind Kind
	// Raw is the document as received.
	Raw []byte
	// Value is the decoded JSON value; nil when Raw is not JSON.
	Value any
	// Errors are the document's standalone failures; empty means valid.
	Errors Errors

	contractOnce sync.Once
	contract     *contract
	contractErr  *Error

	// lazy: Value may hold members a Skeleton kept as json.RawMessage; materialize decodes them once.
	lazy            bool
	materializeOnce sync.Once
}

// Valid reports whether the document passed standalone validation.
func (d *Document) Valid() bool { return len(d.Errors) == 0 }

// Object returns the top-level JSON object, or nil when the document is not one.
func (d *Document) Object() map[string]any {
	m, _ := d.Value.(map[string]any)
	return m
}

// Parse decodes and validates one document of the given kind. It never fails outright: a document that is not
// JSON, too large, or invalid comes back with its Errors set (Value is nil when the bytes are not JSON).
func Parse(kind Kind, data []byte) *Document {
	v, err := decodeJSON(data)
	if err != nil {
		e := *err
		e.Code = kind.code()
		return &Document{Kind: kind, Raw: data, Errors: Errors{e}}
	}
	return &Document{Kind: kind, Raw: data, Value: v, Errors: validateValue(kind, v)}
}

// ParseTrusted decodes a document that was validated when it was written — a collector's stored request — without
// validating it again: a submission then pays for decoding its query, not for re-checking it. The document is
// marked valid; its answer contract is compiled on first use. Use Parse for anything that crossed a trust
// boundary.
func ParseTrusted(kind Kind, data []byte) (*Document, error) {
	v, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	return &Document{Kind: kind, Raw: data, Value: v}, nil
}

// ParseValue validates any Go value as a document of the given kind: a decoded JSON value (numbers as json.Number
// or float64), a generated type, a map. It is for callers that hold a value rather than bytes, such as a binding
// that received the object inside another message. The value is encoded with encoding/json and decoded again with
// the validator's rules, so any value gives the verdict its JSON text would get (and Raw is that text); a value that
// cannot be encoded is one Error with keyword json. It never panics.
func ParseValue(kind Kind, v any) *Document {
	data, e := encodeValue(v)
	if e != nil {
		e.Code = kind.code()
		return &Document{Kind: kind, Errors: Errors{*e}}
	}
	return Parse(kind, data)
}

// Validate validates one document of the given kind and returns its failures; nil means valid.
func Validate(kind Kind, data []byte) Errors {
	return Parse(kind, data).Errors
}

// DecodeJSON decodes one JSON value with the validator's rules, those of I-JSON (RFC 7493): at most
// MaxDocumentBytes, valid UTF-8, no duplicate member names, no lone surrogates (an escaped \ud800 or \udc00 that is
// not half of a pair), objects and arrays nested at most MaxDepth deep, exactly one value; numbers are kept exactly
// as written, as json.Number, however many digits they have. The error is a *Error (keyword json, or size for the
// two bounds; no code yet) that gives the byte offset, line and column; a duplicate name or a lone surrogate
// also points at its member (the second occurrence of a duplicate).
func DecodeJSON(data []byte) (any, error) {
	v, e := decodeJSON(data)
	if e != nil {
		return nil, e
	}
	return v, nil
}
