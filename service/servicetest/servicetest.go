// Package servicetest is what the service's and the bindings' HTTP tests share: a collector composed as `aqp serve`
// composes it on a loopback test server, a request helper, and the query and response they exchange. It is for
// tests only (it links testing and net/http/httptest); no program of the module imports it, and the conformance
// targets, which `aqp conformance` runs, serve on real listeners of their own (conformance/targets).
package servicetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
)

// AdminToken is the admin token of the collectors New starts.
const AdminToken = "test-admin-token"

// Draft is a small boolean query about a task.
const Draft = `{"type":"feedback","subject":{"kind":"task","id":"t1"},"prompt":"Was it right?","timing":"immediate",
"consentMode":"not_required","response":{"format":"boolean"}}`

// New serves a collector on store over the bindings given (the caller names them, HTTPS first as `aqp serve` has
// it, so this package sits beside the service and below every binding) on a loopback test server whose URL is the
// collector's public URL; the server closes when the test ends.
func New(t testing.TB, store collector.Store, bindings ...service.Binding) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: store, PublicURL: url},
		Bindings: bindings, AdminToken: AdminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

// Do sends one request (contentType and auth set when not empty) and returns the response and its body.
func Do(t testing.TB, method, url, contentType, auth string, body []byte) (*http.Response, []byte) {
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

// Issue issues Draft through the admin API and returns the delivery's endpoint and authorization and the queryId.
func Issue(t testing.TB, ts *httptest.Server) (endpoint, auth, queryID string) {
	t.Helper()
	resp, body := Do(t, "POST", ts.URL+"/admin/v1/queries", "application/json", "Bearer "+AdminToken, []byte(Draft))
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

// ResponseFor is a valid response to a query issued from Draft.
func ResponseFor(queryID string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","queryId":"` + queryID + `",
"subject":{"kind":"task","id":"t1"},"respondent":{"kind":"agent","provenance":"direct"},"answer":true,"createdAt":"` + CreatedAt + `"}`)
}

// CreatedAt is the createdAt of the responses these tests build: the process's start, to the second, so that a
// collector on the real clock finds it within the skew bound (D37) and every response of one run is the same.
var CreatedAt = time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
