package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/https/httpstest"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/runner"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
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

// TestBrokenCollectorFailsExactlyItsRequirements: a collector answering expired with 400 instead of 410 fails
// exactly the scenarios that expect expired, and the reports say so.
func TestBrokenCollectorFailsExactlyItsRequirements(t *testing.T) {
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "http://collector.test", FailureLimit: collector.RateLimit{Disabled: true}},
		Bindings:   []service.Binding{https.Binding{}},
		AdminToken: "admin",
	})
	if err != nil {
		t.Fatal(err)
	}
	h := svc.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == spec.HTTPSPath {
			w = &statusRewriter{ResponseWriter: w, from: https.StatusFor(core.CodeExpired), to: http.StatusBadRequest}
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	recs, err := runner.Run(context.Background(), runner.Options{
		Target: ts.URL,
		Bindings: []runner.Binding{{Name: spec.BindingHTTPS, Carries: httpstest.Carries,
			Remote: func(u string) runner.Submitter { return httpstest.Remote(u, ts.Client()) }}},
		Issue: func(ctx context.Context, draft []byte) ([]byte, error) {
			return harness.IssueOverAdminAPI(ctx, ts.Client(), ts.URL, "admin", draft)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, r := range recs {
		if r.Status == runner.Fail {
			failed = append(failed, r.Scenario)
		}
	}
	sort.Strings(failed)
	want := []string{"collector/expired/created-after-expires-at", "collector/expired/past-expiry"}
	if !slices.Equal(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
	fails, err := conformance.FixtureFails("collector/expired-status-400")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runner.FailedRequirements(recs), fails; !slices.Equal(got, want) {
		t.Errorf("failed requirements %v, want %v", got, want)
	}

	dir := t.TempDir()
	if err := runner.WriteReports(dir, ts.URL, recs); err != nil {
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
	if rep.Target != ts.URL || len(rep.Checks) != len(recs) {
		t.Fatalf("report.json: target %q with %d checks, want %q with %d", rep.Target, len(rep.Checks), ts.URL, len(recs))
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

type brokenHTTPS struct{ https.Binding }

func (b brokenHTTPS) Handler(sub collector.Submitter) http.Handler {
	return b.Binding.Handler(dupBreaker{sub})
}

// TestNonIdenticalDuplicateFailsExactlyTheDuplicateScenarios: a collector whose duplicate receipts differ from the
// stored ones fails exactly the scenarios that expect sameReceiptAs or race copies of one response (and that it can
// run), nothing else, and exactly the requirements conformance/fixtures.json lists for it.
func TestNonIdenticalDuplicateFailsExactlyTheDuplicateScenarios(t *testing.T) {
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "http://collector.test", FailureLimit: collector.RateLimit{Disabled: true}},
		Bindings:   []service.Binding{brokenHTTPS{}},
		AdminToken: "admin",
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(svc.Handler())
	defer ts.Close()
	b := runner.Binding{Name: spec.BindingHTTPS, Carries: httpstest.Carries,
		Remote: func(u string) runner.Submitter { return httpstest.Remote(u, ts.Client()) }}
	recs, err := runner.Run(context.Background(), runner.Options{
		Target: ts.URL, Bindings: []runner.Binding{b},
		Issue: func(ctx context.Context, draft []byte) ([]byte, error) {
			return harness.IssueOverAdminAPI(ctx, ts.Client(), ts.URL, "admin", draft)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range files {
		for _, sc := range f.Scenarios {
			if runner.SkipReason(sc, b) == "" && slices.ContainsFunc(sc.Steps, func(st conformance.Step) bool {
				return (st.Expect != nil && st.Expect.SameReceiptAs != "") || (st.Do == "race" && st.Distinct() < len(st.Responses))
			}) {
				want = append(want, sc.Name)
			}
		}
	}
	var failed []string
	for _, r := range recs {
		if r.Status == runner.Fail {
			failed = append(failed, r.Scenario)
			if !strings.Contains(r.Evidence, "differs from") {
				t.Errorf("%s: evidence %q does not say the receipt differs", r.Scenario, r.Evidence)
			}
		}
	}
	sort.Strings(failed)
	sort.Strings(want)
	if len(want) == 0 || !slices.Equal(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
	fails, err := conformance.FixtureFails("collector/duplicate-receipt-not-identical")
	if err != nil {
		t.Fatal(err)
	}
	if got := runner.FailedRequirements(recs); !slices.Equal(got, fails) {
		t.Errorf("failed requirements %v, want those conformance/fixtures.json lists, %v", got, fails)
	}
}
