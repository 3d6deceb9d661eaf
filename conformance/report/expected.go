package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// ExpectedFailure is one entry of an expected-failures file: a check an implementation under development knows it
// fails, and why.
type ExpectedFailure struct {
	// Check is the check's ID as the JSON report gives it: role/binding/scenario[/check].
	Check string `json:"check"`
	// Reason says why it fails and, ideally, what tracks the fix.
	Reason string `json:"reason"`
}

// maxExpectedFile bounds an expected-failures file.
const maxExpectedFile = 4 << 20

// ReadExpected reads an expected-failures file:
//
//	{"expectedFailures": [{"check": "collector/mcp/collector/duplicate/same-bytes", "reason": "…"}]}
//
// strictly: no unknown member, each check of the form role/binding/scenario and listed once, each with a reason.
func ReadExpected(path string) ([]ExpectedFailure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxExpectedFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxExpectedFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxExpectedFile)
	}
	entries, err := ParseExpected(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// ParseExpected decodes an expected-failures document (see ReadExpected).
func ParseExpected(b []byte) ([]ExpectedFailure, error) {
	var doc struct {
		Description      string            `json:"description"`
		ExpectedFailures []ExpectedFailure `json:"expectedFailures"`
	}
	if err := conformance.DecodeStrict(`an expected-failures file ({"expectedFailures": [{"check", "reason"}]})`, b, &doc); err != nil {
		return nil, err
	}
	if doc.ExpectedFailures == nil {
		return nil, errors.New(`no "expectedFailures" array`)
	}
	seen := map[string]bool{}
	for i, e := range doc.ExpectedFailures {
		parts := strings.SplitN(e.Check, "/", 3)
		switch {
		case len(parts) < 3 || (parts[0] != "collector" && parts[0] != "respondent") || parts[1] == "" || parts[2] == "":
			return nil, fmt.Errorf("expectedFailures[%d]: check %q is not role/binding/scenario with role collector or respondent (copy the id from report JSON)", i, e.Check)
		case seen[e.Check]:
			return nil, fmt.Errorf("expectedFailures[%d]: check %s is listed twice", i, e.Check)
		case strings.TrimSpace(e.Reason) == "":
			return nil, fmt.Errorf("expectedFailures[%d]: check %s has no reason: say why it fails", i, e.Check)
		}
		seen[e.Check] = true
	}
	return doc.ExpectedFailures, nil
}

// ApplyExpected marks the listed failures of the run as expected and records as stale every entry the run
// contradicts: a listed check that passed, or one that names no check although the run covered its role and
// binding (a typo, or a scenario since renamed). An entry for another role, or a binding the run did not cover, is
// left alone, so one file can serve runs of one binding at a time. A listed check that was skipped is left alone:
// the run says nothing of it.
func (r *Report) ApplyExpected(entries []ExpectedFailure) {
	ran := bindings(r.Checks)
	for _, e := range entries {
		role, rest, _ := strings.Cut(e.Check, "/")
		binding, _, _ := strings.Cut(rest, "/")
		i := slices.IndexFunc(r.Checks, func(c Check) bool { return c.ID == e.Check })
		switch {
		case i < 0:
			if role == r.Role && slices.Contains(ran, binding) {
				r.Stale = append(r.Stale, StaleEntry{Check: e.Check, Reason: e.Reason, Why: "the run has no such check: copy the id from the JSON report, or remove the entry"})
			}
		case r.Checks[i].Status == Fail:
			r.Checks[i].Status, r.Checks[i].Reason = Expected, e.Reason
		case r.Checks[i].Status == Pass:
			r.Checks[i].Reason = e.Reason
			r.Stale = append(r.Stale, StaleEntry{Check: e.Check, Reason: e.Reason, Why: "listed as an expected failure but passed: remove the entry"})
		}
	}
}
