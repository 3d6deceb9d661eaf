// Package harnesstest is the harness's two test suites, which a binding's conformance_test.go calls: Suite runs the
// whole collector scenario corpus over a target, CarriageSuite the binding's carriage vectors through its codec. It
// is apart from the harness because it links testing, and the harness is linked into `aqp`.
package harnesstest

import (
	"context"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
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
func Suite(t *testing.T, factory harness.Factory, opts Options) map[core.Code]bool {
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
				want, err := harness.Run(ctx, sc, harness.Core)
				if err != nil {
					t.Fatalf("core: %v", err)
				}
				got, err := harness.Run(ctx, sc, factory)
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
					if c, ok := harness.ReceiptCode(got.Receipts[i]); ok {
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
