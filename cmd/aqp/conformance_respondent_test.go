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
		aqpBinary(t), "respond", "--from", "{url}", "--carrier", "{binding}", "--answer-text", "yes", "--allow-http-loopback")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var rep struct {
		Records []struct {
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
	for _, r := range rep.Records {
		if r.Status != "pass" || len(r.Requirements) == 0 || r.Evidence == "" {
			t.Errorf("record %+v", r)
		}
		per[r.Binding]++
	}
	if len(per) != 3 || per["https"] != per["mcp"] || per["mcp"] != per["a2a"] || per["https"] < 10 {
		t.Errorf("records per binding %v, want the same number (at least 10) over https, mcp and a2a", per)
	}
	if !strings.Contains(errOut, "pass a2a") {
		t.Errorf("no progress lines on stderr:\n%s", errOut)
	}
}

// TestConformanceRespondentFailsASilentRespondent: a respondent that answers nothing fails the answer and retry
// checks (and passes the ones that require silence); the exit status is 1.
func TestConformanceRespondentFailsASilentRespondent(t *testing.T) {
	code, out, _ := runCLI(t, "", "conformance", "respondent", "--binding", "https", "--", "true", "{url}")
	if code != 1 || !strings.Contains(out, "AQP-RESP-DELIVER") || !strings.Contains(out, "AQP-RESP-RETRY") || strings.Contains(out, "FAIL expired") {
		t.Fatalf("exit %d, want 1 failing delivery and retry only\n%s", code, out)
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
