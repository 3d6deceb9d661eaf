// Package mutate derives new documents from valid AQP documents, deterministically from a seed, for differential
// checking: the same document goes to core and to an independent JSON Schema validator, and their verdicts must
// agree or differ for a recorded reason. The fixed corpus proves the rules its authors thought of; the mutants
// reach the combinations nobody wrote down — a member dropped where an if/then needs it, a bound met in a string
// of emoji, a date-time at the edge of its grammar, a number spelled 1e0.
//
// A mutant is one to three mutations of one base document (drop, add, retype, stretch, enum, number, format, and
// the text-level ijson and d22), written out in a random spelling (escapes, number forms, whitespace, member order)
// or plainly. The same seed, facts and bases give the same mutants in the same order on every machine.
package mutate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Base is one valid document a mutant is derived from.
type Base struct {
	// Name names the document, e.g. its vector's name.
	Name string
	// Kind is request, response or receipt.
	Kind string
	// Value is the document as core.DecodeJSON returns it: map[string]any, []any, string, json.Number, bool, nil.
	Value any
}

// Mutant is one derived document and how it was derived.
type Mutant struct {
	// ID is the mutant's position in the generator's sequence, from 0.
	ID int `json:"id"`
	// Kind is the base's kind: the schema the document is validated against.
	Kind string `json:"kind"`
	// Base names the base document.
	Base string `json:"base"`
	// Mutations say what was done, in order, each as "op pointer: detail".
	Mutations []string `json:"mutations"`
	// Text is the document's exact text.
	Text string `json:"text"`
}

// Generator yields mutants. It is not safe for concurrent use.
type Generator struct {
	facts *Facts
	bases []Base
	rng   *rand.Rand
	next  int
}

// New returns a generator over bases. It fails when there is no base or no facts, rather than yielding nothing.
func New(seed uint64, facts *Facts, bases []Base) (*Generator, error) {
	if facts == nil {
		return nil, errors.New("mutate: no schema facts")
	}
	if len(bases) == 0 {
		return nil, errors.New("mutate: no base documents")
	}
	return &Generator{facts: facts, bases: bases, rng: rand.New(rand.NewPCG(seed, 0x41515020))}, nil
}

// raw is a value written out exactly as its text: a number past D22's bounds, a string holding a lone surrogate.
type raw string

// dupObject is an object written with one member twice: first with another value, then with its own. JSON.parse
// keeps the last, so a JSON Schema validator sees the object itself; I-JSON (RFC 7493) forbids the duplicate.
type dupObject struct {
	m     map[string]any
	dup   string
	first any
}

// An op mutates doc at a node it chooses, returning the new document and what it did; ok is false when the
// document has no node the op applies to.
type op struct {
	name   string
	weight int
	apply  func(g *Generator, doc any) (any, string, bool)
}

var ops = []op{
	{"drop", 14, (*Generator).drop},
	{"add", 8, (*Generator).add},
	{"retype", 16, (*Generator).retype},
	{"stretch", 14, (*Generator).stretch},
	{"enum", 12, (*Generator).enum},
	{"number", 8, (*Generator).number},
	{"format", 18, (*Generator).format},
	{"reencode", 8, func(*Generator, any) (any, string, bool) { return nil, "", false }},
	{"ijson", 2, (*Generator).ijson},
	{"d22", 2, (*Generator).d22},
}

var totalWeight = func() int {
	n := 0
	for _, o := range ops {
		n += o.weight
	}
	return n
}()

// MaxBytes bounds a mutant's text: stretching a 64 KiB jsonSchema into an array of 300 of them makes 19 MB, and
// what a validator does past its document bound (core's 1 MiB) is no question for a JSON Schema validator. A
// longer mutant is drawn again.
const MaxBytes = 1 << 20

// Next returns the next mutant.
func (g *Generator) Next() Mutant {
	for {
		if m := g.draw(); len(m.Text) <= MaxBytes {
			m.ID = g.next
			g.next++
			return m
		}
	}
}

