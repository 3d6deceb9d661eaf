package a2a_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestRedirectIsRefusedAtOnce: a collector that answers the card or the send with a redirect gets the destination
// policy's redirect refusal at once — a *respondent.PolicyError, which the runtime never retries — on every A2A
// transport the client dials over HTTP, as over HTTPS and MCP (issue "Hardening, round two", item 6: the A2A
// transport recorded a redirect as a retryable HTTP failure, 8 attempts in 20 s).
func TestRedirectIsRefusedAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		// redirects: the path that answers 307 (the card, or the send).
		redirects string
		version   string
	}{
		{"card", spec.A2AAgentCardPath, ""},
		{"jsonrpc send", spec.A2APath, a2ab.Version},
		{"0.3 jsonrpc send", spec.A2APath, a2ab.LegacyVersion},
		{"http+json send", spec.A2APath + a2ab.RESTSendPath, a2ab.Version},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ts *httptest.Server
			ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == tc.redirects {
					http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusTemporaryRedirect)
					return
				}
				if r.URL.Path == spec.A2AAgentCardPath {
					a2ab.CardHandler(ts.URL).ServeHTTP(w, r)
					return
				}
				http.NotFound(w, r)
			}))
			defer ts.Close()
			policy := &respondent.Policy{AllowHTTPLoopback: true}
			c := &a2ab.Client{HTTP: policy.Client(), Version: tc.version}
			if tc.name == "http+json send" {
				c.Transport = "HTTP+JSON"
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now()
			_, err := c.Deliver(ctx, respondent.Delivery{Binding: "a2a", Endpoint: ts.URL + spec.A2APath, Operation: a2ab.SendMethod,
				Authorization: "Bearer x"}, []byte(`{"protocolVersion":"2026-07-30"}`))
			var pe *respondent.PolicyError
			if !errors.As(err, &pe) || pe.Rule != respondent.RuleRedirect {
				t.Fatalf("err = %v (%T), want a *respondent.PolicyError with rule %q", err, err, respondent.RuleRedirect)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("refused after %v, want at once", d)
			}
		})
	}
}
