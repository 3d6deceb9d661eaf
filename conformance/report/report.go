// Package report turns a conformance run — collector or respondent — into what its users read: a console summary
// by requirement level and binding, a JSON file with one record per check, JUnit XML for CI systems, and one
// self-contained HTML page holding the requirement × binding matrix with each failure's evidence a click away. An
// expected-failures file lets an implementation under development carry its known gaps: a listed failure does not
// fail the run, a listed check that passes (stale) or an unlisted failure does.
//
// The package knows checks and the requirements catalogue, nothing of how a check is run, so both runners and any
// other harness can report through it.
package report

import (
	"slices"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// Status is a check's verdict.
type Status string

// The verdicts. Expected is a failure listed in the expected-failures file: it does not fail the run.
const (
	Pass     Status = "pass"
	Fail     Status = "fail"
	Skip     Status = "skip"
	Expected Status = "expected-fail"
)

// Check is one verdict of a run: one scenario (and, for a respondent, one check of it) over one binding.
type Check struct {
	// ID names the check stably across runs — role/binding/scenario[/check] — and is what an expected-failures
	// file lists.
	ID string `json:"id"`
	// Role is the role of the implementation under test: collector or respondent.
	Role string `json:"role"`
	// Scenario is the scenario run, and Check the check of it a respondent run judged ("" for a collector run,
	// whose scenario is one check).
	Scenario string `json:"scenario"`
	Check    string `json:"check,omitempty"`
	// Binding is the binding the check ran over.
	Binding string `json:"binding"`
	// Requirements are the catalogue ids the check proves when it passes.
	Requirements []string `json:"requirements"`
	// Failed are the requirement ids a failure is attributed to: a wire-form fault names the binding's
	// requirement, not the scenario's. Empty unless Status is fail or expected-fail.
	Failed []string `json:"failed,omitempty"`
	// Level is the strictest level among Requirements and Failed (MUST, SHOULD, MAY; "" if none is catalogued).
	Level string `json:"level"`
	// Status is the verdict.
	Status Status `json:"status"`
	// Evidence says why: what differed for a failure, why a check was skipped, what was seen for a pass.
	Evidence string `json:"evidence,omitempty"`
	// Reason is the expected-failures file's reason, for an expected failure or a stale entry.
	Reason string `json:"reason,omitempty"`
	// Seconds is how long the check took (0 when the runner does not time single checks).
	Seconds float64 `json:"seconds"`
}

// CheckID builds a check's ID from its parts.
func CheckID(role, binding, scenario, check string) string {
	id := role + "/" + binding + "/" + scenario
	if check != "" {
		id += "/" + check
	}
	return id
}

// Report is one run.
type Report struct {
	// Role is collector or respondent.
	Role string `json:"role"`
	// Target says what was checked: the collector's URL or the respondent's command.
	Target string `json:"target"`
	// Started is when the run began (RFC 3339, UTC).
	Started string `json:"started"`
	// Seconds is how long the run took.
	Seconds float64 `json:"seconds"`
	// Stale lists the expected-failures entries whose check passed, or that match no check of the run over a
	// binding it ran: either is an error in the file, and fails the run.
	Stale []StaleEntry `json:"stale,omitempty"`
	// Checks are the verdicts, in run order.
	Checks []Check `json:"checks"`
}

// StaleEntry is an expected-failures entry the run contradicts.
type StaleEntry struct {
	Check  string `json:"check"`
	Reason string `json:"reason"`
	// Why says how the run contradicts it.
	Why string `json:"why"`
}

// New starts a report for role and target at start, filling each check's level from the catalogue and its failed
// requirements (the check's own when the runner attributed none).
func New(role, target string, start time.Time, checks []Check, catalogue []conformance.Requirement) *Report {
	levels := map[string]string{}
	for _, r := range catalogue {
		levels[r.ID] = r.Level
	}
	out := make([]Check, len(checks))
	for i, c := range checks {
		if c.Requirements == nil {
			c.Requirements = []string{}
		}
		if c.Role == "" {
			c.Role = role
		}
		if c.ID == "" {
			c.ID = CheckID(c.Role, c.Binding, c.Scenario, c.Check)
		}
		if c.Status == Fail && len(c.Failed) == 0 {
			c.Failed = slices.Clone(c.Requirements)
		}
		if c.Status != Fail {
			c.Failed = nil
		}
		c.Level = strictest(levels, c.Requirements, c.Failed)
		out[i] = c
	}
	return &Report{Role: role, Target: target, Started: start.UTC().Format(time.RFC3339), Seconds: time.Since(start).Seconds(), Checks: out}
}

// Levels orders the requirement levels from strictest.
var Levels = []string{"MUST", "SHOULD", "MAY"}

func strictest(levels map[string]string, lists ...[]string) string {
	best := len(Levels)
	for _, ids := range lists {
		for _, id := range ids {
			if i := slices.Index(Levels, levels[id]); i >= 0 && i < best {
				best = i
			}
		}
	}
	if best == len(Levels) {
		return ""
	}
	return Levels[best]
}

// Failed reports whether the run fails: an unlisted failure, or a stale expected-failures entry.
func (r *Report) Failed() bool {
	return len(r.Stale) > 0 || slices.ContainsFunc(r.Checks, func(c Check) bool { return c.Status == Fail })
}

// FailedRequirements lists, sorted, the requirement ids the run's failures are attributed to (expected failures
// excluded).
func (r *Report) FailedRequirements() []string {
	var out []string
	for _, c := range r.Checks {
		if c.Status == Fail {
			for _, id := range c.Failed {
				if !slices.Contains(out, id) {
					out = append(out, id)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// Bindings lists the bindings of the checks, in the order the protocol names them, then any other.
func bindings(checks []Check) []string {
	var out []string
	for _, b := range []string{"core", "https", "mcp", "a2a"} {
		if slices.ContainsFunc(checks, func(c Check) bool { return c.Binding == b }) {
			out = append(out, b)
		}
	}
	for _, c := range checks {
		if !slices.Contains(out, c.Binding) {
			out = append(out, c.Binding)
		}
	}
	return out
}

// firstLine is s up to its first line break, for one-line messages.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
