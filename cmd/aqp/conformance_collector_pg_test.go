package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// TestConformanceCollectorTwoProcessesOnePostgres: two `aqp serve` processes on one PostgreSQL database are one
// collector. `aqp conformance collector --binding all` issues every query through process A's admin API
// (--admin-url) and submits every response to process B, and every check that runs passes over each binding: B
// answers queries it did not issue, keeps their receipts byte for byte across duplicates and accepts one answer
// per query, from the shared store alone. PostgreSQL is required in CI (freshPostgres).
func TestConformanceCollectorTwoProcessesOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus with real waiting (about 30 s)")
	}
	url := freshPostgres(t, "aqp_e2e_conformance_")
	env := []string{"AQP_ADMIN_TOKEN=two"}
	a := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--failure-limit", "0")
	b := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--failure-limit", "0")
	cmd := exec.Command(aqpBinary(t), "conformance", "collector", "--target", b.url, "--admin-url", a.url,
		"--binding", "all", "--parallel", "7", "--admin-token", "two")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("aqp conformance collector against two processes: %v\n%s", err, out)
	}
	// The runner's progress lines: STATUS binding scenario[: evidence].
	passed, skipped := map[string]int{}, map[string]int{}
	surfaces := 0
	for _, m := range regexp.MustCompile(`(?m)^(PASS|FAIL|SKIP) +(https|mcp-\S+|a2a-\S+) +(\S+)`).FindAllStringSubmatch(string(out), -1) {
		if strings.HasPrefix(m[3], "surface/") { // the pinned surfaces, read once per run and column
			if m[1] != "PASS" {
				t.Errorf("%s over %s: %s", m[3], m[2], m[1])
			}
			surfaces++
			continue
		}
		switch m[1] {
		case "PASS":
			passed[m[2]]++
		case "SKIP":
			skipped[m[2]]++
		default:
			t.Errorf("%s over %s failed", m[3], m[2])
		}
	}
	if surfaces < 10 {
		t.Errorf("%d pinned surfaces read, want the service's 3 and every column's", surfaces)
	}
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		n += len(f.Scenarios)
	}
	for _, bnd := range []string{"https", "mcp-2026-07-28", "mcp-2025-11-25", "a2a-1.0-jsonrpc", "a2a-1.0-http-json", "a2a-1.0-grpc", "a2a-0.3-jsonrpc"} {
		if passed[bnd] == 0 || passed[bnd]+skipped[bnd] != n {
			t.Errorf("%s: %d passed and %d skipped of %d scenarios:\n%s", bnd, passed[bnd], skipped[bnd], n, out)
		}
		t.Logf("%s: %d pass, %d skip", bnd, passed[bnd], skipped[bnd])
	}
	// --admin-url is where queries are issued: with it pointing at nothing, nothing can be issued, though the
	// target answers.
	cmd = exec.Command(aqpBinary(t), "conformance", "collector", "--target", b.url, "--admin-url", "http://127.0.0.1:1",
		"--binding", "https", "--admin-token", "two")
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "issuing the query") || !strings.Contains(string(out), "127.0.0.1:1") {
		t.Errorf("--admin-url naming no collector: err %v\n%s", err, out)
	}
}

// TestConformanceCollectorAdminURLUsage: --admin-url says where the admin API issues queries, so it goes with
// --admin-token; beside --issue-cmd, which issues queries itself, it is a usage error naming both.
func TestConformanceCollectorAdminURLUsage(t *testing.T) {
	code, _, stderr := runCLI(t, "", "conformance", "collector", "--target", "http://127.0.0.1:1",
		"--admin-url", "http://127.0.0.1:2", "--issue-cmd", "cat")
	if code != 2 || !strings.Contains(stderr, "--admin-url") || !strings.Contains(stderr, "--issue-cmd") {
		t.Errorf("exit %d, stderr %q: want 2 naming --admin-url and --issue-cmd", code, stderr)
	}
}
