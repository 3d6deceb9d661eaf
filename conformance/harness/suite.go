package harness

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// Options say what a binding's target can carry.
type Options struct {
	// Carries lists the scenario requirements (Scenario.Requires) the binding's transport can carry, such as
	// conformance.RequiresRawBody. A scenario that requires something else is reported as not carried by this
	// binding (t.Log), never silently dropped.
	Carries []string
}

// Suite runs the whole collector scenario corpus against a binding's target, each scenario as a subtest: the
// binding's receipts must be byte-identical to the core's for the same scenario, and every step's binding-neutral
// expectation must hold. It returns the receipt codes the binding returned, so the binding's test can check that
// its wire mapping was exercised for every code.
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
