package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	a := startServe(t, env, "--data-dir", t.TempDir(), "--store", url)
	b := startServe(t, env, "--data-dir", t.TempDir(), "--store", url)
	reports := t.TempDir()
	cmd := exec.Command(aqpBinary(t), "conformance", "collector", "--target", b.url, "--admin-url", a.url,
		"--binding", "all", "--admin-token", "two", "--report-dir", reports)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("aqp conformance collector against two processes: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(reports, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Checks []struct {
			Scenario, Binding, Status string
		} `json:"checks"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	passed, skipped := map[string]int{}, map[string]int{}
	for _, c := range rep.Checks {
		switch c.Status {
		case "pass":
			passed[c.Binding]++
		case "skip":
			skipped[c.Binding]++
		default:
			t.Errorf("%s over %s: %s", c.Scenario, c.Binding, c.Status)
		}
	}
	for _, bnd := range []string{"https", "mcp", "a2a"} {
		if passed[bnd] == 0 {
			t.Errorf("%s passed nothing", bnd)
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
