package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Core is the Target that calls the collector directly, with no binding in between.
func Core(env *Env) (Target, error) {
	c, err := collector.New(env.Config)
	if err != nil {
		return nil, err
	}
	return coreTarget{c}, nil
}

type coreTarget struct{ c *collector.Collector }

func (t coreTarget) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	return t.c.Issue(ctx, draft)
}

func (t coreTarget) Submit(ctx context.Context, body []byte, auth string) (Result, error) {
	out := t.c.Submit(ctx, collector.Submission{Body: body, Authorization: auth})
	return Result{Receipt: out.Receipt, Problem: out.Problem != nil}, nil
}

func (coreTarget) Close() {}

// adminToken is the admin token of HTTPS targets.
const adminToken = "harness-admin-token"

// HTTPS is the Target that reaches the collector over the HTTPS binding on a loopback server: queries through
// the admin API, responses to the binding endpoint.
func HTTPS(env *Env) (Target, error) {
	// The collector keeps the scenario's PublicURL, so delivery endpoints (and receipts) are the same as the
	// core target's; the harness posts to the loopback server whatever the endpoint says.
	ts := httptest.NewUnstartedServer(nil)
	c, err := collector.New(env.Config)
	if err != nil {
		return nil, err
	}
	s, err := https.New(https.Config{Collector: c, PublicURL: env.Config.PublicURL, AdminToken: adminToken})
	if err != nil {
		return nil, err
	}
	ts.Config.Handler = s.Handler(nil)
	ts.Start()
	return &httpsTarget{ts: ts}, nil
}

type httpsTarget struct{ ts *httptest.Server }

func (t *httpsTarget) post(ctx context.Context, path string, body []byte, auth string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.ts.URL+path, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := t.ts.Client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func (t *httpsTarget) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	resp, body, err := t.post(ctx, "/admin/v1/queries", draft, "Bearer "+adminToken)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("POST /admin/v1/queries: %s: %s", resp.Status, body)
	}
	return body, nil
}

func (t *httpsTarget) Submit(ctx context.Context, body []byte, auth string) (Result, error) {
	resp, b, err := t.post(ctx, "/aqp/v1/responses", body, auth)
	if err != nil {
		return Result{}, err
	}
	res := Result{HTTPStatus: resp.StatusCode, Header: resp.Header}
	if resp.Header.Get("Content-Type") == "application/problem+json" {
		res.Problem = true
	} else {
		res.Receipt = b
	}
	return res, nil
}

func (t *httpsTarget) Close() { t.ts.Close() }
