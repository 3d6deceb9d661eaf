package bindings

import (
	"net/http"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestRegistry checks that the registry holds a transport for every binding the protocol names, each the
// binding's own client, and that each carries the client it was given (so the destination policy is not
// bypassed by a default client).
func TestRegistry(t *testing.T) {
	hc := &http.Client{}
	r := Registry(hc)
	if got, want := r.Bindings(), []string{spec.BindingA2A, spec.BindingHTTPS, spec.BindingMCP}; !slices.Equal(got, want) {
		t.Fatalf("bindings %v, want %v", got, want)
	}
	for _, tc := range []struct {
		binding string
		client  func(respondent.Transport) (*http.Client, bool)
	}{
		{spec.BindingHTTPS, func(tr respondent.Transport) (*http.Client, bool) {
			if c, ok := tr.(*https.Client); ok && c != nil {
				return c.HTTP, true
			}
			return nil, false
		}},
		{spec.BindingMCP, func(tr respondent.Transport) (*http.Client, bool) {
			if c, ok := tr.(*mcp.Client); ok && c != nil {
				return c.HTTP, true
			}
			return nil, false
		}},
		{spec.BindingA2A, func(tr respondent.Transport) (*http.Client, bool) {
			if c, ok := tr.(*a2a.Client); ok && c != nil {
				return c.HTTP, true
			}
			return nil, false
		}},
	} {
		tr, ok := r.Get(tc.binding)
		if !ok {
			t.Fatalf("no %s transport; have %v", tc.binding, r.Bindings())
		}
		if tr.Binding() != tc.binding {
			t.Fatalf("the %s transport says it serves %q", tc.binding, tr.Binding())
		}
		if c, ok := tc.client(tr); !ok || c != hc {
			t.Fatalf("the %s transport is %T and does not dial through the policy's client", tc.binding, tr)
		}
	}
}
