package collector_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// hostileDrafts are one query of each response format, plus two structured queries whose jsonSchemas fail deep
// inside an answer: every array nested in arrays, and no members at all.
var hostileDrafts = map[string]string{
	"text":       `"response":{"format":"text","maxLength":10}`,
	"choice":     `"response":{"format":"choice","choices":["yes","no"]}`,
	"boolean":    `"response":{"format":"boolean"}`,
	"number":     `"response":{"format":"number","jsonSchema":{"maximum":10}}`,
	"structured": `"response":{"format":"structured","maxLength":16000,"jsonSchema":{"type":"array","items":{"$ref":"#"}}}`,
	"closed":     `"response":{"format":"structured","jsonSchema":{"type":"object","additionalProperties":false}}`,
}

func hostileDraft(response string) string {
	return `{"type":"clarification","subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","idScope":"local","protocol":"mcp"},
"prompt":"p","timing":"immediate","consentMode":"not_required",` + response + `}`
}

// member returns a JSON member `"name":value` for a body template.
func member(name string, value any) string {
	n, _ := json.Marshal(name)
	v, _ := json.Marshal(value)
	return string(n) + ":" + string(v)
}

// nested returns depth arrays nested around innermost.
func nested(depth int, innermost string) string {
	return strings.Repeat("[", depth) + innermost + strings.Repeat("]", depth)
}

