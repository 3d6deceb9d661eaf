package report_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
)

var catalogue = []conformance.Requirement{
	{ID: "AQP-A", Level: "MUST", Role: "collector", Statement: "a", Source: "s"},
	{ID: "AQP-B", Level: "SHOULD", Role: "collector", Statement: "b", Source: "s"},
	{ID: "AQP-C", Level: "MUST", Role: "collector", Statement: "c", Source: "s"},
	{ID: "AQP-UNCHECKED", Level: "MUST", Role: "validator", Statement: "u", Source: "s"},
}

// sample is a collector run over two bindings: one pass, one failure attributed to a wire requirement, one skip,
// one failure with no attribution (its own requirements), and evidence that is hostile HTML.
func sample() *report.Report {
	return report.New("collector", "http://127.0.0.1:1", time.Now(), []report.Check{
		{Scenario: "s/one", Binding: "https", Requirements: []string{"AQP-A"}, Status: report.Pass},
		{Scenario: "s/two", Binding: "https", Requirements: []string{"AQP-A"}, Failed: []string{"AQP-C"}, Status: report.Fail, Evidence: "status 400, want 410"},
		{Scenario: "s/one", Binding: "mcp", Requirements: []string{"AQP-A"}, Status: report.Skip, Evidence: "not carried"},
		{Scenario: "s/two", Binding: "mcp", Requirements: []string{"AQP-B"}, Status: report.Fail, Evidence: `<script>alert(1)</script> & "quotes"`},
	}, catalogue)
}

func TestNewFillsIDsLevelsAndAttribution(t *testing.T) {
	r := sample()
	want := []struct {
		id, level string
		failed    []string
	}{
		{"collector/https/s/one", "MUST", nil},
		{"collector/https/s/two", "MUST", []string{"AQP-C"}},
		{"collector/mcp/s/one", "MUST", nil},
		{"collector/mcp/s/two", "SHOULD", []string{"AQP-B"}},
	}
	for i, w := range want {
		c := r.Checks[i]
		if c.ID != w.id || c.Level != w.level || !slices.Equal(c.Failed, w.failed) {
			t.Errorf("check %d: id %q level %q failed %v, want %q %q %v", i, c.ID, c.Level, c.Failed, w.id, w.level, w.failed)
		}
	}
	if got := r.FailedRequirements(); !slices.Equal(got, []string{"AQP-B", "AQP-C"}) {
		t.Errorf("FailedRequirements %v", got)
	}
	if !r.Failed() {
		t.Error("a run with failures does not fail")
	}
}

