package harness

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// RuleError is a check that broke named requirements whatever scenario step it happened in, so a runner blames
// those requirements rather than the step's or the scenario's: a binding's wire form (a wrong status, header or
// result shape for a receipt that may well be right breaks AQP-BIND-HTTPS-STATUS, not AQP-COL-EXPIRED), or a rule
// every step holds to (a collector timestamp not in UTC with milliseconds breaks AQP-D20 whatever the scenario is
// about). A binding's target returns one (wrapped or not) for every check of its binding's table.
type RuleError struct {
	// Requirements are the requirements.json ids the failed check enforces, at least one.
	Requirements []string
	// Detail says what was seen and what the rule wants.
	Detail string
}

// Error implements the error interface: the detail, with the requirements it breaks.
func (e *RuleError) Error() string {
	return e.Detail + " (" + strings.Join(e.Requirements, ", ") + ")"
}

// Wire returns the *RuleError of a binding's wire check breaking the given requirements; detail should say what
// the wire carried and what the binding's table wants.
func Wire(detail string, requirements ...string) error {
	return &RuleError{Requirements: requirements, Detail: detail}
}

// RuleRequirements returns the requirements a check names when err is (or wraps) a *RuleError, else nil.
func RuleRequirements(err error) []string {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Requirements
	}
	return nil
}

// collectorTime is the one form D20 gives a collector's timestamps: UTC, with milliseconds.
var collectorTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)

// checkCollectorTime holds a timestamp the collector wrote (a receipt's receivedAt, an issued request's expiresAt)
// to D20.
func checkCollectorTime(member string, v any) error {
	s, _ := v.(string)
	if collectorTime.MatchString(s) {
		return nil
	}
	return &RuleError{Requirements: []string{"AQP-D20"},
		Detail: fmt.Sprintf("%s %q is not UTC with milliseconds (YYYY-MM-DDTHH:MM:SS.mmmZ)", member, s)}
}