// TestHostileSubmissionsGetSchemaValidReceipts: whatever a submission holds, every receipt the collector writes is
// valid against the receipt schema (error.pointer at most 2,048 characters and an RFC 6901 pointer, message at
// most 1,000) and pairs with the response.
func TestHostileSubmissionsGetSchemaValidReceipts(t *testing.T) {
	f := newFixture(t, "")
	ctx := context.Background()
	ids, auths := map[string]string{}, map[string]string{}
	for name, resp := range hostileDrafts {
		ids[name], auths[name] = f.issue(t, hostileDraft(resp))
	}
	const rid = "0198c7d0-2180-7729-b005-d33c99fc7452"
	// body is a response to the query of format q with answer, plus extra members (already encoded).
	body := func(q, answer string, extra ...string) []byte {
		b := `{"protocolVersion":"2026-07-30","responseId":"` + rid + `","queryId":"` + ids[q] + `",
"subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","protocol":"mcp"},"respondent":{"kind":"agent","provenance":"direct"},
"answer":` + answer + `,"createdAt":"2026-07-30T17:05:12Z"`
		for _, e := range extra {
			b += "," + e
		}
		return []byte(b + "}")
	}
	manyMembers := make([]string, 5000)
	for i := range manyMembers {
		manyMembers[i] = member(strings.Repeat("x", 40)+itoa(i), 1)
	}
	long := strings.Repeat("é", 5000)
	cases := []struct {
		name      string
		q         string
		body      []byte
		code      core.Code
		shortened bool // error.pointer had to be cut back
	}{
		{"3,000-character extra member name", "text", body("text", `"a"`, member(strings.Repeat("a", 3000), 1)), "invalid_response", true},
		{"escaping doubles a member name", "text", body("text", `"a"`, member(strings.Repeat("~/", 1000), 1)), "invalid_response", true},
		{"2,047-character member name fits", "text", body("text", `"a"`, member(strings.Repeat("a", 2046), 1)), "invalid_response", false},
		{"multi-byte member name counts code points", "text", body("text", `"a"`, member(strings.Repeat("😀", 2047), 1)), "invalid_response", false},
		{"1,500-deep answer under a jsonSchema", "structured", body("structured", nested(1500, "1")), "invalid_response", false},
		{"long property name under a jsonSchema", "closed", body("closed", `{`+member(strings.Repeat("p", 3000), 1)+`}`), "answer_invalid", true},
		{"escaped long property name under a jsonSchema", "closed", body("closed", `{`+member(strings.Repeat("/~", 1100), 1)+`}`), "answer_invalid", true},
		{"5,000 extra members", "text", body("text", `"a"`, manyMembers...), "invalid_response", false},
		{"huge number answer", "number", body("number", "1e400"), "answer_invalid", false},
		{"huge negative confidence", "text", body("text", `"a"`, `"confidence":-1e400`), "invalid_response", false},
		{"long number text", "number", body("number", strings.Repeat("9", 100000)), "invalid_response", false},
		{"exponent past a million", "text", body("text", `"a"`, `"confidence":1e1000001`), "invalid_response", false},
		{"many huge exponents", "structured", body("structured", "["+strings.Repeat("[1e999999],", 1000)+"[]]"), "invalid_response", false},
		{"long text answer", "text", body("text", `"`+long+`"`), "answer_invalid", false},
		{"long explanation", "text", body("text", `"a"`, member("explanation", long)), "invalid_response", false},
		{"long consent scope", "text", body("text", `"a"`, `"consent":{"granted":true,"obtainedAt":"2026-07-30T17:00:00Z","scope":"`+long+`"}`), "invalid_response", false},
		{"long respondent id", "text", []byte(strings.Replace(string(body("text", `"a"`)), `"provenance":"direct"`, `"provenance":"direct","id":"`+long+`"`, 1)), "invalid_response", false},
		{"long subject id", "text", []byte(strings.Replace(string(body("text", `"a"`)), `"call_01JQ8QY3EJX9"`, `"`+long+`"`, 1)), "invalid_response", false},
		{"long protocolVersion", "text", []byte(strings.Replace(string(body("text", `"a"`)), `"2026-07-30"`, `"`+long+`"`, 1)), "unsupported_version", false},
		{"long choice", "choice", body("choice", `"`+long+`"`), "answer_invalid", false},
		{"deep answer for a boolean", "boolean", body("boolean", nested(9000, "true")), "invalid_response", false},
		{"deep unknown member", "text", body("text", `"a"`, `"deep":`+nested(9000, "0")), "invalid_response", false},
		{"control characters in a member name", "text", body("text", `"a"`, `"\u0000\n\"/~":1`), "invalid_response", false},
		{"wrong type everywhere", "text", []byte(`{"protocolVersion":"2026-07-30","responseId":"` + rid + `","queryId":"` + ids["text"] + `","subject":[],"respondent":7,"answer":null,"createdAt":false,"consent":"x","confidence":"high"}`), "invalid_response", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := f.c.Submit(ctx, collector.Submission{Body: tc.body, Authorization: auths[tc.q]})
			if out.Problem != nil {
				t.Fatalf("problem: %+v", out.Problem)
			}
			rec := core.Parse(core.KindReceipt, out.Receipt)
			if !rec.Valid() {
				t.Fatalf("receipt invalid against the receipt schema: %v\n%.600s", rec.Errors, out.Receipt)
			}
			if out.Code != tc.code {
				t.Fatalf("code %q, want %q: %.600s", out.Code, tc.code, out.Receipt)
			}
			if errs := core.CheckPair(core.Pair{Response: core.Parse(core.KindResponse, tc.body), Receipt: rec}); len(errs) > 0 {
				t.Fatalf("receipt does not pair with the response: %v", errs)
			}
			e, _ := rec.Object()["error"].(map[string]any)
			ptr, _ := e["pointer"].(string)
			msg, _ := e["message"].(string)
			if got := strings.Contains(msg, "error.pointer was shortened"); got != tc.shortened {
				t.Fatalf("message says shortened: %v, want %v: pointer of %d characters, message %q", got, tc.shortened, utf8.RuneCountInString(ptr), msg)
			}
			if tc.shortened && (!strings.HasPrefix(fullPointer(t, tc.body, tc.q), ptr+"/")) {
				t.Fatalf("shortened pointer %.80q… is not an ancestor of the failing member", ptr)
			}
		})
	}
}

// fullPointer is the unshortened pointer of the first failure of body: the standalone validation's, or the
// paired check's against the query of format q.
func fullPointer(t *testing.T, body []byte, q string) string {
	t.Helper()
	resp := core.Parse(core.KindResponse, body)
	if !resp.Valid() {
		return resp.Errors[0].Pointer
	}
	req := core.Parse(core.KindRequest, []byte(`{"protocolVersion":"2026-07-30","queryId":"`+resp.Object()["queryId"].(string)+`",
"delivery":{"binding":"https","endpoint":"https://collector.example/aqp/v1/responses"},"expiresAt":"2026-07-30T18:00:00Z",`+
		strings.TrimPrefix(hostileDraft(hostileDrafts[q]), "{")))
	if !req.Valid() {
		t.Fatalf("request: %v", req.Errors)
	}
	errs := core.CheckResponse(req, resp)
	if len(errs) == 0 {
		t.Fatal("no failure")
	}
	return errs[0].Pointer
}

