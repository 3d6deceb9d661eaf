package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	"github.com/google/uuid"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// fixedAgent is the bare a2a-go agent of the baseline: its executor replies to every message with a fixed
// message carrying a fixed receipt.
type fixedAgent struct{}

func (fixedAgent) Execute(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	var receipt map[string]any
	_ = json.Unmarshal(workload.FixedReceipt, &receipt)
	return q.Write(ctx, a2a.NewMessage(a2a.MessageRoleAgent, a2a.DataPart{Data: receipt, Metadata: map[string]any{"aqpObject": "receipt"}}))
}

func (fixedAgent) Cancel(context.Context, *a2asrv.RequestContext, eventqueue.Queue) error { return nil }

// BenchmarkSubmission measures one accepted submission — a fresh query each time, memory store — over A2A
// (message/send, JSON-RPC on loopback) beside the same over HTTPS, and beside the baseline: a bare a2a-go JSON-RPC
// agent whose executor replies with a fixed message, sent the same requests. 16×GOMAXPROCS goroutines, as the
// HTTPS benchmark. Compare ratios, not absolute times.
func BenchmarkSubmission(b *testing.B) {
	b.Run("baseline=bare-a2a-go", func(b *testing.B) {
		ts := httptest.NewServer(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(fixedAgent{})))
		defer ts.Close()
		workload.RunHTTP(b, ts.Client(), workload.BaselineJobs(ts.URL, b.N, a2aEnvelope), nil, replyAccepted)
	})
	for _, binding := range []string{"https", "a2a"} {
		b.Run(binding+"/memory", func(b *testing.B) {
			ts := httptest.NewUnstartedServer(nil)
			url := "http://" + ts.Listener.Addr().String()
			svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url, RateLimit: collector.RateLimit{Disabled: true}},
				Bindings: []service.Binding{https.Binding{}, a2ab.Binding{}}, AdminToken: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			ts.Config.Handler = svc.Handler()
			ts.Start()
			defer ts.Close()
			draft, wrap := bytes.Replace([]byte(workload.Draft), []byte(`{`), []byte(`{"binding":"`+binding+`",`), 1), func(r []byte) []byte { return r }
			if binding == "a2a" {
				wrap = a2aEnvelope
			}
			workload.RunHTTP(b, ts.Client(), workload.IssueJobs(b, svc.Collector(), draft, b.N, wrap), nil, replyAccepted)
		})
	}
}

func a2aEnvelope(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"` +
		uuid.NewString() + `","role":"user","parts":[{"kind":"data","data":` + string(response) + `,"metadata":{"aqpObject":"response"}}]}}}`)
}

// replyAccepted: a 200 carrying an accepted receipt (over A2A, inside the reply message).
func replyAccepted(status int, reply []byte) bool {
	return status == http.StatusOK && bytes.Contains(reply, []byte(`accepted`))
}
