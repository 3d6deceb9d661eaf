package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformanceRespondentPassesOurRespondent runs `aqp conformance respondent` over every binding against
// `aqp respond --from`: our respondent passes every check, and the JSON report holds one passing record per check.
func TestConformanceRespondentPassesOurRespondent(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "", "conformance", "respondent", "--report-dir", dir, "--",
		aqpBinary(t), "respond", "--from", "{url}", "--carrier", "{binding}", "--signal", "{signals}", "--answer-text", "yes", "--allow-http-loopback")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var rep struct {
		Checks []struct {
			Binding, Status, Evidence string
			Requirements              []string
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "respondent.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, r := range rep.Checks {
		if r.Status != "pass" || len(r.Requirements) == 0 || r.Evidence == "" {
			t.Errorf("record %+v", r)
		}
		per[r.Binding]++
	}
	// Every column (https, both MCP generations, each A2A generation and transport) runs the same checks.
	if len(per) != 7 || per["https"] < 10 {
		t.Errorf("records per binding %v, want the seven columns with at least 10 each", per)
	}
	for b, n := range per {
		if n != per["https"] {
			t.Errorf("records per binding %v: %s has %d, https %d; want the same number in every column", per, b, n, per["https"])
		}
	}
	if !strings.Contains(errOut, "pass a2a") {
		t.Errorf("no progress lines on stderr:\n%s", errOut)
	}
	for _, f := range []string{"respondent.junit.xml", "index.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestConformanceRespondentFailsASilentRespondent: a respondent that answers nothing fails the answer and retry
// checks (and passes the ones that require silence); its command has no {signals}, so the timing scenarios fail
// saying the runner cannot play the host; the exit status is 1.
func TestConformanceRespondentFailsASilentRespondent(t *testing.T) {
	code, out, _ := runCLI(t, "", "conformance", "respondent", "--binding", "https", "--", "true", "{url}")
	if code != 1 || !strings.Contains(out, "AQP-RESP-DELIVER") || !strings.Contains(out, "AQP-RESP-RETRY") || strings.Contains(out, "FAIL respondent/https/expired") {
		t.Fatalf("exit %d, want 1 failing delivery and retry only\n%s", code, out)
	}
	if !strings.Contains(out, "FAIL respondent/https/outcome-unsignalled") || !strings.Contains(out, "has no {signals}, so the runner cannot play the host") {
		t.Fatalf("the timing scenarios do not say the runner cannot play the host:\n%s", out)
	}
}

// TestConformanceRespondentExpectedFailures: a silent respondent whose every failure is listed passes; a listed
// check that passes, or an id no check has, fails the run as stale; a malformed file is a usage error before any
// run.
func TestConformanceRespondentExpectedFailures(t *testing.T) {
	dir := t.TempDir()
	code, _, _ := runCLI(t, "", "conformance", "respondent", "--binding", "https", "--report-dir", dir, "--", "true", "{url}")
	if code != 1 {
		t.Fatalf("the silent respondent: exit %d, want 1", code)
	}
	var rep struct {
		Checks []struct{ ID, Status string }
	}
	b, err := os.ReadFile(filepath.Join(dir, "respondent.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var failing []map[string]string
	passing := ""
	for _, c := range rep.Checks {
		switch c.Status {
		case "fail":
			failing = append(failing, map[string]string{"check": c.ID, "reason": "this respondent sends nothing"})
		case "pass":
			passing = c.ID
		}
	}
	if len(failing) == 0 || passing == "" {
		t.Fatalf("want failing and passing checks: %+v", rep.Checks)
	}
	write := func(entries []map[string]string) string {
		p := filepath.Join(t.TempDir(), "expected.json")
		b, _ := json.Marshal(map[string]any{"expectedFailures": entries})
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name    string
		entries []map[string]string
		code    int
		want    string
		args    []string
	}{
		{"every failure listed", failing, 0, "passed:", nil},
		{"a passing check listed", append(failing[:len(failing):len(failing)], map[string]string{"check": passing, "reason": "r"}), 1, "STALE expected failure " + passing, nil},
		{"an id no check has", append(failing[:len(failing):len(failing)], map[string]string{"check": "respondent/https/no-such", "reason": "r"}), 1, "no such check", nil},
		// --run leaves the other scenarios out: their entries are neither stale nor missing.
		{"one scenario run", failing, 0, "passed:", []string{"--run", "^answer$"}},
		{"one scenario run, its failure unlisted", []map[string]string{{"check": "respondent/https/no-such/x", "reason": "r"}}, 1, "FAIL respondent/https/answer/", []string{"--run", "^answer$"}},
	} {
		args := append([]string{"conformance", "respondent", "--binding", "https", "--expected-failures", write(tc.entries)}, tc.args...)
		code, out, _ := runCLI(t, "", append(args, "--", "true", "{url}")...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%s: exit %d, want %d and %q\n%s", tc.name, code, tc.code, tc.want, out)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"expectedFailures":[{"check":"x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "", "conformance", "respondent", "--expected-failures", bad, "--", "true", "{url}"); code != 2 || !strings.Contains(errOut, "expectedFailures[0]") {
		t.Errorf("a malformed file: exit %d\n%s", code, errOut)
	}
	for _, re := range []string{"(", "^no-such-scenario$"} {
		if code, _, errOut := runCLI(t, "", "conformance", "respondent", "--run", re, "--", "true", "{url}"); code != 2 || !strings.Contains(errOut, "--run") && !strings.Contains(errOut, "no scenario") {
			t.Errorf("--run %q: exit %d\n%s", re, code, errOut)
		}
	}
}

// TestConformanceRespondentUsage: no command, a command without {url}, an unknown binding.
func TestConformanceRespondentUsage(t *testing.T) {
	for _, args := range [][]string{
		{"conformance", "respondent"},
		{"conformance", "respondent", "--", "true"},
		{"conformance", "respondent", "--binding", "smtp", "--", "true", "{url}"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
