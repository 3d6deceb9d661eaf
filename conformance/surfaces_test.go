package conformance_test

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/runner"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/service/servicetest"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// allSurfaces are every pinned surface a runner reads: the service's, then each column's.
func allSurfaces() []harness.Surface {
	out := runner.ServiceSurfaces([]string{"https", "mcp", "a2a"})
	for _, c := range targets.All() {
		out = append(out, c.Surfaces...)
	}
	return out
}

// TestSurfacesPassAgainstOurCollector: every pinned surface is read from a collector composed as `aqp serve`
// composes it, and is as §6 and the decisions pin it — the passing proof of each surface's requirements.
func TestSurfacesPassAgainstOurCollector(t *testing.T) {
	ts := servicetest.New(t, memory.New(), https.Binding{}, aqpmcp.Binding{}, a2ab.Binding{})
	for _, s := range allSurfaces() {
		if err := s.Read(context.Background(), ts.URL, http.DefaultClient); err != nil {
			t.Errorf("surface %s: %v", s.Name, err)
		}
	}
}

// surfaceWords are what a requirement's statement says when it pins a surface a collector serves beside
// submitting: a document, a card, a tool list, a refusal by status.
var surfaceWords = regexp.MustCompile(`/\.well-known/aqp|agent card|inputSchema|tools/list|OpenAPI|/openapi\.yaml|\b415\b|\b413\b|problem\+json|path of their \$id`)

// TestEveryPinnedSurfaceIsRead: a collector requirement whose statement names a surface is read by some surface
// check (issue "The conformance kit sees what it claims", item 2) — so a surface the decisions pin cannot go
// unchecked because no scenario happens to request it.
func TestEveryPinnedSurfaceIsRead(t *testing.T) {
	cat, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]bool{}
	for _, s := range allSurfaces() {
		for _, id := range s.Requirements {
			read[id] = true
			if !slices.ContainsFunc(cat, func(r conformance.Requirement) bool { return r.ID == id }) {
				t.Errorf("surface %s names %s, which requirements.json does not hold", s.Name, id)
			}
		}
	}
	n := 0
	for _, r := range cat {
		if r.Role != "collector" || !surfaceWords.MatchString(r.Statement) {
			continue
		}
		n++
		if !read[r.ID] {
			t.Errorf("%s names a pinned surface (%q) that no surface check reads: %s", r.ID, surfaceWords.FindString(r.Statement), r.Statement)
		}
	}
	if n < 5 {
		t.Errorf("only %d requirements name a surface: the words have drifted from the catalogue", n)
	}
}
