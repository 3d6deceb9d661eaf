// Package mcptest is the MCP binding's conformance target: how the shared scenario harness issues queries
// and submits responses over this binding, checking the binding's wire form from its own table as it goes. The
// binding's conformance_test.go runs the whole corpus through it, and the conformance suite's table across bindings
// runs it beside the others.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/servertest"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Carries lists the scenario requirements (conformance.Requires*) this binding's transport can carry.
var Carries []string // none: the tool's arguments are a JSON object

// Target reaches the scenario's collector over a loopback server composed as `aqp serve` composes it (the service
// surface with the MCP binding): queries through the admin API, responses to the binding's endpoint with the
// binding's own client.
func Target(env *harness.Env) (harness.Target, error) {
	return servertest.Target(env, aqpmcp.Binding{}, func(baseURL string, hc *http.Client) servertest.Submitter {
		return Remote(baseURL, hc)
	})
}

// Submitter submits responses over this binding to a collector at a base URL — the local scenario target's or any
// running collector's (`aqp conformance collector`) — checking the wire form against the binding's table.
type Submitter struct {
	base string
	hc   *http.Client
}

// Remote submits to the collector whose base URL is baseURL (the binding's pinned path is appended) with hc.
func Remote(baseURL string, hc *http.Client) *Submitter {
	return &Submitter{base: strings.TrimSuffix(baseURL, "/"), hc: hc}
}

// Submit delivers with the binding's own client and checks the wire form against the binding's table.
func (t *Submitter) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	client := &aqpmcp.Client{HTTP: t.hc}
	reply, err := client.Call(ctx, t.base+spec.MCPPath, spec.MCPOperation, auth, body)
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
