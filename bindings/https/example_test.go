package https_test

import (
	"context"
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

// A response delivered over HTTPS in one typed call: a collector serving the binding (service and a memory
// store, on a loopback listener) issues a query naming it, and aqp.Client.Submit POSTs the answer to the query's
// delivery endpoint with its capability, through this package's Client, and returns the checked receipt.
func Example() {
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

	req, _ := aqp.Issue(ctx, svc.Collector(), &aqp.QueryDraft{
		Type: genaqp.QueryRequestTypeFeedback, Prompt: "Did the search answer the question?",
		Subject:     aqp.QuerySubject{Kind: genaqp.QuerySubjectKindToolCall, ID: "call_1"},
		ConsentMode: genaqp.QueryRequestConsentModeNotRequired, Timing: genaqp.QueryRequestTimingImmediate,
		Response: genaqp.QueryRequestResponse{Format: genaqp.QueryRequestResponseFormatBoolean},
	})
	resp, _ := aqp.NewResponse(req, aqp.Respondent{Kind: genaqp.QueryResponseRespondentKindAgent,
		Provenance: genaqp.QueryResponseRespondentProvenanceDirect}, true)

	client, _ := aqp.NewClient(aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true}))
	receipt, err := client.Submit(ctx, req, resp)
	if err != nil {
		panic(err)
	}
	fmt.Println(req.Delivery.Binding, receipt.Status)
	// Output:
	// https accepted
}
