package harness

import (
	"errors"
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// StepError is a scenario step that failed: which step, and the requirements its failure is attributed to, so a
// runner blames the rule that step proves and not every rule the scenario names. It wraps the step's error, which
// may itself be a *RuleError (its requirements then take precedence: see Attribution).
type StepError struct {
	// Index is the step's position in the scenario's steps, from 0.
	Index int
	// Step is the scenario step that failed.
	Step conformance.Step
	// Requirements are the ids the step proves: its expect's requirements when tagged, else the scenario's.
	Requirements []string
	// Err says what differed.
	Err error
}

// Error implements the error interface in the form "step N (do as): what differed".
func (e *StepError) Error() string {
	return fmt.Sprintf("step %d (%s %s): %v", e.Index, e.Step.Do, e.Step.As, e.Err)
}

// Unwrap gives the step's error, so errors.Is and errors.As reach a *RuleError or ErrRefusalNotReadable beneath.
func (e *StepError) Unwrap() error { return e.Err }

// Attribution returns the requirements a failed scenario run is attributed to: those of the check that failed when
// err is (or wraps) a *RuleError — a binding's wire check, or a rule every step holds to — whatever the receipt;
// else those of the failed step when err is (or wraps) a *StepError; else scenario, for a failure outside any step
// (the set-up).
func Attribution(err error, scenario []string) []string {
	if ids := RuleRequirements(err); ids != nil {
		return ids
	}
	var se *StepError
	if errors.As(err, &se) && len(se.Requirements) > 0 {
		return se.Requirements
	}
	return scenario
}
