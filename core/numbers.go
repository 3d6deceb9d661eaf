package core

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Number bounds (D22). A JSON number is exact text, and the schema library turns every number a numeric keyword
// reads into an exact rational: 1e999999 costs it a 2-million-bit power of five (160 ms), and past an exponent of
// a million it fails and the library dereferences nil. Bounding the text keeps every number cheap (a few
// microseconds) while leaving room far beyond IEEE double's ±1e308 and any integer a program can mean.
const (
	// MaxNumberDigits bounds the digits of a number's integer and fraction parts together.
	MaxNumberDigits = 1000
	// MaxNumberExponent bounds the absolute value of a number's written exponent (the part after e or E).
	MaxNumberExponent = 1000
)

// checkNumbers reports every number in v beyond the bounds, each at its own pointer with keyword size. It walks
// arrays and objects iteratively, so a deeply nested value costs no stack.
func checkNumbers(code Code, v any) Errors {
	type item struct {
		at string
		v  any
	}
	var out Errors
	stack := []item{{"", v}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := it.v.(type) {
		case json.Number:
			if msg := numberBeyondBounds(string(x)); msg != "" {
				out = append(out, Error{Code: code, Pointer: it.at, Keyword: KeywordSize, Message: msg})
			}
		case []any:
			for i := len(x) - 1; i >= 0; i-- {
				stack = append(stack, item{it.at + "/" + strconv.Itoa(i), x[i]})
			}
		case map[string]any:
			for k, e := range x {
				stack = append(stack, item{it.at + "/" + escapePointer(k), e})
			}
		}
	}
	return out
}

// numbersWithinBounds reports whether every number in v is within the bounds, as checkNumbers finding nothing
// would, without building a pointer for every value on the way: the common case, a document whose numbers are all
// short, costs one walk that allocates nothing but its stack.
func numbersWithinBounds(v any) bool {
	stack := []any{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := x.(type) {
		case json.Number:
			if !shortNumber(string(x)) && numberBeyondBounds(string(x)) != "" {
				return false
			}
		case []any:
			stack = append(stack, x...)
		case map[string]any:
			for _, e := range x {
				stack = append(stack, e)
			}
		}
	}
	return true
}

// shortNumber reports a number text that is within the bounds on its face: no exponent, and no more characters
// than MaxNumberDigits (so no more digits).
func shortNumber(n string) bool {
	if len(n) > MaxNumberDigits {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] == 'e' || n[i] == 'E' {
			return false
		}
	}
	return true
}

// numberBeyondBounds says why a JSON number text is beyond the bounds, or "".
func numberBeyondBounds(n string) string {
	mant, exp, _ := strings.Cut(strings.ToLower(n), "e")
	digits := 0
	for i := 0; i < len(mant); i++ {
		if isDigit(mant[i]) {
			digits++
		}
	}
	if digits > MaxNumberDigits {
		return fmt.Sprintf("a number may have at most %d digits, this one has %d", MaxNumberDigits, digits)
	}
	if exp != "" {
		e := strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
		if v, err := strconv.Atoi(e); len(e) > 6 || err == nil && v > MaxNumberExponent {
			return fmt.Sprintf("a number's exponent must be between -%d and %d, got %s", MaxNumberExponent, MaxNumberExponent, display(exp))
		}
	}
	return ""
}

// hasNumberBeyondBounds reports whether well-formed JSON text holds a number beyond the bounds, with one pass over
// the bytes that builds nothing: how a member kept raw is checked against D22.
func hasNumberBeyondBounds(b []byte) bool {
	inString := false
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
		case c == '-' || isDigit(c):
			j := i + 1
			for j < len(b) && (isDigit(b[j]) || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
				j++
			}
			if numberBeyondBounds(string(b[i:j])) != "" {
				return true
			}
			i = j - 1
		}
	}
	return false
}
