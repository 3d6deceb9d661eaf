package runner

import "github.com/agentqueryprotocol/aqp-go/conformance/report"

// Checks turns the run's records into report checks, for the console summary and the report files.
func Checks(recs []Record) []report.Check {
	out := make([]report.Check, len(recs))
	for i, r := range recs {
		out[i] = report.Check{Role: "collector", Scenario: r.Scenario, Binding: r.Binding, Requirements: r.Requirements,
			Status: report.Status(r.Status), Evidence: r.Evidence, Seconds: r.Seconds}
	}
	return out
}
