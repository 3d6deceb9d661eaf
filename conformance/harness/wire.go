package harness

import (
	"errors"
	"strings"
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
