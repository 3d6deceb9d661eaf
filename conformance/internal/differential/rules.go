package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// A rule explains one class of disagreement between core and ajv. Each failure on the side that says invalid
// must be explained by some rule for the mutant to count as explained; the class is the rules' names joined.
// Every rule names the vector in the corpus that records its class, so that a class is never explained here
// without the corpus proving it too (compare fails when the vector is missing).
type rule struct {
	// name is the class, as the summary line counts it.
	name string
	// reason says why the verdicts differ and why that is right.
	reason string
	// vector names the standalone vector that records the class (with beyondJsonSchema or knownDeviations).
	vector string
	// core explains one of core's failures on a document ajv accepts; nil when the rule never does.
	core func(e core.Error, value any) bool
	// ajv explains one of ajv's failures ("pointer keyword") on a document core accepts; nil when it never does.
	ajv func(keyword string, value any) bool
}

var numericKeywords = map[string]bool{"type": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true}

var rules = []rule{
	{
		name:   "I-JSON duplicate name",
		reason: "RFC 7493 forbids duplicate member names; JSON.parse keeps the last, so ajv sees another document",
		vector: "json/duplicate-member-nested-is-rejected",
		core: func(e core.Error, _ any) bool {
			return e.Keyword == core.KeywordJSON && strings.Contains(e.Message, "duplicate member name")
		},
	},
	{
		name:   "I-JSON lone surrogate",
		reason: "RFC 7493 forbids strings that are not Unicode; JSON.parse keeps the lone surrogate and ajv accepts it",
		vector: "json/lone-high-surrogate-is-rejected",
		core: func(e core.Error, _ any) bool {
			return e.Keyword == core.KeywordJSON && strings.Contains(e.Message, "lone surrogate")
		},
	},
	{
		name:   "D22 number bound",
		reason: "D22 bounds a number's digits and exponent; JSON Schema puts no bound on a number",
		vector: "response/number/1001-digits-is-too-many",
		core: func(e core.Error, v any) bool {
			_, isNumber := v.(json.Number)
			return e.Keyword == core.KeywordSize && isNumber
		},
	},
	{
		name:   "D24 jsonSchema bound",
		reason: "D24 bounds a request's jsonSchema (depth, values, patterns, bytes); JSON Schema does not",
		vector: "request/response.jsonSchema/depth-65-is-too-deep",
		core: func(e core.Error, v any) bool {
			_, isNumber := v.(json.Number)
			return e.Keyword == core.KeywordSize && !isNumber && strings.HasPrefix(e.Pointer, "/response/jsonSchema")
		},
	},
	{
		name:   "D41 pattern meaning differs",
		reason: "D41: a jsonSchema pattern whose ECMA-262 meaning RE2 cannot give (lookaround, backreferences, [], lone braces, POSIX classes …) is refused; ajv evaluates ECMA-262 itself",
		vector: "request/response.jsonSchema/ecma-262-lookahead-pattern-does-not-compile",
		core: func(e core.Error, _ any) bool {
			return e.Keyword == core.KeywordCompile && strings.Contains(e.Message, "(D41")
		},
	},
	{
		name:   "D35 $ref cycle",
		reason: "D35: a $ref cycle that never descends into the value does not compile; ajv compiles it and loops only when validating",
		vector: "request/response.jsonSchema/ref-cycle-to-the-root-does-not-compile",
		core: func(e core.Error, _ any) bool {
			return e.Keyword == core.KeywordCompile && strings.Contains(e.Message, "(D35)")
		},
	},
	{
		name:   "D11 $ref outside the jsonSchema",
		reason: "D11 (revised): every $ref must resolve inside the jsonSchema, a bundled metaschema included; ajv resolves the metaschemas it bundles",
		vector: "request/response.jsonSchema/ref-to-a-bundled-metaschema-does-not-compile",
		core: func(e core.Error, _ any) bool {
			return e.Keyword == core.KeywordCompile && strings.Contains(e.Message, "may only $ref into itself")
		},
	},
	{
		name:   "jsonSchema compiles",
		reason: "§3: a request's jsonSchema must compile offline as draft 2020-12; the request schema only says it is an object",
		vector: "request/response.jsonSchema/invalid-keyword-value-does-not-compile",
		core:   func(e core.Error, _ any) bool { return e.Keyword == core.KeywordCompile },
	},
	{
		name:   "ajv judges a double",
		reason: "JSON.parse rounds a number to the nearest double before ajv sees it; core compares the number as written",
		vector: "receipt/retryAfter/a-fraction-past-a-double-is-not-an-integer",
		core: func(e core.Error, v any) bool {
			return numericKeywords[e.Keyword] && notDouble(v)
		},
		ajv: func(keyword string, v any) bool { return numericKeywords[keyword] && notDouble(v) },
	},
	{
		name:   "ajv-formats urn:uuid:",
		reason: "ajv-formats accepts a urn:uuid: prefix on the uuid format; RFC 9562's string form has none",
		vector: "format/uuid/urn-prefix-is-rejected",
		core: func(e core.Error, v any) bool {
			s, ok := v.(string)
			return e.Keyword == "format" && ok && len(s) > 9 && strings.EqualFold(s[:9], "urn:uuid:") && core.IsUUID(s[9:])
		},
	},
	{
		name:   "ajv-formats offset +hhmm",
		reason: "ajv-formats accepts an offset without a colon; RFC 3339's time-numoffset has one",
		vector: "format/date-time/offset-without-colon-is-rejected",
		core:   dateTimeFixedBy(regexp.MustCompile(`([+-]\d\d)(\d\d)$`), "$1:$2"),
	},
	{
		name:   "ajv-formats offset +hh",
		reason: "ajv-formats accepts an offset of hours only; RFC 3339's time-numoffset has minutes",
		vector: "format/date-time/hour-only-offset-is-rejected",
		core:   dateTimeFixedBy(regexp.MustCompile(`(T\d\d:\d\d:\d\d(?:\.\d+)?[+-]\d\d)$`), "$1:00"),
	},
	{
		name:   "ajv-formats space for T",
		reason: "ajv-formats accepts whitespace in place of T; RFC 3339 allows only T (or t)",
		vector: "format/date-time/space-separator-is-rejected",
		core:   dateTimeFixedBy(regexp.MustCompile(`^(\d{4}-\d\d-\d\d) `), "${1}T"),
	},
	{
		name:   "ajv-formats non-numeric port",
		reason: "ajv-formats' uri pattern lets an authority with a non-numeric port parse as a path; RFC 3986's port is digits",
		vector: "format/uri/non-numeric-port-is-rejected",
		core: func(e core.Error, v any) bool {
			s, ok := v.(string)
			return e.Keyword == "format" && ok && nonNumericPort.MatchString(s)
		},
	},
	{
		name:   "ajv-formats empty hier-part",
		reason: "ajv-formats rejects a URI that is a scheme and a colon; RFC 3986 lets hier-part be an empty path",
		vector: "format/uri/scheme-and-empty-path-is-valid",
		ajv: func(keyword string, v any) bool {
			s, ok := v.(string)
			return keyword == "format" && ok && schemeOnly.MatchString(s)
		},
	},
}

