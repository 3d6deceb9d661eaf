package conformance_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// wireValue is what a decision names on the wire: a receipt or validation code, a JSON-RPC or HTTP status, a path or
// pointer, A2A's operation — the values another implementation's behaviour is judged by.
var wireValue = regexp.MustCompile(`^(-32\d{3}|[1-5]\d\d|/[\w./\-:{}…]+|[a-z]+(_[a-z]+)+|SendMessage|message/send)$`)

// illustrative are the wire values a decision's normative text names only as an example or for history, which its
// requirement's statement need not carry; each says why.
var illustrative = map[string]map[string]string{
	"D12": {"100": "an example of canonical numbers (1e2 counts as 100)"},
	"D13": {"/answer": "example pointers of a duplicate member", "/subject/kind": "example pointers of a duplicate member"},
	"D16": {"100": "an example of canonical numbers", "response_id_conflict": "a note on acceptances stored before the canonical form changed"},
	"D20": {"receipt_not_equivalent": "why the form is not compared, not a rule"},
	"D23": {"continuation_mismatch": "what §4 already pins", "subject_mismatch": "what D3 already decides"},
	"D34": {"already_answered": "the defect the decision fixes, not the rule"},
	"D36": {"already_answered": "the outcome of a different submission, D5's"},
}

// TestStatementsCarryTheirDecisions: a catalogue statement carries the decisions it cites — every wire value
// (code, status, path or pointer, operation) the normative part of a decision names, before its "Reason", appears in
// the statement of some requirement citing it, unless it is listed as illustrative with why — so a sentence of a
// decision cannot drop out of what the kit holds implementations to (issue "The conformance kit sees what it
// claims", item 6: AQP-D26 had dropped "lists exactly the bindings served").
func TestStatementsCarryTheirDecisions(t *testing.T) {
	b, err := os.ReadFile("../spec/DECISIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	decisions := map[string]string{}
	heads := regexp.MustCompile(`(?m)^\*\*(D\d+) `).FindAllStringSubmatchIndex(string(b), -1)
	for i, h := range heads {
		end := len(b)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		body := string(b[h[0]:end])
		if j := strings.Index(body, "\n## "); j >= 0 {
			body = body[:j]
		}
		decisions[string(b[h[2]:h[3]])] = body
	}
	cat, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	statements := map[string]string{}
	for _, r := range cat {
		for _, m := range regexp.MustCompile(`DECISIONS\.md (D\d+)`).FindAllStringSubmatch(r.Source, -1) {
			statements[m[1]] += " " + r.Statement
		}
	}
	if len(statements) < 20 {
		t.Fatalf("only %d decisions cited by the catalogue", len(statements))
	}
	code := regexp.MustCompile("`([^`]+)`")
	for d, st := range statements {
		body, ok := decisions[d]
		if !ok {
			t.Errorf("the catalogue cites %s, which spec/DECISIONS.md does not hold", d)
			continue
		}
		normative, _, _ := strings.Cut(body, "Reason:")
		for _, m := range code.FindAllStringSubmatch(normative, -1) {
			term := m[1]
			if !wireValue.MatchString(term) || strings.Contains(st, term) {
				continue
			}
			if _, ok := illustrative[d][term]; ok {
				continue
			}
			t.Errorf("%s names %q on the wire, which no requirement citing it carries (add it to the statement, or to illustrative with why)", d, term)
		}
	}
	for d, terms := range illustrative {
		for term := range terms {
			if !strings.Contains(decisions[d], "`"+term+"`") {
				t.Errorf("illustrative lists %q for %s, which no longer names it", term, d)
			}
		}
		if !slices.ContainsFunc(cat, func(r conformance.Requirement) bool { return strings.Contains(r.Source, "DECISIONS.md "+d) }) {
			t.Errorf("illustrative lists %s, which no requirement cites", d)
		}
	}
}
