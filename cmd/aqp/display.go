package main

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"
)

// display makes text from a peer (a query's prompt, a receipt's message, an endpoint, an error a collector's reply
// fills in) safe to show a person: every C0 control (line breaks and tabs included, so one value stays on its
// line), DEL, every C1 control, the bidirectional controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI) and bytes that are
// not UTF-8 are written as visible escapes (\x1b, \u202e), so no value can move the cursor, erase a line, redraw
// the consent question or reorder what a person reads (issue 16 item 5). Everything else, a backslash included,
// is kept, so display is idempotent.
func display(s string) string {
	i := strings.IndexFunc(s, needsEscape)
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r < 0x80 && needsEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// needsEscape reports the runes display escapes.
func needsEscape(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// say is fmt.Fprintf for what aqp shows a person: every argument that is text (a string of any named string type,
// an error, a fmt.Stringer, or a pointer to or slice of them) is passed through display first, so the format's own
// line breaks are the only ones written. Every line aqp prints for a person goes through say.
func say(w io.Writer, format string, args ...any) {
	for i, a := range args {
		args[i] = displayArg(a)
	}
	fmt.Fprintf(w, format, args...)
}

func displayArg(a any) any {
	switch v := a.(type) {
	case nil:
		return a
	case string:
		return display(v)
	case error:
		return display(v.Error())
	case fmt.Stringer:
		return display(v.String())
	}
	rv := reflect.ValueOf(a)
	switch rv.Kind() {
	case reflect.String:
		return display(rv.String())
	case reflect.Pointer:
		if !rv.IsNil() && rv.Elem().Kind() == reflect.String {
			return display(rv.Elem().String())
		}
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.String {
			out := make([]string, rv.Len())
			for i := range out {
				out[i] = display(rv.Index(i).String())
			}
			return out
		}
	}
	return a
}
