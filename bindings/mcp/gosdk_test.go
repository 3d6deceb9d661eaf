package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// bearer adds an Authorization header to every request, as a host configures an MCP client for a delivery.
type bearer struct{ auth string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", b.auth)
	return http.DefaultTransport.RoundTrip(r)
}

func goSDKSession(t *testing.T, endpoint, auth string) *gosdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := gosdk.NewClient(&gosdk.Implementation{Name: "aqp-interop", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &gosdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{auth}},
		DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestGoSDKClient drives the binding with the official Go SDK, a client that is not mcp-go: it lists the tool
// with both bundled schemas, calls it with an accepted answer, a rejected one and a wrong capability, and gets
// receipts byte-equal to the HTTPS binding's for the same responses.
func TestGoSDKClient(t *testing.T) {
	ts := newService(t)
	q := issue(t, ts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	cs := goSDKSession(t, q.endpoint, q.auth)
	// The SDK's newest mode: it discovers the server and speaks 2026-07-28 without the initialize handshake.
	if v := cs.InitializeResult().ProtocolVersion; v != aqpmcp.ProtocolVersionModern {
		t.Fatalf("the Go SDK negotiated MCP %q, want %s", v, aqpmcp.ProtocolVersionModern)
	}
	if ext, _ := cs.InitializeResult().Capabilities.Extensions[spec.MCPExtension].(map[string]any); ext["tool"] != spec.MCPOperation {
		t.Fatalf("the Go SDK sees extensions %v", cs.InitializeResult().Capabilities.Extensions)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tool *gosdk.Tool
	for _, tl := range tools.Tools {
		if tl.Name == spec.MCPOperation {
			tool = tl
		}
	}
	if tool == nil {
		t.Fatalf("no %s tool in %v", spec.MCPOperation, tools.Tools)
	}
	if a := tool.Annotations; tool.Title != aqpmcp.ToolTitle || a == nil || !a.IdempotentHint || a.ReadOnlyHint ||
		a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Fatalf("the Go SDK sees title %q and annotations %+v", tool.Title, a)
	}
	in, _ := json.Marshal(tool.InputSchema)
	out, _ := json.Marshal(tool.OutputSchema)
	if !core.EqualJSON(mustDecode(t, in), mustDecode(t, aqpmcp.InputSchema())) || !core.EqualJSON(mustDecode(t, out), mustDecode(t, aqpmcp.OutputSchema())) {
		t.Fatalf("the listed schemas are not the bundled ones:\n%s\n%s", in, out)
	}

	call := func(cs *gosdk.ClientSession, body []byte) *gosdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: spec.MCPOperation, Arguments: json.RawMessage(body)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	text := func(res *gosdk.CallToolResult) []byte {
		t.Helper()
		if len(res.Content) == 0 {
			t.Fatal("no content")
		}
		tc, ok := res.Content[0].(*gosdk.TextContent)
		if !ok {
			t.Fatalf("content %T", res.Content[0])
		}
		sc, _ := json.Marshal(res.StructuredContent)
		if !core.EqualJSON(mustDecode(t, sc), mustDecode(t, []byte(tc.Text))) {
			t.Fatalf("structuredContent %s is not the text %s", sc, tc.Text)
		}
		return []byte(tc.Text)
	}
	code := func(res *gosdk.CallToolResult) string {
		sc, _ := res.StructuredContent.(map[string]any)
		e, _ := sc["error"].(map[string]any)
		s, _ := e["code"].(string)
		return s
	}

	wrong := goSDKSession(t, q.endpoint, "Bearer wrong")
	unauthorized := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc1003", "yes")
	res := call(wrong, unauthorized)
	if !res.IsError || code(res) != "unauthorized" {
		t.Fatalf("wrong capability: isError %v code %q", res.IsError, code(res))
	}
	rejected := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc1001", "maybe")
	res = call(cs, rejected)
	if !res.IsError || code(res) != "answer_invalid" {
		t.Fatalf("rejected: isError %v code %q", res.IsError, code(res))
	}
	accepted := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc1002", "partly")
	res = call(cs, accepted)
	if res.IsError || code(res) != "" {
		t.Fatalf("accepted: isError %v code %q", res.IsError, code(res))
	}
	receipt := text(res)
	if via := postHTTPS(t, ts, q.auth, accepted); string(via) != string(receipt) {
		t.Fatalf("HTTPS returned\n%s\nthe Go SDK got\n%s", via, receipt)
	}
	if again := text(call(goSDKSession(t, q.endpoint, q.auth), accepted)); string(again) != string(receipt) {
		t.Fatalf("a duplicate over the Go SDK:\n%s\nwant\n%s", again, receipt)
	}
}

func mustDecode(t *testing.T, b []byte) any {
	t.Helper()
	v, err := core.DecodeJSON(b)
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}