var (
	// nonNumericPort: scheme://[userinfo@]host:port with a port that is not all digits.
	nonNumericPort = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:\[\]]*):[^/?#]*[^0-9/?#][^/?#]*(?:[/?#].*)?$`)
	schemeOnly     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:$`)
)

// dateTimeFixedBy explains a date-time format failure that the replacement mends: what ajv-formats accepts is
// exactly the RFC 3339 date-time with that one departure.
func dateTimeFixedBy(re *regexp.Regexp, repl string) func(core.Error, any) bool {
	return func(e core.Error, v any) bool {
		s, ok := v.(string)
		if e.Keyword != "format" || !ok || !re.MatchString(s) {
			return false
		}
		_, err := core.ParseDateTime(re.ReplaceAllString(s, repl))
		return err == nil
	}
}

// notDouble: v is a number whose value a double does not hold exactly (its canonical text differs from that of
// the nearest double).
func notDouble(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return true
	}
	a, errA := core.EncodeCanonical(n)
	b, errB := core.EncodeCanonical(json.Number(strconv.FormatFloat(f, 'g', -1, 64)))
	return errA != nil || errB != nil || !bytes.Equal(a, b)
}

// classify explains a disagreement, returning its class.
func classify(m checked, errs core.Errors) (string, bool) {
	names := map[string]bool{}
	explain := func(ptr string, try func(r rule, v any) bool) bool {
		v, _ := lookup(m.Text, ptr)
		for _, r := range rules {
			if try(r, v) {
				names[r.name] = true
				return true
			}
		}
		return false
	}
	if len(errs) > 0 { // core says invalid, ajv valid
		for _, e := range errs {
			if !explain(e.Pointer, func(r rule, v any) bool { return r.core != nil && r.core(e, v) }) {
				return "", false
			}
		}
	} else {
		if len(m.AJVErrors) == 0 {
			return "", false
		}
		for _, s := range m.AJVErrors {
			i := strings.LastIndexByte(s, ' ')
			ptr, kw := s[:i], s[i+1:]
			if !explain(ptr, func(r rule, v any) bool { return r.ajv != nil && r.ajv(kw, v) }) {
				return "", false
			}
		}
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return strings.Join(out, " + "), true
}

// checkRules requires every rule's vector in the corpus, recording the class: beyondJsonSchema, or a known
// deviation; and every name and reason to be set.
func checkRules() error {
	c, err := conformance.Load()
	if err != nil {
		return err
	}
	byName := map[string]conformance.Standalone{}
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			byName[v.Name] = v
		}
	}
	for _, r := range rules {
		v, ok := byName[r.vector]
		switch {
		case r.name == "" || r.reason == "":
			return fmt.Errorf("a rule without a name or reason (vector %q)", r.vector)
		case !ok:
			return fmt.Errorf("rule %q: no standalone vector %q records the class", r.name, r.vector)
		case v.BeyondJSONSchema == "" && len(v.KnownDeviations) == 0:
			return fmt.Errorf("rule %q: vector %q records neither beyondJsonSchema nor knownDeviations", r.name, r.vector)
		}
	}
	return nil
}
