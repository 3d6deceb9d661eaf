package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/runner"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// brokenCollector is one deliberately broken collector of conformance/fixtures.json: how to build it and which
// binding to run the corpus over.
type brokenCollector struct {
	// binding is the fixture's binding (its fixtures.json entry must say the same).
	binding string
	// store wraps the collector's store (nil: the memory store as is).
	store func(collector.Store) collector.Store
	// submitter wraps what the binding hands submissions to (nil: the collector itself).
	submitter func(collector.Submitter) collector.Submitter
	// wire wraps the served handler, to break the binding's wire form (nil: as served).
	wire func(http.Handler) http.Handler
	// rateLimit, when set, is the collector's per-query rate limit, stated to the runner, and only the scenarios
	// written against it run (those a collector under a default limit skips).
	rateLimit *conformance.ScenarioRateLimit
}

// receivedAtMillis matches a receipt's receivedAt as D20 writes it, capturing it to the second.
var receivedAtMillis = regexp.MustCompile(`"receivedAt":"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z"`)

// brokenCollectors are the collector fixtures, by their fixtures.json names; every collector entry of the file must
// be here and every entry here in the file (TestEveryCollectorFixtureIsRun).
var brokenCollectors = map[string]brokenCollector{
	"collector/expired-status-400": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		return onPath(spec.HTTPSPath, h, func(w http.ResponseWriter) http.ResponseWriter {
			return &statusRewriter{ResponseWriter: w, from: https.WireFor(core.CodeExpired).Status, to: http.StatusBadRequest}
		})
	}},
	"collector/no-www-authenticate": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		return onPath(spec.HTTPSPath, h, func(w http.ResponseWriter) http.ResponseWriter { return &headerDropper{w, "WWW-Authenticate"} })
	}},
	"collector/rejection-body-not-a-receipt": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		return rewriteReply(spec.HTTPSPath, h, func(status int, header http.Header, b []byte) []byte {
			if status != http.StatusOK && header.Get("Content-Type") == "application/json" {
				return []byte(`{"error":"rejected"}`)
			}
			return b
		})
	}},
	"collector/receipt-with-binding-member": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		// A binding's own variant of the receipt: one member the schema does not have.
		return rewriteBody(spec.HTTPSPath, h, func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"protocolVersion":`), []byte(`"binding":"https","protocolVersion":`), 1)
		})
	}},
	"collector/discovery-omits-a-binding": {binding: spec.BindingA2A, wire: func(h http.Handler) http.Handler {
		return rewriteBody("/.well-known/aqp", h, func(b []byte) []byte {
			var d map[string]any
			if json.Unmarshal(b, &d) != nil {
				return b
			}
			bs, _ := d["bindings"].([]any)
			var keep []any
			for _, e := range bs {
				if m, _ := e.(map[string]any); m["binding"] != spec.BindingA2A {
					keep = append(keep, e)
				}
			}
			d["bindings"] = keep
			out, _ := json.Marshal(d)
			return out
		})
	}},
	"collector/schema-not-the-spec-bytes": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.SchemaPath+spec.RequestSchema, h, func(b []byte) []byte {
			var out bytes.Buffer
			if json.Indent(&out, b, "", "\t") != nil {
				return b
			}
			return out.Bytes()
		})
	}},
	"collector/receipt-time-a-year-off": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		// Still UTC with milliseconds (D20 holds): only the clock is wrong.
		return rewriteBody(spec.HTTPSPath, h, func(b []byte) []byte {
			return receivedAtYear.ReplaceAllFunc(b, func(m []byte) []byte {
				year := receivedAtYear.FindSubmatch(m)[1]
				y := 0
				for _, c := range year {
					y = y*10 + int(c-'0')
				}
				return []byte(fmt.Sprintf(`"receivedAt":"%04d-`, y-1))
			})
		})
	}},
	"collector/duplicate-receipt-not-identical": {binding: spec.BindingHTTPS, submitter: func(s collector.Submitter) collector.Submitter {
		return dupBreaker{s}
	}},
	"collector/accepts-two-answers": {binding: spec.BindingHTTPS, store: func(s collector.Store) collector.Store {
		return lastWins{s}
	}},
	"collector/reencodes-response": {binding: spec.BindingHTTPS, submitter: func(s collector.Submitter) collector.Submitter {
		return reencoder{s}
	}},
	"collector/mcp-rejection-without-iserror": {binding: spec.BindingMCP, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.MCPPath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"isError":true`), []byte(`"isError":false`))
		})
	}},
	"collector/mcp-text-not-structured-content": {binding: spec.BindingMCP, wire: func(h http.Handler) http.Handler {
		// The text content gets one more member than structuredContent: still a receipt, not the same JSON.
		return rewriteBody(spec.MCPPath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"text":"{`), []byte(`"text":"{\"note\":1,`))
		})
	}},
	"collector/mcp-tool-misnamed": {binding: spec.BindingMCP, wire: func(h http.Handler) http.Handler {
		// The collector serves its tool under another name, so aqp_submit_response is unknown to it.
		return rewriteRequest(spec.MCPPath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"name":"`+spec.MCPOperation+`"`), []byte(`"name":"submit_response"`))
		})
	}},
	"collector/a2a-reply-not-json-rpc": {binding: spec.BindingA2A, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.A2APath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"jsonrpc":"2.0",`), nil)
		})
	}},
	"collector/mcp-extension-not-declared": {binding: spec.BindingMCP, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.MCPPath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"`+spec.MCPExtension+`":`), []byte(`"com.example/other":`))
		})
	}},
	"collector/a2a-1.0-reply-in-0.3-form": {binding: spec.BindingA2A, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.A2APath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"role":"ROLE_AGENT"`), []byte(`"kind":"message","role":"agent"`))
		})
	}},
	"collector/a2a-rejection-as-jsonrpc-error": {binding: spec.BindingA2A, wire: func(h http.Handler) http.Handler {
		return rewriteReply(spec.A2APath, h, func(_ int, header http.Header, b []byte) []byte {
			if header.Get("Content-Type") != "application/json" || !bytes.Contains(b, []byte(`"status":"rejected"`)) {
				return b
			}
			var env struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(b, &env)
			return []byte(`{"jsonrpc":"2.0","id":` + string(env.ID) + `,"error":{"code":-32000,"message":"the response was rejected"}}`)
		})
	}},
	"collector/429-without-retry-after": {binding: spec.BindingHTTPS, rateLimit: &conformance.ScenarioRateLimit{PerSecond: 1, Burst: 2},
		wire: func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(noRetryAfter{w}, r) })
		}},
	"collector/ignores-the-media-type": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		// Reads any body as JSON, whatever its Content-Type says: a text/plain body is no 415 but a 400.
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == spec.HTTPSPath {
				r.Header.Set("Content-Type", "application/json")
			}
			h.ServeHTTP(w, r)
		})
	}},
	"collector/problem-as-application-json": {binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(problemAsJSON{w}, r)
		})
	}},
	"collector/subject-by-kind-and-id": subjectByKindAndID(),
	"collector/a2a-receipt-part-unmarked": {binding: spec.BindingA2A, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.A2APath, h, func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"metadata":{"aqpObject":"receipt"}`), []byte(`"metadata":{}`))
		})
	}},
}

// noRetryAfter leaves Retry-After out of every reply.
type noRetryAfter struct{ http.ResponseWriter }

func (w noRetryAfter) WriteHeader(code int) {
	w.Header().Del("Retry-After")
	w.ResponseWriter.WriteHeader(code)
}

// problemAsJSON writes every problem document as application/json.
type problemAsJSON struct{ http.ResponseWriter }

func (w problemAsJSON) WriteHeader(code int) {
	if w.Header().Get("Content-Type") == "application/problem+json" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.ResponseWriter.WriteHeader(code)
}

// receivedAtYear matches a receipt's receivedAt up to its year.
var receivedAtYear = regexp.MustCompile(`"receivedAt":"(\d{4})-`)

// runnerBinding is the runner's binding for a name, with its submitter's wire checks, as `aqp conformance
// collector` builds it.
func runnerBinding(name string, hc *http.Client) runner.Binding {
	switch name {
	case spec.BindingMCP:
		return runner.Binding{Name: name, Carries: targets.MCPCarries, Requirements: targets.MCPRequirements, Surfaces: targets.MCPColumns[0].Surfaces,
			Remote: func(u string) harness.ColumnClient { return targets.MCPRemote(u, hc) }}
	case spec.BindingA2A:
		return runner.Binding{Name: name, Carries: targets.A2ACarries, Requirements: targets.A2ARequirements, Surfaces: targets.A2AColumns[0].Surfaces,
			Remote: func(u string) harness.ColumnClient { return targets.A2ARemote(u, hc) }}
	}
	return runner.Binding{Name: name, Carries: targets.HTTPSCarries, Requirements: targets.HTTPSRequirements, Surfaces: targets.HTTPSSurfaces,
		Remote: func(u string) harness.ColumnClient { return targets.HTTPSRemote(u, hc) }}
}

// serviceBinding is the service's binding for a name, its submitter wrapped.
func serviceBinding(name string, wrap func(collector.Submitter) collector.Submitter) service.Binding {
	var b service.Binding = https.Binding{}
	switch name {
	case spec.BindingMCP:
		b = aqpmcp.Binding{}
	case spec.BindingA2A:
		b = a2ab.Binding{}
	}
	if wrap == nil {
		return b
	}
	return wrapped{b, wrap}
}

// servedBindings are the three bindings a real collector serves, the fixture's own broken by wrap: a fixture that
// served its binding alone would change what a draft without a binding defaults to (D26), and be blamed for that.
func servedBindings(broken string, wrap func(collector.Submitter) collector.Submitter) []service.Binding {
	var out []service.Binding
	for _, name := range []string{spec.BindingHTTPS, spec.BindingMCP, spec.BindingA2A} {
		if name == broken {
			out = append(out, serviceBinding(name, wrap))
		} else {
			out = append(out, serviceBinding(name, nil))
		}
	}
	return out
}

// wrapped is a binding whose handler gets a wrapped submitter.
type wrapped struct {
	service.Binding
	wrap func(collector.Submitter) collector.Submitter
}

func (b wrapped) Handler(sub collector.Submitter) http.Handler { return b.Binding.Handler(b.wrap(sub)) }

// fixtureRun is one run of the corpus against a broken collector: its records and the collector's URL.
type fixtureRun struct {
	once   sync.Once
	recs   []runner.Record
	target string
	err    error
}

var (
	fixtureRuns   = map[string]*fixtureRun{}
	fixtureRunsMu sync.Mutex
)

// runFixture runs the whole corpus over the fixture's binding against the broken collector, once per test binary
// (two tests read the same run).
func runFixture(t *testing.T, name string) ([]runner.Record, string) {
	t.Helper()
	fx, ok := brokenCollectors[name]
	if !ok {
		t.Fatalf("no broken collector %s in brokenCollectors", name)
	}
	fixtureRunsMu.Lock()
	run := fixtureRuns[name]
	if run == nil {
		run = &fixtureRun{}
		fixtureRuns[name] = run
	}
	fixtureRunsMu.Unlock()
	run.once.Do(func() { run.recs, run.target, run.err = runBroken(fx) })
	if run.err != nil {
		t.Fatal(run.err)
	}
	return run.recs, run.target
}

// runBroken serves the broken collector and runs the corpus against it over the fixture's binding.
func runBroken(fx brokenCollector) ([]runner.Record, string, error) {
	var st collector.Store = memory.New()
	if fx.store != nil {
		st = fx.store(st)
	}
	cfg := collector.Config{Store: st, PublicURL: "http://collector.test", FailureLimit: collector.RateLimit{Disabled: true}}
	var only *regexp.Regexp
	if fx.rateLimit != nil {
		cfg.RateLimit = collector.RateLimit{PerSecond: fx.rateLimit.PerSecond, Burst: fx.rateLimit.Burst}
		only = regexp.MustCompile(`rate_limited`)
	}
	svc, err := service.New(service.Config{
		Collector:  cfg,
		Bindings:   servedBindings(fx.binding, fx.submitter),
		AdminToken: "admin",
	})
	if err != nil {
		return nil, "", err
	}
	h := svc.Handler()
	if fx.wire != nil {
		h = fx.wire(h)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	recs, err := runner.Run(context.Background(), runner.Options{
		Target: ts.URL, Bindings: []runner.Binding{runnerBinding(fx.binding, ts.Client())},
		Issue: func(ctx context.Context, draft []byte) ([]byte, error) {
			return harness.IssueOverAdminAPI(ctx, ts.Client(), ts.URL, "admin", draft)
		},
		TargetRateLimit: fx.rateLimit, Run: only,
	})
	return recs, ts.URL, err
}

// TestBrokenCollectorsFailExactlyTheirRequirements: the runner fails exactly the requirements fixtures.json lists
// for each broken collector — no more (a wire fault is not blamed on the scenario whose receipt was right) and no
// fewer (every check of the broken rule fires).
func TestBrokenCollectorsFailExactlyTheirRequirements(t *testing.T) {
	fxs, err := conformance.LoadFixtures()
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range fxs {
		if fx.Role != "collector" {
			continue
		}
		t.Run(fx.Name, func(t *testing.T) {
			t.Parallel()
			want, err := conformance.FixtureFails(fx.Name)
			if err != nil {
				t.Fatal(err)
			}
			if b := brokenCollectors[fx.Name].binding; b != fx.Binding {
				t.Fatalf("fixtures.json runs %s over %s; the test builds it for %s", fx.Name, fx.Binding, b)
			}
			recs, _ := runFixture(t, fx.Name)
			got := runner.FailedRequirements(recs)
			if !slices.Equal(got, want) {
				t.Errorf("failed requirements %v, fixtures.json says %v", got, want)
				for _, r := range recs {
					if r.Status == runner.Fail {
						t.Logf("%s: %v: %s", r.Scenario, r.FailedRequirements, r.Evidence)
					}
				}
			}
			for _, r := range recs {
				if r.Status == runner.Fail && len(r.FailedRequirements) == 0 {
					t.Errorf("%s failed and names no requirement: %s", r.Scenario, r.Evidence)
				}
			}
		})
	}
}

// TestEveryCollectorFixtureIsRun: the collector fixtures this test builds are exactly the collector entries of
// fixtures.json, so the file cannot list a fixture nobody runs (a failing proof nobody checks).
func TestEveryCollectorFixtureIsRun(t *testing.T) {
	fxs, err := conformance.LoadFixtures()
	if err != nil {
		t.Fatal(err)
	}
	var listed, built []string
	for _, fx := range fxs {
		if fx.Role == "collector" {
			listed = append(listed, fx.Name)
		}
	}
	for name := range brokenCollectors {
		built = append(built, name)
	}
	slices.Sort(listed)
	slices.Sort(built)
	if !slices.Equal(listed, built) {
		t.Errorf("fixtures.json lists collector fixtures %v; the test builds %v", listed, built)
	}
}

// TestAttribute: a wire error is blamed on the requirement its check names, a failed step on the requirements it
// proves (its expect's when tagged, which harness.Run resolves), anything else on the scenario's own.
func TestAttribute(t *testing.T) {
	scenario := []string{"AQP-COL-EXPIRED", "AQP-COL-PAIRED"}
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"wire error", harness.Wire("410 came as 400", "AQP-BIND-HTTPS-STATUS"), []string{"AQP-BIND-HTTPS-STATUS"}},
		{"wrapped wire error", errors.Join(errors.New("step 3"), harness.Wire("x", "AQP-D27", "AQP-BIND-MCP-RECEIPT")), []string{"AQP-BIND-MCP-RECEIPT", "AQP-D27"}},
		{"wrong receipt", errors.New("got status accepted, want rejected"), scenario},
		{"tagged step", stepError([]string{"AQP-COL-EXPIRED"}, errors.New("got accepted")), []string{"AQP-COL-EXPIRED"}},
		{"untagged step", stepError(scenario, errors.New("got accepted")), scenario},
		{"wire error in a tagged step", stepError([]string{"AQP-COL-EXPIRED"}, harness.Wire("410 came as 400", "AQP-BIND-HTTPS-STATUS")), []string{"AQP-BIND-HTTPS-STATUS"}},
		{"rule error in a tagged step", stepError([]string{"AQP-COL-EXPIRED"}, &harness.RuleError{Requirements: []string{"AQP-D20"}, Detail: "receivedAt without milliseconds"}), []string{"AQP-D20"}},
		{"wrapped step error", fmt.Errorf("scenario x: %w", stepError([]string{"AQP-COL-PAIRED"}, errors.New("y"))), []string{"AQP-COL-PAIRED"}},
	} {
		if got := runner.Attribute(tc.err, scenario); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// stepError is a failed step proving ids, as harness.Run returns it.
func stepError(ids []string, err error) error {
	return &harness.StepError{Index: 2, Step: conformance.Step{Do: "submit"}, Requirements: ids, Err: err}
}

// onPath serves path through a wrapped ResponseWriter: a binding that gets one thing on its wire wrong.
func onPath(path string, h http.Handler, wrap func(http.ResponseWriter) http.ResponseWriter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path {
			w = wrap(w)
		}
		h.ServeHTTP(w, r)
	})
}

