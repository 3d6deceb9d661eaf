package service_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/metrics"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// hearing is the innermost Submitter of a chain: it answers every submission with a problem and keeps every wire
// rejection it hears.
type hearing struct {
	mu    sync.Mutex
	heard []string
}

func (h *hearing) Submit(context.Context, collector.Submission) collector.Outcome {
	return collector.Outcome{Problem: &collector.Problem{Detail: "no"}}
}

func (h *hearing) WireRejected(binding, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.heard = append(h.heard, binding+"/"+reason)
}

// TestWrappingKeepsWireRejections: a request a binding refuses before it becomes a submission reaches the
// observer and whatever the observer wraps, through a wrapper around both (collector.Wrap, as the respondent
// harness wraps the collector), on every binding. WireRejecter used to be an optional interface the binding looked
// for on the Submitter it was given: a collector.SubmitterFunc around service.Observe did not have it, so every
// refusal went uncounted, and Observe did not pass it on to what it wrapped.
func TestWrappingKeepsWireRejections(t *testing.T) {
	for _, tc := range []struct {
		binding, reason string
		handler         func(collector.Submitter) http.Handler
		request         func() *http.Request
	}{
		{https.Name, "method", https.Binding{}.Handler, func() *http.Request {
			return httptest.NewRequest(http.MethodGet, spec.HTTPSPath, nil)
		}},
		{a2ab.Name, "method", a2ab.Binding{}.Handler, func() *http.Request {
			return httptest.NewRequest(http.MethodGet, "/", nil)
		}},
		{aqpmcp.Name, "arguments", aqpmcp.Binding{}.Handler, func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+spec.MCPOperation+`","arguments":[{},{}]}}`))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			return r
		}},
	} {
		t.Run(tc.binding, func(t *testing.T) {
			inner := &hearing{}
			m := metrics.New()
			observed := service.Observe(inner, m)
			wrapped := collector.Wrap(observed, func(ctx context.Context, s collector.Submission) collector.Outcome {
				return observed.Submit(ctx, s)
			})
			tc.handler(wrapped).ServeHTTP(httptest.NewRecorder(), tc.request())

			inner.mu.Lock()
			heard := inner.heard
			inner.mu.Unlock()
			if want := tc.binding + "/" + tc.reason; len(heard) != 1 || heard[0] != want {
				t.Errorf("the wrapped submitter heard %q, want [%s]", heard, want)
			}
			rec := httptest.NewRecorder()
			m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
			body, _ := io.ReadAll(rec.Body)
			if want := `aqp_wire_rejections_total{binding="` + tc.binding + `",reason="` + tc.reason + `"} 1`; !strings.Contains(string(body), want) {
				t.Errorf("the observer did not count the refusal: no %s in\n%.2000s", want, body)
			}
		})
	}
}
