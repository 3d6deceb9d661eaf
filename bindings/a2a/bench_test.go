package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
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
		jobs := make([]benchJob, b.N)
		for i := range jobs {
			jobs[i] = benchJob{url: ts.URL, auth: "Bearer x", body: a2aEnvelope(workload.Response(uuid.Must(uuid.NewV7()).String()))}
		}
		runBench(b, ts.Client(), jobs)
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
			draft := bytes.Replace([]byte(workload.Draft), []byte(`{`), []byte(`{"binding":"`+binding+`",`), 1)
			jobs := make([]benchJob, b.N)
			for i := range jobs {
				req, err := svc.Collector().Issue(context.Background(), draft)
				if err != nil {
					b.Fatal(err)
				}
				var q struct {
					QueryID  string
					Delivery struct{ Endpoint, Authorization string }
				}
				_ = json.Unmarshal(req, &q)
				body := workload.Response(q.QueryID)
				if binding == "a2a" {
					body = a2aEnvelope(body)
				}
				jobs[i] = benchJob{url: q.Delivery.Endpoint, auth: q.Delivery.Authorization, body: body}
			}
			runBench(b, ts.Client(), jobs)
		})
	}
}

type benchJob struct {
	url, auth string
	body      []byte
}

func a2aEnvelope(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"` +
		uuid.NewString() + `","role":"user","parts":[{"kind":"data","data":` + string(response) + `,"metadata":{"aqpObject":"response"}}]}}}`)
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
			req.Header.Set("Authorization", j.auth)
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			reply, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !bytes.Contains(reply, []byte(`accepted`)) {
				b.Errorf("status %d: %s", resp.StatusCode, reply)
			}
		}
	})
}
