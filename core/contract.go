package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// contractURL is the base URL a request's jsonSchema is compiled under. It resolves nothing: a jsonSchema can
// only $ref into itself.
const contractURL = "urn:aqp:response-contract"

// draft2020 is the only $schema a jsonSchema may declare.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// contract is a request's response contract (§3), compiled once per request document.
type contract struct {
	format    string
	choices   []string
	maxLength int // 0 when absent
	schema    *jsonschema.Schema
}

// compileContract reads the contract from a schema-valid request value and compiles its jsonSchema offline.
func compileContract(request any) (*contract, *Error) {
	req, _ := request.(map[string]any)
	resp, _ := req["response"].(map[string]any)
	c := &contract{}
	c.format, _ = resp["format"].(string)
	if ch, ok := resp["choices"].([]any); ok {
		c.choices = make([]string, len(ch))
		for i, x := range ch {
			c.choices[i], _ = x.(string)
		}
	}
	if n, ok := resp["maxLength"].(json.Number); ok {
		// The schema admits any integer-valued number (5.0, 5e0), which Int64 does not parse.
		v, _ := n.Float64()
		c.maxLength = int(v)
	} else if f, ok := resp["maxLength"].(float64); ok {
		c.maxLength = int(f)
	}
	if js, ok := resp["jsonSchema"].(map[string]any); ok {
		if e := checkSchemaBounds(js); e != nil {
			return nil, e
		}
		if s, present := js["$schema"]; present && s != draft2020 {
			return nil, &Error{Pointer: "/response/jsonSchema/$schema", Keyword: KeywordCompile,
				Message: fmt.Sprintf("jsonSchema is compiled as draft 2020-12; $schema must be %q or absent, got %s", draft2020, display(s))}
		}
		comp := newCompiler()
		if err := comp.AddResource(contractURL, js); err != nil {
			return nil, &Error{Pointer: "/response/jsonSchema", Keyword: KeywordCompile, Message: "jsonSchema does not compile: " + err.Error()}
		}
		sch, err := comp.Compile(contractURL)
		if err != nil {
			return nil, &Error{Pointer: "/response/jsonSchema", Keyword: KeywordCompile,
				Message: "jsonSchema does not compile offline as draft 2020-12: " + oneLine(err.Error())}
		}
		if e := checkContractGraph(sch); e != nil {
			return nil, e
		}
		c.schema = sch
		contractCompiles.Add(1)
	}
	return c, nil
}

// Bounds on a request's jsonSchema (D24). The schema library has no deadline and no context, and its compile time
// grows faster than linearly with nesting (3,000 nested "items" took 27 s and 211 MiB), so what a jsonSchema may
// cost is bounded by its shape before it is compiled; TestSchemaBoundsCompileFast measures the worst shapes within
// the bounds.
const (
	// MaxSchemaDepth bounds how deeply objects and arrays nest in a jsonSchema (the jsonSchema itself is depth 1).
	MaxSchemaDepth = 64
	// MaxSchemaNodes bounds the JSON values in a jsonSchema: every object, array, string, number, boolean and null.
	MaxSchemaNodes = 10_000
	// MaxSchemaBytes bounds a jsonSchema's canonical JSON (CompactJSON: compact, minimal escaping).
	MaxSchemaBytes = 64 << 10
	// MaxSchemaPatterns bounds the regular expressions in a jsonSchema ("pattern" values and "patternProperties"
	// names): one with counted repetition, ^(a|b|c){1,1000}$, takes milliseconds to compile.
	MaxSchemaPatterns = 64
)

// contractCompiles counts compiled jsonSchemas.
var contractCompiles atomic.Int64

// ContractCompiles reports how many request jsonSchemas this process has compiled: for metrics, and for tests
// proving that a collector compiles a query's schema once however many responses it checks.
func ContractCompiles() int64 { return contractCompiles.Load() }