func TestApplyExpected(t *testing.T) {
	for _, tc := range []struct {
		name      string
		entries   []report.ExpectedFailure
		failed    bool
		stale     []string
		expected  []string
		remaining []string // requirements still failing
	}{
		{name: "no file", failed: true, remaining: []string{"AQP-B", "AQP-C"}},
		{name: "every failure listed", entries: []report.ExpectedFailure{
			{Check: "collector/https/s/two", Reason: "r1"}, {Check: "collector/mcp/s/two", Reason: "r2"}},
			expected: []string{"collector/https/s/two", "collector/mcp/s/two"}},
		{name: "one listed, one not", entries: []report.ExpectedFailure{{Check: "collector/https/s/two", Reason: "r"}},
			failed: true, expected: []string{"collector/https/s/two"}, remaining: []string{"AQP-B"}},
		{name: "a listed check that passes is stale", entries: []report.ExpectedFailure{
			{Check: "collector/https/s/two", Reason: "r"}, {Check: "collector/mcp/s/two", Reason: "r"}, {Check: "collector/https/s/one", Reason: "fixed since"}},
			failed: true, stale: []string{"collector/https/s/one"}, expected: []string{"collector/https/s/two", "collector/mcp/s/two"}},
		{name: "a listed check the run lacks over a binding it ran is stale", entries: []report.ExpectedFailure{
			{Check: "collector/https/s/two", Reason: "r"}, {Check: "collector/mcp/s/two", Reason: "r"}, {Check: "collector/https/s/typo", Reason: "r"}},
			failed: true, stale: []string{"collector/https/s/typo"}, expected: []string{"collector/https/s/two", "collector/mcp/s/two"}},
		{name: "entries for another binding or role, or a skipped check, are left alone", entries: []report.ExpectedFailure{
			{Check: "collector/https/s/two", Reason: "r"}, {Check: "collector/mcp/s/two", Reason: "r"},
			{Check: "collector/a2a/s/two", Reason: "r"}, {Check: "respondent/https/answer/x", Reason: "r"}, {Check: "collector/mcp/s/one", Reason: "r"}},
			expected: []string{"collector/https/s/two", "collector/mcp/s/two"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := sample()
			r.ApplyExpected(tc.entries)
			var stale, expected []string
			for _, s := range r.Stale {
				stale = append(stale, s.Check)
			}
			for _, c := range r.Checks {
				if c.Status == report.Expected {
					expected = append(expected, c.ID)
					if c.Reason == "" {
						t.Errorf("%s: expected failure without its reason", c.ID)
					}
				}
			}
			if r.Failed() != tc.failed || !slices.Equal(stale, tc.stale) || !slices.Equal(expected, tc.expected) || !slices.Equal(r.FailedRequirements(), tc.remaining) {
				t.Errorf("failed %v stale %v expected %v remaining %v; want %v %v %v %v", r.Failed(), stale, expected, r.FailedRequirements(), tc.failed, tc.stale, tc.expected, tc.remaining)
			}
		})
	}
}

