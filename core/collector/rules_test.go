package collector_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// TestExampleRules loads the documented example, which must stay a working rules file.
func TestExampleRules(t *testing.T) {
	r, err := collector.LoadRules("../../examples/continuations.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rules) != 2 || r.Rules[0].Name != "ask-what-was-missing" {
		t.Fatalf("rules: %+v", r.Rules)
	}
}

func TestBadRulesAreRefused(t *testing.T) {
	cases := map[string]string{
		"unknown member":       `{"rules":[{"name":"x","whenn":{},"draft":{}}]}`,
		"no name":              `{"rules":[{"draft":{"type":"feedback","prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`,
		"draft sets subject":   `{"rules":[{"name":"x","draft":{"subject":{"kind":"task","id":"t"},"type":"feedback","prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`,
		"draft breaks schema":  `{"rules":[{"name":"x","draft":{"type":"opinion","prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`,
		"draft sets queryId":   `{"rules":[{"name":"x","draft":{"queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback","prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`,
		"ttl out of range":     `{"rules":[{"name":"x","draft":{"ttlSeconds":90000,"type":"feedback","prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`,
		"jsonSchema not local": `{"rules":[{"name":"x","draft":{"type":"feedback","prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"structured","jsonSchema":{"$ref":"https://example.com/s.json"}}}}]}`,
	}
	for name, rules := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := collector.ParseRules([]byte(rules)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	path := filepath.Join(t.TempDir(), "r.yml")
	_ = os.WriteFile(path, []byte("rules:\n  - name: [unclosed\n"), 0o600)
	if _, err := collector.LoadRules(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("bad YAML: %v", err)
	}
}