func (g *Generator) draw() Mutant {
	b := g.bases[g.rng.IntN(len(g.bases))]
	doc := clone(b.Value)
	m := Mutant{Kind: b.Kind, Base: b.Name}
	count := 1
	if r := g.rng.IntN(10); r >= 9 {
		count = 3
	} else if r >= 6 {
		count = 2
	}
	respell := g.rng.IntN(4) == 0
	for range count {
		o := g.pick()
		if o.name == "reencode" {
			respell = true
			m.Mutations = append(m.Mutations, "reencode")
			continue
		}
		nd, what, ok := o.apply(g, doc)
		if !ok {
			nd, what, ok = g.retype(doc)
			o.name = "retype"
		}
		if ok {
			doc = nd
			m.Mutations = append(m.Mutations, o.name+" "+what)
		}
	}
	var w writer
	if respell {
		w = writer{rng: g.rng, escape: g.rng.IntN(3), numbers: g.rng.IntN(2) == 0, space: g.rng.IntN(2) == 0, shuffle: g.rng.IntN(2) == 0}
		m.Mutations = append(m.Mutations, fmt.Sprintf("spelling escape=%d numbers=%t space=%t shuffle=%t", w.escape, w.numbers, w.space, w.shuffle))
	}
	w.value(doc)
	m.Text = w.buf.String()
	return m
}

func (g *Generator) pick() op {
	r := g.rng.IntN(totalWeight)
	for _, o := range ops {
		if r < o.weight {
			return o
		}
		r -= o.weight
	}
	return ops[0]
}

// --- the tree ---

// node is one value in a document and the path to it (string keys, int indices).
type node struct {
	path []any
	v    any
}

func nodes(v any) []node {
	var out []node
	var walk func(path []any, v any)
	walk = func(path []any, v any) {
		out = append(out, node{append([]any(nil), path...), v})
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(append(path, k), x[k])
			}
		case []any:
			for i, e := range x {
				walk(append(path, i), e)
			}
		}
	}
	walk(nil, v)
	return out
}

func (g *Generator) choose(doc any, want func(node) bool) (node, bool) {
	var cands []node
	for _, n := range nodes(doc) {
		if want(n) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 0 {
		return node{}, false
	}
	return cands[g.rng.IntN(len(cands))], true
}

// set replaces the value at path (or deletes it when del), returning the new root.
func set(root any, path []any, v any, del bool) any {
	if len(path) == 0 {
		return v
	}
	switch x := root.(type) {
	case map[string]any:
		k := path[0].(string)
		if len(path) == 1 {
			if del {
				delete(x, k)
			} else {
				x[k] = v
			}
			return x
		}
		x[k] = set(x[k], path[1:], v, del)
		return x
	case []any:
		i := path[0].(int)
		if len(path) == 1 {
			if del {
				return append(x[:i:i], x[i+1:]...)
			}
			x[i] = v
			return x
		}
		x[i] = set(x[i], path[1:], v, del)
		return x
	}
	return root
}

// Pointer renders a path as an RFC 6901 JSON Pointer.
func pointer(path []any) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		switch x := p.(type) {
		case string:
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(x, "~", "~0"), "/", "~1"))
		case int:
			b.WriteString(strconv.Itoa(x))
		}
	}
	return b.String()
}

func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = clone(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = clone(e)
		}
		return a
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func typeOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "other"
}

func show(v any) string {
	var w writer
	w.value(v)
	s := w.buf.String()
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// --- the ops ---

func (g *Generator) drop(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool { return len(n.path) > 0 })
	if !ok {
		return nil, "", false
	}
	return set(doc, n.path, nil, true), pointer(n.path), true
}

