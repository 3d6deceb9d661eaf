// Package corpus holds the AQP conformance vectors as Go tables — base documents and named mutations of them —
// and renders them as the JSON vector files under conformance/vectors. The vectorgen command writes the files;
// the conformance suite renders them again and compares, so the committed corpus cannot drift from these tables.
package corpus

import (
	"fmt"
	"path"
	"sort"
)

// perr is one expected standalone error.
type perr struct{ pointer, keyword string }

func E(pointer, keyword string) perr { return perr{pointer, keyword} }

// sv is one standalone vector.
type sv struct {
	name, desc string
	kind       string
	doc        any
	text       *string // documentText instead of document
	valid      bool
	errs       []perr
	beyond     string
	// deviations names validators known to decide this vector otherwise, each with why (knownDeviations).
	deviations map[string]string
}

// pv is one paired vector; a nil document is absent (written as null).
type pv struct {
	name, desc          string
	req, resp, rec, dup any
	valid               bool
	codes               []string
}

func ok(kind, name, desc string, doc any) sv {
	return sv{name: name, desc: desc, kind: kind, doc: doc, valid: true}
}

func bad(kind, name, desc string, doc any, errs ...perr) sv {
	if len(errs) == 0 {
		panic(name + ": an invalid vector needs errors")
	}
	return sv{name: name, desc: desc, kind: kind, doc: doc, errs: errs}
}

// beyond marks a vector whose verdict a plain JSON Schema validator cannot reach.
func (v sv) beyondSchema(why string) sv { v.beyond = why; return v }

// ajvJudgesADouble records that ajv, which validates what JSON.parse returns, rounds the vector's number to a
// double and so reaches the other verdict; the interop check requires it to.
func ajvJudgesADouble(v sv) sv {
	v.deviations = map[string]string{"ajv": "JSON.parse rounds the number to the nearest double before ajv sees it"}
	return v
}

// textDoc makes a vector validate exact text instead of a JSON value.
func textDoc(kind, name, desc, text string, valid bool, errs ...perr) sv {
	return sv{name: name, desc: desc, kind: kind, text: &text, valid: valid, errs: errs}
}

func pairOK(name, desc string, req, resp, rec, dup any) pv {
	return pv{name: name, desc: desc, req: req, resp: resp, rec: rec, dup: dup, valid: true, codes: []string{}}
}

func pairBad(name, desc string, req, resp, rec, dup any, codes ...string) pv {
	if len(codes) == 0 {
		panic(name + ": an invalid paired vector needs codes")
	}
	return pv{name: name, desc: desc, req: req, resp: resp, rec: rec, dup: dup, codes: codes}
}

// file is one vector file: its path under conformance/vectors, what it covers, and its vectors.
type file struct {
	path       string
	desc       string
	standalone []sv
	paired     []pv
	carriage   []cv
}

func files() []file {
	return []file{
		{path: "standalone/quickstart.json", desc: "The Quickstart's three objects as published, and the corrected request (D2).", standalone: quickstartVectors()},
		{path: "standalone/request.json", desc: "QueryRequest: required members, constants, enums, types, consent conditionals and unknown members at the root and in delivery.", standalone: requestVectors()},
		{path: "standalone/request-response-contract.json", desc: "QueryRequest.response, the answer contract: formats and their conditionals, choices, maxLength, and jsonSchema compilation (§3).", standalone: contractVectors()},
		{path: "standalone/subject.json", desc: "QuerySubject, wherever it appears: in a request, a response and a receipt's continuation.", standalone: subjectVectors()},
		{path: "standalone/response.json", desc: "QueryResponse: required members, respondent, answer values, confidence, consent, types and unknown members.", standalone: responseVectors()},
		{path: "standalone/receipt.json", desc: "QueryReceipt: required members, status conditionals, retryAfter, error and its pointer, and the continuation's inner request.", standalone: receiptVectors()},
		{path: "standalone/formats.json", desc: "The asserted formats (D4): uuid (RFC 4122 text form), date-time (RFC 3339, offset required) and uri (absolute RFC 3986 URI).", standalone: formatVectors()},
		{path: "standalone/lengths.json", desc: "Every string length bound at its limit and one past it, counted in Unicode code points (D5), not bytes or UTF-16 units.", standalone: lengthVectors()},
		{path: "standalone/bounds.json", desc: "The bounds beyond the schemas: a number's digits and exponent (D22), a request jsonSchema's depth, values, regular expressions and bytes (D24), each at its limit and one past it.", standalone: boundsVectors()},
		{path: "standalone/json.json", desc: "Text that is not exactly one JSON value, and JSON values that are not objects.", standalone: jsonVectors()},
		{path: "paired/quickstart.json", desc: "The Quickstart exchange as a whole, and what an invalid document in a pair does.", paired: pairedQuickstartVectors()},
		{path: "paired/identifiers.json", desc: "query_mismatch and response_mismatch: the identifiers that tie a request, its response and the receipt together.", paired: identifierVectors()},
		{path: "paired/subject-respondent.json", desc: "subject_mismatch (D3) and respondent_mismatch.", paired: subjectRespondentVectors()},
		{path: "paired/answer.json", desc: "answer_invalid: the answer against the request's response contract (§3), for every format.", paired: answerVectors()},
		{path: "paired/consent-expiry.json", desc: "consent_required, consent_mismatch and expired, with instants compared as instants.", paired: consentExpiryVectors()},
		{path: "paired/continuation.json", desc: "continuation_mismatch: the follow-up query an accepted receipt may carry.", paired: continuationVectors()},
		{path: "paired/duplicate.json", desc: "receipt_not_equivalent: a duplicate submission must get an equivalent receipt.", paired: duplicateVectors()},
		{path: "paired/order.json", desc: "Several failures at once: each code once, in the pinned order of the checks.", paired: orderVectors()},
	}
}

