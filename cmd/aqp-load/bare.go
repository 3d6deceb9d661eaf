package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"google.golang.org/grpc"

	"github.com/agentqueryprotocol/aqp-go/bindings/loadwire"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// serveBare is -mode bare-serve: the rig's baselines, out of process, on one listener — for each binding column the
// least a server of its kind does with the same request. HTTPS: net/http decoding the body and writing a fixed
// receipt. MCP: a bare mcp-go server (stateless streamable HTTP, the AQP tool's name and input schema) whose tool
// returns a fixed receipt. A2A: a bare a2a-go/v2 agent that yields one fixed reply, served by the SDK's handler
// for each transport (gRPC through net/http's unencrypted HTTP/2, as `aqp serve` serves it).
func serveBare(addr string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/aqp/v1/responses", func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&v); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(workload.FixedReceipt)
	})
	ms := server.NewMCPServer("bare", "1")
	ms.AddTool(mcp.NewToolWithRawSchema(spec.MCPOperation, "", aqpmcp.InputSchema()), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(workload.FixedReceipt))},
			StructuredContent: json.RawMessage(workload.FixedReceipt)}, nil
	})
	mux.Handle(spec.MCPPath, server.NewStreamableHTTPServer(ms, server.WithStateLess(true)))
	handler := a2asrv.NewHandler(loadwire.FixedAgent())
	mux.Handle("/a2a", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle("/a2a-rest/", http.StripPrefix("/a2a-rest", a2asrv.NewRESTHandler(handler)))
	mux.Handle("/a2a-0.3", a2av0.NewJSONRPCHandler(handler))
	gs := grpc.NewServer()
	a2agrpc.NewHandler(handler).RegisterWith(gs)
	srv := &http.Server{Addr: addr, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
			gs.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})}
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		<-sig
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		return err
	}
	return nil
}
