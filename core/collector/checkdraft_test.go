package collector_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// TestCheckDraft: CheckDraft takes what Issue takes and names, as required at its pointer, each member a draft
// lacks — the same rules Issue applies, with no collector behind them.
func TestCheckDraft(t *testing.T) {
	const valid = `{"type":"feedback","subject":{"kind":"task","id":"t1"},"prompt":"Was it right?","timing":"immediate",
"consentMode":"not_required","response":{"format":"boolean"}}`
	for _, tc := range []struct {
		name, draft string
		required    []string // pointers reported as required; nil for a draft Issue takes
	}{
		{"valid", valid, nil},
		{"no prompt", strings.Replace(valid, `"prompt":"Was it right?",`, "", 1), []string{"/prompt"}},
		{"no subject id", strings.Replace(valid, `,"id":"t1"`, "", 1), []string{"/subject/id"}},
		{"ask_once without a scope", strings.Replace(valid, `"not_required"`, `"ask_once"`, 1), []string{"/consentScope"}},
		{"ask_once with a scope", strings.Replace(valid, `"not_required"`, `"ask_once","consentScope":"aqp-demo:feedback"`, 1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var draft map[string]any
			dec := json.NewDecoder(strings.NewReader(tc.draft))
			dec.UseNumber()
			if err := dec.Decode(&draft); err != nil {
				t.Fatal(err)
			}
			err := collector.CheckDraft(draft)
			if tc.required == nil {
				if err != nil {
					t.Fatalf("CheckDraft: %v", err)
				}
				return
			}
			var ie *collector.IssueError
			if !errors.As(err, &ie) {
				t.Fatalf("CheckDraft = %v, want an *IssueError", err)
			}
			for _, p := range tc.required {
				if !slices.ContainsFunc(ie.Errors, func(e core.Error) bool { return e.Keyword == "required" && e.Pointer == p }) {
					t.Errorf("no required error at %s in %v", p, ie.Errors)
				}
			}
		})
	}
}