// rewriteBody serves path, then rewrites the whole reply body before it leaves.
func rewriteBody(path string, h http.Handler, edit func([]byte) []byte) http.Handler {
	return rewriteReply(path, h, func(_ int, _ http.Header, b []byte) []byte { return edit(b) })
}

// rewriteReply serves path, then rewrites the reply body, given its status and header, before it leaves.
func rewriteReply(path string, h http.Handler, edit func(status int, header http.Header, body []byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(edit(rec.Code, rec.Header(), rec.Body.Bytes()))
	})
}

// rewriteRequest rewrites the request body on path before the collector reads it.
func rewriteRequest(path string, h http.Handler, edit func([]byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path && r.Body != nil {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			b = edit(b)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		}
		h.ServeHTTP(w, r)
	})
}

// headerDropper removes one header from a reply.
type headerDropper struct {
	http.ResponseWriter
	name string
}

func (w *headerDropper) WriteHeader(code int) {
	w.Header().Del(w.name)
	w.ResponseWriter.WriteHeader(code)
}

// lastWins is a store that never shows the collector an earlier acceptance and, when another responseId was
// accepted, reports the new one as stored: a collector that accepts two answers to one query. A resubmission of
// the accepted response still finds it (Accept's ErrAlreadyAccepted), so duplicates keep their receipt.
type lastWins struct{ collector.Store }

