// Package schemacov lists what a set of JSON Schemas asserts — every enum value and const, every length, item and
// number bound, every required member, every if/then/else and every asserted format — and which of those a
// standalone vector exercises, so a test can require a valid and an invalid vector for each (the spec author's
// coverage of issue 11) and the vector generator can derive the vectors a schema change calls for.
//
// What "exercises" means, for an obligation at schema location L (the subschema carrying the keyword; a location
// reached through $ref is the referenced schema's, so the subject's kind is one location wherever a subject
// appears). An instance is "at L" when walking the document along properties, items and $ref reaches L:
//
//   - enum value V, valid: a valid vector holds V at L. Invalid (one per enum): an invalid vector holds a value
//     outside the enum at L and expects keyword enum at that pointer.
//   - const C: valid, a valid vector holds C at L; invalid, an invalid vector holds another value at L and expects
//     keyword const there.
//   - minLength/maxLength N (code points, D5), minItems/maxItems N: "at" is a valid vector whose string or array
//     at L has exactly N; "past" is an invalid vector with exactly N-1 (min) or N+1 (max) at L expecting that
//     keyword at that pointer.
//   - minimum/maximum N: "at" is a valid vector holding exactly N at L; "past" an invalid vector holding a number
//     below the minimum (above the maximum) at L expecting that keyword there.
//   - required member M: valid, a valid vector has an object at L holding M; invalid, an invalid vector has an
//     object at L without M and expects keyword required at M's pointer.
//   - format F: valid, a valid vector holds a string at L; invalid, an invalid vector expects keyword format at a
//     string at L.
//   - if/then at allOf/i of L: valid, a valid vector has an instance at L where the if holds (the then branch is
//     taken and passes); invalid, an invalid vector has one where the if holds, the then fails, and an expected
//     error lies at or under that instance. With an else: the same with the if failing and the else.
//
// Keywords inside if, then, else and not are not obligations of their own: they are what the if/then obligation
// exercises.
package schemacov

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Side says which half of an obligation a vector proves.
type Side string

// The sides: Valid and Invalid for enum, const, required, format and if/then; At and Past for bounds.
const (
	Valid   Side = "valid"
	Invalid Side = "invalid"
	At      Side = "at"
	Past    Side = "past"
)

// Obligation is one thing a schema asserts and one side of it that a vector must prove.
type Obligation struct {
	// Schema is the schema file, e.g. "query-subject.schema.json".
	Schema string
	// Location is the RFC 6901 pointer, inside Schema, of the subschema carrying Keyword.
	Location string
	// Keyword is enum, const, minLength, maxLength, minItems, maxItems, minimum, maximum, required, format,
	// if/then or if/else.
	Keyword string
	// Value is the enum value or const (as JSON text), the bound, the required member or the format; empty for
	// an enum's invalid side (any value outside it) and for if/then.
	Value string
	// Side is the half to prove.
	Side Side
}

// String names the obligation as the coverage test reports it.
func (o Obligation) String() string {
	s := o.Schema + "#" + o.Location + " " + o.Keyword
	if o.Value != "" {
		s += " " + o.Value
	}
	return s + " (" + string(o.Side) + ")"
}

// Schemas are decoded schema documents by file name; $ref values name files of the set.
type Schemas map[string]any

