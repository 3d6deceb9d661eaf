package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestConformance runs the whole collector scenario corpus over MCP: receipts byte-identical to core's, every
// result's isError and retry signal checked against the binding's table, and every receipt code reached.
// Scenarios whose body is not a JSON object cannot be carried: the tool's arguments are an object.
func TestConformance(t *testing.T) {
	harness.Suite(t, target, harness.Options{Binding: "mcp"})
}

// harnessAdminToken is the admin token of the harness's collectors.
const harnessAdminToken = "harness-admin-token"

// target reaches the scenario's collector over a loopback server composed as `aqp serve` composes it (the service
// surface with the MCP binding): queries through the admin API, responses to the binding's endpoint with the
// binding's own client.
func target(env *harness.Env) (harness.Target, error) {
	cfg := env.Config
	cfg.Endpoints = nil
	svc, err := service.New(service.Config{Collector: cfg, Bindings: []service.Binding{https.Binding{}, aqpmcp.Binding{}}, AdminToken: harnessAdminToken})
	if err != nil {
		return nil, err
	}
	return &mcpTarget{ts: httptest.NewServer(svc.Handler())}, nil
}

type mcpTarget struct{ ts *httptest.Server }

func (t *mcpTarget) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	return harness.IssueOverAdminAPI(ctx, t.ts.Client(), t.ts.URL, harnessAdminToken, draft)
}

// Submit delivers with the binding's own client and checks the wire form against the binding's table.
func (t *mcpTarget) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	client := &aqpmcp.Client{HTTP: t.ts.Client()}
	reply, err := client.Call(ctx, t.ts.URL+spec.MCPPath, spec.MCPOperation, auth, body)
	if err != nil {
		return harness.Result{}, err
	}
	if reply.Problem != "" {
		if !reply.IsError {
			return harness.Result{}, fmt.Errorf("a result without a receipt that is not isError")
		}
		return harness.Result{Problem: true}, nil
	}
	code, ok := harness.ReceiptCode(reply.Receipt)
	if !ok {
		return harness.Result{}, fmt.Errorf("a result whose text is not a receipt: %s", reply.Receipt)
	}
	w := aqpmcp.WireFor(code)
	if reply.IsError != w.IsError {
		return harness.Result{}, fmt.Errorf("code %q came with isError %v; the binding's table says %v", code, reply.IsError, w.IsError)
	}
	var sc struct {
		Retryable  bool            `json:"retryable"`
		RetryAfter json.RawMessage `json:"retryAfter"`
		Error      *struct {
			Code core.Code `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(reply.Structured, &sc); err != nil {
		return harness.Result{}, fmt.Errorf("structuredContent: %w", err)
	}
	if code != "" && (sc.Error == nil || sc.Error.Code != code) {
		return harness.Result{}, fmt.Errorf("structuredContent.error.code is not %q", code)
	}
	var ra int
	hasRA := json.Unmarshal(sc.RetryAfter, &ra) == nil && ra > 0
	if w.RetryAfter != (sc.Retryable && hasRA) {
		return harness.Result{}, fmt.Errorf("code %q: retryable %v with retryAfter %s; the binding's table says RetryAfter=%v", code, sc.Retryable, sc.RetryAfter, w.RetryAfter)
	}
	return harness.Result{Receipt: reply.Receipt}, nil
}

func (t *mcpTarget) Close() { t.ts.Close() }
