package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// EncodeCanonical encodes a JSON value in AQP's canonical form: RFC 8785 (JCS) with numbers by exact decimal value.
// Two texts that hold the same JSON value — whatever their member order, whitespace, string escapes or number
// spelling — encode to the same bytes; texts that hold different values never do. A collector hashes it to tell a
// duplicate from a conflicting response (D16) and counts a structured answer's maxLength on it (D12).
//
//   - Strings as RFC 8785 §3.2.2.2 writes them: `"` and `\` escaped, control characters as \b \f \n \r \t or
//     \u00xx (lowercase hex), every other character literally (é, U+2028, U+007F, 😀).
//   - Members sorted by their names' UTF-16 code units (RFC 8785 §3.2.3), recursively; arrays keep their order.
//   - Numbers by ECMAScript's Number::toString rules (RFC 8785 §3.2.2.3) applied to the number's exact decimal
//     digits instead of a double's: 0.90 → 0.9, 1.0 → 1, 1e2 → 100, -0 → 0, 1E-7 → 1e-7, 1e21 → 1e+21;
//     9007199254740993 (2^53 + 1) stays 9007199254740993 and 1e400 becomes 1e+400, not Infinity. For every number a
//     double holds exactly as written, the output is RFC 8785's; beyond a double the value is kept, not rounded.
//
// The encoding is idempotent: decoding its output and encoding again gives the same bytes. v is a decoded JSON
// value (map[string]any, []any, string, bool, nil, json.Number); a json.RawMessage is canonicalised from its text
// without being decoded into values; Go numbers (int, float64) and other values encoding/json can marshal are
// accepted too. The error says what in v is not JSON (a NaN, a channel, a json.Number that is not a number, a
// string or raw text that is not I-JSON).
func EncodeCanonical(v any) ([]byte, error) {
	return appendJCS(make([]byte, 0, 256), v, 0)
}

// CanonicalizeJSON is EncodeCanonical of the JSON text data, which must be one I-JSON value (the rules of
// DecodeJSON). It never decodes the text into Go values, so it costs little beyond the output.
func CanonicalizeJSON(data []byte) ([]byte, error) {
	if len(data) > MaxDocumentBytes {
		return nil, fmt.Errorf("JSON text is %d bytes; at most %d are accepted", len(data), MaxDocumentBytes)
	}
	return appendJCSText(make([]byte, 0, len(data)), data)
}