// Decode decodes schema files by name, numbers as json.Number.
func Decode(files map[string][]byte) (Schemas, error) {
	s := Schemas{}
	for name, b := range files {
		v, err := decodeJSON(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s[name] = v
	}
	return s, nil
}

// DecodeDocument decodes one vector document the way the coverage walk reads it (numbers as json.Number).
func DecodeDocument(b []byte) (any, error) { return decodeJSON(b) }

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

var boundKeywords = []string{"minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"}

// Obligations lists every obligation of every schema in s, sorted.
func (s Schemas) Obligations() []Obligation {
	var out []Obligation
	for name, root := range s {
		walkSchema(name, "", root, &out)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func walkSchema(file, loc string, node any, out *[]Obligation) {
	m, isObj := node.(map[string]any)
	if !isObj {
		return
	}
	add := func(kw, val string, sides ...Side) {
		for _, sd := range sides {
			*out = append(*out, Obligation{Schema: file, Location: loc, Keyword: kw, Value: val, Side: sd})
		}
	}
	if e, ok := m["enum"].([]any); ok {
		for _, v := range e {
			add("enum", jsonText(v), Valid)
		}
		add("enum", "", Invalid)
	}
	if c, ok := m["const"]; ok {
		add("const", jsonText(c), Valid, Invalid)
	}
	for _, kw := range boundKeywords {
		if b, ok := m[kw]; ok {
			add(kw, jsonText(b), At, Past)
		}
	}
	if r, ok := m["required"].([]any); ok {
		for _, name := range r {
			if n, isStr := name.(string); isStr {
				add("required", n, Valid, Invalid)
			}
		}
	}
	if f, ok := m["format"].(string); ok {
		add("format", f, Valid, Invalid)
	}
	if _, ok := m["if"]; ok {
		if _, then := m["then"]; then {
			add("if/then", "", Valid, Invalid)
		}
		if _, els := m["else"]; els {
			add("if/else", "", Valid, Invalid)
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			walkSchema(file, loc+"/properties/"+escape(name), sub, out)
		}
	}
	if items, ok := m["items"]; ok {
		walkSchema(file, loc+"/items", items, out)
	}
	if all, ok := m["allOf"].([]any); ok {
		for i, sub := range all {
			walkSchema(file, loc+"/allOf/"+strconv.Itoa(i), sub, out)
		}
	}
}

// loc is one schema location an instance is at.
type loc struct {
	file, ptr string
	node      map[string]any
}

// node is one instance of a document and the schema locations it is at.
type node struct {
	ptr   string
	value any
	locs  []loc
}

// resolve follows $ref (a file of the set, optionally with "#") from l, returning l and every location it leads to.
func (s Schemas) resolve(l loc) []loc {
	out := []loc{l}
	for i := 0; i < 8; i++ {
		ref, ok := l.node["$ref"].(string)
		if !ok {
			break
		}
		file := strings.TrimSuffix(ref, "#")
		target, ok := s[file].(map[string]any)
		if !ok {
			break
		}
		l = loc{file: file, ptr: "", node: target}
		out = append(out, l)
	}
	return out
}

// walk lists every instance of doc, validated against schema file, with the locations it is at.
func (s Schemas) walk(file string, doc any) []node {
	root, _ := s[file].(map[string]any)
	var out []node
	var rec func(ptr string, v any, locs []loc)
	rec = func(ptr string, v any, locs []loc) {
		out = append(out, node{ptr: ptr, value: v, locs: locs})
		switch x := v.(type) {
		case map[string]any:
			for name, child := range x {
				var cl []loc
				for _, l := range locs {
					if props, ok := l.node["properties"].(map[string]any); ok {
						if sub, ok := props[name].(map[string]any); ok {
							cl = append(cl, s.resolve(loc{l.file, l.ptr + "/properties/" + escape(name), sub})...)
						}
					}
				}
				rec(ptr+"/"+escape(name), child, cl)
			}
		case []any:
			for i, child := range x {
				var cl []loc
				for _, l := range locs {
					if sub, ok := l.node["items"].(map[string]any); ok {
						cl = append(cl, s.resolve(loc{l.file, l.ptr + "/items", sub})...)
					}
				}
				rec(ptr+"/"+strconv.Itoa(i), child, cl)
			}
		}
	}
	if root != nil {
		rec("", doc, s.resolve(loc{file, "", root}))
	}
	return out
}

// ExpectedError is one {pointer, keyword} a vector expects.
type ExpectedError struct{ Pointer, Keyword string }

// Exercised lists the obligations one standalone vector proves: doc is its decoded document, validated against
// schema file; errs are its expected errors (empty when valid). It fails when an if holds a keyword the
// evaluator does not know.
func (s Schemas) Exercised(file string, doc any, valid bool, errs []ExpectedError) ([]Obligation, error) {
	has := map[ExpectedError]bool{}
	for _, e := range errs {
		has[e] = true
	}
	var out []Obligation
	for _, n := range s.walk(file, doc) {
		for _, l := range n.locs {
			got, err := exercisedAt(l, n, valid, has, errs)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
		}
	}
	return out, nil
}

func exercisedAt(l loc, n node, valid bool, has map[ExpectedError]bool, errs []ExpectedError) ([]Obligation, error) {
	var out []Obligation
	add := func(kw, val string, sd Side) {
		out = append(out, Obligation{Schema: l.file, Location: l.ptr, Keyword: kw, Value: val, Side: sd})
	}
	m := l.node
	if e, ok := m["enum"].([]any); ok {
		in := false
		for _, v := range e {
			if equal(v, n.value) {
				in = true
				if valid {
					add("enum", jsonText(v), Valid)
				}
			}
		}
		if !valid && !in && has[ExpectedError{n.ptr, "enum"}] {
			add("enum", "", Invalid)
		}
	}
	if c, ok := m["const"]; ok {
		switch {
		case valid && equal(c, n.value):
			add("const", jsonText(c), Valid)
		case !valid && !equal(c, n.value) && has[ExpectedError{n.ptr, "const"}]:
			add("const", jsonText(c), Invalid)
		}
	}
	for _, kw := range boundKeywords {
		b, ok := m[kw].(json.Number)
		if !ok {
			continue
		}
		bound, ok := new(big.Rat).SetString(b.String())
		if !ok {
			continue
		}
		var size *big.Rat
		switch kw {
		case "minLength", "maxLength":
			if str, isStr := n.value.(string); isStr {
				size = new(big.Rat).SetInt64(int64(utf8.RuneCountInString(str)))
			}
		case "minItems", "maxItems":
			if arr, isArr := n.value.([]any); isArr {
				size = new(big.Rat).SetInt64(int64(len(arr)))
			}
		default:
			if num, isNum := n.value.(json.Number); isNum {
				size, _ = new(big.Rat).SetString(num.String())
			}
		}
		if size == nil {
			continue
		}
		cmp := size.Cmp(bound)
		if valid && cmp == 0 {
			add(kw, b.String(), At)
			continue
		}
		if valid || !has[ExpectedError{n.ptr, kw}] {
			continue
		}
		one := big.NewRat(1, 1)
		switch kw {
		case "minLength", "minItems":
			if size.Cmp(new(big.Rat).Sub(bound, one)) == 0 {
				add(kw, b.String(), Past)
			}
		case "maxLength", "maxItems":
			if size.Cmp(new(big.Rat).Add(bound, one)) == 0 {
				add(kw, b.String(), Past)
			}
		case "minimum":
			if cmp < 0 {
				add(kw, b.String(), Past)
			}
		case "maximum":
			if cmp > 0 {
				add(kw, b.String(), Past)
			}
		}
	}
	if r, ok := m["required"].([]any); ok {
		if obj, isObj := n.value.(map[string]any); isObj {
			for _, name := range r {
				name, _ := name.(string)
				_, present := obj[name]
				switch {
				case valid && present:
					add("required", name, Valid)
				case !valid && !present && has[ExpectedError{n.ptr + "/" + escape(name), "required"}]:
					add("required", name, Invalid)
				}
			}
		}
	}
	if f, ok := m["format"].(string); ok {
		if _, isStr := n.value.(string); isStr {
			switch {
			case valid:
				add("format", f, Valid)
			case has[ExpectedError{n.ptr, "format"}]:
				add("format", f, Invalid)
			}
		}
	}
	if all, ok := m["allOf"].([]any); ok {
		for i, sub := range all {
			sm, _ := sub.(map[string]any)
			ifs, ok := sm["if"]
			if !ok {
				continue
			}
			holds, err := evaluate(ifs, n.value)
			if err != nil {
				return nil, fmt.Errorf("%s#%s/allOf/%d/if: %w", l.file, l.ptr, i, err)
			}
			branch, kw := "then", "if/then"
			if !holds {
				branch, kw = "else", "if/else"
			}
			bs, ok := sm[branch]
			if !ok {
				continue
			}
			sl := Obligation{Schema: l.file, Location: l.ptr + "/allOf/" + strconv.Itoa(i), Keyword: kw}
			if valid {
				sl.Side = Valid
				out = append(out, sl)
				continue
			}
			passes, err := evaluate(bs, n.value)
			if err != nil {
				return nil, fmt.Errorf("%s#%s/allOf/%d/%s: %w", l.file, l.ptr, i, branch, err)
			}
			if !passes && errorUnder(errs, n.ptr) {
				sl.Side = Invalid
				out = append(out, sl)
			}
		}
	}
	return out, nil
}

func errorUnder(errs []ExpectedError, ptr string) bool {
	for _, e := range errs {
		if e.Pointer == ptr || strings.HasPrefix(e.Pointer, ptr+"/") {
			return true
		}
	}
	return false
}

// evaluate decides a subschema of an if, then or else on an instance. It knows the keywords such branches use
// (properties, required, const, enum, not, and the boolean schemas) and fails on any other, so a schema author's
// new keyword there is reported rather than misjudged.
func evaluate(schema, v any) (bool, error) {
	switch s := schema.(type) {
	case bool:
		return s, nil
	case map[string]any:
		for kw, arg := range s {
			ok := true
			switch kw {
			case "description", "$comment", "title":
			case "const":
				ok = equal(arg, v)
			case "enum":
				ok = false
				list, _ := arg.([]any)
				for _, e := range list {
					if equal(e, v) {
						ok = true
					}
				}
			case "required":
				if obj, isObj := v.(map[string]any); isObj {
					list, _ := arg.([]any)
					for _, name := range list {
						if _, present := obj[fmt.Sprint(name)]; !present {
							ok = false
						}
					}
				}
			case "properties":
				if obj, isObj := v.(map[string]any); isObj {
					props, _ := arg.(map[string]any)
					for name, sub := range props {
						child, present := obj[name]
						if !present {
							continue
						}
						r, err := evaluate(sub, child)
						if err != nil {
							return false, err
						}
						ok = ok && r
					}
				}
			case "type":
				ok = jsonTypeIs(v, fmt.Sprint(arg))
			case "not":
				r, err := evaluate(arg, v)
				if err != nil {
					return false, err
				}
				ok = !r
			default:
				return false, fmt.Errorf("keyword %q in a conditional is not one the coverage walk can evaluate", kw)
			}
			if !ok {
				return false, nil
			}
		}
		return true, nil
	}
	return false, fmt.Errorf("a subschema is %T, not an object or a boolean", schema)
}

func equal(a, b any) bool { return jsonText(a) == jsonText(b) }

// jsonText renders a decoded value as JSON text (object members sorted), numbers as written.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func escape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// Vector is one standalone vector as the coverage walk reads it.
type Vector struct {
	Name string
	// Kind is request, response or receipt.
	Kind   string
	Bytes  []byte
	Valid  bool
	Errors []ExpectedError
}

// KindSchema maps a standalone vector's kind to its schema file.
var KindSchema = map[string]string{
	"request":  "query-request.schema.json",
	"response": "query-response.schema.json",
	"receipt":  "query-receipt.schema.json",
}

// Missing lists, sorted, the obligations of s that no vector proves. A vector whose bytes are not one JSON value
// (a documentText vector about the text itself) proves nothing here.
func (s Schemas) Missing(vectors []Vector) ([]Obligation, error) {
	proved := map[Obligation]bool{}
	for _, v := range vectors {
		file, ok := KindSchema[v.Kind]
		if !ok {
			return nil, fmt.Errorf("%s: kind %q has no schema", v.Name, v.Kind)
		}
		doc, err := decodeJSON(v.Bytes)
		if err != nil {
			continue
		}
		got, err := s.Exercised(file, doc, v.Valid, v.Errors)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.Name, err)
		}
		for _, o := range got {
			proved[o] = true
		}
	}
	var out []Obligation
	for _, o := range s.Obligations() {
		if !proved[o] {
			out = append(out, o)
		}
	}
	return out, nil
}

// Instance is one instance of a document and the schema locations it is at, each as "file#pointer".
type Instance struct {
	Pointer   string
	Locations []string
}

// Instances lists every instance of doc (validated against schema file) with its locations, in pointer order.
func (s Schemas) Instances(file string, doc any) []Instance {
	var out []Instance
	for _, n := range s.walk(file, doc) {
		in := Instance{Pointer: n.ptr}
		for _, l := range n.locs {
			in.Locations = append(in.Locations, l.file+"#"+l.ptr)
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// jsonTypeIs reports whether a decoded JSON value is of the JSON Schema type name (one name; the AQP schemas'
// conditionals use no type lists).
func jsonTypeIs(v any, name string) bool {
	switch x := v.(type) {
	case map[string]any:
		return name == "object"
	case []any:
		return name == "array"
	case string:
		return name == "string"
	case bool:
		return name == "boolean"
	case nil:
		return name == "null"
	case json.Number:
		if name == "integer" {
			r, ok := new(big.Rat).SetString(x.String())
			return ok && r.IsInt()
		}
		return name == "number"
	case float64:
		return name == "number" || name == "integer" && x == float64(int64(x))
	}
	return false
}
