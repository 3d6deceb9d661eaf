package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// signalSubmitter reports each submission it is handed on a channel.
type signalSubmitter chan struct{}

func (s signalSubmitter) WireRejected(string, string) {}

func (s signalSubmitter) Submit(context.Context, collector.Submission) collector.Outcome {
	s <- struct{}{}
	return collector.Outcome{Problem: &collector.Problem{Detail: "test"}}
}

// TestGeneralDispatchWaitsAtTheGate: a request off the fast path goes to mcp-go, which decodes the whole message
// into generic values before the tool runs, so it waits at the binding's decoding gate (issue 16 item 1, D34). With
// every slot held the request must wait and never reach the collector; before the gate it reached it at once.
func TestGeneralDispatchWaitsAtTheGate(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"extra params member", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":` + directArgs + `,"x":[{},{}]}}`},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":` + directArgs + `}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := make(signalSubmitter, 1)
			s := NewServer(sub)
			for i := 0; i < s.gate.Cap(); i++ {
				s.gate.Enter(context.Background())
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/mcp", strings.NewReader(tc.body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				s.ServeHTTP(httptest.NewRecorder(), r)
			}()
			for s.gate.Waiting() == 0 {
				select {
				case <-sub:
					t.Fatal("the request reached the collector past a full decoding gate")
				case <-done:
					t.Fatal("the request was answered past a full decoding gate")
				default:
					runtime.Gosched()
				}
			}
			cancel()
			<-done
		})
	}
}
