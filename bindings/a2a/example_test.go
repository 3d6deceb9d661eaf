package a2a_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	aqp "github.com/agentqueryprotocol/aqp-go"
	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	genaqp "github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// A response delivered over A2A in one typed call: a collector serving the binding (service and a memory store,
// on a loopback listener speaking unencrypted HTTP/2 too, for gRPC) issues a query naming its endpoint, and
// aqp.Client.Submit sends the answer through this package's Client over the interface its agent card lists —
// here pinned with aqp.WithA2A to each generation and transport in turn.
func Example() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	svc, _ := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "http://" + ln.Addr().String()},
		Bindings:   []service.Binding{a2a.Binding{}}, // the only binding served: drafts default to it
		AdminToken: "example-admin-token",
	})
	hs := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second, Protocols: new(http.Protocols)}
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true)
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	policy := aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true})
	for _, column := range []struct{ version, transport string }{
		{a2a.Version, "JSONRPC"}, {a2a.Version, "HTTP+JSON"}, {a2a.Version, "GRPC"}, {a2a.LegacyVersion, "JSONRPC"},
	} {
		req, _ := aqp.Issue(ctx, svc.Collector(), &aqp.QueryDraft{
			Type: genaqp.QueryRequestTypeFeedback, Prompt: "Did the search answer the question?",
			Subject:     aqp.QuerySubject{Kind: genaqp.QuerySubjectKindToolCall, ID: "call_1"},
			ConsentMode: genaqp.QueryRequestConsentModeNotRequired, Timing: genaqp.QueryRequestTimingImmediate,
			Response: genaqp.QueryRequestResponse{Format: genaqp.QueryRequestResponseFormatBoolean},
		})
		resp, _ := aqp.NewResponse(req, aqp.Respondent{Kind: genaqp.QueryResponseRespondentKindAgent,
			Provenance: genaqp.QueryResponseRespondentProvenanceDirect}, true)

		client, _ := aqp.NewClient(policy, aqp.WithA2A(column.version, column.transport))
		receipt, err := client.Submit(ctx, req, resp)
		if err != nil {
			panic(err)
		}
		fmt.Println(req.Delivery.Binding, column.version, column.transport, receipt.Status)
	}
	// Output:
	// a2a 1.0 JSONRPC accepted
	// a2a 1.0 HTTP+JSON accepted
	// a2a 1.0 GRPC accepted
	// a2a 0.3 JSONRPC accepted
}
