package bindings

import (
	"context"
	"crypto/tls"
	"errors"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestRegistry checks that the registry holds a transport for every binding the protocol names, each the
// binding's own, and that every connection each makes is under the policy it was given: under the strict policy a
// delivery to a loopback collector is refused at the dial with a *respondent.PolicyError (a default client would
// have tried, and failed with "connection refused"), and A2A's gRPC, which dials for itself, dials through the
// policy's dialers and trusts the policy's TLS roots.
func TestRegistry(t *testing.T) {
	strict := &respondent.Policy{TLSConfig: &tls.Config{ServerName: "private-root.test"}}
	r := Registry(strict)
	if got, want := r.Bindings(), []string{spec.BindingA2A, spec.BindingHTTPS, spec.BindingMCP}; !slices.Equal(got, want) {
		t.Fatalf("bindings %v, want %v", got, want)
	}
	ctx := context.Background()
	for _, b := range All {
		tr, ok := r.Get(b.Name)
		if !ok {
			t.Fatalf("no %s transport; have %v", b.Name, r.Bindings())
		}
		if tr.Binding() != b.Name {
			t.Fatalf("the %s transport says it serves %q", b.Name, tr.Binding())
		}
		d := respondent.Delivery{Binding: b.Name, Endpoint: "http://127.0.0.1:1/aqp", Authorization: "Bearer x"}
		if b.Name == spec.BindingA2A {
			d.Operation = spec.A2AOperation
		}
		_, err := tr.Deliver(ctx, d, []byte(`{}`))
		var pe *respondent.PolicyError
		if !errors.As(err, &pe) {
			t.Errorf("%s: delivery to loopback under the strict policy: %v, want a *respondent.PolicyError from the dial", b.Name, err)
		}
	}
	tr, _ := r.Get(spec.BindingA2A)
	c := tr.(*a2a.Client)
	if c.TLSConfig != strict.TLSConfig {
		t.Error("the a2a client's gRPC does not trust the policy's TLS settings")
	}
	for _, plain := range []bool{true, false} {
		var pe *respondent.PolicyError
		if c.Dial == nil {
			t.Fatal("the a2a client's gRPC dials with a default dialer, outside the policy")
		}
		if _, err := c.Dial(ctx, plain, "127.0.0.1:1"); !errors.As(err, &pe) {
			t.Errorf("gRPC dial (plain %v) to loopback under the strict policy: %v, want a *respondent.PolicyError", plain, err)
		}
	}
}
