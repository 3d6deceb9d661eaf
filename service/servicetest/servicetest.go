// Package servertest is what the HTTP tests share: a collector composed as `aqp serve` composes it on a loopback
// test server, a request helper, the query and response they exchange, and the local scenario target every
// binding's conformance package builds. It is for tests only; no program of the module imports it.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
)

// AdminToken is the admin token of the collectors New starts.
const AdminToken = "test-admin-token"

// Draft is a small boolean query about a task.
const Draft = `{"type":"feedback","subject":{"kind":"task","id":"t1"},"prompt":"Was it right?","timing":"immediate",
"consentMode":"not_required","response":{"format":"boolean"}}`

// New serves a collector on store over the HTTPS binding (and any other bindings given) on a loopback test
// server whose URL is the collector's public URL; the server closes when the test ends.
func New(t testing.TB, store collector.Store, bindings ...service.Binding) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: store, PublicURL: url},
		Bindings: append([]service.Binding{https.Binding{}}, bindings...), AdminToken: AdminToken})
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

// Submitter is what a binding's conformance package submits with: its wire-checking client against a base URL.
type Submitter = harness.Submitter

// Target is the local scenario target every binding's conformance package builds the same way: the scenario's
// collector composed as `aqp serve` composes it (HTTPS first, so a continuation's default binding is the core
// target's, then the binding's own), on a loopback server; queries issued through the admin API, responses
// submitted by the binding's Submitter against the server's URL. The collector keeps the scenario's PublicURL, so
// delivery endpoints and receipts are the core target's.
func Target(env *harness.Env, binding service.Binding, remote func(baseURL string, hc *http.Client) Submitter) (harness.Target, error) {
	cfg := env.Config
	cfg.Endpoints = nil
	bindings := []service.Binding{https.Binding{}}
	if binding.Endpoint().Binding != https.Name {
		bindings = append(bindings, binding)
	}
	svc, err := service.New(service.Config{Collector: cfg, Bindings: bindings, AdminToken: harnessAdminToken})
	if err != nil {
		return nil, err
	}
	ts := httptest.NewUnstartedServer(svc.Handler())
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true) // A2A's gRPC column, on the same listener as `aqp serve`
	ts.Start()
	sub := remote(ts.URL, ts.Client())
	return &localTarget{Submitter: sub, ts: ts}, nil
}

// harnessAdminToken is the admin token of the scenario targets' collectors.
const harnessAdminToken = "harness-admin-token"

type localTarget struct {
	Submitter
	ts *httptest.Server
}

func (t *localTarget) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	return harness.IssueOverAdminAPI(ctx, t.ts.Client(), t.ts.URL, harnessAdminToken, draft)
}

func (t *localTarget) Close() {
	if c, ok := t.Submitter.(interface{ Close() }); ok {
		c.Close()
	}
	t.ts.Close()
}
