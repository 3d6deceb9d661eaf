package corpus

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance/internal/schemacov"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// derivedVectors writes, from the schemas themselves, a vector for each schema obligation (package schemacov) that
// the hand-written tables leave unproved and that a schema alone can prove: an enum value held (valid), and a
// length, item or number bound at the bound (valid) and one past it (invalid). So a spec author who adds a value to
// an enum gets its vector from `make vectors`. Each derived document is a base document of the kind with one member
// replaced; core must reach the derived verdict (and, when invalid, report exactly the one expected error) or the
// next base is tried, and an obligation no base can prove is left to the coverage test to report.
func derivedVectors(hand []sv) ([]sv, error) {
	files := map[string][]byte{}
	for _, name := range spec.SchemaFiles {
		files[name] = spec.File(name)
	}
	schemas, err := schemacov.Decode(files)
	if err != nil {
		return nil, err
	}
	var vectors []schemacov.Vector
	for _, v := range hand {
		b := []byte(nil)
		if v.text != nil {
			b = []byte(*v.text)
		} else {
			b = render(v.doc)
		}
		sv := schemacov.Vector{Name: v.name, Kind: v.kind, Bytes: b, Valid: v.valid}
		for _, e := range v.errs {
			sv.Errors = append(sv.Errors, schemacov.ExpectedError{Pointer: e.pointer, Keyword: e.keyword})
		}
		vectors = append(vectors, sv)
	}
	missing, err := schemas.Missing(vectors)
	if err != nil {
		return nil, err
	}
	var out []sv
	for _, o := range missing {
		if v, ok := derive(schemas, o); ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// derivationBases are the documents a derived vector starts from, per kind, fullest first.
func derivationBases() []struct {
	kind string
	doc  object
} {
	return []struct {
		kind string
		doc  object
	}{
		{"request", fullRequest()}, {"request", request()}, {"request", structuredRequest()},
		{"response", fullResponse()}, {"response", response()},
		{"receipt", rejectedReceipt()}, {"receipt", retryableReceipt()}, {"receipt", continuedReceipt()}, {"receipt", receipt()},
	}
}

func derive(schemas schemacov.Schemas, o schemacov.Obligation) (sv, bool) {
	where := o.Schema + "#" + o.Location
	for _, base := range derivationBases() {
		doc, err := schemacov.DecodeDocument(render(base.doc))
		if err != nil {
			continue
		}
		for _, in := range schemas.Instances(schemacov.KindSchema[base.kind], doc) {
			at := false
			for _, l := range in.Locations {
				at = at || l == where
			}
			if !at || in.Pointer == "" {
				continue
			}
			v, ok := deriveAt(base.kind, base.doc, in.Pointer, o)
			if ok && core.Parse(mustKind(base.kind), render(v.doc)).Valid() == v.valid && agrees(v) {
				return v, true
			}
		}
	}
	return sv{}, false
}

func deriveAt(kind string, base object, ptr string, o schemacov.Obligation) (sv, bool) {
	dotted := strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")
	bound := 0
	if o.Keyword != "enum" {
		if _, err := fmt.Sscan(o.Value, &bound); err != nil {
			return sv{}, false
		}
	}
	past := bound + 1
	if strings.HasPrefix(o.Keyword, "min") {
		past = bound - 1
	}
	why := fmt.Sprintf("Derived from the schema by `make vectors`: %s#%s %s %s.", o.Schema, o.Location, o.Keyword, o.Value)
	switch {
	case o.Keyword == "enum" && o.Side == schemacov.Valid:
		var val any
		if err := json.Unmarshal([]byte(o.Value), &val); err != nil {
			return sv{}, false
		}
		if _, scalar := val.(string); !scalar {
			return sv{}, false
		}
		return ok(kind, fmt.Sprintf("%s/%s/enum-%s-is-allowed", kind, dotted, strings.Trim(o.Value, `"`)),
			why+" The value is one of the enum's.", with(base, set(ptr, val))), true
	case (o.Keyword == "minLength" || o.Keyword == "maxLength") && o.Side == schemacov.At:
		return ok(kind, fmt.Sprintf("%s/%s/%s-%d-at-the-bound", kind, dotted, o.Keyword, bound),
			why+" A string exactly at the bound is allowed (code points, D5).", with(base, set(ptr, rep("a", bound)))), true
	case (o.Keyword == "minLength" || o.Keyword == "maxLength") && o.Side == schemacov.Past && past >= 0:
		return bad(kind, fmt.Sprintf("%s/%s/%s-%d-one-past-the-bound", kind, dotted, o.Keyword, bound),
			why+" A string one past the bound is not allowed (code points, D5).", with(base, set(ptr, rep("a", past))),
			E(ptr, o.Keyword)), true
	case (o.Keyword == "minItems" || o.Keyword == "maxItems") && past >= 0:
		n := bound
		if o.Side == schemacov.Past {
			n = past
		}
		items := make([]any, n)
		for i := range items {
			items[i] = fmt.Sprintf("item %d", i+1)
		}
		if o.Side == schemacov.At {
			return ok(kind, fmt.Sprintf("%s/%s/%s-%d-at-the-bound", kind, dotted, o.Keyword, bound),
				why+" An array exactly at the bound is allowed.", with(base, set(ptr, items))), true
		}
		return bad(kind, fmt.Sprintf("%s/%s/%s-%d-one-past-the-bound", kind, dotted, o.Keyword, bound),
			why+" An array one past the bound is not allowed.", with(base, set(ptr, items)), E(ptr, o.Keyword)), true
	case o.Keyword == "minimum" || o.Keyword == "maximum":
		if o.Side == schemacov.At {
			return ok(kind, fmt.Sprintf("%s/%s/%s-%d-at-the-bound", kind, dotted, o.Keyword, bound),
				why+" A number exactly at the bound is allowed.", with(base, set(ptr, bound))), true
		}
		return bad(kind, fmt.Sprintf("%s/%s/%s-%d-one-past-the-bound", kind, dotted, o.Keyword, bound),
			why+" A number past the bound is not allowed.", with(base, set(ptr, past)), E(ptr, o.Keyword)), true
	}
	return sv{}, false
}

// agrees reports whether core reports exactly the derived vector's expected errors.
func agrees(v sv) bool {
	doc := core.Parse(mustKind(v.kind), render(v.doc))
	if len(doc.Errors) != len(v.errs) {
		return false
	}
	for i, e := range doc.Errors {
		if e.Pointer != v.errs[i].pointer || e.Keyword != v.errs[i].keyword {
			return false
		}
	}
	return true
}

func mustKind(kind string) core.Kind {
	k, err := core.ParseKind(kind)
	if err != nil {
		panic(err)
	}
	return k
}
