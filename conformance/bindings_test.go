package conformance_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
)

// tableColumns are the columns every collector scenario runs over, beside the core: each binding at each protocol
// generation over each transport (bindings/columns, the one list). Each column's target lives in its binding's own
// conformance package; this test file may import them, the harness may not.
var tableColumns = targets.All()

// table collects, per scenario, what each column did: the one table printed after the suite.
var table = map[string]map[string]string{}

var _ = Describe("one table across every column", Ordered, func() {
	for _, f := range scenarios {
		for _, sc := range f.Scenarios {
			It(sc.Name+" over core and every column", func() {
				row := map[string]string{}
				table[sc.Name] = row
				ctx := context.Background()
				want, err := harness.Run(ctx, sc, harness.Core)
				Expect(err).NotTo(HaveOccurred(), "core")
				row["core"] = "ok"
				for _, c := range tableColumns {
					if missing := missingRequirement(sc.Requires, c.Carries); missing != "" {
						row[c.Name] = "not carried (" + missing + ")"
						By(c.Name + ": not carried, the scenario requires " + missing)
						continue
					}
					got, err := harness.Run(ctx, sc, c.Target)
					if err != nil {
						row[c.Name] = "FAIL"
					}
					Expect(err).NotTo(HaveOccurred(), c.Name)
					Expect(got.Receipts).To(HaveLen(len(want.Receipts)), c.Name)
					for i := range want.Receipts {
						Expect(string(got.Receipts[i])).To(Equal(string(want.Receipts[i])),
							"%s: receipt of submission %d differs from core's", c.Name, i)
					}
					row[c.Name] = "ok"
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
		b.WriteString("\n| scenario | core |")
		for _, c := range tableColumns {
			b.WriteString(" " + c.Name + " |")
		}
		b.WriteString("\n| --- | --- |" + strings.Repeat(" --- |", len(tableColumns)) + "\n")
		for _, n := range names {
			r := table[n]
			fmt.Fprintf(&b, "| %s | %s |", n, r["core"])
			for _, c := range tableColumns {
				fmt.Fprintf(&b, " %s |", r[c.Name])
			}
			b.WriteString("\n")
		}
		AddReportEntry("collector scenarios across every column", b.String())
		GinkgoWriter.Print(b.String())
	})
})

// The table has every column the issue names, so a column dropped from a binding's list fails here.
var _ = Describe("the table's columns", func() {
	It("are https, both MCP eras, A2A 1.0 over three transports and A2A 0.3", func() {
		var names []string
		for _, c := range tableColumns {
			names = append(names, c.Name)
		}
		Expect(names).To(Equal([]string{"https", "mcp-2026-07-28", "mcp-2025-11-25",
			"a2a-1.0-jsonrpc", "a2a-1.0-http-json", "a2a-1.0-grpc", "a2a-0.3-jsonrpc"}))
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
