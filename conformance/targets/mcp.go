// The MCP binding's conformance target: how the shared scenario harness issues queries
// and submits responses over this binding, checking the binding's wire form from its own table as it goes. The
// binding has two columns (MCPColumns), one per MCP protocol generation the server answers on the same endpoint
// (D31): mcp-2026-07-28 (server/discover, per-request _meta) and mcp-2025-11-25 (initialize). The binding's
// conformance_test.go runs the whole corpus through each, and the conformance suite's table across bindings runs
// them beside the others.

package targets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// MCPRequirements are the requirements.json ids this package's wire checks enforce on every submission: the tool
// aqp_submit_response over streamable HTTP at /mcp, the receipt as structuredContent with the same JSON as text
// content, and isError on exactly the rejections (which D27 pins too). A failed check is a *harness.RuleError
// naming what it breaks; the corpus passing over this binding (conformance/bindings_test.go) is their passing proof.
// Every column checks D31 as well: the era the column pins is the one spoken, the AQP extension is declared in that
// era's self-description, and a 2026-07-28 result carries its resultType.
var MCPRequirements = []string{ReqD27, ReqD31, ReqMCP, ReqMCPReceipt}

// The requirements the checks name.
const (
	ReqMCP        = "AQP-BIND-MCP"
	ReqMCPReceipt = "AQP-BIND-MCP-RECEIPT"
	ReqD27        = "AQP-D27"
	ReqD31        = "AQP-D31"
)

// The columns' names: the binding at each MCP protocol generation it serves.
const (
	MCPColumnModern = spec.BindingMCP + "-" + aqpmcp.ProtocolVersionModern
	MCPColumnLegacy = spec.BindingMCP + "-" + aqpmcp.ProtocolVersionLegacy
)

// MCPColumns are the MCP binding's columns of the one table: 2026-07-28 first (MCPTarget and MCPRemote are its), then
// 2025-11-25. Each column's submitter speaks only its era — server/discover and per-request _meta, or the
// initialize handshake — and checks that era's wire form, so a collector that serves one era and not the other
// passes one column and fails the other.
var MCPColumns = []harness.Column{
	{Name: MCPColumnModern, Binding: spec.BindingMCP, Carries: MCPCarries, Requirements: MCPRequirements, Target: MCPTarget,
		Surfaces: mcpSurfacesAt(aqpmcp.ProtocolVersionModern),
		Remote:   func(baseURL string, hc *http.Client) harness.ColumnClient { return MCPRemote(baseURL, hc) }},
	{Name: MCPColumnLegacy, Binding: spec.BindingMCP, Carries: MCPCarries, Requirements: MCPRequirements, Target: MCPTargetAt(aqpmcp.ProtocolVersionLegacy),
		Surfaces: mcpSurfacesAt(aqpmcp.ProtocolVersionLegacy),
		Remote: func(baseURL string, hc *http.Client) harness.ColumnClient {
			return MCPRemoteAt(baseURL, hc, aqpmcp.ProtocolVersionLegacy)
		}},
}

// MCPCarries lists the scenario requirements (conformance.Requires*) this binding's transport can carry.
var MCPCarries []string // none: the tool's arguments are a JSON object

// MCPTarget is the 2026-07-28 column's local scenario target: the scenario's collector on a loopback server composed as
// `aqp serve` composes it (the service surface with the MCP binding), queries through the admin API, responses to
// the binding's endpoint with the binding's own client speaking 2026-07-28.
func MCPTarget(env *harness.Env) (harness.Target, error) {
	return MCPTargetAt(aqpmcp.ProtocolVersionModern)(env)
}

// MCPTargetAt is the local scenario target of the column at MCP protocol version version.
func MCPTargetAt(version string) harness.Factory {
	return func(env *harness.Env) (harness.Target, error) {
		return localTarget(env, aqpmcp.Binding{}, func(baseURL string, hc *http.Client) harness.ColumnClient {
			return MCPRemoteAt(baseURL, hc, version)
		})
	}
}

// mcpClient submits responses over this binding at one MCP protocol version to a collector at a base URL — the
// local scenario target's or any running collector's (`aqp conformance collector`) — checking the wire form
// against the binding's table and the era's rules.
type mcpClient struct {
	base    string
	hc      *http.Client
	version string
}

// MCPRemote submits at MCP 2026-07-28 to the collector whose base URL is baseURL (the binding's pinned path is
// appended) with hc: the 2026-07-28 column's submitter.
func MCPRemote(baseURL string, hc *http.Client) *mcpClient {
	return MCPRemoteAt(baseURL, hc, aqpmcp.ProtocolVersionModern)
}

// MCPRemoteAt submits at MCP protocol version version (aqpmcp.ProtocolVersionModern or an initialize-era revision)
// and nothing else: no fallback, so the column judges exactly that era.
func MCPRemoteAt(baseURL string, hc *http.Client, version string) *mcpClient {
	return &mcpClient{base: strings.TrimSuffix(baseURL, "/"), hc: hc, version: version}
}

