package aqp_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	aqp "github.com/agentqueryprotocol/aqp-go"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	genaqp "github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// An agent host answers a query: parse it as the carriage delivered it, start the answer, and Submit it — one
// call, whatever binding the query names. The collector here is in-process, on a loopback listener, so the
// client's policy allows plain http to loopback; a real collector is reached over https under the zero Policy.
func ExampleClient_Submit() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	svc, _ := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "http://" + ln.Addr().String()},
		Bindings:   []service.Binding{https.Binding{}},
		AdminToken: "example-admin-token",
	})
	go func() { _ = http.Serve(ln, svc.Handler()) }()
	defer ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// The application asks (aqp.Issue with a typed draft); the agent reads the query it was handed.
	req, err := aqp.Issue(ctx, svc.Collector(), &aqp.QueryDraft{
		Type: genaqp.QueryRequestTypeFeedback, Prompt: "Did the search answer the question?",
		Subject:     aqp.QuerySubject{Kind: genaqp.QuerySubjectKindToolCall, ID: "call_1"},
		ConsentMode: genaqp.QueryRequestConsentModeNotRequired, Timing: genaqp.QueryRequestTimingImmediate,
		Response: genaqp.QueryRequestResponse{Format: genaqp.QueryRequestResponseFormatBoolean},
	})
	if err != nil {
		panic(err)
	}

	client, err := aqp.NewClient(aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true}))
	if err != nil {
		panic(err)
	}
	who := aqp.Respondent{Kind: genaqp.QueryResponseRespondentKindAgent, Provenance: genaqp.QueryResponseRespondentProvenanceDirect}

	// An answer outside the contract is rejected: the receipt comes back inside the error.
	wrong, _ := aqp.NewResponse(req, who, "maybe")
	_, err = client.Submit(ctx, req, wrong)
	var rejected *aqp.RejectedError
	if errors.As(err, &rejected) {
		fmt.Println(rejected.Receipt.Status, rejected.Code, rejected.Pointer, aqp.Retryable(err))
	}

	resp, _ := aqp.NewResponse(req, who, true)
	receipt, err := client.Submit(ctx, req, resp)
	if err != nil {
		panic(err)
	}
	fmt.Println(receipt.Status, receipt.ResponseID == resp.ResponseID)
	// Output:
	// rejected answer_invalid /answer false
	// accepted true
}

// DeliveryOf reads where a query's answer goes without dereferencing its optional members by hand.
func ExampleDeliveryOf() {
	req := &aqp.QueryRequest{QueryID: "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
		Delivery: genaqp.QueryRequestDelivery{Binding: genaqp.QueryRequestDeliveryBindingOther}}
	_, err := aqp.DeliveryOf(req)
	fmt.Println(err)
	// Output:
	// query 0198c7cb-1af1-7e79-bd7f-02f8a89b8857 cannot be answered: /delivery/binding: the binding is "other": the query names a binding outside the spec, which only its own client can deliver over
}

// A client pinned to one column delivers over it alone: here MCP's initialize era, and A2A 1.0 over gRPC. An
// option that names no column is refused when the client is built.
func ExampleNewClient() {
	_, err := aqp.NewClient(aqp.WithMCPVersion("2025-11-25"), aqp.WithA2A("1.0", "GRPC"))
	fmt.Println(err)
	_, err = aqp.NewClient(aqp.WithA2A("0.3", "GRPC"))
	fmt.Println(err)
	// Output:
	// <nil>
	// aqp: WithA2A: A2A 0.3 is delivered over JSONRPC only, not GRPC
}
