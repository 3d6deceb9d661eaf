package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// MaxDepth bounds how deeply a document may nest objects and arrays. AQP's own members nest four deep at most; the
// bound keeps a hostile `[[[[…]]]]` from costing a deep recursion in the decoder, the schema validator and the
// canonical encoder. Deeper nesting is a size error (keyword size), like a body over MaxDocumentBytes: the text is
// well-formed JSON, only beyond what the validator accepts.
const MaxDepth = 512

// decoders reuses jsontext decoders (and their name-tracking state) across documents.
var decoders = sync.Pool{New: func() any { return jsontext.NewDecoder(bytes.NewBuffer(nil)) }}

// decodeJSON decodes one I-JSON value (RFC 7493): at most MaxDocumentBytes, valid UTF-8, no duplicate member
// names, no lone surrogates, at most MaxDepth deep, exactly one value; numbers are kept exactly as json.Number.
func decodeJSON(data []byte) (any, *Error) {
	d := decodeWith(data, nil, false)
	return d.value, d.err
}

// decoded is what decodeWith found.
type decoded struct {
	value any
	raw   []rawMember
	err   *Error
	// ijson: err is a violation only I-JSON forbids (a duplicate name, a lone surrogate); the text is otherwise
	// JSON up to that point.
	ijson bool
}

