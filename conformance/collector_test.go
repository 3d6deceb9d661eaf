package conformance_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// The collector scenarios run here over the collector's core; each binding runs the same corpus from its own test
// package (bindings/*/conformance_test.go) through harnesstest.Suite, with receipts byte-identical to core's.

// scenarios are the collector scenario vectors, loaded while the spec tree is built so each gets its own It.
var scenarios, scenariosErr = conformance.LoadScenarios(conformance.ScenarioFiles)

var _ = Describe("collector scenarios", func() {
	It("load, with unique names, covering every collector code", func() {
		Expect(scenariosErr).NotTo(HaveOccurred())
		names := map[string]bool{}
		codes := map[string]bool{}
		problem := false
		for _, f := range scenarios {
			for _, sc := range f.Scenarios {
				Expect(names[sc.Name]).To(BeFalse(), "scenario name %q used twice", sc.Name)
				names[sc.Name] = true
				for _, st := range sc.Steps {
					if st.Expect != nil && st.Expect.Code != "" {
						codes[st.Expect.Code] = true
					}
					if st.Expect != nil && st.Expect.Problem {
						problem = true
					}
				}
			}
		}
		for _, c := range core.ReceiptCodes() {
			Expect(codes).To(HaveKey(string(c)), "no scenario reaches %s", c)
		}
		Expect(problem).To(BeTrue(), "no scenario reaches a receipt-less problem")
	})

	for _, f := range scenarios {
		Describe(f.Path, func() {
			for _, sc := range f.Scenarios {
				It(sc.Name, func() {
					_, err := harness.Run(context.Background(), sc, harness.Core)
					Expect(err).NotTo(HaveOccurred(), "core")
				})
			}
		})
	}
})
