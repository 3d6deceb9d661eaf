package conformance_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/respondentrun"
)

// tagged is one vector or scenario's claim to prove some requirements, and whether it shows a pass, a failure or
// (a scenario, which runs both) either.
type tagged struct {
	name          string
	ids           []string
	pass, failure bool
}

func taggedVectors(t *testing.T) []tagged {
	t.Helper()
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	var out []tagged
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			out = append(out, tagged{v.Name, v.Requirements, v.Valid, !v.Valid})
		}
	}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			out = append(out, tagged{v.Name, v.Requirements, v.Valid, !v.Valid})
		}
	}
	for _, f := range scenarios {
		for _, sc := range f.Scenarios {
			out = append(out, scenarioProofs(sc)...)
		}
	}
	carriage, err := conformance.LoadCarriage()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range carriage {
		for _, v := range f.Vectors {
			out = append(out, tagged{v.Name, v.Requirements, v.Valid, !v.Valid})
		}
	}
	return out
}

// scenarioProofs are a scenario's proofs, one per step that shows a side, each of the ids that step proves
// (conformance.Scenario.StepRequirements: its expect's own when tagged, else the scenario's): a pass when a
// submission must be accepted (a race always has one winner), a failure when a submission must be rejected or get no
// receipt, a draft must be refused, or a race of different responses must reject its losers. Counting steps, not
// the scenario, keeps a scenario that proves rule A by a rejection and rule B by an acceptance from counting as a
// failing proof of B. A last entry holds the scenario's own ids and shows no side: the unknown-id check sees them.
func scenarioProofs(sc conformance.Scenario) []tagged {
	var out []tagged
	for i, st := range sc.Steps {
		var pass, failure bool
		switch {
		case st.Do == "race":
			pass = true
			failure = st.Distinct() > 1
		case st.Do == "issue" && st.Refused != nil:
			failure = true
		case st.Expect == nil:
			continue
		case st.Expect.Status == "accepted":
			pass = true
		default:
			failure = true
		}
		out = append(out, tagged{fmt.Sprintf("%s step %d", sc.Name, i), sc.StepRequirements(st), pass, failure})
	}
	return append(out, tagged{sc.Name, sc.Requirements, false, false})
}

// respondentProofs are the respondent runner's checks: each a passing proof of its requirements, since
// cmd/aqp/conformance_respondent_test.go requires our own respondent to pass every check over every binding.
func respondentProofs() []tagged {
	var out []tagged
	for _, sc := range respondentrun.Scenarios {
		for _, c := range sc.Checks {
			out = append(out, tagged{"respondent " + sc.Name + ": " + c.Name, c.Requirements, true, false})
		}
	}
	return out
}

// fixtureProofs are conformance/fixtures.json's broken implementations: each a failing proof of exactly the
// requirements it lists, since the test that runs it (conformance/respondentrun/broken_test.go,
// conformance/runner/runner_test.go) requires the runner to fail exactly those.
func fixtureProofs(t *testing.T) []tagged {
	t.Helper()
	fxs, err := conformance.LoadFixtures()
	if err != nil {
		t.Fatal(err)
	}
	var out []tagged
	for _, fx := range fxs {
		out = append(out, tagged{"fixture " + fx.Name, fx.Fails, false, true})
	}
	return out
}

// allProofs is every source the coverage test counts.
func allProofs(t *testing.T) []tagged {
	t.Helper()
	out := taggedVectors(t)
	out = append(out, respondentProofs()...)
	out = append(out, fixtureProofs(t)...)
	return append(out, bindingProofs(t)...)
}

// unknownRequirements lists "vector: id" for every tagged id the catalogue does not hold.
func unknownRequirements(catalogue []conformance.Requirement, vectors []tagged) []string {
	known := map[string]bool{}
	for _, r := range catalogue {
		known[r.ID] = true
	}
	var out []string
	for _, v := range vectors {
		for _, id := range v.ids {
			if !known[id] {
				out = append(out, v.name+": "+id)
			}
		}
	}
	return out
}

