package harness

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// WireError is a submission whose binding wire form broke a binding rule — a status, a header, a result's shape —
// while the receipt it carried may well be right. A target returns one (wrapped or not) for every check of its
// binding's table, naming the catalogue requirements the check enforces, so a failed scenario is attributed to the
// binding's requirement and not to the scenario's own (a wrong HTTP status for a right expired receipt breaks
// AQP-BIND-HTTPS-STATUS, not AQP-COL-EXPIRED).
type WireError struct {
	// Requirements are the requirements.json ids the failed check enforces, at least one.
	Requirements []string
	// Detail says what the wire carried and what the binding's table wants.
	Detail string
}

// Error implements the error interface: the detail, with the requirements it breaks.
func (e *WireError) Error() string {
	return e.Detail + " (" + strings.Join(e.Requirements, ", ") + ")"
}

// Wire returns a *WireError breaking the given requirements; detail should say what was seen and what was wanted.
func Wire(detail string, requirements ...string) error {
	return &WireError{Requirements: requirements, Detail: detail}
}

// WireRequirements returns the requirements a wire check names when err is (or wraps) a *WireError, else nil.
func WireRequirements(err error) []string {
	var we *WireError
	if errors.As(err, &we) {
		return we.Requirements
	}
	return nil
}

// StepError is a scenario step that failed: which step, and the requirements its failure is attributed to, so a
// runner blames the rule that step proves and not every rule the scenario names. It wraps the step's error, which
// may itself be a *WireError (the binding's requirement then takes precedence: see Attribution).
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

// Unwrap gives the step's error, so errors.Is and errors.As reach a *WireError or ErrRefusalNotReadable beneath.
func (e *StepError) Unwrap() error { return e.Err }

// Attribution returns the requirements a failed scenario run is attributed to: those of the wire check that failed
// when err is (or wraps) a *WireError, since the binding broke its own rule whatever the receipt; else those of the
// failed step when err is (or wraps) a *StepError; else scenario, for a failure outside any step (the set-up).
func Attribution(err error, scenario []string) []string {
	if ids := WireRequirements(err); ids != nil {
		return ids
	}
	var se *StepError
	if errors.As(err, &se) && len(se.Requirements) > 0 {
		return se.Requirements
	}
	return scenario
}
