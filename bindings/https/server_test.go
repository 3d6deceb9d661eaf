package https_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

const adminToken = "test-admin-token"

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	return newServerOn(t, memory.New())
}

func newServerOn(t *testing.T, store collector.Store) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	c, err := collector.New(collector.Config{Store: store, PublicURL: url})
	if err != nil {
		t.Fatal(err)
	}
	s, err := https.New(https.Config{Collector: c, PublicURL: url, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s.Handler(nil)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

func do(t *testing.T, method, url, contentType, auth string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

const draft = `{"type":"feedback","subject":{"kind":"task","id":"t1"},"prompt":"Was it right?","timing":"immediate",
"consentMode":"not_required","response":{"format":"boolean"}}`

func issue(t *testing.T, ts *httptest.Server) (endpoint, auth, queryID string) {
	resp, body := do(t, "POST", ts.URL+"/admin/v1/queries", "application/json", "Bearer "+adminToken, []byte(draft))
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	var q struct {
		QueryID  string
		Delivery struct{ Endpoint, Authorization string }
	}
	_ = json.Unmarshal(body, &q)
	return q.Delivery.Endpoint, q.Delivery.Authorization, q.QueryID
}

func responseFor(queryID string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","queryId":"` + queryID + `",
"subject":{"kind":"task","id":"t1"},"respondent":{"kind":"agent","provenance":"direct"},"answer":true,"createdAt":"2026-01-01T00:00:00Z"}`)
}

// TestTransportErrors covers what only HTTP can get wrong: media type, size, unreadable ids.
func TestTransportErrors(t *testing.T) {
	ts := newServer(t)
	endpoint, auth, q := issue(t, ts)
	cases := []struct {
		name, contentType string
		body              []byte
		status            int
	}{
		{"no content type", "", responseFor(q), 415},
		{"text/plain", "text/plain", responseFor(q), 415},
		{"latin-1 charset", "application/json; charset=iso-8859-1", responseFor(q), 415},
		{"oversized", "application/json", bytes.Repeat([]byte(" "), core.MaxDocumentBytes+1), 413},
		{"not JSON", "application/json", []byte("{"), 400},
		{"no ids", "application/json", []byte(`{"answer":true}`), 400},
		{"queryId not a uuid", "application/json", []byte(`{"queryId":"x","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452"}`), 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, "POST", endpoint, tc.contentType, auth, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
				t.Fatalf("content type %q, want application/problem+json", ct)
			}
			var p struct {
				Status int    `json:"status"`
				Title  string `json:"title"`
			}
			if err := json.Unmarshal(body, &p); err != nil || p.Status != tc.status || p.Title == "" {
				t.Fatalf("not an RFC 9457 problem with status %d: %s", tc.status, body)
			}
		})
	}
	// With charset=utf-8 the same body is accepted.
	resp, body := do(t, "POST", endpoint, "application/json; charset=utf-8", auth, responseFor(q))
	if resp.StatusCode != 200 || len(core.Validate(core.KindReceipt, body)) > 0 {
		t.Fatalf("accept: %d %s", resp.StatusCode, body)
	}
}

func TestUnauthorizedCarriesWWWAuthenticate(t *testing.T) {
	ts := newServer(t)
	endpoint, _, q := issue(t, ts)
	resp, body := do(t, "POST", endpoint, "application/json", "Bearer nope", responseFor(q))
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
	if errs := core.Validate(core.KindReceipt, body); len(errs) > 0 {
		t.Fatal(errs)
	}
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
	if resp.StatusCode != 503 || !strings.Contains(string(body), "store unavailable") {
		t.Fatalf("store closed: %d %s", resp.StatusCode, body)
	}
	if resp, _ := do(t, "GET", ts.URL+"/healthz", "", "", nil); resp.StatusCode != 200 {
		t.Fatalf("healthz follows the process, not the store: %d", resp.StatusCode)
	}
}
