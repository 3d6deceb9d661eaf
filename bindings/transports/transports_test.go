package transports

import (
	"net/http"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestRegistry checks that the registry builds and holds the HTTPS transport, and that each transport carries
// the client it was given (so the destination policy is not bypassed by a default client).
func TestRegistry(t *testing.T) {
	hc := &http.Client{}
	r := Registry(hc)
	tr, ok := r.Get(spec.BindingHTTPS)
	if !ok {
		t.Fatalf("no https transport; have %v", r.Bindings())
	}
	if c, ok := tr.(*https.Client); !ok || c.HTTP != hc {
		t.Fatalf("the https transport is %T and does not dial through the policy's client", tr)
	}
}
