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
	"github.com/agentqueryprotocol/aqp-go/bindings/loadwire"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// benchEra is one MCP generation as a benchmark's client speaks it: how a response becomes a tools/call body, and
// the headers beside it.
type benchEra struct {
	name   string
	wrap   func(response []byte) []byte
	header http.Header
}

var benchEras = []benchEra{
	{"2026-07-28", loadwire.ToolsCallModern, http.Header{"Accept": {"application/json, text/event-stream"},
		mcp.HeaderProtocolVersion: {aqpmcp.ProtocolVersionModern}, mcp.HeaderMethod: {"tools/call"}, mcp.HeaderName: {spec.MCPOperation}}},
	{"2025-11-25", loadwire.ToolsCall, http.Header{"Accept": {"application/json, text/event-stream"},
		mcp.HeaderProtocolVersion: {aqpmcp.ProtocolVersionLegacy}}},
}

// BenchmarkSubmission measures one accepted submission — a fresh query each time, memory store — over MCP in
// each generation (one tools/call POST of streamable HTTP: the stateless server needs no handshake per call, and a
// 2026-07-28 call carries its version in _meta and headers) beside the same submission over HTTPS and beside the
// baseline of each generation: a bare mcp-go server on the same transport whose tool decodes nothing and returns a
// fixed receipt, sent the same requests. Compare ratios within a run, not absolute times. 16×GOMAXPROCS
// goroutines.
func BenchmarkSubmission(b *testing.B) {
	for _, era := range benchEras {
		b.Run("baseline=bare-mcp-go/"+era.name, func(b *testing.B) {
			ms := server.NewMCPServer("bare", "1")
			ms.AddTool(mcp.NewToolWithRawSchema(spec.MCPOperation, "", aqpmcp.InputSchema()), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(workload.FixedReceipt))},
					StructuredContent: json.RawMessage(workload.FixedReceipt)}, nil
			})
			ts := httptest.NewServer(server.NewStreamableHTTPServer(ms, server.WithStateLess(true)))
			defer ts.Close()
			workload.RunHTTP(b, ts.Client(), workload.BaselineJobs(ts.URL+spec.MCPPath, b.N, era.wrap), era.header, toolAccepted)
		})
	}
	run := func(b *testing.B, binding string, era benchEra) {
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
		draft, wrap, header := []byte(workload.Draft), func(r []byte) []byte { return r }, http.Header(nil)
		if binding == "mcp" {
			draft, wrap, header = bytes.Replace(draft, []byte(`{`), []byte(`{"binding":"mcp",`), 1), era.wrap, era.header
		}
		workload.RunHTTP(b, ts.Client(), workload.IssueJobs(b, svc.Collector(), draft, b.N, wrap), header, toolAccepted)
	}
	b.Run("https/memory", func(b *testing.B) { run(b, "https", benchEra{}) })
	for _, era := range benchEras {
		b.Run("mcp/"+era.name+"/memory", func(b *testing.B) { run(b, "mcp", era) })
	}
}

// toolAccepted: an accepted receipt, over MCP (a result that is not isError) or over HTTPS (200).
func toolAccepted(status int, reply []byte) bool {
	return status == http.StatusOK && bytes.Contains(reply, []byte(`accepted`)) && !bytes.Contains(reply, []byte(`"isError":true`))
}
