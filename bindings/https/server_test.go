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
	"github.com/agentqueryprotocol/aqp-go/service"
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
	svc, err := service.New(service.Config{Collector: collector.Config{Store: store, PublicURL: url},
		Bindings: []service.Binding{https.Binding{}}, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
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
