package respondentrun

import (
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance/report"
)

// Checks turns the run's records into report checks, for the console summary and the report files.
func Checks(recs []Record) []report.Check {
	out := make([]report.Check, len(recs))
	for i, r := range recs {
		out[i] = report.Check{Role: "respondent", Scenario: r.Scenario, Check: r.Check, Binding: r.Binding,
			Requirements: r.Requirements, Failed: r.Failed, Status: r.Status, Evidence: r.Evidence}
	}
	return out
}

// Failed lists, sorted, the requirements of the failed checks: what a broken respondent is held to.
func Failed(recs []Record) []string {
	return report.New("respondent", "", time.Now(), Checks(recs), nil).FailedRequirements()
}
