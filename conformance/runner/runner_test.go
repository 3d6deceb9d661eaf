package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https/httpstest"
	"github.com/agentqueryprotocol/aqp-go/conformance/runner"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// statusRewriter turns one HTTP status into another on the HTTPS binding's endpoint: a collector that maps a code
// to the wrong status.
type statusRewriter struct {
	http.ResponseWriter
	from, to int
}

func (w *statusRewriter) WriteHeader(code int) {
	if code == w.from {
		code = w.to
	}
	w.ResponseWriter.WriteHeader(code)
}

// TestReportsOfABrokenCollector: a collector answering expired with 400 instead of 410 fails exactly the scenarios
// that expect expired, the failures are attributed to the status table (not to the expiry rules, whose receipts
// were right), and the reports say so.
func TestReportsOfABrokenCollector(t *testing.T) {
	recs, target := runFixture(t, "collector/expired-status-400")
	var failed []string
	for _, r := range recs {
		if r.Status == runner.Fail {
			failed = append(failed, r.Scenario)
			if !slices.Equal(r.FailedRequirements, []string{httpstest.ReqStatus}) || len(r.Requirements) == 0 || slices.Contains(r.Requirements, httpstest.ReqStatus) {
				t.Errorf("%s: failed %v (scenario's %v), want only %s", r.Scenario, r.FailedRequirements, r.Requirements, httpstest.ReqStatus)
			}
		} else if r.FailedRequirements != nil {
			t.Errorf("%s: %s with failed requirements %v", r.Scenario, r.Status, r.FailedRequirements)
		}
	}
	sort.Strings(failed)
	want := []string{"collector/expired/created-after-expires-at", "collector/expired/past-expiry"}
	if !slices.Equal(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
	dir := t.TempDir()
	if err := runner.WriteReports(dir, target, recs); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Target string `json:"target"`
		Checks []struct {
			Scenario     string   `json:"scenario"`
			Requirements []string `json:"requirements"`
			Binding      string   `json:"binding"`
			Status       string   `json:"status"`
			Evidence     string   `json:"evidence"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Target != target || len(rep.Checks) != len(recs) {
		t.Fatalf("report.json: target %q with %d checks, want %q with %d", rep.Target, len(rep.Checks), target, len(recs))
	}
	for _, c := range rep.Checks {
		if c.Scenario == "" || c.Binding != "https" || !slices.Contains([]string{"pass", "fail", "skip"}, c.Status) ||
			(c.Status != "pass" && c.Evidence == "") || c.Requirements == nil {
			t.Errorf("report.json record %+v: want a scenario, the binding, a status, evidence unless passed, requirements", c)
		}
	}
	x, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var ju struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Cases    []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x, &ju); err != nil {
		t.Fatal(err)
	}
	if len(ju.Suites) != 1 || ju.Suites[0].Tests != len(recs) || ju.Suites[0].Failures != 2 || len(ju.Suites[0].Cases) != len(recs) {
		t.Fatalf("junit.xml: %+v", ju)
	}
	nf, ns := 0, 0
	for _, c := range ju.Suites[0].Cases {
		if c.Failure != nil {
			nf++
		}
		if c.Skipped != nil {
			ns++
		}
	}
	if nf != 2 || ns != ju.Suites[0].Skipped || ns == 0 {
		t.Errorf("junit.xml: %d failures, %d skipped cases; suite says %d skipped", nf, ns, ju.Suites[0].Skipped)
	}
}

// dupBreaker is a Submitter that returns a duplicate's stored receipt with a space added: a collector whose
// duplicate receipt is not byte-identical.
type dupBreaker struct{ collector.Submitter }

func (d dupBreaker) Submit(ctx context.Context, s collector.Submission) collector.Outcome {
	out := d.Submitter.Submit(ctx, s)
	if out.Duplicate && len(out.Receipt) > 0 {
		out.Receipt = append(bytes.TrimSuffix(out.Receipt, []byte("}")), []byte(" }")...)
	}
	return out
}
