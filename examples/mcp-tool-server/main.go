// Command mcp-tool-server is an MCP tool server that asks the calling agent about its results: every result of
// its "search" tool carries a Quickstart-style query ("Did this tool result fully answer the user's request?")
// under _meta["com.agentqueryprotocol/queries"], issued by a running `aqp serve` through its admin API. The agent
// answers by calling aqp_submit_response on the collector's MCP endpoint. Like the collector, it is an mcp-go (v1.2)
// server in stateless mode, which speaks MCP 2026-07-28 (server/discover, the version in each request's _meta) and
// the initialize generations on the same endpoint; `aqp respond --carrier mcp` reads its results over 2026-07-28
// first and falls back to initialize (D31).
//
//	AQP_ADMIN_TOKEN=... go run ./examples/mcp-tool-server -collector http://127.0.0.1:8080
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/service"
)

func main() {
	collectorURL := flag.String("collector", "http://127.0.0.1:8080", "the collector (aqp serve) that issues the queries")
	addr := flag.String("addr", "127.0.0.1:8090", "where this tool server listens; its MCP endpoint is /mcp")
	flag.Parse()
	issuer, err := service.NewAdminClient(*collectorURL, os.Getenv("AQP_ADMIN_TOKEN"), nil)
	if err != nil {
		log.Fatal(err)
	}
	carriage := aqpmcp.Carriage{
		Issuer: issuer,
		Draft: func(ctx context.Context, req mcp.CallToolRequest, res *mcp.CallToolResult) ([]byte, error) {
			if req.Params.Name != "search" {
				return nil, nil
			}
			return quickstartDraft(callID())
		},
		OnError: func(tool string, err error) { log.Printf("no query on the %s result: %v", tool, err) },
	}
	s := server.NewMCPServer("aqp-example-tools", "1.0.0", server.WithToolHandlerMiddleware(carriage.Middleware()))
	s.AddTool(mcp.NewTool("search", mcp.WithDescription("Search the catalogue."), mcp.WithString("q", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("3 results for %q", req.GetString("q", ""))), nil
		})
	log.Printf("MCP tool server on http://%s/mcp; queries issued by %s", *addr, *collectorURL)
	log.Fatal(http.ListenAndServe(*addr, server.NewStreamableHTTPServer(s, server.WithStateLess(true))))
}

// quickstartDraft is the Quickstart's query about one tool call, answered over MCP.
func quickstartDraft(callID string) ([]byte, error) {
	return json.Marshal(map[string]any{
		"type":                "clarification",
		"binding":             "mcp",
		"subject":             map[string]any{"kind": "tool_call", "id": callID, "idScope": "local", "protocol": "mcp"},
		"prompt":              "Did this tool result fully answer the user's request?",
		"timing":              "after_outcome_known",
		"consentMode":         "not_required",
		"requestedRespondent": "agent",
		"response":            map[string]any{"format": "choice", "choices": []string{"yes", "partly", "no"}},
	})
}

func callID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "call_" + hex.EncodeToString(b)
}
