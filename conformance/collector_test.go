package conformance_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// scenarios are the collector scenario vectors, loaded while the spec tree is built so each gets its own It.
var scenarios, scenariosErr = conformance.LoadScenarios(conformance.ScenarioFiles)

// targets are the ways a scenario reaches the collector. Each binding adds its Target here; every scenario runs
// against every target, and all must return the same receipts as the collector's core.
var targets = []struct {
	name    string
	factory harness.Factory
}{
	{"https", harness.HTTPS},
}

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
		for _, c := range []string{"invalid_response", "unsupported_version", "unknown_query", "unauthorized", "expired",
			"subject_mismatch", "respondent_mismatch", "answer_invalid", "consent_required", "consent_mismatch",
			"already_answered", "response_id_conflict", "rate_limited", "unavailable"} {
			Expect(codes).To(HaveKey(c), "no scenario reaches %s", c)
		}
		Expect(problem).To(BeTrue(), "no scenario reaches a receipt-less problem")
	})

	for _, f := range scenarios {
		Describe(f.Path, func() {
			for _, sc := range f.Scenarios {
				It(sc.Name, func() {
					ctx := context.Background()
					want, err := harness.Run(ctx, sc, harness.Core)
					Expect(err).NotTo(HaveOccurred(), "core")
					for _, t := range targets {
						got, err := harness.Run(ctx, sc, t.factory)
						Expect(err).NotTo(HaveOccurred(), t.name)
						Expect(got.Receipts).To(HaveLen(len(want.Receipts)), t.name)
						for i := range want.Receipts {
							Expect(string(got.Receipts[i])).To(Equal(string(want.Receipts[i])),
								"%s: receipt of submission %d differs from core's", t.name, i)
						}
					}
				})
			}
		})
	}
})
