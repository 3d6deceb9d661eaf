package runner

import (
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance/report"
)

// Checks turns the run's records into report checks, for the console summary and the report files.
func Checks(recs []Record) []report.Check {
	out := make([]report.Check, len(recs))
	for i, r := range recs {
		out[i] = report.Check{Role: "collector", Scenario: r.Scenario, Binding: r.Binding, Requirements: r.Requirements,
			Failed: r.FailedRequirements, Status: r.Status, Evidence: r.Evidence, Seconds: r.Seconds}
	}
	return out
}

// FailedRequirements lists, sorted, the requirement ids the failed checks are attributed to
// (Record.FailedRequirements): what a broken fixture is held to.
func FailedRequirements(recs []Record) []string {
	return report.New("collector", "", time.Now(), Checks(recs), nil).FailedRequirements()
}
