package service_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// withCard is a binding that serves a second path, as A2A serves its agent card: the route is handed the
// collector's public URL.
type withCard struct {
	fakeMCP
	path string
}

func (b withCard) Routes(publicURL string, _ collector.Submitter) map[string]http.Handler {
	return map[string]http.Handler{b.path: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "card for "+publicURL)
	})}
}

// TestExtraRoutesAreMounted: a binding's extra route is served beside its endpoint, with the public URL; a route
// that collides with another binding's path is refused with an error naming both, not a panic.
func TestExtraRoutesAreMounted(t *testing.T) {
	ts := newServiceWith(t, nil, https.Binding{}, withCard{path: "/.well-known/card.json"})
	resp, body := do(t, "GET", ts.URL+"/.well-known/card.json", "", "", nil)
	if resp.StatusCode != 200 || string(body) != "card for "+ts.URL {
		t.Fatalf("extra route: %d %q", resp.StatusCode, body)
	}
	_, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: "http://x.test/"},
		Bindings: []service.Binding{https.Binding{}, withCard{path: "/aqp/v1/responses"}}, AdminToken: adminToken})
	if err == nil || !strings.Contains(err.Error(), "/aqp/v1/responses") || !strings.Contains(err.Error(), "https binding") {
		t.Fatalf("a colliding route must be refused naming the path and both owners, got %v", err)
	}
}