func (g *Generator) add(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool { _, ok := n.v.(map[string]any); return ok })
	if !ok {
		return nil, "", false
	}
	obj := n.v.(map[string]any)
	names := []string{"unknownMember", "x", "$schema", "", "__proto__", "constructor", "extensions"}
	for _, k := range sortedKeys(obj) { // a near-miss of a member it has
		names = append(names, strings.ToUpper(k[:min(1, len(k))])+k[min(1, len(k)):], k+"s", k+" ")
	}
	name := names[g.rng.IntN(len(names))]
	if _, exists := obj[name]; exists {
		name += "_"
	}
	v := g.anyValue()
	obj[name] = v
	return doc, pointer(append(n.path, name)) + " = " + show(v), true
}

func (g *Generator) anyValue() any {
	switch g.rng.IntN(6) {
	case 0:
		return []string{"", "x", "1", "true", "null", "https://example.com/"}[g.rng.IntN(6)]
	case 1:
		return json.Number([]string{"0", "1", "-1", "1.5", "1e0", "100"}[g.rng.IntN(6)])
	case 2:
		return g.rng.IntN(2) == 0
	case 3:
		return nil
	case 4:
		return []any{}
	default:
		return map[string]any{}
	}
}

func (g *Generator) retype(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool { return len(n.path) > 0 })
	if !ok {
		n = node{path: nil, v: doc}
	}
	var v any
	for range 20 {
		v = g.anyValue()
		if typeOf(v) != typeOf(n.v) {
			break
		}
	}
	switch g.rng.IntN(4) { // a container holding the old value, or its text in a string
	case 0:
		if typeOf(n.v) != "array" {
			v = []any{clone(n.v)}
		}
	case 1:
		if s, ok := n.v.(json.Number); ok {
			v = string(s)
		} else if b, ok := n.v.(bool); ok {
			v = strconv.FormatBool(b)
		} else if s, ok := n.v.(string); ok {
			if _, err := strconv.ParseFloat(s, 64); err == nil {
				v = json.Number(s)
			}
		}
	}
	return set(doc, n.path, v, false), pointer(n.path) + " " + typeOf(n.v) + " -> " + show(v), true
}

// lengths are the targets a string or array is stretched to: each bound, one under and one past it.
func (g *Generator) length() int {
	ls := append([]int{0, 1, 2}, g.facts.Lengths...)
	l := ls[g.rng.IntN(len(ls))] + g.rng.IntN(3) - 1
	return max(0, min(l, 70000))
}

var fillers = []string{"a", "é", "😀", "字", " ", "\u0301"}

func (g *Generator) stretch(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool {
		switch n.v.(type) {
		case string, []any:
			return true
		}
		return false
	})
	if !ok {
		return nil, "", false
	}
	l := g.length()
	switch x := n.v.(type) {
	case string:
		r := []rune(x)
		if len(r) == 0 || g.rng.IntN(2) == 0 {
			r = []rune(fillers[g.rng.IntN(len(fillers))])
		}
		out := make([]rune, l)
		for i := range out {
			out[i] = r[i%len(r)]
		}
		return set(doc, n.path, string(out), false), fmt.Sprintf("%s string to %d code points of %q", pointer(n.path), l, string(r[:min(len(r), 8)])), true
	case []any:
		l = min(l, 300)
		out := make([]any, l)
		for i := range out {
			if len(x) == 0 {
				out[i] = "x"
			} else if g.rng.IntN(2) == 0 { // repeat the items (duplicates), or make them distinct
				out[i] = clone(x[i%len(x)])
			} else {
				out[i] = distinct(x[i%len(x)], i)
			}
		}
		return set(doc, n.path, out, false), fmt.Sprintf("%s array to %d items", pointer(n.path), l), true
	}
	return nil, "", false
}

// distinct returns a copy of v made different by i, when it is a string; other values are copied.
func distinct(v any, i int) any {
	if s, ok := v.(string); ok && i > 0 {
		return s + strconv.Itoa(i)
	}
	return clone(v)
}

