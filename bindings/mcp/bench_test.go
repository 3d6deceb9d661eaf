package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// BenchmarkSubmission measures one accepted submission — a fresh query each time, memory store — over MCP (one
// tools/call POST of streamable HTTP, the stateless server needing no handshake per call) beside the same
// submission over HTTPS and beside the baseline: a bare mcp-go server on the same transport whose tool decodes
// nothing and returns a fixed receipt. Compare ratios, not absolute times. 16×GOMAXPROCS goroutines.
func BenchmarkSubmission(b *testing.B) {
	b.Run("baseline=bare-mcp-go", func(b *testing.B) {
		ms := server.NewMCPServer("bare", "1")
		ms.AddTool(mcp.NewToolWithRawSchema(spec.MCPOperation, "", aqpmcp.InputSchema()), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(workload.FixedReceipt))},
				StructuredContent: json.RawMessage(workload.FixedReceipt)}, nil
		})
		ts := httptest.NewServer(server.NewStreamableHTTPServer(ms, server.WithStateLess(true)))
		defer ts.Close()
		workload.RunHTTP(b, ts.Client(), workload.BaselineJobs(ts.URL+spec.MCPPath, b.N, toolsCall), mcpHeader, toolAccepted)
	})
	for _, binding := range []string{"https", "mcp"} {
		b.Run(binding+"/memory", func(b *testing.B) {
			ts := httptest.NewUnstartedServer(nil)
			url := "http://" + ts.Listener.Addr().String()
			svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url, RateLimit: collector.RateLimit{Disabled: true}},
				Bindings: []service.Binding{https.Binding{}, aqpmcp.Binding{}}, AdminToken: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			ts.Config.Handler = svc.Handler()
			ts.Start()
			defer ts.Close()
			draft, wrap := []byte(workload.Draft), func(r []byte) []byte { return r }
			if binding == "mcp" {
				draft, wrap = bytes.Replace(draft, []byte(`{`), []byte(`{"binding":"mcp",`), 1), toolsCall
			}
			workload.RunHTTP(b, ts.Client(), workload.IssueJobs(b, svc.Collector(), draft, b.N, wrap), mcpHeader, toolAccepted)
		})
	}
}

// toolsCall wraps a response in a JSON-RPC tools/call request as an MCP client sends it.
func toolsCall(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + spec.MCPOperation + `","arguments":` + string(response) + `}}`)
}

// mcpHeader is what a streamable HTTP client sends beside the body.
var mcpHeader = http.Header{"Accept": {"application/json, text/event-stream"}}

// toolAccepted: an accepted receipt, over MCP (a result that is not isError) or over HTTPS (200).
func toolAccepted(status int, reply []byte) bool {
	return status == http.StatusOK && bytes.Contains(reply, []byte(`accepted`)) && !bytes.Contains(reply, []byte(`"isError":true`))
}
