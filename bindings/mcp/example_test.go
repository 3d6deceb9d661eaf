package mcp_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	aqp "github.com/agentqueryprotocol/aqp-go"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	genaqp "github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// A response delivered over MCP in one typed call: a collector serving the binding (service and a memory store,
// on a loopback listener) issues a query naming its aqp_submit_response tool, and aqp.Client.Submit calls the tool
// through this package's Client — pinned to an era with aqp.WithMCPVersion, or left to probe 2026-07-28 first.
func Example() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	svc, _ := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "http://" + ln.Addr().String()},
		Bindings:   []service.Binding{mcp.Binding{}}, // the only binding served: drafts default to it
		AdminToken: "example-admin-token",
	})
	go func() { _ = http.Serve(ln, svc.Handler()) }()
	defer ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	policy := aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true})
	for _, era := range []string{mcp.ProtocolVersionModern, mcp.ProtocolVersionLegacy} {
		req, _ := aqp.Issue(ctx, svc.Collector(), &aqp.QueryDraft{
			Type: genaqp.QueryRequestTypeFeedback, Prompt: "Did the search answer the question?",
			Subject:     aqp.QuerySubject{Kind: genaqp.QuerySubjectKindToolCall, ID: "call_1"},
			ConsentMode: genaqp.QueryRequestConsentModeNotRequired, Timing: genaqp.QueryRequestTimingImmediate,
			Response: genaqp.QueryRequestResponse{Format: genaqp.QueryRequestResponseFormatBoolean},
		})
		resp, _ := aqp.NewResponse(req, aqp.Respondent{Kind: genaqp.QueryResponseRespondentKindAgent,
			Provenance: genaqp.QueryResponseRespondentProvenanceDirect}, true)

		client, _ := aqp.NewClient(policy, aqp.WithMCPVersion(era))
		receipt, err := client.Submit(ctx, req, resp)
		if err != nil {
			panic(err)
		}
		fmt.Println(req.Delivery.Binding, *req.Delivery.Operation, era, receipt.Status)
	}
	// Output:
	// mcp aqp_submit_response 2026-07-28 accepted
	// mcp aqp_submit_response 2025-11-25 accepted
}
