package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Options say what a binding's target can carry.
type Options struct {
	// Binding names the binding in failure messages.
	Binding string
	// Carries lists the scenario requirements (Scenario.Requires) the binding's transport can carry, such as
	// conformance.RequiresRawBody. A scenario that requires something else is reported as not carried by this
	// binding (t.Log), never silently dropped.
	Carries []string
}

// Suite runs the whole collector scenario corpus against a binding's target, each scenario as a subtest: the
// binding's receipts must be byte-identical to the core's for the same scenario, and every step's binding-neutral
// expectation must hold. It fails unless the binding returned every receipt code and an accepted receipt, so the
// target's check of its wire mapping ran for every code; it returns the codes seen.
func Suite(t *testing.T, factory Factory, opts Options) map[core.Code]bool {
	t.Helper()
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[core.Code]bool{}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			t.Run(sc.Name, func(t *testing.T) {
				for _, req := range sc.Requires {
					if !slices.Contains(opts.Carries, req) {
						t.Logf("not carried by this binding: the scenario requires %q", req)
						return
					}
				}
				ctx := context.Background()
				want, err := Run(ctx, sc, Core)
				if err != nil {
					t.Fatalf("core: %v", err)
				}
				got, err := Run(ctx, sc, factory)
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Receipts) != len(want.Receipts) {
					t.Fatalf("%d receipts, core gave %d", len(got.Receipts), len(want.Receipts))
				}
				for i := range want.Receipts {
					if string(got.Receipts[i]) != string(want.Receipts[i]) {
						t.Errorf("receipt of submission %d differs from core's:\n got %s\nwant %s", i, got.Receipts[i], want.Receipts[i])
					}
					if c, ok := ReceiptCode(got.Receipts[i]); ok {
						seen[c] = true
					}
				}
			})
		}
	}
	for _, c := range core.ReceiptCodes() {
		if !seen[c] {
			t.Errorf("no scenario reached %s over %s: its wire mapping is untested", c, opts.Binding)
		}
	}
	if !seen[""] {
		t.Errorf("no scenario was accepted over %s", opts.Binding)
	}
	return seen
}

// ReceiptCode reads a receipt's error.code ("" for an accepted receipt); ok is false when the bytes are not a
// receipt. Targets use it to check their wire mapping for the code.
func ReceiptCode(receipt []byte) (core.Code, bool) {
	if receipt == nil {
		return "", false
	}
	var r struct {
		Status string `json:"status"`
		Error  *struct {
			Code core.Code `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(receipt, &r) != nil || r.Status == "" {
		return "", false
	}
	if r.Error == nil {
		return "", true
	}
	return r.Error.Code, true
}

// IssueOverAdminAPI issues a draft through a collector's admin API (POST /admin/v1/queries with the admin token)
// and returns the QueryRequest JSON: how a binding's target issues its scenario's queries over HTTP. A 400 problem
// listing errors is returned as a *collector.IssueError, so a scenario can compare the refusal.
func IssueOverAdminAPI(ctx context.Context, hc *http.Client, baseURL, adminToken string, draft []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/admin/v1/queries", bytes.NewReader(draft))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusBadRequest {
		// A refused draft: the problem's errors, when it lists them, are the refusal a scenario can compare.
		var p struct {
			Errors []core.Error `json:"errors"`
		}
		if json.Unmarshal(body, &p) == nil && len(p.Errors) > 0 {
			return nil, &collector.IssueError{Errors: p.Errors}
		}
	}
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("POST /admin/v1/queries: %s: %s", resp.Status, body)
	}
	return body, nil
}