// TestRetryAfterStaysInTheSchemasRange: a rate limit of one submission a day or slower still gets a retryAfter
// the receipt schema allows (at most 86,400 seconds).
func TestRetryAfterStaysInTheSchemasRange(t *testing.T) {
	c, err := collector.New(collector.Config{Store: memory.New(), PublicURL: "https://collector.example", Endpoints: httpsOnly,
		FailureLimit: collector.RateLimit{PerSecond: 1e-9, Burst: 1}})
	if err != nil {
		t.Fatal(err)
	}
	body := response("0198c7cb-1af1-7e79-bd7f-000000000001", "0198c7d0-2180-7729-b005-d33c99fc7452", `"yes"`)
	c.Submit(context.Background(), collector.Submission{Body: body, Client: "192.0.2.1"}) // unknown_query spends the budget
	out := c.Submit(context.Background(), collector.Submission{Body: body, Client: "192.0.2.1"})
	if out.Code != "rate_limited" || out.RetryAfter != 86400 {
		t.Fatalf("code %q retryAfter %d", out.Code, out.RetryAfter)
	}
	if errs := core.Validate(core.KindReceipt, out.Receipt); len(errs) > 0 {
		t.Fatalf("receipt invalid: %v\n%s", errs, out.Receipt)
	}
}

// TestDraftTTLSeconds: ttlSeconds is read as JSON Schema reads an integer — 60.0 and 6e1 are 60 — and a fraction,
// a value out of range or a non-number is refused with a precise error at /ttlSeconds.
func TestDraftTTLSeconds(t *testing.T) {
	f := newFixture(t, "")
	with := func(ttl string) string { return strings.Replace(draft, `{"type"`, `{"ttlSeconds":`+ttl+`,"type"`, 1) }
	for _, tc := range []struct {
		ttl, keyword, message, expiresAt string
	}{
		{"60", "", "", "2026-07-30T17:01:00.000Z"},
		{"60.0", "", "", "2026-07-30T17:01:00.000Z"},
		{"6e1", "", "", "2026-07-30T17:01:00.000Z"},
		{"600E-1", "", "", "2026-07-30T17:01:00.000Z"},
		{"86400.000", "", "", "2026-07-31T17:00:00.000Z"},
		{"1", "", "", "2026-07-30T17:00:01.000Z"},
		{"60.5", "type", "has a fraction", ""},
		{"86400.5", "type", "has a fraction", ""},
		{"0.999", "minimum", "at least 1", ""},
		{"0", "minimum", "at least 1", ""},
		{"-5", "minimum", "at least 1", ""},
		{"86401", "maximum", "at most 86400", ""},
		{"86400.0000001", "type", "has a fraction", ""},
		{"1e999999", "maximum", "at most 86400", ""},
		{"1e-999999", "minimum", "at least 1", ""},
		{"60." + strings.Repeat("0", 100), "type", "at most 64 characters", ""},
		{`"60"`, "type", "got a string", ""},
		{`true`, "type", "got the boolean true", ""},
	} {
		req, err := f.c.Issue(context.Background(), []byte(with(tc.ttl)))
		if tc.keyword == "" {
			if err != nil {
				t.Errorf("ttlSeconds %s: %v", tc.ttl, err)
			} else if got := core.Parse(core.KindRequest, req).Object()["expiresAt"]; got != tc.expiresAt {
				t.Errorf("ttlSeconds %s: expiresAt %v, want %s", tc.ttl, got, tc.expiresAt)
			}
			continue
		}
		var ie *collector.IssueError
		if !errors.As(err, &ie) || len(ie.Errors) != 1 || ie.Errors[0].Pointer != "/ttlSeconds" || ie.Errors[0].Keyword != tc.keyword ||
			!strings.Contains(ie.Errors[0].Message, tc.message) {
			t.Errorf("ttlSeconds %.20s: got %v, want /ttlSeconds [%s] saying %q", tc.ttl, err, tc.keyword, tc.message)
		}
	}
}
