package collector_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/fuzzseed"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// allBindings are the endpoints of a collector that serves every pinned binding.
var allBindings = []collector.Endpoint{
	{Binding: "https", Path: "/aqp/v1/responses"},
	{Binding: "mcp", Path: "/mcp", Operation: "aqp_submit_response"},
	{Binding: "a2a", Path: "/a2a", Operation: "aqp.submitResponse"},
}

// rulesDraft is a valid continuation draft with room for more members.
func rulesDraft(extra string) string {
	return `{"type":"feedback","prompt":"Why?","timing":"immediate","consentMode":"not_required","response":{"format":"text"}` + extra + `}`
}

// FuzzParseRules: collector.ParseRules never panics on any bytes and every refusal says which rule (or the file)
// is wrong. A rule set it accepts is usable: a collector serving https, mcp and a2a is built with it, and one
// serving only https is built or refused with an error naming the rule. Then a clarification query with a text
// answer is answered over each binding: the response is accepted with a receipt that is valid and pairs with the
// response and request (core.CheckPair, continuation included), and it carries a continuation exactly when a
// rule's when matches (type clarification, format text, answer "x"), about the response, over the rule's binding
// or the answered query's.
func FuzzParseRules(f *testing.F) {
	if y, err := os.ReadFile("../../examples/continuations.yaml"); err != nil {
		f.Fatal(err)
	} else if j, err := yaml.YAMLToJSON(y); err != nil {
		f.Fatal(err)
	} else {
		f.Add(j)
	}
	f.Add([]byte(fuzzRules))
	f.Add([]byte(`{"rules":[]}`))
	f.Add([]byte(`{"rules":null}`))
	for _, b := range []string{"https", "mcp", "a2a", "smtp", ""} {
		f.Add([]byte(`{"rules":[{"name":"to-` + b + `","draft":` + rulesDraft(`,"binding":"`+b+`","ttlSeconds":6e1`) + `}]}`))
	}
	f.Add([]byte(`{"rules":[{"name":"match","when":{"types":["clarification"],"formats":["text"],"answers":["y","x"]},"draft":` +
		rulesDraft(`,"response":{"format":"structured","jsonSchema":{"type":"integer","maximum":9007199254740993}}`) + `},` +
		`{"name":"never","when":{"types":["survey"]},"draft":` + rulesDraft("") + `}]}`))
	long := strings.Repeat("r", fuzzseed.LongName)
	f.Add([]byte(`{"rules":[{"name":"` + long + `","when":{"types":["` + long + `"]},"draft":` + rulesDraft(`,"prompt":"`+long+`"`) + `}]}`))
	f.Add([]byte(`{"rules":[{"name":"dup","name":"dup2","draft":` + rulesDraft(`,"type":"survey","ttlSeconds":1,"ttlSeconds":86401`) + `}]}`))
	f.Add([]byte(`{"rules":[{"name":"sub","draft":` + rulesDraft(`,"subject":{"kind":"task","id":"t"}`) + `}]}`))
	for _, s := range fuzzseed.Values() {
		v := string(s.Bytes)
		f.Add(s.Bytes)
		f.Add([]byte(`{"rules":[{"name":"a","when":{"answers":[` + v + `,"x"]},"draft":` + rulesDraft("") + `}]}`))
		f.Add([]byte(`{"rules":[{"name":"d","draft":` + rulesDraft(`,"response":{"format":"structured","jsonSchema":`+v+`}`) + `}]}`))
		f.Add([]byte(`{"rules":[{"name":"n","draft":` + v + `}]}`))
		f.Add([]byte(`{"rules":[{"name":` + v + `,"draft":` + rulesDraft(`,"context":`+v) + `}]}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := collector.ParseRules(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "continuation rule") {
				t.Fatalf("a refusal that names neither the rules nor a rule: %v", err)
			}
			return
		}
		if rules == nil {
			t.Fatal("neither rules nor an error")
		}
		if _, err := newRulesCollector(rules, allBindings[:1]); err != nil && !strings.Contains(err.Error(), "continuation rule ") {
			t.Fatalf("a collector serving https only refuses the rules without naming one: %v", err)
		}
		c, err := newRulesCollector(rules, allBindings)
		if err != nil {
			t.Fatalf("accepted rules refused by a collector serving every binding: %v", err)
		}
		want := expectedRule(rules)
		ctx := context.Background()
		for i, b := range allBindings {
			req, err := c.Issue(ctx, []byte(hostileDraft(`"response":{"format":"text"},"binding":"`+b.Binding+`"`)))
			if err != nil {
				t.Fatal(err)
			}
			reqDoc := core.Parse(core.KindRequest, req)
			id := reqDoc.Object()["queryId"].(string)
			auth := reqDoc.Object()["delivery"].(map[string]any)["authorization"].(string)
			rid := "0198c7d0-2180-7729-b005-d33c99fc745" + itoa(i)
			body := response(id, rid, `"x"`)
			out := c.Submit(ctx, collector.Submission{Body: body, Authorization: auth, Binding: b.Binding})
			if !out.Accepted {
				t.Fatalf("over %s: a valid answer is not accepted: %+v %s", b.Binding, out.Problem, out.Receipt)
			}
			rec := core.Parse(core.KindReceipt, out.Receipt)
			if !rec.Valid() {
				t.Fatalf("over %s: receipt invalid: %v\n%.2000s", b.Binding, rec.Errors, out.Receipt)
			}
			p := core.Pair{Request: reqDoc, Response: core.Parse(core.KindResponse, body), Receipt: rec}
			if errs := core.CheckPair(p); len(errs) > 0 {
				t.Fatalf("over %s: receipt does not pair: %v\n%.2000s", b.Binding, errs, out.Receipt)
			}
			cont, has := rec.Object()["continuation"].(map[string]any)
			if has != (want != nil) {
				t.Fatalf("over %s: continuation %v, but the rule that should match is %v", b.Binding, has, want)
			}
			if !has {
				continue
			}
			wantBinding := b.Binding
			if rb, ok := want.Draft["binding"].(string); ok {
				wantBinding = rb
			}
			if got := cont["delivery"].(map[string]any)["binding"]; got != wantBinding {
				t.Fatalf("rule %q over %s: continuation over %v, want %s", want.Name, b.Binding, got, wantBinding)
			}
			if subject := cont["subject"].(map[string]any); subject["id"] != rid || subject["kind"] != "response" {
				t.Fatalf("rule %q: continuation about %v, want response %s", want.Name, subject, rid)
			}
		}
	})
}

// newRulesCollector builds a collector on a memory store with a fixed clock.
func newRulesCollector(rules *collector.Rules, endpoints []collector.Endpoint) (*collector.Collector, error) {
	return collector.New(collector.Config{
		Store:     memory.New(),
		PublicURL: "https://collector.example",
		Endpoints: endpoints,
		Rules:     rules,
		Clock:     func() time.Time { return time.Date(2026, 7, 30, 17, 0, 0, 0, time.UTC) },
	})
}

// matchingRule is a rule that applies, with its draft decoded.
type matchingRule struct {
	Name  string
	Draft map[string]any
}

// expectedRule is the first rule whose when holds for a clarification query with a text response answered "x",
// read from the rules' own JSON rather than from the collector's matcher.
func expectedRule(rules *collector.Rules) *matchingRule {
	for _, r := range rules.Rules {
		if len(r.When.Types) > 0 && !contains(r.When.Types, "clarification") || len(r.When.Formats) > 0 && !contains(r.When.Formats, "text") {
			continue
		}
		if len(r.When.Answers) > 0 {
			found := false
			for _, a := range r.When.Answers {
				v, err := core.DecodeJSON(a)
				if err == nil && core.EqualJSON(v, "x") {
					found = true
				}
			}
			if !found {
				continue
			}
		}
		var draft map[string]any
		_ = json.Unmarshal(r.Draft, &draft)
		return &matchingRule{Name: r.Name, Draft: draft}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