// checkSchemaBounds reports the first bound a jsonSchema exceeds, or nil. It walks iteratively, so a deeper value
// than the bound costs no stack, and stops at the first excess.
func checkSchemaBounds(js map[string]any) *Error {
	const at = "/response/jsonSchema"
	type item struct {
		ptr   string
		v     any
		depth int
	}
	nodes, patterns := 0, 0
	stack := []item{{at, js, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes++
		if nodes > MaxSchemaNodes {
			return &Error{Pointer: at, Keyword: KeywordSize,
				Message: fmt.Sprintf("jsonSchema may hold at most %d JSON values (objects, arrays, strings, numbers, booleans, nulls); this one holds more", MaxSchemaNodes)}
		}
		switch x := it.v.(type) {
		case map[string]any:
			if _, ok := x["pattern"].(string); ok {
				patterns++
			}
			if pp, ok := x["patternProperties"].(map[string]any); ok {
				patterns += len(pp)
			}
			if patterns > MaxSchemaPatterns {
				return &Error{Pointer: at, Keyword: KeywordSize,
					Message: fmt.Sprintf("jsonSchema may hold at most %d regular expressions (pattern values and patternProperties names); this one holds more", MaxSchemaPatterns)}
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			// Members in reverse order onto the stack, so the first in byte order is checked first: which
			// bound is reported, and where, is the same on every run.
			slices.Sort(keys)
			slices.Reverse(keys)
			for _, k := range keys {
				v := x[k]
				if it.depth+1 > MaxSchemaDepth && isContainer(v) {
					return &Error{Pointer: it.ptr + "/" + escapePointer(k), Keyword: KeywordSize,
						Message: fmt.Sprintf("jsonSchema may nest objects and arrays at most %d deep; this value is at depth %d", MaxSchemaDepth, it.depth+1)}
				}
				stack = append(stack, item{it.ptr + "/" + escapePointer(k), v, it.depth + 1})
			}
		case []any:
			for i := len(x) - 1; i >= 0; i-- {
				v := x[i]
				if it.depth+1 > MaxSchemaDepth && isContainer(v) {
					return &Error{Pointer: it.ptr + "/" + strconv.Itoa(i), Keyword: KeywordSize,
						Message: fmt.Sprintf("jsonSchema may nest objects and arrays at most %d deep; this value is at depth %d", MaxSchemaDepth, it.depth+1)}
				}
				stack = append(stack, item{it.ptr + "/" + strconv.Itoa(i), v, it.depth + 1})
			}
		}
	}
	if n := len(CompactJSON(js)); n > MaxSchemaBytes {
		return &Error{Pointer: at, Keyword: KeywordSize,
			Message: fmt.Sprintf("jsonSchema may be at most %d bytes of compact JSON; this one is %d", MaxSchemaBytes, n)}
	}
	return nil
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// requestContract returns the request's compiled response contract. It is computed once per Document and is only
// meaningful for a valid request.
func (d *Document) requestContract() (*contract, *Error) {
	d.contractOnce.Do(func() {
		d.contract, d.contractErr = compileContract(d.Value)
	})
	return d.contract, d.contractErr
}

// check reports why answer does not satisfy the contract, or nil.
func (c *contract) check(answer any) Errors {
	fail := func(keyword, format string, args ...any) Errors {
		return Errors{{Code: CodeAnswerInvalid, Document: RoleResponse, Pointer: "/answer", Keyword: keyword,
			Message: fmt.Sprintf(format, args...)}}
	}
	switch c.format {
	case "text":
		s, ok := answer.(string)
		if !ok {
			return fail("format", "response.format is text: the answer must be a string, got %s", jsonType(answer))
		}
		if n := utf8.RuneCountInString(s); c.maxLength > 0 && n > c.maxLength {
			return fail("maxLength", "response.maxLength is %d: the answer has %d characters (Unicode code points)", c.maxLength, n)
		}
	case "choice":
		s, ok := answer.(string)
		if !ok {
			return fail("choices", "response.format is choice: the answer must be a string, got %s", jsonType(answer))
		}
		found := false
		for _, ch := range c.choices {
			if ch == s {
				found = true
				break
			}
		}
		if !found {
			return fail("choices", "response.format is choice: the answer must be one of %s, got %s", quoteList(c.choices), display(s))
		}
	case "boolean":
		if _, ok := answer.(bool); !ok {
			return fail("format", "response.format is boolean: the answer must be true or false, got %s", jsonType(answer))
		}
	case "number":
		switch answer.(type) {
		case json.Number, float64:
		default:
			return fail("format", "response.format is number: the answer must be a JSON number, got %s", jsonType(answer))
		}
	case "structured":
		if c.maxLength > 0 {
			// Counted on the canonical encoding (D12), so that the count does not depend on how the respondent's
			// encoder escapes strings or spells numbers.
			if enc, err := EncodeCanonical(answer); err == nil {
				if n := utf8.RuneCount(enc); n > c.maxLength {
					return fail("maxLength", "response.maxLength is %d: the answer's canonical JSON (RFC 8785, D12) has %d characters (Unicode code points)", c.maxLength, n)
				}
			}
		}
	}
	if c.schema != nil {
		if err := c.schema.Validate(answer); err != nil {
			errs := (&schemaSet{}).convert(CodeAnswerInvalid, err)
			for i := range errs {
				errs[i].Document = RoleResponse
				errs[i].Pointer = "/answer" + errs[i].Pointer
				errs[i].Message = "response.jsonSchema: " + errs[i].Message
			}
			return errs
		}
	}
	return nil
}

// jsonType names a decoded JSON value's type for messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