func TestRequirementsCatalogue(t *testing.T) {
	reqs, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	// Every decision of spec/DECISIONS.md has its entry.
	decisions, err := os.ReadFile("../spec/DECISIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]bool{}
	for _, r := range reqs {
		sources[r.Source] = true
	}
	var missing []string
	for _, m := range regexp.MustCompile(`(?m)^\*\*(D\d+) —`).FindAllStringSubmatch(string(decisions), -1) {
		if !sources["spec/DECISIONS.md "+m[1]] {
			missing = append(missing, m[1])
		}
	}
	if len(missing) > 0 {
		t.Errorf("decisions without a requirement (source \"spec/DECISIONS.md Dn\"): %s", strings.Join(missing, ", "))
	}
	// Every section of the design brief's §2–§7 has at least one.
	for s := 2; s <= 7; s++ {
		if !sources[fmt.Sprintf("design §%d", s)] {
			t.Errorf("design §%d has no requirement", s)
		}
	}
}

func TestRequirementsCatalogueRefusesMalformedEntries(t *testing.T) {
	for name, doc := range map[string]string{
		"bad id":        `{"description":"d","requirements":[{"id":"aqp-x","level":"MUST","role":"collector","statement":"s","source":"x"}]}`,
		"bad level":     `{"description":"d","requirements":[{"id":"AQP-X","level":"MUSTN'T","role":"collector","statement":"s","source":"x"}]}`,
		"bad role":      `{"description":"d","requirements":[{"id":"AQP-X","level":"MUST","role":"server","statement":"s","source":"x"}]}`,
		"duplicate id":  `{"description":"d","requirements":[{"id":"AQP-X","level":"MUST","role":"collector","statement":"s","source":"x"},{"id":"AQP-X","level":"MAY","role":"collector","statement":"s","source":"x"}]}`,
		"no statement":  `{"description":"d","requirements":[{"id":"AQP-X","level":"MUST","role":"collector","statement":" ","source":"x"}]}`,
		"unknown field": `{"description":"d","requirements":[{"id":"AQP-X","level":"MUST","role":"collector","statement":"s","source":"x","note":"n"}]}`,
		"blank reason":  `{"description":"d","requirements":[{"id":"AQP-X","level":"MUST","role":"collector","statement":"s","source":"x","noFailingProof":" "}]}`,
		"reason on MAY": `{"description":"d","requirements":[{"id":"AQP-X","level":"MAY","role":"collector","statement":"s","source":"x","noFailingProof":"r"}]}`,
	} {
		if _, err := conformance.ParseRequirements([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A MUST with a reason is well-formed.
	if _, err := conformance.ParseRequirements([]byte(`{"description":"d","requirements":[{"id":"AQP-X","level":"MUST","role":"collector","statement":"s","source":"x","noFailingProof":"r"}]}`)); err != nil {
		t.Errorf("a MUST with a noFailingProof reason: %v", err)
	}
}

// TestVectorRequirementsAreKnown fails when a standalone, paired or scenario vector names a requirement the
// catalogue does not hold (a typo, or an id retired without retagging).
func TestVectorRequirementsAreKnown(t *testing.T) {
	reqs, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	vectors := taggedVectors(t)
	if unknown := unknownRequirements(reqs, vectors); len(unknown) > 0 {
		t.Errorf("vectors name requirements not in conformance/requirements.json:\n  %s", strings.Join(unknown, "\n  "))
	}
	// The check can fail: a bogus id on one vector is named.
	vectors[0].ids = append(append([]string{}, vectors[0].ids...), "AQP-NO-SUCH-REQUIREMENT")
	got := unknownRequirements(reqs, vectors)
	if len(got) != 1 || got[0] != vectors[0].name+": AQP-NO-SUCH-REQUIREMENT" {
		t.Errorf("an unknown id was reported as %q", got)
	}
}

// mustCoverage returns what keeps the catalogue's MUSTs from being covered by proofs: a MUST without a passing
// proof, or without a failing one and no noFailingProof reason; a noFailingProof reason that a failing proof has
// made stale. Empty means covered.
func mustCoverage(catalogue []conformance.Requirement, proofs []tagged) []string {
	pass, failure := map[string][]string{}, map[string][]string{}
	for _, v := range proofs {
		for _, id := range v.ids {
			if v.pass {
				pass[id] = append(pass[id], v.name)
			}
			if v.failure {
				failure[id] = append(failure[id], v.name)
			}
		}
	}
	var problems []string
	for _, r := range catalogue {
		if r.Level != "MUST" {
			continue
		}
		where := " (" + r.Role + ", " + r.Source + ")"
		if len(pass[r.ID]) == 0 {
			problems = append(problems, r.ID+where+": no passing proof")
		}
		switch {
		case r.NoFailingProof != nil && len(failure[r.ID]) > 0:
			problems = append(problems, r.ID+where+": noFailingProof says none can be constructed, but "+
				strings.Join(failure[r.ID], ", ")+" is one: remove the reason")
		case r.NoFailingProof == nil && len(failure[r.ID]) == 0:
			problems = append(problems, r.ID+where+": no failing proof (add one, or a noFailingProof reason in requirements.json)")
		}
	}
	sort.Strings(problems)
	return problems
}

// TestMustCoverage fails unless every MUST of the catalogue has a passing proof and a failing one (or says why none
// can be built): a standalone, paired, carriage or collector scenario vector, a respondent runner check, a broken
// fixture, or a binding proof.
func TestMustCoverage(t *testing.T) {
	reqs, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	proofs := allProofs(t)
	if unknown := unknownRequirements(reqs, proofs); len(unknown) > 0 {
		t.Errorf("proofs name requirements not in conformance/requirements.json:\n  %s", strings.Join(unknown, "\n  "))
	}
	musts, reasons := 0, 0
	for _, r := range reqs {
		if r.Level == "MUST" {
			musts++
			if r.NoFailingProof != nil {
				reasons++
			}
		}
	}
	problems := mustCoverage(reqs, proofs)
	t.Logf("%d MUSTs, %d with a noFailingProof reason; %d proofs counted", musts, reasons, len(proofs))
	if len(problems) > 0 {
		t.Errorf("MUSTs not covered:\n  %s", strings.Join(problems, "\n  "))
	}
}

// TestMustCoverageCanFail runs mustCoverage on a synthetic catalogue: each way of falling short is reported, and a
// fully covered catalogue gives nothing.
func TestMustCoverageCanFail(t *testing.T) {
	reason := "a reason"
	cat := []conformance.Requirement{
		{ID: "AQP-A", Level: "MUST"},
		{ID: "AQP-B", Level: "MUST", NoFailingProof: &reason},
		{ID: "AQP-C", Level: "SHOULD"},
	}
	full := []tagged{
		{"a-valid", []string{"AQP-A"}, true, false},
		{"a-invalid", []string{"AQP-A"}, false, true},
		{"b-valid", []string{"AQP-B"}, true, false},
	}
	for _, tc := range []struct {
		name   string
		proofs []tagged
		want   []string // "ID: words the problem says", one per problem, in order
	}{
		{"covered", full, nil},
		{"no passing proof", []tagged{full[1], full[2]}, []string{"AQP-A: no passing proof"}},
		{"no failing proof", []tagged{full[0], full[2]}, []string{"AQP-A: no failing proof"}},
		{"stale reason", append(append([]tagged{}, full...), tagged{"b-invalid", []string{"AQP-B"}, false, true}),
			[]string{"AQP-B: noFailingProof says none can be constructed, but b-invalid is one"}},
		{"no proof at all", full[:2], []string{"AQP-B: no passing proof"}},
		{"a scenario counts both sides", []tagged{{"sc", []string{"AQP-A"}, true, true}, full[2]}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mustCoverage(cat, tc.proofs)
			if len(got) != len(tc.want) {
				t.Fatalf("problems %q, want %d like %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				id, msg, _ := strings.Cut(tc.want[i], ": ")
				if !strings.HasPrefix(got[i], id+" ") || !strings.Contains(got[i], msg) {
					t.Errorf("problem %d is %q, want it to say %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestScenarioProofs: what each kind of step shows, and whose ids: a step's expect's own when tagged, else the
// scenario's.
func TestScenarioProofs(t *testing.T) {
	scenario := []string{"AQP-A", "AQP-B"}
	accepted := conformance.Step{Do: "submit", Expect: &conformance.Expect{Status: "accepted"}}
	acceptedB := conformance.Step{Do: "submit", Expect: &conformance.Expect{Status: "accepted", Requirements: []string{"AQP-B"}}}
	rejected := conformance.Step{Do: "submit", Expect: &conformance.Expect{Status: "rejected", Code: "expired"}}
	rejectedA := conformance.Step{Do: "submit", Expect: &conformance.Expect{Status: "rejected", Code: "expired", Requirements: []string{"AQP-A"}}}
	problem := conformance.Step{Do: "submit", Expect: &conformance.Expect{Problem: true}}
	refused := conformance.Step{Do: "issue", Refused: []conformance.IssueError{{Pointer: "/ttlSeconds", Keyword: "type"}}}
	copies := conformance.Step{Do: "race", Responses: []json.RawMessage{[]byte(`{"a":1}`), []byte(`{"a":1}`)}}
	different := conformance.Step{Do: "race", Responses: []json.RawMessage{[]byte(`{"a":1}`), []byte(`{"a":2}`)}}
	// want: per proof "ids pass|failure|both", the scenario's own entry (no side) left out.
	for _, tc := range []struct {
		name  string
		steps []conformance.Step
		want  []string
	}{
		{"accepted", []conformance.Step{{Do: "issue"}, accepted}, []string{"AQP-A,AQP-B pass"}},
		{"rejected", []conformance.Step{{Do: "issue"}, rejected}, []string{"AQP-A,AQP-B failure"}},
		{"problem", []conformance.Step{{Do: "issue"}, problem}, []string{"AQP-A,AQP-B failure"}},
		{"refused issue", []conformance.Step{refused}, []string{"AQP-A,AQP-B failure"}},
		{"race of copies", []conformance.Step{copies}, []string{"AQP-A,AQP-B pass"}},
		{"race of different responses", []conformance.Step{different}, []string{"AQP-A,AQP-B both"}},
		{"advance shows nothing", []conformance.Step{{Do: "advance", Seconds: 1}}, nil},
		{"tagged steps prove their own ids", []conformance.Step{{Do: "issue"}, rejectedA, acceptedB, accepted},
			[]string{"AQP-A failure", "AQP-B pass", "AQP-A,AQP-B pass"}},
	} {
		sc := conformance.Scenario{Name: "sc", Requirements: scenario, Steps: tc.steps}
		proofs := scenarioProofs(sc)
		last := proofs[len(proofs)-1]
		if last.name != "sc" || !slices.Equal(last.ids, scenario) || last.pass || last.failure {
			t.Errorf("%s: the scenario's own entry is %+v, want its ids and no side", tc.name, last)
		}
		var got []string
		for _, p := range proofs[:len(proofs)-1] {
			side := map[[2]bool]string{{true, false}: "pass", {false, true}: "failure", {true, true}: "both"}[[2]bool{p.pass, p.failure}]
			got = append(got, strings.Join(p.ids, ",")+" "+side)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: proofs %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestEveryVectorNamesItsRequirements: each standalone, paired, carriage and scenario vector says which
// requirements it proves, so an implementation failing it knows which rule it broke.
func TestEveryVectorNamesItsRequirements(t *testing.T) {
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	carriage, err := conformance.LoadCarriage()
	if err != nil {
		t.Fatal(err)
	}
	var bare []string
	n := 0
	check := func(name string, ids []string) {
		n++
		if len(ids) == 0 {
			bare = append(bare, name)
		}
	}
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			check(v.Name, v.Requirements)
		}
	}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			check(v.Name, v.Requirements)
		}
	}
	for _, f := range scenarios {
		for _, sc := range f.Scenarios {
			check(sc.Name, sc.Requirements)
		}
	}
	for _, f := range carriage {
		for _, v := range f.Vectors {
			check(v.Name, v.Requirements)
		}
	}
	if n < 600 || len(bare) > 0 {
		t.Errorf("%d vectors read; these name no requirement (tag them in internal/vectorgen/corpus/tags.go, or in the scenario file):\n  %s", n, strings.Join(bare, "\n  "))
	}
}