func TestParseExpectedRefusesMalformedFiles(t *testing.T) {
	for name, doc := range map[string]string{
		"not JSON":        `nope`,
		"no array":        `{}`,
		"unknown member":  `{"expectedFailures":[],"extra":1}`,
		"entry member":    `{"expectedFailures":[{"check":"collector/https/s","reason":"r","why":"x"}]}`,
		"no reason":       `{"expectedFailures":[{"check":"collector/https/s","reason":" "}]}`,
		"bad role":        `{"expectedFailures":[{"check":"validator/https/s","reason":"r"}]}`,
		"no scenario":     `{"expectedFailures":[{"check":"collector/https","reason":"r"}]}`,
		"twice":           `{"expectedFailures":[{"check":"collector/https/s","reason":"r"},{"check":"collector/https/s","reason":"r"}]}`,
		"trailing values": `{"expectedFailures":[]} {}`,
	} {
		if _, err := report.ParseExpected([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	got, err := report.ParseExpected([]byte(`{"description":"gaps","expectedFailures":[{"check":"respondent/mcp/answer/subject is copied","reason":"tracked in #12"}]}`))
	if err != nil || len(got) != 1 || got[0].Reason != "tracked in #12" {
		t.Errorf("a good file: %v %v", got, err)
	}
}

func TestJUnit(t *testing.T) {
	r := sample()
	r.ApplyExpected([]report.ExpectedFailure{{Check: "collector/mcp/s/two", Reason: "known"}, {Check: "collector/https/s/one", Reason: "stale"}})
	var ju struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(r.JUnit(), &ju); err != nil {
		t.Fatal(err)
	}
	type s struct {
		name                 string
		tests, fails, skipps int
	}
	var got []s
	for _, x := range ju.Suites {
		got = append(got, s{x.Name, x.Tests, x.Failures, x.Skipped})
	}
	want := []s{{"aqp-collector-https", 2, 1, 0}, {"aqp-collector-mcp", 2, 0, 2}, {"aqp-collector-expected-failures", 1, 1, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("suites %+v, want %+v", got, want)
	}
}

func TestSummary(t *testing.T) {
	var b bytes.Buffer
	sample().Summary(&b)
	for _, want := range []string{"by level:", "  MUST       1 pass   1 fail   0 expected   1 skip", "  SHOULD     0 pass   1 fail",
		"by binding:", "  https      1 pass   1 fail", "FAIL collector/https/s/two (AQP-C)\n  status 400, want 410"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestWriteDirCombinesRuns: a collector run and a respondent run into one directory make one page holding both,
// and the HTML escapes what an implementation under test wrote.
func TestWriteDirCombinesRuns(t *testing.T) {
	dir := t.TempDir()
	if err := report.WriteDir(dir, sample(), catalogue); err != nil {
		t.Fatal(err)
	}
	resp := report.New("respondent", "my-agent {url}", time.Now(), []report.Check{
		{Scenario: "answer", Check: "delivered", Binding: "a2a", Requirements: []string{"AQP-A"}, Status: report.Pass, Evidence: "1 submission"},
	}, catalogue)
	if err := report.WriteDir(dir, resp, catalogue); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"collector.json", "collector.junit.xml", "respondent.json", "respondent.junit.xml", "index.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	back, err := report.ReadJSON(filepath.Join(dir, "collector.json"))
	if err != nil || len(back.Checks) != 4 || back.Checks[1].Failed[0] != "AQP-C" {
		t.Fatalf("collector.json read back: %+v, %v", back, err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	for _, want := range []string{`id="run-collector"`, `id="run-respondent"`, `&lt;script&gt;alert(1)&lt;/script&gt;`, `href="#ev-AQP-C-https"`, `id="ev-AQP-A-a2a"`, "AQP-UNCHECKED"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if bytes.Contains(page, []byte("<script>alert")) {
		t.Error("index.html carries the evidence's markup unescaped")
	}
	// A foreign file where a report belongs is refused, naming it.
	if err := os.WriteFile(filepath.Join(dir, "respondent.json"), []byte(`{"role":"other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteDir(dir, sample(), catalogue); err == nil || !strings.Contains(err.Error(), "respondent.json") {
		t.Errorf("a foreign respondent.json: %v", err)
	}
}

// Chromium finds Debian's chromium (or $AQP_CHROMIUM). In CI its absence is a failure: the HTML report's check
// must run there.
func Chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("AQP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: CI must render the HTML report (apt-get install chromium; .ci/run does)")
	}
	t.Skip("chromium is not installed (apt-get install chromium); CI requires it")
	return ""
}

// headless runs chromium headless with the flags a closed network needs, and a profile of its own.
func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// Rendered reads the attributes the page's script sets on the root element once the browser has laid it out.
func Rendered(dom []byte) map[string]string {
	m := map[string]string{}
	root := regexp.MustCompile(`<html[^>]*>`).Find(dom)
	for _, a := range regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`).FindAllSubmatch(root, -1) {
		m[string(a[1])] = string(a[2])
	}
	return m
}

// TestHTMLRendersInChromium opens the report in headless Chromium: the matrix is laid out with a row per
// requirement checked and a cell per binding, the failing cells are marked, every in-page link resolves (each
// failure's evidence is one click away), and a screenshot is a picture, not a blank page.
func TestHTMLRendersInChromium(t *testing.T) {
	bin := Chromium(t)
	dir := t.TempDir()
	if err := report.WriteDir(dir, sample(), catalogue); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.Join(dir, "index.html")
	got := Rendered(headless(t, bin, "--dump-dom", url))
	width, _ := strconv.Atoi(got["matrix-width"])
	// AQP-A, AQP-B, AQP-C are checked; AQP-UNCHECKED is listed apart. Two bindings.
	if got["rendered"] != "yes" || got["matrix-rows"] != "3" || got["matrix-cells"] != "6" || got["matrix-fail-cells"] != "2" ||
		got["dangling-links"] != "0" || width < 200 {
		t.Errorf("chromium laid out %v; want 3 rows, 6 cells, 2 failing, no dangling link, a real width", got)
	}
	shot := filepath.Join(dir, "shot.png")
	headless(t, bin, "--hide-scrollbars", "--window-size=1000,700", "--screenshot="+shot, url)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if b.Dx() != 1000 || len(colours) < 8 {
		t.Errorf("screenshot %v with %d colours: not the rendered report", b, len(colours))
	}
}
