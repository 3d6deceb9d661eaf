package a2a_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestGRPCRedirectIsRefusedAtOnce: over gRPC too, a collector whose HTTP/2 answer to the call is a redirect gets
// the destination policy's redirect refusal at once, as on A2A's other transports, HTTPS and MCP (D29, D34).
func TestGRPCRedirectIsRefusedAtOnce(t *testing.T) {
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == spec.A2AAgentCardPath {
			a2ab.CardHandler(base).ServeHTTP(w, r)
			return
		}
		http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusTemporaryRedirect)
	})
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	defer ts.Close()
	policy := &respondent.Policy{AllowHTTPLoopback: true}
	c := &a2ab.Client{HTTP: policy.Client(), Transport: a2a.TransportProtocolGRPC}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.Deliver(ctx, respondent.Delivery{Binding: "a2a", Endpoint: base + spec.A2APath, Operation: a2ab.SendMethod,
		Authorization: "Bearer x"}, []byte(`{"protocolVersion":"2026-07-30"}`))
	var pe *respondent.PolicyError
	if !errors.As(err, &pe) || pe.Rule != respondent.RuleRedirect {
		t.Fatalf("err = %v (%T), want a *respondent.PolicyError with rule %q", err, err, respondent.RuleRedirect)
	}
}