func (g *Generator) enum(doc any) (any, string, bool) {
	in := func(s string) [][]string {
		var out [][]string
		for _, e := range g.facts.Enums {
			for _, x := range e {
				if x == s {
					out = append(out, e)
					break
				}
			}
		}
		return out
	}
	n, ok := g.choose(doc, func(n node) bool { s, ok := n.v.(string); return ok && len(in(s)) > 0 })
	if !ok {
		return nil, "", false
	}
	s := n.v.(string)
	var v string
	switch g.rng.IntN(3) {
	case 0: // another value of an enum it is in
		es := in(s)
		e := es[g.rng.IntN(len(es))]
		v = e[g.rng.IntN(len(e))]
	case 1: // a value of any enum
		e := g.facts.Enums[g.rng.IntN(len(g.facts.Enums))]
		v = e[g.rng.IntN(len(e))]
	default:
		near := []string{strings.ToUpper(s), strings.ToUpper(s[:1]) + s[1:], s + " ", " " + s, s[:len(s)-1], s + "s",
			strings.ReplaceAll(s, "_", "-"), strings.ReplaceAll(s, "-", "_"), s + "\u200b", "", s + "\x00"}
		v = near[g.rng.IntN(len(near))]
	}
	return set(doc, n.path, v, false), fmt.Sprintf("%s %q -> %q", pointer(n.path), s, v), true
}

func (g *Generator) number(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool { _, ok := n.v.(json.Number); return ok })
	if !ok {
		return nil, "", false
	}
	bounds := append([]json.Number{"0", "1", "100"}, g.facts.Numbers...)
	b := bounds[g.rng.IntN(len(bounds))]
	deltas := []string{"0", "0", "1", "-1", "0.5", "-0.5", "1e-9", "-1e-9", "1e-20", "-1e-20"}
	v := addDecimal(string(b), deltas[g.rng.IntN(len(deltas))])
	if g.rng.IntN(5) == 0 {
		v = []string{"-0", "1e308", "-1e308", "5e-324", "1.7976931348623157e308", "9007199254740993", "0.1", "1e-400", "123456789012345678901234567890"}[g.rng.IntN(9)]
	}
	return set(doc, n.path, json.Number(v), false), fmt.Sprintf("%s %s -> %s", pointer(n.path), n.v, v), true
}

func (g *Generator) ijson(doc any) (any, string, bool) {
	if g.rng.IntN(2) == 0 {
		n, ok := g.choose(doc, func(n node) bool { m, ok := n.v.(map[string]any); return ok && len(m) > 0 })
		if ok {
			m := n.v.(map[string]any)
			keys := sortedKeys(m)
			k := keys[g.rng.IntN(len(keys))]
			return set(doc, n.path, dupObject{m: m, dup: k, first: g.anyValue()}, false), pointer(append(n.path, k)) + " duplicated", true
		}
	}
	n, ok := g.choose(doc, func(n node) bool { _, ok := n.v.(string); return ok })
	if !ok {
		return nil, "", false
	}
	var w writer
	w.value(n.v)
	s := w.buf.String()
	v := raw(s[:len(s)-1] + []string{`\ud800`, `\udfff`, `\udc00\ud800`}[g.rng.IntN(3)] + `"`)
	return set(doc, n.path, v, false), pointer(n.path) + " lone surrogate", true
}

func (g *Generator) d22(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool { _, ok := n.v.(json.Number); return ok })
	if !ok {
		return nil, "", false
	}
	v := []string{"1e1001", "1e-1001", "1" + strings.Repeat("0", 1000), "0." + strings.Repeat("0", 999) + "1", "1e1000", "1" + strings.Repeat("0", 999)}[g.rng.IntN(6)]
	return set(doc, n.path, raw(v), false), pointer(n.path) + " number of " + strconv.Itoa(len(v)) + " characters", true
}
