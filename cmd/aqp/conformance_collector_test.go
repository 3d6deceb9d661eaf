package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestConformanceCollectorAgainstServe: `aqp conformance collector --binding all` against a real `aqp serve`
// passes every scenario it runs over each binding, and skips exactly the scenarios that need control of the
// collector (or a raw body the binding cannot carry).
func TestConformanceCollectorAgainstServe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus with real waiting (about 25 s)")
	}
	data := t.TempDir()
	p := startServe(t, nil, "--data-dir", data, "--failure-limit", "0")
	token, err := os.ReadFile(filepath.Join(data, "admin-token"))
	if err != nil {
		t.Fatal(err)
	}
	reports := t.TempDir()
	cmd := exec.Command(aqpBinary(t), "conformance", "collector", "--target", p.url, "--binding", "all", "--parallel", "7",
		"--admin-token", strings.TrimSpace(string(token)), "--report-dir", reports)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("aqp conformance collector: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "by level:") || !strings.Contains(string(out), "by binding:") {
		t.Errorf("no summary by level and binding:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(reports, "collector.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Checks []struct {
			Scenario, Binding, Status string
		} `json:"checks"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	control := []string{
		"collector/continuation/identical-on-duplicates",
		"collector/continuation/is-answerable-with-its-own-capability",
		"collector/continuation/issued-on-matching-answer",
		"collector/continuation/none-when-no-rule-matches",
		"collector/continuation/not-on-rejections",
		"collector/expired/at-expiry-is-still-open",
		"collector/race/more-copies-than-the-burst-all-get-the-receipt",
		"collector/rate_limited/burst-exceeded",
		"collector/rate_limited/duplicate-always-gets-its-stored-receipt",
		"collector/rate_limited/wrong-capability-spends-no-query-budget",
		"collector/unavailable/store-down",
	}
	skipped, passed := map[string][]string{}, map[string]int{}
	for _, c := range rep.Checks {
		switch c.Status {
		case "skip":
			skipped[c.Binding] = append(skipped[c.Binding], c.Scenario)
		case "pass":
			passed[c.Binding]++
		default:
			t.Errorf("%s over %s: %s", c.Scenario, c.Binding, c.Status)
		}
	}
	for _, bnd := range []string{"https", "mcp-2026-07-28", "mcp-2025-11-25", "a2a-1.0-jsonrpc", "a2a-1.0-http-json", "a2a-1.0-grpc", "a2a-0.3-jsonrpc"} {
		want := slices.Clone(control)
		if bnd != "https" {
			want = append(want, "collector/problem/not-json") // a raw body: MCP and A2A carry an object
		}
		sort.Strings(want)
		got := skipped[bnd]
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s skipped %v, want %v", bnd, got, want)
		}
		if passed[bnd] == 0 {
			t.Errorf("%s passed nothing", bnd)
		}
	}
}

// TestConformanceCollectorIssueCmd: --issue-cmd issues through a command given the draft on stdin — here
// `aqp query create --draft /dev/stdin`, as a collector with another admin surface would be driven.
func TestConformanceCollectorIssueCmd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus with real waiting (about 10 s)")
	}
	data := t.TempDir()
	p := startServe(t, nil, "--data-dir", data)
	token, err := os.ReadFile(filepath.Join(data, "admin-token"))
	if err != nil {
		t.Fatal(err)
	}
	issue := aqpBinary(t) + " query create --server " + p.url + " --draft /dev/stdin"
	cmd := exec.Command(aqpBinary(t), "conformance", "collector", "--target", p.url, "--binding", "https", "--issue-cmd", issue)
	cmd.Env = append(os.Environ(), "AQP_ADMIN_TOKEN="+strings.TrimSpace(string(token)))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("aqp conformance collector --issue-cmd: %v\n%s", err, out)
	}
	if line := fmt.Sprintf("  %-7s %4d pass %3d fail %3d expected %3d skip", "https", 108, 0, 0, 14); !strings.Contains(string(out), line) {
		t.Errorf("want 108 passes (104 scenarios and 4 pinned surfaces) and 14 skips over https (those that need control of the collector, and 3 that refuse a draft, which a command cannot report as errors):\n%s", out)
	}
	// A command that prints no request fails every scenario it runs, naming the cause.
	cmd = exec.Command(aqpBinary(t), "conformance", "collector", "--target", p.url, "--binding", "https", "--issue-cmd", "cat >/dev/null; echo '{}'")
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "the issued request has no queryId") {
		t.Errorf("a broken --issue-cmd: err %v\n%s", err, out)
	}
}

// TestConformanceCollectorUnreachableTarget: a target nothing answers at fails once, saying so, instead of failing
// every scenario with the same connection error.
func TestConformanceCollectorUnreachableTarget(t *testing.T) {
	code, out, errOut := runCLI(t, "", "conformance", "collector", "--target", "http://127.0.0.1:1", "--admin-token", "x")
	if code != 1 || !strings.Contains(errOut, "cannot be reached") || strings.Contains(out, "FAIL") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestConformanceCollectorStatedRateLimit: told the collector's per-query rate limit (--rate-limit PERSECOND:BURST),
// the runner runs the scenarios written against it — their 429s and Retry-After checked — instead of skipping them;
// a malformed statement is a usage error.
func TestConformanceCollectorStatedRateLimit(t *testing.T) {
	data := t.TempDir()
	p := startServe(t, nil, "--data-dir", data, "--rate-limit", "1", "--rate-burst", "2", "--failure-limit", "0")
	token, err := os.ReadFile(filepath.Join(data, "admin-token"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "conformance", "collector", "--target", p.url, "--binding", "https", "--admin-token", strings.TrimSpace(string(token)),
		"--rate-limit", "1:2", "--run", "rate_limited/burst-exceeded")
	if code != 0 || !strings.Contains(out, "PASS https collector/rate_limited/burst-exceeded") {
		t.Fatalf("exit %d, want burst-exceeded to run and pass\n%s\n%s", code, out, errOut)
	}
	for _, bad := range []string{"1", "x:2", "1:0", "-1:2"} {
		if code, _, _ := runCLI(t, "", "conformance", "collector", "--target", p.url, "--admin-token", "x", "--rate-limit", bad); code != 2 {
			t.Errorf("--rate-limit %q: exit %d, want 2", bad, code)
		}
	}
}
