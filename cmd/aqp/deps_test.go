package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestShippedBinaryLinksNoTestCode: `aqp` links neither testing nor net/http/httptest. Its conformance commands
// run the runners, whose targets serve on real loopback listeners; a test helper creeping back into a package the
// command imports fails here, not in a binary someone ships.
func TestShippedBinaryLinksNoTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "testing" || dep == "net/http/httptest" {
			t.Errorf("cmd/aqp links %s: find the importer with `go list -deps -f '{{.ImportPath}} {{.Imports}}' ./cmd/aqp | grep %s`", dep, dep)
		}
	}
}
