package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// The generator's JSON values: object (members in the order they were written), []any, string, bool, nil,
// json.Number and int. Keeping member order lets a vector's document read like the Quickstart's, and makes the
// output deterministic without sorting.

type member struct {
	key string
	val any
}

// object is a JSON object whose members keep their order.
type object []member

// obj builds an object from alternating keys and values.
func obj(kv ...any) object {
	if len(kv)%2 != 0 {
		panic("obj: odd number of arguments")
	}
	o := make(object, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		o = append(o, member{kv[i].(string), kv[i+1]})
	}
	return o
}

func arr(vs ...any) []any { return vs }

// rawJSON is JSON text written into a document exactly as given (escapes and number spelling kept), for vectors
// about how text is counted or compared.
type rawJSON string

// num is a JSON number written exactly as given ("1e3", "0.92", "123456789012345678901234567890").
func num(s string) json.Number { return json.Number(s) }

// clone deep-copies a value so that a mutation never touches a shared base document.
func clone(v any) any {
	switch x := v.(type) {
	case object:
		out := make(object, len(x))
		for i, m := range x {
			out[i] = member{m.key, clone(m.val)}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// mutation changes one member of a document, addressed by an RFC 6901 pointer.
type mutation struct {
	ptr    string
	val    any
	delete bool
}

// set replaces (or adds, at the end of its object) the member at ptr; "" replaces the whole document.
func set(ptr string, v any) mutation { return mutation{ptr: ptr, val: v} }

// del removes the member at ptr.
func del(ptr string) mutation { return mutation{ptr: ptr, delete: true} }

// with returns a copy of base with the mutations applied in order.
func with(base any, muts ...mutation) any {
	doc := clone(base)
	for _, m := range muts {
		doc = apply(doc, m)
	}
	return doc
}

func apply(doc any, m mutation) any {
	if m.ptr == "" {
		if m.delete {
			panic("cannot delete the root")
		}
		return clone(m.val)
	}
	if !strings.HasPrefix(m.ptr, "/") {
		panic("bad pointer " + m.ptr)
	}
	tokens := strings.Split(m.ptr[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return applyAt(doc, tokens, m)
}

func applyAt(v any, tokens []string, m mutation) any {
	tok := tokens[0]
	last := len(tokens) == 1
	switch x := v.(type) {
	case object:
		for i, mem := range x {
			if mem.key != tok {
				continue
			}
			if last {
				if m.delete {
					return append(x[:i:i], x[i+1:]...)
				}
				x[i].val = clone(m.val)
				return x
			}
			x[i].val = applyAt(mem.val, tokens[1:], m)
			return x
		}
		if last && !m.delete {
			return append(x, member{tok, clone(m.val)})
		}
		panic(fmt.Sprintf("no member %q", tok))
	case []any:
		if tok == "-" && last && !m.delete {
			return append(x, clone(m.val))
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(x) {
			panic(fmt.Sprintf("no item %q", tok))
		}
		if last {
			if m.delete {
				return append(x[:i:i], x[i+1:]...)
			}
			x[i] = clone(m.val)
			return x
		}
		x[i] = applyAt(x[i], tokens[1:], m)
		return x
	}
	panic(fmt.Sprintf("cannot descend into %T at %q", v, tok))
}

// render writes v as JSON indented by two spaces, without HTML escaping, ending in a newline.
func render(v any) []byte {
	var b bytes.Buffer
	write(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

func write(b *bytes.Buffer, v any, indent string) {
	inner := indent + "  "
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case json.Number:
		if !json.Valid([]byte(x)) {
			panic("not a JSON number: " + string(x))
		}
		b.WriteString(string(x))
	case string:
		writeString(b, x)
	case rawJSON:
		if !json.Valid([]byte(x)) {
			panic("not JSON text: " + string(x))
		}
		b.WriteString(string(x))
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		write(b, items, indent)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(inner)
			write(b, e, inner)
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case object:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, m := range x {
			b.WriteString(inner)
			writeString(b, m.key)
			b.WriteString(": ")
			write(b, m.val, inner)
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	default:
		panic(fmt.Sprintf("render: unsupported type %T", v))
	}
}

func writeString(b *bytes.Buffer, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// canonicalText is the canonical encoding of v (core.EncodeCanonical, D12), as a maxLength counts it.
func canonicalText(v any) string {
	val, err := core.DecodeJSON(render(v))
	if err != nil {
		panic(err)
	}
	enc, err := core.EncodeCanonical(val)
	if err != nil {
		panic(err)
	}
	return string(enc)
}

// compact renders v as compact JSON (for counting an answer's code points in descriptions).
func compact(v any) string {
	var b bytes.Buffer
	if err := json.Compact(&b, render(v)); err != nil {
		panic(err)
	}
	return b.String()
}
