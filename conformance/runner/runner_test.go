package runner_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
	"github.com/agentqueryprotocol/aqp-go/conformance/runner"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/spec"
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
// that expect expired (two of expiry, one of the default ttl), the failures are attributed to the status table (not to the expiry rules, whose receipts
// were right), and the reports say so.
func TestReportsOfABrokenCollector(t *testing.T) {
	recs, target := runFixture(t, "collector/expired-status-400")
	var failed []string
	for _, r := range recs {
		if r.Status == runner.Fail {
			failed = append(failed, r.Scenario)
			if !slices.Equal(r.FailedRequirements, []string{targets.ReqHTTPSStatus}) || len(r.Requirements) == 0 || slices.Contains(r.Requirements, targets.ReqHTTPSStatus) {
				t.Errorf("%s: failed %v (scenario's %v), want only %s", r.Scenario, r.FailedRequirements, r.Requirements, targets.ReqHTTPSStatus)
			}
		} else if r.FailedRequirements != nil {
			t.Errorf("%s: %s with failed requirements %v", r.Scenario, r.Status, r.FailedRequirements)
		}
	}
	sort.Strings(failed)
	want := []string{"collector/expired/created-after-expires-at", "collector/expired/past-expiry", "collector/issue/draft-without-ttl-lives-3600-seconds"}
	if !slices.Equal(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
	// The report files: the failures attributed to the status table in the JSON and JUnit XML.
	catalogue, err := conformance.LoadRequirements()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := report.WriteDir(dir, report.New("collector", target, time.Now(), runner.Checks(recs), catalogue), catalogue); err != nil {
		t.Fatal(err)
	}
	rep, err := report.ReadJSON(filepath.Join(dir, "collector.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Target != target || len(rep.Checks) != len(recs) {
		t.Fatalf("collector.json: target %q with %d checks, want %q with %d", rep.Target, len(rep.Checks), target, len(recs))
	}
	fails := 0
	for _, c := range rep.Checks {
		if c.Scenario == "" || c.Binding != "https" || (c.Status != report.Pass && c.Evidence == "") || c.Requirements == nil || c.Level == "" {
			t.Errorf("collector.json record %+v: want a scenario, the binding, evidence unless passed, requirements, a level", c)
		}
		if c.Status == report.Fail {
			fails++
			if !slices.Equal(c.Failed, []string{targets.ReqHTTPSStatus}) {
				t.Errorf("collector.json: %s attributed to %v", c.ID, c.Failed)
			}
		}
	}
	x, err := os.ReadFile(filepath.Join(dir, "collector.junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var ju struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x, &ju); err != nil {
		t.Fatal(err)
	}
	if fails != len(want) || len(ju.Suites) != 1 || ju.Suites[0].Tests != len(recs) || ju.Suites[0].Failures != len(want) {
		t.Errorf("%d failures in collector.json; collector.junit.xml %+v", fails, ju)
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

// TestRunFilter: Options.Run keeps only the scenarios it matches, and matching none is an error before anything
// is sent.
func TestRunFilter(t *testing.T) {
	b := runner.Binding{Name: spec.BindingHTTPS, Carries: targets.HTTPSCarries,
		Remote: func(u string) harness.ColumnClient { return targets.HTTPSRemote(u, http.DefaultClient) }}
	issued := 0
	opts := runner.Options{Target: "http://127.0.0.1:1", Bindings: []runner.Binding{b},
		Issue: func(context.Context, []byte) ([]byte, error) { issued++; return nil, errors.New("no collector here") }}
	opts.Run = regexp.MustCompile(`^collector/no-such-scenario$`)
	if _, err := runner.Run(context.Background(), opts); err == nil || issued != 0 {
		t.Errorf("a filter matching nothing: err %v after %d issues", err, issued)
	}
	opts.Run = regexp.MustCompile(`^collector/accept/quickstart-shaped-response$`)
	recs, err := runner.Run(context.Background(), opts)
	if err != nil || len(recs) != 1 || recs[0].Scenario != "collector/accept/quickstart-shaped-response" || recs[0].Status != runner.Fail {
		t.Errorf("one scenario kept: %+v, %v", recs, err)
	}
}