// decodeWith decodes data; members the lazy tree marks opaque are checked but kept as raw bytes (see skeleton.go)
// and listed in the returned rawMembers, with nil standing in the value. lenient accepts what only I-JSON forbids
// (duplicate names: the top-level value of a duplicated name is dropped, as ambiguous; lone surrogates: read as
// U+FFFD), for reading the ids of a document that is then rejected.
func decodeWith(data []byte, lazy *lazyNode, lenient bool) decoded {
	if len(data) > MaxDocumentBytes {
		return decoded{err: &Error{Pointer: "", Keyword: KeywordSize,
			Message: fmt.Sprintf("document is %d bytes; at most %d are accepted", len(data), MaxDocumentBytes)}}
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return decoded{err: &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not valid UTF-8 at %s; JSON text must be UTF-8 (RFC 8259 §8.1)", position(data, int64(off)))}}
	}
	dec := decoders.Get().(*jsontext.Decoder)
	defer func() {
		dec.Reset(bytes.NewBuffer(nil)) // drop the reference to data
		decoders.Put(dec)
	}()
	if lenient {
		dec.Reset(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	} else {
		dec.Reset(bytes.NewBuffer(data))
	}
	r := reader{dec: dec, data: data, lenient: lenient}
	v, err := r.value(lazy)
	if err == nil {
		switch _, terr := dec.ReadToken(); {
		case errors.Is(terr, io.EOF):
		default:
			err = &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not well-formed JSON: more data after the value at %s", position(data, r.afterValue()))}
		}
	}
	if err != nil {
		if lazy != nil && !lenient {
			// Report exactly what full decoding reports (a lazily read member's error may be worded differently):
			// read the same tokens again, building nothing, so that a hostile body with an error at its end does not
			// cost the decoding the skeleton avoided.
			if full := checkOnly(data); full.err != nil {
				return full
			}
		}
		return decoded{err: err, ijson: r.ijson}
	}
	return decoded{value: v, raw: r.raw}
}

// checkOnly reads data as decodeJSON does, token for token, without building the value: it finds the same first
// error.
func checkOnly(data []byte) decoded {
	dec := decoders.Get().(*jsontext.Decoder)
	defer func() {
		dec.Reset(bytes.NewBuffer(nil))
		decoders.Put(dec)
	}()
	dec.Reset(bytes.NewBuffer(data))
	r := reader{dec: dec, data: data, discard: true}
	_, err := r.value(nil)
	if err == nil {
		if _, terr := dec.ReadToken(); !errors.Is(terr, io.EOF) {
			err = &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not well-formed JSON: more data after the value at %s", position(data, r.afterValue()))}
		}
	}
	return decoded{err: err, ijson: r.ijson}
}

// reader builds a JSON value from a jsontext token stream.
type reader struct {
	dec     *jsontext.Decoder
	data    []byte
	raw     []rawMember
	lenient bool
	// discard reads the tokens without building values (checkOnly).
	discard bool
	// ijson: the error is one only I-JSON forbids (the text is otherwise JSON).
	ijson bool
	// ambiguous lists top-level names that occur more than once (lenient only).
	ambiguous []string
}

// afterValue is the offset of the first byte after the value read so far that is not whitespace.
func (r *reader) afterValue() int64 {
	off := r.dec.InputOffset()
	for off < int64(len(r.data)) {
		switch r.data[off] {
		case ' ', '\t', '\n', '\r':
			off++
			continue
		}
		break
	}
	return off
}

func (r *reader) value(lazy *lazyNode) (any, *Error) {
	tok, err := r.dec.ReadToken()
	if err != nil {
		return nil, r.syntaxError(err)
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case '"':
		if r.discard {
			return nil, nil
		}
		return tok.String(), nil
	case '0':
		if r.discard {
			return nil, nil
		}
		return json.Number(tok.String()), nil
	case '[':
		if e := r.checkDepth(); e != nil {
			return nil, e
		}
		arr := []any{}
		for r.dec.PeekKind() != ']' {
			v, e := r.value(nil)
			if e != nil {
				return nil, e
			}
			if !r.discard {
				arr = append(arr, v)
			}
		}
		if _, err := r.dec.ReadToken(); err != nil {
			return nil, r.syntaxError(err)
		}
		return arr, nil
	case '{':
		if e := r.checkDepth(); e != nil {
			return nil, e
		}
		obj := map[string]any{}
		top := r.dec.StackDepth() == 1
		for r.dec.PeekKind() != '}' {
			name, err := r.dec.ReadToken()
			if err != nil {
				return nil, r.syntaxError(err)
			}
			var key string
			if !r.discard {
				key = name.String()
			}
			if lazy != nil && lazy.opaque(key) && r.dec.PeekKind() != 0 {
				raw, e := r.rawValue()
				if e != nil {
					return nil, e
				}
				if hasNumberBeyondBounds(raw) {
					// D22's bounds hold for every number: the member is decoded after all, so validation reports
					// the number at its own pointer (and the schema library never sees it).
					v, e := decodeJSON(raw)
					if e != nil {
						return nil, e
					}
					obj[key] = v
					continue
				}
				obj[key] = nil
				r.raw = append(r.raw, rawMember{obj: obj, key: key, raw: raw})
				continue
			}
			if r.discard {
				if _, e := r.value(nil); e != nil {
					return nil, e
				}
				continue
			}
			if _, dup := obj[key]; dup && r.lenient && top {
				r.ambiguous = append(r.ambiguous, key)
			}
			v, e := r.value(lazy.child(key))
			if e != nil {
				return nil, e
			}
			obj[key] = v
		}
		if top {
			for _, k := range r.ambiguous {
				delete(obj, k)
			}
		}
		if _, err := r.dec.ReadToken(); err != nil {
			return nil, r.syntaxError(err)
		}
		return obj, nil
	}
	// PeekKind found no valid start of a value: ReadToken's error says why; reaching here is a tokenizer defect.
	return nil, &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not well-formed JSON: unexpected token at %s", position(r.data, r.dec.InputOffset()))}
}

// rawValue reads the next value without materialising it: jsontext checks it (well-formed, no duplicate names,
// no lone surrogates) and the bytes are sliced from the input. Depth is checked by a scan, so that a lazily read
// value obeys MaxDepth as a decoded one does.
func (r *reader) rawValue() (json.RawMessage, *Error) {
	v, err := r.dec.ReadValue()
	if err != nil {
		return nil, r.syntaxError(err)
	}
	end := r.dec.InputOffset()
	raw := json.RawMessage(r.data[end-int64(len(v)) : end : end])
	depth := r.dec.StackDepth()
	if depth+len(raw)/2 > MaxDepth && depth+nesting(raw) > MaxDepth {
		return nil, &Error{Keyword: KeywordSize, Message: "nesting too deep"} // replaced by full decoding's error
	}
	return raw, nil
}

// nesting is the deepest nesting of objects and arrays in well-formed JSON text.
func nesting(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// checkDepth is called just after an opening [ or {.
func (r *reader) checkDepth() *Error {
	if r.dec.StackDepth() <= MaxDepth {
		return nil
	}
	off := r.dec.InputOffset() - 1
	ptr := string(r.dec.StackPointer())
	return &Error{Pointer: ptr, Keyword: KeywordSize,
		Message: fmt.Sprintf("objects and arrays nest more than %d deep at %s; at most %d levels are accepted", MaxDepth, position(r.data, off), MaxDepth)}
}

// syntaxError turns a jsontext error into an AQP json error. Duplicate names and lone surrogates are I-JSON
// (RFC 7493) violations and point at the member; any other malformation points at the root, as JSON that does
// not parse has no members to point at.
func (r *reader) syntaxError(err error) *Error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not well-formed JSON: unexpected end of input at %s", position(r.data, int64(len(r.data))))}
		}
		return &Error{Keyword: KeywordJSON, Message: "not well-formed JSON: " + err.Error()}
	}
	ptr := string(se.JSONPointer)
	switch {
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		r.ijson = true
		name := lastToken(ptr)
		return &Error{Pointer: ptr, Keyword: KeywordJSON,
			Message: fmt.Sprintf("duplicate member name %s at %s: I-JSON (RFC 7493 §2.3) forbids duplicate names, because readers disagree on which value counts", strconv.Quote(name), position(r.data, se.ByteOffset))}
	case bytes.Contains([]byte(se.Err.Error()), []byte("surrogate")):
		r.ijson = true
		off, esc := loneSurrogate(r.data, se.ByteOffset)
		return &Error{Pointer: ptr, Keyword: KeywordJSON,
			Message: fmt.Sprintf("lone surrogate %s in a string at %s: I-JSON (RFC 7493 §2.1) forbids strings that are not Unicode; a character beyond U+FFFF is written as a high surrogate escape followed by a low one", esc, position(r.data, off))}
	case errors.Is(se.Err, io.ErrUnexpectedEOF):
		return &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not well-formed JSON: unexpected end of input at %s", position(r.data, int64(len(r.data))))}
	}
	where := ""
	if ptr != "" {
		where = " inside " + ptr
	}
	return &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("not well-formed JSON: %s%s at %s", se.Err.Error(), where, position(r.data, se.ByteOffset))}
}