func (s lastWins) LoadQuery(ctx context.Context, id string) (collector.Query, *collector.Acceptance, error) {
	q, _, err := s.Store.LoadQuery(ctx, id)
	return q, nil, err
}

func (s lastWins) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	got, err := s.Store.Accept(ctx, a)
	if errors.Is(err, collector.ErrAlreadyAccepted) && got != nil && !strings.EqualFold(got.ResponseID, a.ResponseID) {
		return &a, nil
	}
	return got, err
}

// subjectByKindAndID is a collector that compares a response's subject with its query's by kind and id alone:
// a response whose subject differs only in protocol or idScope is taken as the query's subject. Only the scenarios
// that send the paired vectors' subject rules (collector/rules.json) see it.
func subjectByKindAndID() brokenCollector {
	var st collector.Store
	return brokenCollector{binding: spec.BindingHTTPS,
		store:     func(s collector.Store) collector.Store { st = s; return s },
		submitter: func(s collector.Submitter) collector.Submitter { return subjectLoose{s, &st} },
	}
}

// subjectLoose hands the core the query's subject in place of a response's that has the same kind and id.
type subjectLoose struct {
	collector.Submitter
	store *collector.Store
}

// looseSubject is the part of a subject subjectLoose compares.
type looseSubject struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

func (s subjectLoose) Submit(ctx context.Context, sub collector.Submission) collector.Outcome {
	var resp struct {
		QueryID string          `json:"queryId"`
		Subject json.RawMessage `json:"subject"`
	}
	if json.Unmarshal(sub.Body, &resp) != nil || len(resp.Subject) == 0 {
		return s.Submitter.Submit(ctx, sub)
	}
	q, _, err := (*s.store).LoadQuery(ctx, strings.ToLower(resp.QueryID))
	if err != nil {
		return s.Submitter.Submit(ctx, sub)
	}
	var req struct {
		Subject json.RawMessage `json:"subject"`
	}
	var a, b looseSubject
	if json.Unmarshal(q.Request, &req) == nil && json.Unmarshal(req.Subject, &a) == nil &&
		json.Unmarshal(resp.Subject, &b) == nil && a == b {
		sub.Body = bytes.Replace(sub.Body, resp.Subject, req.Subject, 1)
	}
	return s.Submitter.Submit(ctx, sub)
}

