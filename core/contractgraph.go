package core

import (
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkContractGraph enforces the two rules on a compiled jsonSchema that the schema library does not (D11 as
// revised, D35):
//
//   - every $ref, $dynamicRef and $recursiveRef resolves to a schema inside the jsonSchema itself. The library
//     bundles the JSON Schema metaschemas and resolves a $ref to one of them without a load, so without this check
//     a reference to https://json-schema.org/draft-07/schema compiled while https://example.com/x did not: validity
//     would depend on which documents the library happens to bundle;
//   - no cycle of in-place applicators ($ref, $dynamicRef, allOf, anyOf, oneOf, not, if, then, else,
//     dependentSchemas) leads from a schema back to itself. Such a cycle applies the schema to the same value
//     forever: {"$ref": "#"} can never be satisfied (every answer fails), and {"not": {"$ref": "#"}} accepts
//     anything, so either would be an unanswerable or meaningless query.
//
// Both are compile errors at /response/jsonSchema; the message names the schema location (as a pointer under
// /response/jsonSchema) where the reference or the cycle is.
func checkContractGraph(root *jsonschema.Schema) *Error {
	const base = contractURL + "#"
	inside := func(s *jsonschema.Schema) bool { return strings.HasPrefix(s.Location, base) }
	where := func(s *jsonschema.Schema) string {
		return "/response/jsonSchema" + strings.TrimPrefix(s.Location, base)
	}
	// Collect every schema reachable from the root, through every edge, refusing one outside the contract.
	seen := map[*jsonschema.Schema]bool{}
	var order []*jsonschema.Schema
	anchors := map[string][]*jsonschema.Schema{}
	stack := []*jsonschema.Schema{root}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		order = append(order, s)
		if s.DynamicAnchor != "" {
			anchors[s.DynamicAnchor] = append(anchors[s.DynamicAnchor], s)
		}
		for _, ref := range refsOf(s) {
			if !inside(ref) {
				return &Error{Pointer: "/response/jsonSchema", Keyword: KeywordCompile,
					Message: fmt.Sprintf("jsonSchema may only $ref into itself (D11): the reference at %s resolves outside it, to %s", where(s), ref.Location)}
			}
		}
		stack = append(stack, children(s)...)
	}
	// Depth-first search over the in-place edges: a back edge is a cycle.
	const (
		white = iota
		grey
		black
	)
	color := map[*jsonschema.Schema]int{}
	type frame struct {
		s    *jsonschema.Schema
		next []*jsonschema.Schema
	}
	for _, start := range order {
		if color[start] != white {
			continue
		}
		color[start] = grey
		frames := []frame{{start, inPlace(start, anchors)}}
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if len(f.next) == 0 {
				color[f.s] = black
				frames = frames[:len(frames)-1]
				continue
			}
			n := f.next[0]
			f.next = f.next[1:]
			switch color[n] {
			case grey:
				return &Error{Pointer: "/response/jsonSchema", Keyword: KeywordCompile,
					Message: fmt.Sprintf("jsonSchema loops (D35): from %s the schema at %s applies again to the same value without descending into it (a $ref cycle), so no answer could be judged", where(f.s), where(n))}
			case white:
				color[n] = grey
				frames = append(frames, frame{n, inPlace(n, anchors)})
			}
		}
	}
	return nil
}

// refsOf is what s's $ref, $dynamicRef and $recursiveRef resolve to.
func refsOf(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	if s.Ref != nil {
		out = append(out, s.Ref)
	}
	if s.RecursiveRef != nil {
		out = append(out, s.RecursiveRef)
	}
	if s.DynamicRef != nil && s.DynamicRef.Ref != nil {
		out = append(out, s.DynamicRef.Ref)
	}
	return out
}

// inPlace is every schema s applies to the very value it is applied to. A $dynamicRef may resolve, at validation
// time, to any schema declaring its $dynamicAnchor, so each of those counts as a target.
func inPlace(s *jsonschema.Schema, anchors map[string][]*jsonschema.Schema) []*jsonschema.Schema {
	out := refsOf(s)
	if s.DynamicRef != nil && s.DynamicRef.Anchor != "" {
		out = append(out, anchors[s.DynamicRef.Anchor]...)
	}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	for _, x := range []*jsonschema.Schema{s.Not, s.If, s.Then, s.Else} {
		if x != nil {
			out = append(out, x)
		}
	}
	for _, x := range s.DependentSchemas {
		out = append(out, x)
	}
	for _, x := range s.Dependencies {
		if d, ok := x.(*jsonschema.Schema); ok {
			out = append(out, d)
		}
	}
	return byLocation(out)
}

// byLocation sorts schemas by location, so that which error is reported, and its message, is the same on every run
// (the library keeps properties and dependentSchemas in maps).
func byLocation(xs []*jsonschema.Schema) []*jsonschema.Schema {
	slices.SortStableFunc(xs, func(a, b *jsonschema.Schema) int { return strings.Compare(a.Location, b.Location) })
	return xs
}

// children is every schema s holds or refers to, in place or applied to a part of the value.
func children(s *jsonschema.Schema) []*jsonschema.Schema {
	out := inPlace(s, nil)
	add := func(xs ...*jsonschema.Schema) {
		for _, x := range xs {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	add(s.PropertyNames, s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema)
	add(s.PrefixItems...)
	for _, x := range s.Properties {
		add(x)
	}
	for _, x := range s.PatternProperties {
		add(x)
	}
	for _, x := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch v := x.(type) {
		case *jsonschema.Schema:
			add(v)
		case []*jsonschema.Schema:
			add(v...)
		}
	}
	return byLocation(out)
}
