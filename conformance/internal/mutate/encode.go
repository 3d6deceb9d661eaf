package mutate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// writer writes a document. The zero writer writes it plainly: members in name order, no whitespace, the
// shortest escapes. With rng set it respells it without changing its value: escape (0 none, 1 some, 2 every
// character as \uXXXX), numbers in other forms (1 as 1.0, 1e0, 10E-1), whitespace between tokens, members in a
// shuffled order.
type writer struct {
	buf     bytes.Buffer
	rng     *rand.Rand
	escape  int
	numbers bool
	space   bool
	shuffle bool
}

func (w *writer) ws() {
	if w.space && w.rng.IntN(3) == 0 {
		w.buf.WriteString([]string{" ", "\n", "\t", "\r\n  "}[w.rng.IntN(4)])
	}
}

func (w *writer) value(v any) {
	w.ws()
	switch x := v.(type) {
	case map[string]any:
		w.object(x, "", nil)
	case dupObject:
		w.object(x.m, x.dup, x.first)
	case []any:
		w.buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.value(e)
		}
		w.ws()
		w.buf.WriteByte(']')
	case string:
		w.str(x)
	case json.Number:
		w.buf.WriteString(w.number(string(x)))
	case raw:
		w.buf.WriteString(string(x))
	case bool:
		w.buf.WriteString(strconv.FormatBool(x))
	case nil:
		w.buf.WriteString("null")
	default:
		panic(fmt.Sprintf("mutate: cannot write %T", v))
	}
	w.ws()
}

func (w *writer) object(m map[string]any, dup string, first any) {
	keys := sortedKeys(m)
	if w.shuffle {
		w.rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	}
	w.buf.WriteByte('{')
	n := 0
	member := func(k string, v any) {
		if n > 0 {
			w.buf.WriteByte(',')
		}
		n++
		w.ws()
		w.str(k)
		w.ws()
		w.buf.WriteByte(':')
		w.value(v)
	}
	if dup != "" {
		member(dup, first)
	}
	for _, k := range keys {
		member(k, m[k])
	}
	w.ws()
	w.buf.WriteByte('}')
}

func (w *writer) str(s string) {
	w.buf.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			w.buf.WriteString(`\"`)
		case r == '\\':
			w.buf.WriteString(`\\`)
		case r < 0x20 || w.escape == 2 || (w.escape == 1 && w.rng.IntN(4) == 0):
			if r == '/' && w.rng != nil && w.rng.IntN(2) == 0 {
				w.buf.WriteString(`\/`)
				continue
			}
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				fmt.Fprintf(&w.buf, `\u%04x\u%04X`, r1, r2)
			} else {
				fmt.Fprintf(&w.buf, `\u%04x`, r)
			}
		default:
			w.buf.WriteRune(r)
		}
	}
	w.buf.WriteByte('"')
}

var plainNumber = regexp.MustCompile(`^(-?)(\d+)(?:\.(\d+))?$`)

// number respells a number with the same value: an integer with a fraction or an exponent, a fraction with an
// exponent or a trailing zero.
func (w *writer) number(s string) string {
	if !w.numbers {
		return s
	}
	m := plainNumber.FindStringSubmatch(s)
	if m == nil || len(s) > 40 {
		return s
	}
	sign, whole, frac := m[1], m[2], m[3]
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return sign + []string{"0", "0.0", "0e0", "0E-5", "0.000"}[w.rng.IntN(5)]
	}
	exp := len(whole) - (len(whole+frac) - len(digits)) // value = 0.digits × 10^exp
	switch w.rng.IntN(5) {
	case 0:
		if frac == "" {
			return sign + whole + ".0"
		}
		return s + "0"
	case 1:
		return sign + whole + strings.TrimRight("."+frac, ".") + "e0"
	case 2:
		return sign + "0." + digits + "e" + strconv.Itoa(exp)
	case 3:
		return sign + digits + "E" + strconv.Itoa(exp-len(digits))
	default:
		e := strconv.Itoa(exp - 1)
		if exp-1 >= 0 {
			e = "+" + e
		}
		return sign + digits[:1] + strings.TrimRight("."+digits[1:], ".") + "e" + e
	}
}
