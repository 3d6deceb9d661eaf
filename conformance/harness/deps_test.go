package harness_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestConformanceImportsNoBinding: no non-test package under conformance/ depends on a binding or a protocol SDK,
// so any binding — ours or another implementation's — can be run by the harness without the harness knowing it.
func TestConformanceImportsNoBinding(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/agentqueryprotocol/aqp-go/conformance/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "aqp-go/bindings/") || strings.Contains(dep, "mcp-go") || strings.Contains(dep, "a2a-go") ||
			strings.Contains(dep, "modelcontextprotocol/go-sdk") || strings.Contains(dep, "aqp-go/service") {
			t.Errorf("a package under conformance/ depends on %s", dep)
		}
	}
}