// lastToken is the unescaped last reference token of an RFC 6901 pointer.
func lastToken(ptr string) string {
	i := bytes.LastIndexByte([]byte(ptr), '/')
	tok := ptr[i+1:]
	out := make([]byte, 0, len(tok))
	for j := 0; j < len(tok); j++ {
		if tok[j] == '~' && j+1 < len(tok) {
			switch tok[j+1] {
			case '0':
				out = append(out, '~')
				j++
				continue
			case '1':
				out = append(out, '/')
				j++
				continue
			}
		}
		out = append(out, tok[j])
	}
	return string(out)
}

// loneSurrogate finds the first \uD800–\uDFFF escape at or after off that is not half of a valid pair, returning
// its offset and text; when none is found it returns off and a generic description.
func loneSurrogate(data []byte, off int64) (int64, string) {
	hex := func(i int) (rune, bool) {
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
		return rune(n), err == nil
	}
	for i := int(off); i < len(data); i++ {
		if data[i] != '\\' || i+1 >= len(data) {
			continue
		}
		r, ok := hex(i)
		if !ok {
			i++ // skip the escaped character
			continue
		}
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if lo, ok := hex(i + 6); ok && lo >= 0xDC00 && lo < 0xE000 {
				i += 11
				continue
			}
			return int64(i), string(data[i : i+6])
		case r >= 0xDC00 && r < 0xE000:
			return int64(i), string(data[i : i+6])
		}
		i += 5
	}
	return off, "escape"
}

// position describes a byte offset for a person: "byte offset 17 (line 2, column 5)", the column counted in
// characters (Unicode code points) from 1.
func position(data []byte, off int64) string {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("byte offset %d (line %d, column %d)", off, line, col)
}