// Generate renders every vector file, keyed by its path relative to conformance/vectors
// ("standalone/request.json", "carriage/https.json").
func Generate() (map[string][]byte, error) {
	out := map[string][]byte{}
	seen := map[string]string{}
	all := append(files(), carriageFiles()...)
	var hand []sv
	for _, f := range all {
		hand = append(hand, f.standalone...)
	}
	derived, err := derivedVectors(hand)
	if err != nil {
		return nil, err
	}
	if len(derived) > 0 {
		all = append(all, file{path: "standalone/derived.json", desc: "Derived from the schemas by `make vectors`: an enum value or a bound that no hand-written vector proves, each set in a base document of its kind.", standalone: derived})
	}
	for _, f := range all {
		if _, dup := out[f.path]; dup {
			return nil, fmt.Errorf("%s: two files with one path", f.path)
		}
		var vectors []any
		for _, v := range f.standalone {
			if prev, dup := seen[v.name]; dup {
				return nil, fmt.Errorf("%s: vector name %q is already used in %s", f.path, v.name, prev)
			}
			seen[v.name] = f.path
			vectors = append(vectors, v.render(f.path))
		}
		for _, v := range f.paired {
			if prev, dup := seen[v.name]; dup {
				return nil, fmt.Errorf("%s: vector name %q is already used in %s", f.path, v.name, prev)
			}
			seen[v.name] = f.path
			vectors = append(vectors, v.render(f.path))
		}
		for _, v := range f.carriage {
			if prev, dup := seen[v.name]; dup {
				return nil, fmt.Errorf("%s: vector name %q is already used in %s", f.path, v.name, prev)
			}
			seen[v.name] = f.path
			if err := v.check(); err != nil {
				return nil, fmt.Errorf("%s: %w", f.path, err)
			}
			vectors = append(vectors, v.render())
		}
		if d := path.Dir(f.path); d != "standalone" && d != "paired" && d != "carriage" {
			return nil, fmt.Errorf("%s: not under standalone/, paired/ or carriage/", f.path)
		}
		out[f.path] = render(obj("description", f.desc, "vectors", vectors))
	}
	return out, nil
}

func (v sv) render(file string) object {
	o := obj("name", v.name, "description", v.desc)
	if ids := v.requirements(file); len(ids) > 0 {
		o = append(o, member{"requirements", strs(ids)})
	}
	o = append(o, member{"kind", v.kind})
	if v.text != nil {
		o = append(o, member{"documentText", *v.text})
	} else {
		o = append(o, member{"document", v.doc})
	}
	o = append(o, member{"valid", v.valid})
	if !v.valid {
		errs := make([]any, len(v.errs))
		for i, e := range v.errs {
			errs[i] = obj("pointer", e.pointer, "keyword", e.keyword)
		}
		o = append(o, member{"errors", errs})
	}
	if v.beyond != "" {
		o = append(o, member{"beyondJsonSchema", v.beyond})
	}
	if len(v.deviations) > 0 {
		names := make([]string, 0, len(v.deviations))
		for n := range v.deviations {
			names = append(names, n)
		}
		sort.Strings(names)
		var dev object
		for _, n := range names {
			dev = append(dev, member{n, v.deviations[n]})
		}
		o = append(o, member{"knownDeviations", dev})
	}
	return o
}

func (v pv) render(file string) object {
	codes := make([]any, len(v.codes))
	for i, c := range v.codes {
		codes[i] = c
	}
	o := obj("name", v.name, "description", v.desc)
	if ids := v.requirements(file); len(ids) > 0 {
		o = append(o, member{"requirements", strs(ids)})
	}
	return append(o, obj(
		"request", nilDoc(v.req),
		"response", nilDoc(v.resp),
		"receipt", nilDoc(v.rec),
		"duplicate", nilDoc(v.dup),
		"valid", v.valid,
		"codes", codes,
	)...)
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// nilDoc turns a nil object into JSON null (an absent document) rather than {}.
func nilDoc(v any) any {
	if o, isObj := v.(object); isObj && o == nil {
		return nil
	}
	return v
}