// reencoder hands the core the response decoded and encoded again, as a binding built on a generic JSON decoder
// might, instead of the bytes the client wrote (D27); bodies it cannot decode go through unchanged.
type reencoder struct{ collector.Submitter }

func (r reencoder) Submit(ctx context.Context, s collector.Submission) collector.Outcome {
	var v any
	if json.Unmarshal(s.Body, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			s.Body = b
		}
	}
	return r.Submitter.Submit(ctx, s)
}

// TestOtherTimestampFormsPass: a collector writing receivedAt as the same instant in the +00:00 form without
// milliseconds — a valid RFC 3339 date-time, not this module's own form — passes the whole corpus (D20, revised:
// the kit holds other collectors to the schema's date-time; UTC with milliseconds binds them only as a SHOULD).
func TestOtherTimestampFormsPass(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus over HTTPS")
	}
	recs, _, err := runBroken(brokenCollector{binding: spec.BindingHTTPS, wire: func(h http.Handler) http.Handler {
		return rewriteBody(spec.HTTPSPath, h, func(b []byte) []byte {
			return receivedAtMillis.ReplaceAll(b, []byte(`"receivedAt":"$1+00:00"`))
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	rewritten := 0
	for _, r := range recs {
		if r.Status == runner.Fail {
			t.Errorf("%s failed: %s", r.Scenario, r.Evidence)
		}
		if r.Status == runner.Pass {
			rewritten++
		}
	}
	if rewritten == 0 {
		t.Fatal("no check passed: the corpus did not run")
	}
}
