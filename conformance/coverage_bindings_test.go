package conformance_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
)

// bindingProofs are the passing proofs of the binding wire requirements, which no vector can prove because a
// vector has no wire: each binding's target package exports the requirements its wire checks enforce on every
// submission (targets.HTTPSRequirements, …), and "one table across bindings" (bindings_test.go) runs the whole
// scenario corpus through those checks and requires every receipt byte-identical to the core's — itself the proof
// that each binding carries the canonical objects unchanged and hands the core the bytes as written (D27). Their
// failing proofs are the collector fixtures of fixtures.json, which the catalogue's coverage test counts from the
// file; conformance/runner's fixture test holds each to exactly its list.
func bindingProofs(t *testing.T) []tagged {
	t.Helper()
	return []tagged{
		{"binding/https: HTTPS wire checks of conformance/targets over the scenario corpus", targets.HTTPSRequirements, true, false},
		{"binding/mcp: MCP wire checks of conformance/targets over the scenario corpus", targets.MCPRequirements, true, false},
		{"binding/a2a: A2A wire checks of conformance/targets over the scenario corpus", targets.A2ARequirements, true, false},
		{"bindings: every binding's receipts byte-identical to the core's over the scenario corpus",
			[]string{"AQP-BIND-SAME-OBJECTS", "AQP-D27"}, true, false},
		{"surfaces: every pinned surface read from a collector composed as aqp serve (TestSurfacesPassAgainstOurCollector)",
			surfaceRequirements(), true, false},
	}
}

// surfaceRequirements are the requirements the pinned surfaces prove.
func surfaceRequirements() []string {
	var out []string
	for _, s := range allSurfaces() {
		for _, id := range s.Requirements {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// TestBindingProofsAreCollectorMusts: every id a binding proof claims is a collector requirement of the catalogue,
// and every collector MUST of the bindings (AQP-BIND-*, AQP-D27) has a passing binding proof or says why not — so a
// renamed id or a new binding rule cannot silently drop out of the wire checks.
func TestBindingProofsAreCollectorMusts(t *testing.T) {
	cat, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]conformance.Requirement{}
	for _, r := range cat {
		byID[r.ID] = r
	}
	proved := map[string]bool{}
	for _, p := range bindingProofs(t) {
		if len(p.ids) == 0 {
			t.Errorf("%s proves nothing", p.name)
		}
		for _, id := range p.ids {
			if r, ok := byID[id]; !ok || r.Role != "collector" {
				t.Errorf("%s claims %s, which is not a collector requirement of requirements.json", p.name, id)
			}
			proved[id] = true
		}
	}
	// The binding MUSTs a collector's wire checks cannot prove, and why: they are not about a submission.
	elsewhere := map[string]string{
		"AQP-BIND-AUTH-HEADER": "binds the respondent's requests; the unauthorized scenarios fail it, the respondent runner passes it",
		"AQP-BIND-HTTPS-QUERY-HEADER": "query carriage is an application's (https.Attach), not the collector's; " +
			"conformance/respondentrun's carriers exercise it against a respondent",
		"AQP-BIND-MCP-QUERIES": "query carriage is an application's (mcp.Attach), not the collector's; " +
			"conformance/respondentrun's carriers exercise it against a respondent",
		"AQP-BIND-A2A-QUERIES": "query carriage is an application's (A2A message metadata), not the collector's; " +
			"conformance/respondentrun's carriers exercise it against a respondent",
	}
	for _, r := range cat {
		if r.Level != "MUST" || !(strings.HasPrefix(r.ID, "AQP-BIND-") || r.ID == "AQP-D27") {
			continue
		}
		if !proved[r.ID] && elsewhere[r.ID] == "" {
			t.Errorf("%s (%s) has no binding proof: name it in a binding's Requirements or say what proves it", r.ID, r.Statement)
		}
		if proved[r.ID] && elsewhere[r.ID] != "" {
			t.Errorf("%s is proved by the wire checks; drop it from elsewhere", r.ID)
		}
	}
	for id := range elsewhere {
		if !slices.ContainsFunc(cat, func(r conformance.Requirement) bool { return r.ID == id }) {
			t.Errorf("elsewhere names %s, which requirements.json does not hold", id)
		}
	}
}
