package harness_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestConformanceImportsNoBinding: the harness, its suites, the collector runner, the reports and the vectors'
// loaders depend on no binding, no protocol SDK and not the service, so any binding — ours or another
// implementation's — can be run by the harness without the harness knowing it. Only conformance/targets (the one
// package of binding targets) and conformance/respondentrun (which plays collector and carrier over every binding)
// import the bindings; they stand above them.
func TestConformanceImportsNoBinding(t *testing.T) {
	const m = "github.com/agentqueryprotocol/aqp-go/"
	out, err := exec.Command("go", "list", "-deps", m+"conformance", m+"conformance/harness", m+"conformance/harness/harnesstest",
		m+"conformance/runner", m+"conformance/report").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "aqp-go/bindings") || strings.Contains(dep, "mcp-go") || strings.Contains(dep, "a2a-go") ||
			strings.Contains(dep, "modelcontextprotocol/go-sdk") || strings.Contains(dep, "aqp-go/service") {
			t.Errorf("a binding-neutral package under conformance/ depends on %s", dep)
		}
	}
}
