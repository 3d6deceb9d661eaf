package conformance_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// TestStepRequirementsAreChecked: an expectation's requirements load only when well formed, listed once and among
// the scenario's (which stay the union of what its steps prove); a typo or a stray id fails the load, naming the step.
func TestStepRequirementsAreChecked(t *testing.T) {
	file := func(expect string, extra string) fstest.MapFS {
		doc := `{"description": "d", "scenarios": [{"name": "collector/x", "description": "d",
			"requirements": ["AQP-COL-PAIRED", "AQP-COL-REJECTION-KEEPS-OPEN"], "start": "2026-07-30T17:00:00.000Z",
			"queryIds": [], "steps": [{"do": "issue", "as": "q1", "draft": {}` + extra + `},
			{"do": "submit", "capability": "q1", "response": {}, "expect": ` + expect + `}]}]}`
		return fstest.MapFS{conformance.ScenarioDir + "/x.json": {Data: []byte(doc)}}
	}
	for _, tc := range []struct {
		name, expect, extra, wantErr string
	}{
		{"untagged", `{"status": "accepted"}`, "", ""},
		{"tagged", `{"status": "accepted", "requirements": ["AQP-COL-REJECTION-KEEPS-OPEN"]}`, "", ""},
		{"malformed id", `{"status": "accepted", "requirements": ["AQP-col-paired"]}`, "", "step 1: expect: requirement \"AQP-col-paired\""},
		{"listed twice", `{"status": "accepted", "requirements": ["AQP-COL-PAIRED", "AQP-COL-PAIRED"]}`, "", "step 1: expect: requirement AQP-COL-PAIRED is listed twice"},
		{"not the scenario's", `{"status": "accepted", "requirements": ["AQP-COL-EXPIRED"]}`, "", "step 1: expect.requirements names AQP-COL-EXPIRED"},
		{"empty", `{"status": "accepted", "requirements": []}`, "", "step 1: expect.requirements is empty"},
		{"expect on an issue step", `{"status": "accepted"}`, `, "expect": {"requirements": ["AQP-COL-PAIRED"]}`, "step 0: expect belongs to submit steps"},
	} {
		_, err := conformance.LoadScenarios(file(tc.expect, tc.extra))
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.wantErr)
		}
	}
}

// TestStepRequirements: a failure is attributed to the step's own requirements when its expect names some, else
// to the scenario's.
func TestStepRequirements(t *testing.T) {
	sc := conformance.Scenario{Requirements: []string{"AQP-COL-PAIRED", "AQP-COL-REJECTION-KEEPS-OPEN"}}
	for _, tc := range []struct {
		name string
		st   conformance.Step
		want []string
	}{
		{"issue", conformance.Step{Do: "issue"}, sc.Requirements},
		{"untagged submit", conformance.Step{Do: "submit", Expect: &conformance.Expect{Status: "accepted"}}, sc.Requirements},
		{"tagged submit", conformance.Step{Do: "submit", Expect: &conformance.Expect{Status: "accepted", Requirements: []string{"AQP-COL-PAIRED"}}}, []string{"AQP-COL-PAIRED"}},
	} {
		if got := sc.StepRequirements(tc.st); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
