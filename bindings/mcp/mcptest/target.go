// Package mcptest is the MCP binding's conformance target: how the shared scenario harness issues queries
// and submits responses over this binding, checking the binding's wire form from its own table as it goes. The
// binding's conformance_test.go runs the whole corpus through it, and the conformance suite's table across bindings
// runs it beside the others.
package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/servertest"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Requirements are the requirements.json ids this package's wire checks enforce on every submission: the tool
// aqp_submit_response over streamable HTTP at /mcp, the receipt as structuredContent with the same JSON as text
// content, and isError on exactly the rejections (which D27 pins too). A failed check is a *harness.RuleError
// naming what it breaks; the corpus passing over this binding (conformance/bindings_test.go) is their passing proof.
var Requirements = []string{ReqD27, ReqMCP, ReqReceipt}

// The requirements the checks name.
const (
	ReqMCP     = "AQP-BIND-MCP"
	ReqReceipt = "AQP-BIND-MCP-RECEIPT"
	ReqD27     = "AQP-D27"
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

// Submit delivers with the binding's own client and checks the wire form against the binding's table; a wire
// form the table does not allow is a *harness.RuleError naming the requirement it breaks.
func (t *Submitter) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	client := &aqpmcp.Client{HTTP: t.hc}
	reply, err := client.Call(ctx, t.base+spec.MCPPath, spec.MCPOperation, auth, body)
	var re *aqpmcp.ResultError
	var ue *url.Error
	switch {
	case errors.As(err, &re):
		return harness.Result{}, harness.Wire(err.Error(), ReqReceipt)
	case err != nil && (errors.As(err, &ue) || ctx.Err() != nil):
		return harness.Result{}, err // nothing came back: not a wire form to judge
	case err != nil:
		// The handshake or the call itself failed: the collector does not serve the tool as the binding pins it.
		return harness.Result{}, harness.Wire(err.Error(), ReqMCP)
	}
	if reply.Problem != "" {
		if !reply.IsError {
			return harness.Result{}, harness.Wire("a result without a receipt that is not isError", ReqReceipt)
		}
		return harness.Result{Problem: true}, nil
	}
	code, ok := harness.ReceiptCode(reply.Receipt)
	if !ok {
		return harness.Result{}, harness.Wire(fmt.Sprintf("a result whose text is not a receipt: %s", reply.Receipt), ReqReceipt)
	}
	w := aqpmcp.WireFor(code)
	if reply.IsError != w.IsError {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q came with isError %v; the binding's table says %v", code, reply.IsError, w.IsError), ReqD27, ReqReceipt)
	}
	var sc struct {
		Retryable  bool            `json:"retryable"`
		RetryAfter json.RawMessage `json:"retryAfter"`
		Error      *struct {
			Code core.Code `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(reply.Structured, &sc); err != nil {
		return harness.Result{}, harness.Wire(fmt.Sprintf("structuredContent: %v", err), ReqReceipt)
	}
	if code != "" && (sc.Error == nil || sc.Error.Code != code) {
		return harness.Result{}, harness.Wire(fmt.Sprintf("structuredContent.error.code is not %q", code), ReqReceipt)
	}
	var ra int
	hasRA := json.Unmarshal(sc.RetryAfter, &ra) == nil && ra > 0
	if w.RetryAfter != (sc.Retryable && hasRA) {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q: retryable %v with retryAfter %s; the binding's table says RetryAfter=%v", code, sc.Retryable, sc.RetryAfter, w.RetryAfter), ReqReceipt)
	}
	return harness.Result{Receipt: reply.Receipt}, nil
}
