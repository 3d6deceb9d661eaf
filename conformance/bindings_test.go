package conformance_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a/a2atest"
	"github.com/agentqueryprotocol/aqp-go/bindings/https/httpstest"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp/mcptest"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// bindingTargets are the bindings every collector scenario runs over, beside the core. Each binding's target lives
// in its own package (bindings/*/*test); this test file may import them, the harness may not.
var bindingTargets = []struct {
	name    string
	factory harness.Factory
	carries []string
}{
	{"https", httpstest.Target, httpstest.Carries},
	{"mcp", mcptest.Target, mcptest.Carries},
	{"a2a", a2atest.Target, a2atest.Carries},
}

// table collects, per scenario, what each binding did: the one table across bindings printed after the suite.
var table = map[string]map[string]string{}

var _ = Describe("one table across bindings", Ordered, func() {
	for _, f := range scenarios {
		for _, sc := range f.Scenarios {
			It(sc.Name+" over core, https, mcp and a2a", func() {
				row := map[string]string{}
				table[sc.Name] = row
				ctx := context.Background()
				want, err := harness.Run(ctx, sc, harness.Core)
				Expect(err).NotTo(HaveOccurred(), "core")
				row["core"] = "ok"
				for _, b := range bindingTargets {
					if missing := missingRequirement(sc.Requires, b.carries); missing != "" {
						row[b.name] = "not carried (" + missing + ")"
						By(b.name + ": not carried, the scenario requires " + missing)
						continue
					}
					got, err := harness.Run(ctx, sc, b.factory)
					if err != nil {
						row[b.name] = "FAIL"
					}
					Expect(err).NotTo(HaveOccurred(), b.name)
					Expect(got.Receipts).To(HaveLen(len(want.Receipts)), b.name)
					for i := range want.Receipts {
						Expect(string(got.Receipts[i])).To(Equal(string(want.Receipts[i])),
							"%s: receipt of submission %d differs from core's", b.name, i)
					}
					row[b.name] = "ok"
				}
			})
		}
	}

	AfterAll(func() {
		names := make([]string, 0, len(table))
		for n := range table {
			names = append(names, n)
		}
		slices.Sort(names)
		var b strings.Builder
		b.WriteString("\n| scenario | core | https | mcp | a2a |\n| --- | --- | --- | --- | --- |\n")
		for _, n := range names {
			r := table[n]
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", n, r["core"], r["https"], r["mcp"], r["a2a"])
		}
		AddReportEntry("collector scenarios across bindings", b.String())
		GinkgoWriter.Print(b.String())
	})
})

// missingRequirement is the first requirement of a scenario the binding cannot carry, or "".
func missingRequirement(requires, carries []string) string {
	for _, r := range requires {
		if !slices.Contains(carries, r) {
			return r
		}
	}
	return ""
}