// Submit delivers with the binding's own client and checks the wire form against the binding's table; a wire
// form the table does not allow is a *harness.RuleError naming the requirement it breaks.
func (t *mcpClient) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	client := &aqpmcp.Client{HTTP: t.hc, ProtocolVersion: t.version}
	reply, err := client.Call(ctx, t.base+spec.MCPPath, spec.MCPOperation, auth, body)
	var re *aqpmcp.ResultError
	var ee *aqpmcp.EraError
	var ue *url.Error
	switch {
	case errors.As(err, &ee):
		return harness.Result{}, harness.Wire(err.Error(), ReqD31)
	case errors.As(err, &re):
		return harness.Result{}, harness.Wire(err.Error(), ReqMCPReceipt)
	case err != nil && (errors.As(err, &ue) || ctx.Err() != nil):
		return harness.Result{}, err // nothing came back: not a wire form to judge
	case err != nil:
		// The handshake or the call itself failed: the collector does not serve the tool as the binding pins it.
		return harness.Result{}, harness.Wire(err.Error(), ReqMCP)
	}
	if err := t.checkEra(reply); err != nil {
		return harness.Result{}, err
	}
	if reply.Problem != "" {
		if !reply.IsError {
			return harness.Result{}, harness.Wire("a result without a receipt that is not isError", ReqMCPReceipt)
		}
		return harness.Result{Problem: true}, nil
	}
	code, ok := harness.ReceiptCode(reply.Receipt)
	if !ok {
		return harness.Result{}, harness.Wire(fmt.Sprintf("a result whose text is not a receipt: %s", reply.Receipt), ReqMCPReceipt)
	}
	w := aqpmcp.WireFor(code)
	if reply.IsError != w.IsError {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q came with isError %v; the binding's table says %v", code, reply.IsError, w.IsError), ReqD27, ReqMCPReceipt)
	}
	var sc struct {
		Retryable  bool            `json:"retryable"`
		RetryAfter json.RawMessage `json:"retryAfter"`
		Error      *struct {
			Code core.Code `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(reply.Structured, &sc); err != nil {
		return harness.Result{}, harness.Wire(fmt.Sprintf("structuredContent: %v", err), ReqMCPReceipt)
	}
	if code != "" && (sc.Error == nil || sc.Error.Code != code) {
		return harness.Result{}, harness.Wire(fmt.Sprintf("structuredContent.error.code is not %q", code), ReqMCPReceipt)
	}
	var ra int
	hasRA := json.Unmarshal(sc.RetryAfter, &ra) == nil && ra > 0
	if w.RetryAfter != (sc.Retryable && hasRA) {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q: retryable %v with retryAfter %s; the binding's table says RetryAfter=%v", code, sc.Retryable, sc.RetryAfter, w.RetryAfter), ReqMCPReceipt)
	}
	return harness.Result{Receipt: reply.Receipt}, nil
}

// checkEra checks what D31 pins for the column's era: the version spoken is the column's, the server's
// self-description (the server/discover result, or the initialize result) declares the AQP extension with the AQP
// version and the tool, and a 2026-07-28 result says resultType "complete".
func (t *mcpClient) checkEra(reply *aqpmcp.Reply) error {
	if reply.ProtocolVersion != t.version {
		return harness.Wire(fmt.Sprintf("the delivery spoke MCP %q, not the column's %s", reply.ProtocolVersion, t.version), ReqD31)
	}
	var caps mcp.ServerCapabilities
	switch {
	case reply.Discovered != nil:
		caps = reply.Discovered.Capabilities
	case reply.Initialized != nil:
		caps = reply.Initialized.Capabilities
	default:
		return harness.Wire("the delivery has neither a server/discover nor an initialize result", ReqD31)
	}
	ext, ok := caps.Extensions[aqpmcp.ExtensionKey].(map[string]any)
	if !ok {
		return harness.Wire(fmt.Sprintf("MCP %s: capabilities.extensions has no %q object", t.version, aqpmcp.ExtensionKey), ReqD31)
	}
	if ext["version"] != spec.ProtocolVersion || ext["tool"] != spec.MCPOperation {
		return harness.Wire(fmt.Sprintf("MCP %s: extension %q is %v; want version %s and tool %s", t.version, aqpmcp.ExtensionKey, ext, spec.ProtocolVersion, spec.MCPOperation), ReqD31)
	}
	if mcp.IsModernProtocol(t.version) {
		var r struct {
			ResultType *string `json:"resultType"`
		}
		if err := json.Unmarshal(reply.Result, &r); err != nil || r.ResultType == nil || *r.ResultType != string(mcp.ResultTypeComplete) {
			return harness.Wire(fmt.Sprintf("MCP %s: the tools/call result has no resultType \"complete\": %.200s", t.version, reply.Result), ReqD31)
		}
	}
	return nil
}
