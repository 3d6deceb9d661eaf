package harness_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// TestRunReportsTheFailedStep: when an expectation does not hold, Run returns a *harness.StepError naming the step
// and the requirements it proves (its expect's when tagged, else the scenario's), so a runner can attribute the
// failure without parsing the message; a wire error beneath still wins the attribution.
func TestRunReportsTheFailedStep(t *testing.T) {
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	var sc conformance.Scenario
	for _, f := range files {
		for _, s := range f.Scenarios {
			if s.Name == "collector/accept/duplicate-after-expiry-gets-its-receipt" {
				sc = s
			}
		}
	}
	if len(sc.Steps) != 5 || sc.Steps[3].Expect == nil || sc.Steps[3].Expect.Requirements == nil || sc.Steps[1].Expect.Requirements != nil {
		t.Fatalf("the scenario changed: want 5 steps, step 3 tagged and step 1 not: %+v", sc.Steps)
	}
	for _, tc := range []struct {
		name string
		step int
		want []string
	}{
		{"tagged step", 3, sc.Steps[3].Expect.Requirements},
		{"untagged step", 1, sc.Requirements},
	} {
		broken := sc
		broken.Steps = slices.Clone(sc.Steps)
		e := *broken.Steps[tc.step].Expect
		e.Status, e.Code, e.SameReceiptAs = "rejected", "expired", "" // the collector accepts it: the step fails
		broken.Steps[tc.step].Expect = &e
		_, err := harness.Run(context.Background(), broken, harness.Core)
		var se *harness.StepError
		if !errors.As(err, &se) {
			t.Fatalf("%s: error %v is not a *harness.StepError", tc.name, err)
		}
		if se.Index != tc.step || se.Step.Do != "submit" || !slices.Equal(se.Requirements, tc.want) {
			t.Errorf("%s: step %d (%s) proving %v, want step %d proving %v", tc.name, se.Index, se.Step.Do, se.Requirements, tc.step, tc.want)
		}
		if got := harness.Attribution(err, sc.Requirements); !slices.Equal(got, tc.want) {
			t.Errorf("%s: attributed to %v, want %v", tc.name, got, tc.want)
		}
	}
	// A wire error inside a failed step is the binding's, whatever the step proves.
	wire := &harness.StepError{Index: 3, Step: sc.Steps[3], Requirements: sc.Steps[3].Expect.Requirements,
		Err: harness.Wire("410 came as 400", "AQP-BIND-HTTPS-STATUS")}
	if got := harness.Attribution(wire, sc.Requirements); !slices.Equal(got, []string{"AQP-BIND-HTTPS-STATUS"}) {
		t.Errorf("a wire error in a step is attributed to %v", got)
	}
}
