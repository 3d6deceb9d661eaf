package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/service/servicetest"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

const (
	adminToken = servicetest.AdminToken
	draft      = servicetest.Draft
)

var (
	do          = servicetest.Do
	issue       = servicetest.Issue
	responseFor = servicetest.ResponseFor
)

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	return servicetest.New(t, memory.New(), https.Binding{})
}

func newServerOn(t *testing.T, store collector.Store) *httptest.Server {
	t.Helper()
	return servicetest.New(t, store, https.Binding{})
}

func TestAdminNeedsToken(t *testing.T) {
	ts := newServer(t)
	for _, auth := range []string{"", "Bearer wrong", "Basic " + adminToken, adminToken} {
		resp, _ := do(t, "POST", ts.URL+"/admin/v1/queries", "application/json", auth, []byte(draft))
		if resp.StatusCode != 401 {
			t.Errorf("auth %q: %d, want 401", auth, resp.StatusCode)
		}
		resp, _ = do(t, "GET", ts.URL+"/admin/v1/queries", "", auth, nil)
		if resp.StatusCode != 401 {
			t.Errorf("list with auth %q: %d, want 401", auth, resp.StatusCode)
		}
	}
}

func TestInvalidDraftIsProblemWithPointers(t *testing.T) {
	ts := newServer(t)
	bad := strings.Replace(draft, `"timing":"immediate"`, `"timing":"soon","queryId":"x","ttlSeconds":0`, 1)
	resp, body := do(t, "POST", ts.URL+"/admin/v1/queries", "application/json", "Bearer "+adminToken, []byte(bad))
	if resp.StatusCode != 400 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for _, want := range []string{`"pointer":"/queryId"`, `"pointer":"/ttlSeconds"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("problem lacks %s: %s", want, body)
		}
	}
}

func TestQueryStateAndListing(t *testing.T) {
	ts := newServer(t)
	endpoint, auth, q := issue(t, ts)
	_, _, q2 := issue(t, ts)
	if resp, body := do(t, "POST", endpoint, "application/json", auth, responseFor(q)); resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	resp, body := do(t, "GET", ts.URL+"/admin/v1/queries/"+q, "", "Bearer "+adminToken, nil)
	var st struct {
		State    string
		Response json.RawMessage
		Receipt  json.RawMessage
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, responseFor(q))
	if err := json.Unmarshal(body, &st); err != nil || resp.StatusCode != 200 || st.State != "answered" || !bytes.Equal(st.Response, compact.Bytes()) {
		t.Fatalf("state: %d %s", resp.StatusCode, body)
	}
	if _, body := do(t, "GET", ts.URL+"/metrics", "", "", nil); !strings.Contains(string(body), `aqp_receipts_total{binding="https",code="",duplicate="false",status="accepted"} 1`) {
		t.Errorf("metrics do not count the accepted receipt:\n%s", body)
	}
	if resp, body := do(t, "GET", ts.URL+"/admin/v1/queries?limit=500", "", "Bearer "+adminToken, nil); resp.StatusCode != 200 {
		t.Fatalf("the largest page: %d %s", resp.StatusCode, body)
	}
	for _, bad := range []string{"limit=0", "limit=501", "state=done", "cursor=nope"} {
		if resp, body := do(t, "GET", ts.URL+"/admin/v1/queries?"+bad, "", "Bearer "+adminToken, nil); resp.StatusCode != 400 {
			t.Errorf("%s: %d %s, want 400", bad, resp.StatusCode, body)
		}
	}
	for state, want := range map[string][]string{"answered": {q}, "open": {q2}, "": {q2, q}} {
		url := ts.URL + "/admin/v1/queries?limit=1"
		if state != "" {
			url += "&state=" + state
		}
		var got []string
		for url != "" {
			resp, body := do(t, "GET", url, "", "Bearer "+adminToken, nil)
			var page struct {
				Items      []struct{ QueryID string }
				NextCursor string
			}
			if err := json.Unmarshal(body, &page); err != nil || resp.StatusCode != 200 {
				t.Fatalf("list: %d %s", resp.StatusCode, body)
			}
			for _, it := range page.Items {
				got = append(got, it.QueryID)
			}
			url = ""
			if page.NextCursor != "" {
				url = ts.URL + "/admin/v1/queries?limit=1&cursor=" + page.NextCursor
				if state != "" {
					url += "&state=" + state
				}
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("state %q: got %v, want %v", state, got, want)
		}
	}
	if resp, _ := do(t, "GET", ts.URL+"/admin/v1/queries/0198c7d0-2180-7729-b005-d33c99fc7400", "", "Bearer "+adminToken, nil); resp.StatusCode != 404 {
		t.Errorf("unknown query: %d", resp.StatusCode)
	}
}

func TestDiscoveryAndSchemas(t *testing.T) {
	ts := newServer(t)
	resp, body := do(t, "GET", ts.URL+"/.well-known/aqp", "", "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), ts.URL+"/aqp/v1/responses") {
		t.Fatalf("discovery: %d %s", resp.StatusCode, body)
	}
	for _, f := range spec.SchemaFiles {
		resp, body := do(t, "GET", ts.URL+spec.SchemaPath+f, "", "", nil)
		if resp.StatusCode != 200 || !bytes.Equal(body, spec.File(f)) {
			t.Errorf("%s: %d, byte-identical %v", f, resp.StatusCode, bytes.Equal(body, spec.File(f)))
		}
	}
	if resp, _ := do(t, "GET", ts.URL+spec.SchemaPath+"nope.json", "", "", nil); resp.StatusCode != 400 && resp.StatusCode != 404 {
		t.Errorf("unknown schema: %d", resp.StatusCode)
	}
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready", "/openapi.yaml": "openapi: 3.0.3", "/metrics": "go_goroutines"} {
		resp, body := do(t, "GET", ts.URL+path, "", "", nil)
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d %.80s", path, resp.StatusCode, body)
		}
	}
}

func TestReadyzFollowsTheStore(t *testing.T) {
	store := memory.New()
	ts := newServerOn(t, store)
	if resp, _ := do(t, "GET", ts.URL+"/readyz", "", "", nil); resp.StatusCode != 200 {
		t.Fatalf("ready: %d", resp.StatusCode)
	}
	_ = store.Close()
	resp, body := do(t, "GET", ts.URL+"/readyz", "", "", nil)
	if resp.StatusCode != 503 || string(body) != "store unavailable\n" {
		t.Fatalf("store closed: %d %s", resp.StatusCode, body)
	}
	if resp, _ := do(t, "GET", ts.URL+"/healthz", "", "", nil); resp.StatusCode != 200 {
		t.Fatalf("healthz follows the process, not the store: %d", resp.StatusCode)
	}
}

// fakeMCP is a binding that is not HTTPS, built on the seam alone: it proves the service composes any binding,
// lists it in discovery, lets the collector issue queries for it, and observes its submissions under its name.
type fakeMCP struct{}

func (fakeMCP) Endpoint() collector.Endpoint {
	return collector.Endpoint{Binding: "mcp", Path: "/mcp", Operation: "aqp_submit_response"}
}

func (fakeMCP) Handler(sub collector.Submitter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		out := sub.Submit(r.Context(), collector.Submission{Body: body, Authorization: r.Header.Get("Authorization"), Binding: "mcp"})
		_, _ = w.Write(out.Receipt)
	})
}

func newServiceWith(t *testing.T, rules *collector.Rules, bindings ...service.Binding) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url, Rules: rules},
		Bindings: bindings, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

func TestOnlyServedBindingsAreListedAndIssued(t *testing.T) {
	ts := newServer(t) // https only
	_, body := do(t, "GET", ts.URL+"/.well-known/aqp", "", "", nil)
	var d struct {
		Bindings []struct{ Binding, Endpoint string }
	}
	if err := json.Unmarshal(body, &d); err != nil || len(d.Bindings) != 1 || d.Bindings[0].Binding != "https" ||
		d.Bindings[0].Endpoint != ts.URL+"/aqp/v1/responses" {
		t.Fatalf("discovery must list exactly the https binding: %s", body)
	}
	for _, b := range []string{"mcp", "a2a"} {
		withBinding := strings.Replace(draft, `"timing"`, `"binding":"`+b+`","timing"`, 1)
		resp, body := do(t, "POST", ts.URL+"/admin/v1/queries", "application/json", "Bearer "+adminToken, []byte(withBinding))
		if resp.StatusCode != 400 || !strings.Contains(string(body), `"pointer":"/binding"`) ||
			!strings.Contains(string(body), "does not serve the "+b+" binding") {
			t.Errorf("binding %s: %d %s, want 400 naming the binding", b, resp.StatusCode, body)
		}
	}

	// With a second binding composed, discovery lists both and queries for it name its endpoint and operation.
	ts2 := newServiceWith(t, nil, https.Binding{}, fakeMCP{})
	_, body = do(t, "GET", ts2.URL+"/.well-known/aqp", "", "", nil)
	if !strings.Contains(string(body), ts2.URL+"/mcp") || !strings.Contains(string(body), "aqp_submit_response") {
		t.Fatalf("discovery lacks the mcp binding: %s", body)
	}
	withMCP := strings.Replace(draft, `"timing"`, `"binding":"mcp","timing"`, 1)
	resp, body := do(t, "POST", ts2.URL+"/admin/v1/queries", "application/json", "Bearer "+adminToken, []byte(withMCP))
	var q struct {
		QueryID  string
		Delivery struct{ Endpoint, Operation, Authorization string }
	}
	if err := json.Unmarshal(body, &q); err != nil || resp.StatusCode != 201 || q.Delivery.Endpoint != ts2.URL+"/mcp" ||
		q.Delivery.Operation != "aqp_submit_response" {
		t.Fatalf("issue for mcp: %d %s", resp.StatusCode, body)
	}
	// A submission over the second binding is observed under its name and code.
	do(t, "POST", q.Delivery.Endpoint, "application/json", "Bearer wrong", responseFor(q.QueryID))
	if _, body := do(t, "GET", ts2.URL+"/metrics", "", "", nil); !strings.Contains(string(body),
		`aqp_receipts_total{binding="mcp",code="unauthorized",duplicate="false",status="rejected"} 1`) {
		t.Errorf("metrics do not count the mcp binding's receipt by binding and code:\n%s", body)
	}
}

func TestContinuationRuleForAnUnservedBindingIsRefused(t *testing.T) {
	rules, err := collector.ParseRules([]byte(`{"rules":[{"name":"follow-up","draft":{"type":"feedback","binding":"a2a",
"prompt":"Was the answer useful?","timing":"immediate","consentMode":"not_required","response":{"format":"boolean"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: "http://x.test", Rules: rules},
		Bindings: []service.Binding{https.Binding{}}, AdminToken: adminToken})
	if err == nil || !strings.Contains(err.Error(), "a2a") || !strings.Contains(err.Error(), `"follow-up"`) {
		t.Fatalf("want an error naming the rule and the binding, got %v", err)
	}
}

// TestEveryErrorIsAProblem: the router's own 404 and 405 are problem documents, like every other error.
func TestEveryErrorIsAProblem(t *testing.T) {
	ts := newServer(t)
	cases := []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/nope", 404, ""},
		{"GET", "/aqp/v1/responses", 405, "POST"},
		{"DELETE", "/admin/v1/queries", 405, "GET, HEAD, POST"},
		{"POST", "/.well-known/aqp", 405, "GET, HEAD"},
	}
	for _, tc := range cases {
		resp, body := do(t, tc.method, ts.URL+tc.path, "", "", nil)
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: %d %q %s", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if tc.allow != "" && resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, resp.Header.Get("Allow"), tc.allow)
		}
	}
}

// TestAdminClientIssues: the remote Issuer gets the same request an in-process Collector would write, and a bad
// draft comes back as a *collector.IssueError with the collector's pointers.
func TestAdminClientIssues(t *testing.T) {
	ts := newServer(t)
	ac, err := service.NewAdminClient(ts.URL, adminToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	req, err := ac.Issue(context.Background(), []byte(draft))
	if err != nil || !strings.Contains(string(req), `"authorization":"Bearer `) {
		t.Fatalf("issue: %v %s", err, req)
	}
	_, err = ac.Issue(context.Background(), []byte(strings.Replace(draft, `"timing":"immediate"`, `"timing":"soon"`, 1)))
	var ie *collector.IssueError
	if !errors.As(err, &ie) || len(ie.Errors) != 1 || ie.Errors[0].Pointer != "/timing" {
		t.Fatalf("bad draft: %v", err)
	}
	wrong, _ := service.NewAdminClient(ts.URL, "wrong", nil)
	if _, err := wrong.Issue(context.Background(), []byte(draft)); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("wrong token: %v", err)
	}
}

// TestWireRejectionsAreCounted: a request a binding refuses before it becomes a submission (here a wrong media
// type and a wrong method over HTTPS) is counted by binding and reason, through the one observer.
func TestWireRejectionsAreCounted(t *testing.T) {
	ts := newServer(t)
	do(t, "POST", ts.URL+"/aqp/v1/responses", "text/plain", "", []byte("{}"))
	do(t, "POST", ts.URL+"/aqp/v1/responses", "text/plain", "", []byte("{}"))
	do(t, "GET", ts.URL+"/aqp/v1/responses", "", "", nil)
	_, body := do(t, "GET", ts.URL+"/metrics", "", "", nil)
	for _, want := range []string{
		`aqp_wire_rejections_total{binding="https",reason="media_type"} 2`,
		`aqp_wire_rejections_total{binding="https",reason="method"} 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