func appendJCS(b []byte, v any, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("objects and arrays nest more than %d deep", MaxDepth)
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		if !utf8.ValidString(x) {
			return nil, fmt.Errorf("string %q is not valid UTF-8", x)
		}
		return appendString(b, x), nil
	case json.Number:
		out, ok := appendCanonicalNumber(b, []byte(x))
		if !ok {
			return nil, fmt.Errorf("json.Number %q is not a JSON number", string(x))
		}
		return out, nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case json.RawMessage:
		return appendJCSText(b, x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if !utf8.ValidString(k) {
				return nil, fmt.Errorf("member name %q is not valid UTF-8", k)
			}
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendJCS(b, x[k], depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJCS(b, e, depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	// Anything else (float64, a caller's struct): encode it with encoding/json, then canonicalise that text.
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("not a JSON value: %w", err)
	}
	return appendJCSText(b, raw)
}

// appendJCSText canonicalises one I-JSON text from its tokens.
func appendJCSText(b []byte, data []byte) ([]byte, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer func() {
		dec.Reset(bytes.NewBuffer(nil))
		decoders.Put(dec)
	}()
	dec.Reset(bytes.NewBuffer(data))
	b, err := jcsValue(b, dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err == nil || !errors.Is(err, io.EOF) {
		return nil, errors.New("more data after the JSON value")
	}
	return b, nil
}

func jcsValue(b []byte, dec *jsontext.Decoder) ([]byte, error) {
	if dec.StackDepth() >= MaxDepth && (dec.PeekKind() == '[' || dec.PeekKind() == '{') {
		return nil, fmt.Errorf("objects and arrays nest more than %d deep", MaxDepth)
	}
	switch dec.PeekKind() {
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		b = append(b, '[')
		for first := true; dec.PeekKind() != ']'; first = false {
			if !first {
				b = append(b, ',')
			}
			var err error
			if b, err = jcsValue(b, dec); err != nil {
				return nil, err
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return append(b, ']'), nil
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		type member struct {
			name string
			val  []byte
		}
		var members []member
		var buf []byte
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String() // before the next read voids the token
			start := len(buf)
			if buf, err = jcsValue(buf, dec); err != nil {
				return nil, err
			}
			members = append(members, member{name, buf[start:len(buf):len(buf)]})
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		slices.SortFunc(members, func(x, y member) int { return compareUTF16(x.name, y.name) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.name)
			b = append(b, ':')
			b = append(b, m.val...)
		}
		return append(b, '}'), nil
	}
	v, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	switch v.Kind() {
	case '"':
		s, err := jsontext.AppendUnquote(nil, v)
		if err != nil {
			return nil, err
		}
		return appendString(b, string(s)), nil
	case '0':
		out, _ := appendCanonicalNumber(b, v)
		return out, nil
	}
	return append(b, v...), nil // null, true, false
}

// compareUTF16 orders strings by their UTF-16 code units, as RFC 8785 §3.2.3 sorts member names. It differs from
// byte (code point) order only between a character in U+E000–U+FFFF and one beyond U+FFFF, whose high surrogate
// sorts below it.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, la := utf16Units(ra)
			ub, lb := utf16Units(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			return int(la) - int(lb)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func utf16Units(r rune) (uint16, uint16) {
	if r < 0x10000 {
		return uint16(r), 0
	}
	hi, lo := utf16.EncodeRune(r)
	return uint16(hi), uint16(lo)
}

// appendCanonicalNumber appends the canonical text of the JSON number num (RFC 8259 §6 grammar); ok is false when
// num is not one.
func appendCanonicalNumber(b, num []byte) (out []byte, ok bool) {
	i := 0
	neg := false
	if i < len(num) && num[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	for i < len(num) && isDigit(num[i]) {
		i++
	}
	intPart := num[intStart:i]
	if len(intPart) == 0 || len(intPart) > 1 && intPart[0] == '0' {
		return b, false
	}
	var frac []byte
	if i < len(num) && num[i] == '.' {
		i++
		fs := i
		for i < len(num) && isDigit(num[i]) {
			i++
		}
		frac = num[fs:i]
		if len(frac) == 0 {
			return b, false
		}
	}
	var expNeg bool
	var expDigits []byte
	if i < len(num) && (num[i] == 'e' || num[i] == 'E') {
		i++
		if i < len(num) && (num[i] == '+' || num[i] == '-') {
			expNeg = num[i] == '-'
			i++
		}
		es := i
		for i < len(num) && isDigit(num[i]) {
			i++
		}
		expDigits = num[es:i]
		if len(expDigits) == 0 {
			return b, false
		}
	}
	if i != len(num) {
		return b, false
	}

	// The significant digits d1…dk, without leading or trailing zeros, and the exponent e with value = 0.d1…dk × 10^n.
	digits := make([]byte, 0, len(intPart)+len(frac))
	digits = append(append(digits, intPart...), frac...)
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	digits = digits[lead:]
	if len(digits) == 0 {
		return append(b, '0'), true // 0, -0, 0.000e5
	}
	trail := 0
	for trail < len(digits) && digits[len(digits)-1-trail] == '0' {
		trail++
	}
	digits = digits[:len(digits)-trail]
	k := len(digits)
	// n = k + exponent − len(frac) + trail: the position of the decimal point.
	for len(expDigits) > 1 && expDigits[0] == '0' {
		expDigits = expDigits[1:]
	}
	if neg {
		b = append(b, '-')
	}
	shift := int64(k - len(frac) + trail)
	if len(expDigits) <= 15 {
		e, _ := strconv.ParseInt(string(expDigits), 10, 64) // "" → 0
		if expNeg {
			e = -e
		}
		return appendDigits(b, digits, e+shift), true
	}
	// An exponent of more than 15 digits: the point lies far outside where plain notation is used.
	n, _ := new(big.Int).SetString(string(expDigits), 10)
	if expNeg {
		n.Neg(n)
	}
	n.Add(n, big.NewInt(shift-1)) // the exponent of d1.d2…dk
	return appendExponential(b, digits, n.String()), true
}

// appendDigits writes d1…dk × 10^(n−k) as ECMAScript's Number::toString does.
func appendDigits(b, digits []byte, n int64) []byte {
	k := int64(len(digits))
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		for range n - k {
			b = append(b, '0')
		}
		return b
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		return append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for range -n {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	return appendExponential(b, digits, strconv.FormatInt(n-1, 10))
}

// appendExponential writes d1[.d2…dk]e±x for the exponent text exp (with a leading - when negative).
func appendExponential(b, digits []byte, exp string) []byte {
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	if exp[0] != '-' {
		b = append(b, '+')
	}
	return append(b, exp...)
}

// numbersEqual compares two JSON numbers by exact decimal value: their canonical texts are equal exactly when
// their values are.
func numbersEqual(x, y json.Number) bool {
	if x == y {
		return true
	}
	cx, okX := appendCanonicalNumber(nil, []byte(x))
	cy, okY := appendCanonicalNumber(nil, []byte(y))
	return okX && okY && bytes.Equal(cx, cy)
}
