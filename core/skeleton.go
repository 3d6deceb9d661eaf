package core

import (
	"encoding/json"
	"sync"
)

// A hostile body can be cheap to send and dear to decode: 1 MiB of `{"answer":[0,0,…]}` is half a million
// values. Most of a response is small members the schema constrains; what is large is members whose value the
// schema cannot reject — `answer`, whose subschema is an annotation, and members an `additionalProperties: false`
// object does not declare, which fail whatever their value. DecodeSkeleton checks such members as well-formed
// I-JSON and keeps their bytes; the schema sees null in their place, which it judges exactly as it judges any
// value there.

// lazyNode says, for one object schema, which members' values can be kept raw and which members' objects are
// described by a further lazyNode. It is derived from the parsed schema documents once.
type lazyNode struct {
	// raw lists declared members whose subschema asserts nothing.
	raw map[string]bool
	// closed is additionalProperties: false: every undeclared member fails on its name alone.
	closed bool
	// declared lists the members of properties.
	declared map[string]bool
	// children describe the object values of declared members whose subschema is itself a plain object schema.
	children map[string]*lazyNode
}

func (n *lazyNode) opaque(key string) bool {
	return n != nil && (n.raw[key] || n.closed && !n.declared[key])
}

func (n *lazyNode) child(key string) *lazyNode {
	if n == nil {
		return nil
	}
	return n.children[key]
}

// plainObjectKeys are the keywords a schema may hold for lazyTree to reason about it: any other keyword (an
// applicator like allOf, if or $ref, or an assertion about the whole object like const or minProperties) could
// read a member's value or its presence in ways the tree does not model.
var plainObjectKeys = map[string]bool{"type": true, "required": true, "properties": true, "additionalProperties": true}

// lazyTree derives the lazyNode of a schema value, or nil when the schema is not a plain object schema: then its
// instance is decoded in full.
func lazyTree(schema any) *lazyNode {
	m, ok := schema.(map[string]any)
	if !ok {
		return nil
	}
	for k, v := range m {
		switch {
		case annotations[k]:
		case !plainObjectKeys[k]:
			return nil
		case k == "type" && v != "object":
			return nil
		case k == "additionalProperties" && v != false:
			return nil
		}
	}
	props, _ := m["properties"].(map[string]any)
	n := &lazyNode{raw: map[string]bool{}, declared: map[string]bool{}, children: map[string]*lazyNode{}, closed: m["additionalProperties"] == false}
	for name, sub := range props {
		n.declared[name] = true
		if assertsNothing(sub) {
			n.raw[name] = true
		} else if c := lazyTree(sub); c != nil {
			n.children[name] = c
		}
	}
	return n
}

// assertsNothing reports whether a subschema accepts every value: true, or an object of annotations only.
func assertsNothing(schema any) bool {
	if b, ok := schema.(bool); ok {
		return b
	}
	m, ok := schema.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if !annotations[k] {
			return false
		}
	}
	return true
}

var (
	lazyOnce  sync.Once
	lazyTrees map[Kind]*lazyNode
)

// lazyTreeFor is the lazy tree of a kind's schema (nil when nothing can be kept raw).
func lazyTreeFor(k Kind) *lazyNode {
	lazyOnce.Do(func() {
		set := compiledSchemas()
		lazyTrees = map[Kind]*lazyNode{}
		for _, kind := range []Kind{KindRequest, KindResponse, KindReceipt} {
			lazyTrees[kind] = lazyTree(set.docs[kind.schemaFile()])
		}
	})
	return lazyTrees[k]
}

// rawMember is a member whose value was checked but kept as bytes.
type rawMember struct {
	obj map[string]any
	key string
	raw json.RawMessage
}

// Skeleton is a document decoded by DecodeSkeleton: every member the schema can reject decoded, the others kept
// as their bytes. It lets a caller read a member or two (a collector reads the ids to rate-limit) and then
// validate without ever materialising an answer the verdict does not need.
type Skeleton struct {
	kind  Kind
	data  []byte
	value any
	raw   []rawMember
	// err is the I-JSON violation of a text read leniently; Parse reports it.
	err *Error
}

// DecodeSkeleton decodes data for validation as kind, cheaply on hostile input: members whose value the kind's
// schema cannot reject (for a response: answer, and any member an additionalProperties: false object does not
// declare) are checked as well-formed I-JSON but not decoded. It rejects exactly the texts DecodeJSON rejects, with
// the same error.
//
// A text that is JSON but not I-JSON — a duplicate member name, a lone surrogate — comes back with its error and
// also with a Skeleton read leniently: its Object holds the members (a name that occurs twice at the top level is
// left out, as ambiguous; a lone surrogate reads as U+FFFD) so that a collector can address a receipt by the ids,
// and its Parse reports the error, as Parse does. Any other error comes back with a nil Skeleton.
func DecodeSkeleton(kind Kind, data []byte) (*Skeleton, error) {
	d := decodeWith(data, lazyTreeFor(kind), false)
	if d.err == nil {
		return &Skeleton{kind: kind, data: data, value: d.value, raw: d.raw}, nil
	}
	if !d.ijson {
		return nil, d.err
	}
	lenient := decodeWith(data, lazyTreeFor(kind), true)
	if lenient.err != nil {
		return nil, d.err
	}
	return &Skeleton{kind: kind, data: data, value: lenient.value, err: d.err}, d.err
}

// Object returns the top-level object, or nil when the document is not one. Members kept raw read as null: read
// only members the schema constrains (queryId, responseId, protocolVersion).
func (s *Skeleton) Object() map[string]any {
	if s == nil {
		return nil
	}
	m, _ := s.value.(map[string]any)
	return m
}

// Parse validates the skeleton and returns the Document, with exactly the verdict and errors Parse gives for the
// same bytes. Members kept raw stay json.RawMessage in the Document's Value until CheckResponse needs the answer
// (it decodes it in place then); EncodeCanonical encodes a json.RawMessage canonically without decoding it into
// values, so a content hash needs no decoding either. Parse is called once per Skeleton.
func (s *Skeleton) Parse() *Document {
	if s.err != nil {
		e := *s.err
		e.Code = s.kind.code()
		return &Document{Kind: s.kind, Raw: s.data, Errors: Errors{e}}
	}
	errs := validateValue(s.kind, s.value)
	for _, r := range s.raw {
		r.obj[r.key] = r.raw
	}
	return &Document{Kind: s.kind, Raw: s.data, Value: s.value, Errors: errs, lazy: len(s.raw) > 0}
}

// materialize decodes, in place, top-level members a Skeleton kept raw. Values nested deeper are kept raw only in
// documents that failed validation, which no check reads.
func (d *Document) materialize() {
	if !d.lazy {
		return
	}
	d.materializeOnce.Do(func() {
		for k, v := range d.Object() {
			if raw, ok := v.(json.RawMessage); ok {
				// The bytes were checked when the skeleton was decoded, at a depth of one: decoding them again
				// cannot fail.
				if dv, e := decodeJSON(raw); e == nil {
					d.Object()[k] = dv
				}
			}
		}
	})
}
