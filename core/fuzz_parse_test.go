package core_test

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/fuzzseed"
)

// fuzzRequest is a valid structured request whose response.jsonSchema is schema (JSON text) and whose subject,
// respondent and expiry match fuzzResponse, so that the only thing that can be wrong with it is its jsonSchema
// and the only thing wrong with a paired response is its answer.
func fuzzRequest(schema string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"survey",` +
		`"subject":{"kind":"tool_call","id":"call_1"},"prompt":"?","timing":"deferred","consentMode":"not_required",` +
		`"response":{"format":"structured","jsonSchema":` + schema + `},"delivery":{"binding":"https"},` +
		`"expiresAt":"2026-07-30T19:00:00Z"}`)
}

// fuzzReceipt is a rejected receipt with extra members appended.
func fuzzReceipt(extra string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","responseId":` +
		`"0198c7d0-2180-7729-b005-d33c99fc7452","status":"rejected","retryable":false,` +
		`"receivedAt":"2026-07-30T17:05:13Z","error":{"code":"answer_invalid","message":"no"}` + extra + `}`)
}

// FuzzParse: core.Parse of any bytes as any kind never panics, and its report keeps the promises of D13/D14:
// every error carries the kind's code, a well-formed RFC 6901 pointer that names a member of the document (or,
// for required, a missing member of one), a keyword and a message; the errors are sorted by pointer then keyword
// and none is repeated; Validate says the same; and parsing the same bytes again gives the same verdict and value.
// Seeds: every standalone vector, and the hostile values of internal/fuzzseed alone and inside each kind.
func FuzzParse(f *testing.F) {
	corpus, err := conformance.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range corpus.Standalone {
		for _, v := range file.Vectors {
			f.Add(v.Bytes())
		}
	}
	for _, s := range fuzzseed.Values() {
		v := string(s.Bytes)
		f.Add(s.Bytes)
		f.Add(fuzzResponse(`"answer":` + v))
		f.Add(fuzzResponse(`"answer":"yes","explanation":` + v))
		f.Add(fuzzRequest(v))
		f.Add(fuzzRequest(`{"properties":{"a":` + v + `}}`))
		f.Add(fuzzReceipt(`,"extra":` + v))
	}
	long := strings.Repeat("n", fuzzseed.LongName)
	f.Add(fuzzResponse(`"answer":"yes","` + long + `":1`))
	f.Add(fuzzResponse(`"answer":"yes","answer":"no","confidence":0.5,"confidence":2`))
	f.Add(fuzzReceipt(`,"` + strings.Repeat("~/", fuzzseed.LongName/2) + `":1,"status":"accepted"`))
	f.Add(fuzzRequest(`{"type":"object","required":["` + long + `"],"properties":{"` + long + `":{"pattern":"^a+$"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range []core.Kind{core.KindRequest, core.KindResponse, core.KindReceipt} {
			checkParse(t, kind, data)
		}
	})
}

// kindCode is the standalone code of each kind.
var kindCode = map[core.Kind]core.Code{
	core.KindRequest: core.CodeInvalidRequest, core.KindResponse: core.CodeInvalidResponse, core.KindReceipt: core.CodeInvalidReceipt,
}

func checkParse(t *testing.T, kind core.Kind, data []byte) {
	doc := core.Parse(kind, data)
	if doc.Kind != kind {
		t.Fatalf("%s: Parse returned a document of kind %q", kind, doc.Kind)
	}
	checkErrors(t, kind, doc)
	if got := core.Validate(kind, data); !reflect.DeepEqual(got, doc.Errors) {
		t.Fatalf("%s: Validate and Parse disagree:\nValidate: %v\nParse:    %v", kind, got, doc.Errors)
	}
	again := core.Parse(kind, data)
	if !reflect.DeepEqual(again.Errors, doc.Errors) {
		t.Fatalf("%s: two parses of the same bytes disagree:\n%v\n%v", kind, doc.Errors, again.Errors)
	}
	if (doc.Value == nil) != (again.Value == nil) || doc.Value != nil && !core.EqualJSON(doc.Value, again.Value) {
		t.Fatalf("%s: two parses of the same bytes decode different values", kind)
	}
	if doc.Valid() && doc.Object() == nil {
		t.Fatalf("%s: a valid document that is not a JSON object: %.200q", kind, data)
	}
}

// checkErrors checks a standalone report against D13 and D14.
func checkErrors(t *testing.T, kind core.Kind, doc *core.Document) {
	t.Helper()
	_, derr := core.DecodeJSON(doc.Raw)
	decoded := derr == nil
	if decoded != (doc.Value != nil || string(bytes.TrimSpace(doc.Raw)) == "null") {
		t.Fatalf("%s: DecodeJSON and Parse disagree on whether %.200q is JSON", kind, doc.Raw)
	}
	for i, e := range doc.Errors {
		if e.Code != kindCode[kind] {
			t.Fatalf("%s: error %d has code %q, want %q: %v", kind, i, e.Code, kindCode[kind], e)
		}
		if e.Document != "" {
			t.Fatalf("%s: a standalone error names a document (%q): %v", kind, e.Document, e)
		}
		if e.Keyword == "" || strings.TrimSpace(e.Message) == "" {
			t.Fatalf("%s: error %d without a keyword or a message: %#v", kind, i, e)
		}
		if msg := checkPointer(e.Pointer); msg != "" {
			t.Fatalf("%s: error %d: pointer %.200q is not an RFC 6901 pointer: %s", kind, i, e.Pointer, msg)
		}
		if !decoded {
			// D13: malformed text is a json error at the root; an I-JSON violation (a duplicate name, a lone
			// surrogate) a json error at its member; a bound (size, nesting) a size error at the root or at the
			// container past it.
			if e.Keyword != core.KeywordJSON && e.Keyword != core.KeywordSize {
				t.Fatalf("%s: undecodable bytes, yet error %d is not a json or size error: %v", kind, i, e)
			}
			continue
		}
		if _, ok := resolve(doc.Value, e.Pointer); !ok {
			parent, _ := splitPointer(e.Pointer)
			if _, ok := resolve(doc.Value, parent); e.Keyword != "required" || !ok {
				t.Fatalf("%s: error %d points at %.200q, which the document does not hold: %v", kind, i, e.Pointer, e)
			}
		}
		if i == 0 {
			continue
		}
		p := doc.Errors[i-1]
		switch {
		case p.Pointer > e.Pointer || p.Pointer == e.Pointer && p.Keyword > e.Keyword:
			t.Fatalf("%s: errors not sorted by pointer, then keyword (D14):\n%v\n%v", kind, p, e)
		case p == e:
			t.Fatalf("%s: error repeated (D14): %v", kind, e)
		}
	}
	if !decoded && len(doc.Errors) != 1 {
		t.Fatalf("%s: undecodable bytes must give exactly one error, got %v", kind, doc.Errors)
	}
}

// checkPointer says why p is not an RFC 6901 JSON Pointer, or "".
func checkPointer(p string) string {
	if !utf8.ValidString(p) {
		return "not valid UTF-8"
	}
	if p != "" && p[0] != '/' {
		return "does not start with /"
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || p[i+1] != '0' && p[i+1] != '1') {
			return "~ not followed by 0 or 1"
		}
	}
	return ""
}

// splitPointer splits a non-empty pointer into its parent and last (unescaped) token.
func splitPointer(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", ""
	}
	return p[:i], strings.ReplaceAll(strings.ReplaceAll(p[i+1:], "~1", "/"), "~0", "~")
}

// resolve evaluates an RFC 6901 pointer against a decoded JSON value.
func resolve(v any, p string) (any, bool) {
	if p == "" {
		return v, true
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			m, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = m
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// FuzzJSONSchema: a request's response.jsonSchema is compiled by core.Parse (§3, D11) after the D24 bounds
// are checked. Whatever JSON the schema is, the parse never panics, finishes within two seconds, reports only
// failures at or under /response/jsonSchema (the rest of the request is valid), and a request it accepts holds a
// jsonSchema within the D24 bounds. A response to an accepted request, with the second fuzzed value as its answer,
// is checked against the compiled schema within two seconds too, and fails only with answer_invalid.
func FuzzJSONSchema(f *testing.F) {
	corpus, err := conformance.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range corpus.Standalone {
		for _, v := range file.Vectors {
			if v.Kind != string(core.KindRequest) {
				continue
			}
			if js, ok := jsonSchemaOf(v.Bytes()); ok {
				f.Add(js, []byte(`{}`))
			}
		}
	}
	for _, s := range fuzzseed.Values() {
		f.Add(s.Bytes, []byte(`{}`))
		f.Add([]byte(`{"type":"array","items":{"type":"integer","maximum":1e400}}`), s.Bytes)
		f.Add([]byte(`{"properties":{"a":`+string(s.Bytes)+`}}`), []byte(`{"a":1}`))
	}
	nested := func(n int, open, leaf, close string) []byte {
		return []byte(strings.Repeat(open, n) + leaf + strings.Repeat(close, n))
	}
	refs := `{"$defs":{"d0":{"type":"integer"}`
	for i := 1; i < 1000; i++ {
		refs += `,"d` + strconv.Itoa(i) + `":{"$ref":"#/$defs/d` + strconv.Itoa(i-1) + `"}`
	}
	refs += `},"$ref":"#/$defs/d999"}`
	patterns := `{"allOf":[` + strings.Repeat(`{"pattern":"^(a|b|c){1,1000}$"},`, 63) + `{"pattern":"^(a|b|c){1,1000}$"}]}`
	for _, seed := range [][2]string{
		{string(nested(64, `{"items":`, `{}`, `}`)), string(nested(63, `[`, `1`, `]`))},
		{string(nested(65, `{"items":`, `{}`, `}`)), `[]`},
		{string(nested(3000, `{"items":`, `{}`, `}`)), `[]`},
		{string(nested(1500, `{"anyOf":[`, `{}`, `]}`)), `1`},
		{refs, `1`},
		{refs, `"x"`},
		{patterns, `"` + strings.Repeat("abc", 333) + `"`},
		{`{"pattern":"(?<=a)b"}`, `"b"`},
		{`{"pattern":"\\p{Foo}"}`, `"b"`},
		{`{"$ref":"https://example.com/schema"}`, `1`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}`, `1`},
		{`{"type":"integer","multipleOf":1e-400}`, `9007199254740993`},
		{`{"type":"number","multipleOf":0.0001,"maximum":1e308}`, `1e1000`},
		{`{"enum":[` + strings.Repeat(`"a",`, 2999) + `"b"]}`, `"b"`},
		{`{"uniqueItems":true}`, `[` + strings.Repeat(`{"a":[1,2,3]},`, 2000) + `1]`},
		{`{"format":"date-time"}`, `"2016-12-31T23:59:60Z"`},
		{`{"format":"regex"}`, `"(("`},
		// A $ref cycle with a deep answer costs the schema library time cubic in the depth (250: ~0.2 s, 500: ~2 s).
		{`{"dependentSchemas":{"a":{"$ref":"#"}},"properties":{"a":{"$ref":"#"}}}`, string(nested(250, `{"a":`, `1`, `}`))},
		{`true`, `null`},
		{`false`, `null`},
		{`{"minLength":1e400}`, `"a"`},
		{`{"maxLength":9007199254740993}`, `"a"`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, schema, answer []byte) {
		if _, err := core.DecodeJSON(schema); err != nil {
			return
		}
		data := fuzzRequest(string(schema))
		start := time.Now()
		req := core.Parse(core.KindRequest, data)
		took := time.Since(start)
		if !raceEnabled && took > 2*time.Second {
			t.Fatalf("parsing a request took %v: %.300s", took, schema)
		}
		checkErrors(t, core.KindRequest, req)
		for _, e := range req.Errors {
			if e.Pointer != "/response/jsonSchema" && !strings.HasPrefix(e.Pointer, "/response/jsonSchema/") {
				t.Fatalf("an error outside the jsonSchema: %v", e)
			}
		}
		if !req.Valid() {
			return
		}
		js := req.Object()["response"].(map[string]any)["jsonSchema"]
		if depth, nodes := measure(js); depth > core.MaxSchemaDepth || nodes > core.MaxSchemaNodes {
			t.Fatalf("accepted a jsonSchema %d deep holding %d values (D24: at most %d and %d)", depth, nodes, core.MaxSchemaDepth, core.MaxSchemaNodes)
		}
		if n := len(core.CompactJSON(js)); n > core.MaxSchemaBytes {
			t.Fatalf("accepted a jsonSchema of %d bytes (D24: at most %d)", n, core.MaxSchemaBytes)
		}
		if _, err := core.DecodeJSON(answer); err != nil {
			return
		}
		resp := core.Parse(core.KindResponse, fuzzResponse(`"answer":`+string(answer)))
		if !resp.Valid() {
			return // a number past D22: the response is refused before its answer is checked
		}
		start = time.Now()
		errs := core.CheckResponse(req, resp)
		if took := time.Since(start); !raceEnabled && took > 2*time.Second {
			t.Fatalf("checking an answer took %v:\nschema: %.300s\nanswer: %.300s", took, schema, answer)
		}
		for _, e := range errs {
			if e.Code != core.CodeAnswerInvalid || e.Document != core.RoleResponse || e.Message == "" || checkPointer(e.Pointer) != "" {
				t.Fatalf("a response that differs from its request only by its answer fails with %v", e)
			}
			if e.Pointer != "/answer" && !strings.HasPrefix(e.Pointer, "/answer/") {
				t.Fatalf("an answer error outside /answer: %v", e)
			}
		}
	})
}

// jsonSchemaOf returns the text of a request's response.jsonSchema.
func jsonSchemaOf(request []byte) ([]byte, bool) {
	v, err := core.DecodeJSON(request)
	if err != nil {
		return nil, false
	}
	m, _ := v.(map[string]any)
	r, _ := m["response"].(map[string]any)
	js, ok := r["jsonSchema"]
	if !ok {
		return nil, false
	}
	return core.CompactJSON(js), true
}

// measure returns how deeply objects and arrays nest in v (v itself at depth 1, as D24 counts) and how many JSON
// values it holds.
func measure(v any) (depth, nodes int) {
	type item struct {
		v any
		d int
	}
	stack := []item{{v, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes++
		switch x := it.v.(type) {
		case map[string]any:
			depth = max(depth, it.d)
			for _, m := range x {
				stack = append(stack, item{m, it.d + 1})
			}
		case []any:
			depth = max(depth, it.d)
			for _, m := range x {
				stack = append(stack, item{m, it.d + 1})
			}
		}
	}
	return depth, nodes
}
