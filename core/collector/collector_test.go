package collector_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// fixture is a collector on a memory store with a controllable clock and predictable ids.
type fixture struct {
	c   *collector.Collector
	now time.Time
	ids []string
}

func newFixture(t *testing.T, rules string) *fixture {
	t.Helper()
	f := &fixture{now: time.Date(2026, 7, 30, 17, 0, 0, 0, time.UTC)}
	n := 0
	var mu sync.Mutex
	cfg := collector.Config{
		Store:     memory.New(),
		PublicURL: "https://collector.example",
		Endpoints: []collector.Endpoint{{Binding: "https", Path: "/aqp/v1/responses"}, {Binding: "mcp", Path: "/mcp", Operation: "aqp_submit_response"}},
		Clock:     func() time.Time { return f.now },
		NewID: func() (string, error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			id := "0198c7cb-1af1-7e79-bd7f-" + strings.Repeat("0", 12-len(itoa(n))) + itoa(n)
			f.ids = append(f.ids, id)
			return id, nil
		},
	}
	if rules != "" {
		r, err := collector.ParseRules([]byte(rules))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Rules = r
	}
	c, err := collector.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.c = c
	return f
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

const draft = `{"type":"clarification","subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","idScope":"local","protocol":"mcp"},
"requestedRespondent":"agent","prompt":"Did this tool result fully answer the user's request?","timing":"after_outcome_known",
"consentMode":"not_required","response":{"format":"choice","choices":["yes","partly","no"]}}`

func (f *fixture) issue(t *testing.T, d string) (id, auth string) {
	t.Helper()
	req, err := f.c.Issue(context.Background(), []byte(d))
	if err != nil {
		t.Fatal(err)
	}
	if errs := core.Validate(core.KindRequest, req); len(errs) > 0 {
		t.Fatalf("issued request invalid: %v", errs)
	}
	var r struct {
		QueryID  string `json:"queryId"`
		Delivery struct {
			Authorization string `json:"authorization"`
		} `json:"delivery"`
	}
	_ = json.Unmarshal(req, &r)
	return r.QueryID, r.Delivery.Authorization
}

func response(queryID, responseID, answer string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"` + responseID + `","queryId":"` + queryID + `",
"subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","protocol":"mcp"},"respondent":{"kind":"agent","provenance":"direct"},
"answer":` + answer + `,"createdAt":"2026-07-30T17:05:12Z"}`)
}

func TestSubmitLifecycle(t *testing.T) {
	f := newFixture(t, `{"rules":[{"name":"why","when":{"answers":["partly"]},"draft":{"type":"clarification","prompt":"What was missing?","timing":"immediate","consentMode":"not_required","response":{"format":"text","maxLength":2000}}}]}`)
	ctx := context.Background()
	q, auth := f.issue(t, draft)
	other, otherAuth := f.issue(t, draft)
	_ = other
	r1 := "0198c7d0-2180-7729-b005-d33c99fc7452"
	r2 := "0198c7d0-2180-7729-b005-d33c99fc7453"
	cases := []struct {
		name string
		body []byte
		auth string
		code core.Code
	}{
		{"missing capability", response(q, r1, `"partly"`), "", "unauthorized"},
		{"another query's capability", response(q, r1, `"partly"`), otherAuth, "unauthorized"},
		{"answer not a choice", response(q, r1, `"maybe"`), auth, "answer_invalid"},
		{"corrected answer accepted", response(q, r1, `"partly"`), auth, ""},
		{"other responseId", response(q, r2, `"yes"`), auth, "already_answered"},
		{"same responseId other content", response(q, r1, `"no"`), auth, "response_id_conflict"},
	}
	var accepted []byte
	for _, tc := range cases {
		out := f.c.Submit(ctx, collector.Submission{Body: tc.body, Authorization: tc.auth})
		if out.Problem != nil || out.Code != tc.code {
			t.Fatalf("%s: got code %q problem %v receipt %s", tc.name, out.Code, out.Problem, out.Receipt)
		}
		if errs := core.Validate(core.KindReceipt, out.Receipt); len(errs) > 0 {
			t.Fatalf("%s: receipt invalid: %v\n%s", tc.name, errs, out.Receipt)
		}
		if tc.code == "" {
			accepted = out.Receipt
		}
	}
	if !strings.Contains(string(accepted), `"continuation"`) {
		t.Fatalf("accepted receipt has no continuation: %s", accepted)
	}
	f.now = f.now.Add(48 * time.Hour)
	out := f.c.Submit(ctx, collector.Submission{Body: response(q, r1, `"partly"`), Authorization: auth})
	if string(out.Receipt) != string(accepted) || !out.Duplicate {
		t.Fatalf("duplicate after expiry:\n got %s\nwant %s", out.Receipt, accepted)
	}
	p := core.Pair{Response: core.Parse(core.KindResponse, response(q, r1, `"partly"`)), Receipt: core.Parse(core.KindReceipt, accepted), Duplicate: core.Parse(core.KindReceipt, out.Receipt)}
	if errs := core.ValidatePair(p); len(errs) > 0 {
		t.Fatalf("pair: %v", errs)
	}
	t.Logf("%s", accepted)
}

// TestRacingSubmissions: racing different responses, exactly one is accepted and the rest are already_answered;
// racing duplicates of one response, every one gets the same receipt bytes (with its continuation).
func TestRacingSubmissions(t *testing.T) {
	f := newFixture(t, `{"rules":[{"name":"why","draft":{"type":"clarification","prompt":"Why?","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`)
	ctx := context.Background()
	run := func(bodies [][]byte, auth string) []collector.Outcome {
		outs := make([]collector.Outcome, len(bodies))
		done := make(chan int)
		for i := range bodies {
			go func(i int) {
				outs[i] = f.c.Submit(ctx, collector.Submission{Body: bodies[i], Authorization: auth})
				done <- i
			}(i)
		}
		for range bodies {
			<-done
		}
		return outs
	}
	q, auth := f.issue(t, draft)
	var different [][]byte
	for i := 0; i < 20; i++ {
		different = append(different, response(q, "0198c7d0-2180-7729-b005-d33c99fc74"+string(rune('a'+i/10))+string(rune('0'+i%10)), `"yes"`))
	}
	accepted, answered := 0, 0
	for _, o := range run(different, auth) {
		switch {
		case o.Accepted:
			accepted++
		case o.Code == "already_answered":
			answered++
		}
	}
	if accepted != 1 || answered != 19 {
		t.Fatalf("different responses: %d accepted, %d already_answered", accepted, answered)
	}

	q2, auth2 := f.issue(t, draft)
	same := make([][]byte, 20)
	for i := range same {
		same[i] = response(q2, "0198c7d0-2180-7729-b005-d33c99fc7452", `"no"`)
	}
	outs := run(same, auth2)
	for _, o := range outs {
		if !o.Accepted || string(o.Receipt) != string(outs[0].Receipt) {
			t.Fatalf("racing duplicates got different receipts:\n%s\n%s", o.Receipt, outs[0].Receipt)
		}
	}
	if !strings.Contains(string(outs[0].Receipt), `"continuation"`) {
		t.Fatalf("no continuation: %s", outs[0].Receipt)
	}
}

// httpsOnly is the endpoint set of a collector that serves the HTTPS binding alone.
var httpsOnly = []collector.Endpoint{{Binding: "https", Path: "/aqp/v1/responses"}}
