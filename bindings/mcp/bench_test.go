package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
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
		jobs := make([]benchJob, b.N)
		for i := range jobs {
			jobs[i] = benchJob{url: ts.URL + "/mcp", auth: "Bearer x", body: toolsCall(workload.Response(uuid.Must(uuid.NewV7()).String()))}
		}
		runBench(b, ts.Client(), jobs)
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
			jobs := make([]benchJob, b.N)
			for i := range jobs {
				req, err := svc.Collector().Issue(context.Background(), []byte(workload.Draft))
				if err != nil {
					b.Fatal(err)
				}
				var q struct {
					QueryID  string
					Delivery struct{ Authorization string }
				}
				_ = json.Unmarshal(req, &q)
				body := workload.Response(q.QueryID)
				jobs[i] = benchJob{url: url + spec.HTTPSPath, auth: q.Delivery.Authorization, body: body}
				if binding == "mcp" {
					jobs[i] = benchJob{url: url + spec.MCPPath, auth: q.Delivery.Authorization, body: toolsCall(body), mcp: true}
				}
			}
			runBench(b, ts.Client(), jobs)
		})
	}
}

type benchJob struct {
	url, auth string
	body      []byte
	mcp       bool
}

// toolsCall wraps a response in a JSON-RPC tools/call request as an MCP client sends it.
func toolsCall(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + spec.MCPOperation + `","arguments":` + string(response) + `}}`)
}

func runBench(b *testing.B, client *http.Client, jobs []benchJob) {
	var next atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			j := jobs[next.Add(1)-1]
			req, _ := http.NewRequest(http.MethodPost, j.url, bytes.NewReader(j.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", j.auth)
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !bytes.Contains(out, []byte(`accepted`)) || bytes.Contains(out, []byte(`"isError":true`)) {
				b.Errorf("not accepted: %d %s", resp.StatusCode, out)
			}
		}
	})
}
