package https

import (
	"net/http"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Name is the binding's name, as a query's delivery.binding spells it.
const Name = spec.BindingHTTPS

// Endpoint is what the HTTPS binding serves: POST /aqp/v1/responses, no delivery.operation.
func Endpoint() collector.Endpoint {
	return collector.Endpoint{Binding: Name, Path: spec.HTTPSPath}
}

// Binding is the HTTPS binding as a service composes it: it declares its Endpoint and builds its handler over the
// Submitter the service gives it.
type Binding struct{}

// Endpoint implements the service's binding contract.
func (Binding) Endpoint() collector.Endpoint { return Endpoint() }

// Handler implements the service's binding contract: the server for sub.
func (Binding) Handler(sub collector.Submitter) http.Handler { return NewServer(sub) }

// Server is the HTTPS binding's endpoint over a Submitter.
type Server struct {
	sub collector.Submitter
}

// NewServer returns the binding's endpoint handler; it answers at whatever path it is mounted (spec.HTTPSPath in
// a collector).
func NewServer(sub collector.Submitter) *Server { return &Server{sub: sub} }

// ServeHTTP takes POST with a JSON body: the body is the QueryResponse, the capability the bearer token.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpio.WriteProblem(w, http.StatusMethodNotAllowed, "Method not allowed", "submit a QueryResponse with POST", nil)
		s.rejected("method")
		return
	}
	body, berr := httpio.ReadJSONBody(w, r)
	if berr != nil {
		s.rejected(berr.Reason)
		return
	}
	out := s.sub.Submit(r.Context(), collector.Submission{Body: body, Authorization: r.Header.Get("Authorization"),
		Binding: Name, Client: httpio.ClientAddress(r)})
	writeOutcome(w, out, r.Header.Get("Authorization"))
}

func (s *Server) rejected(reason string) { s.sub.WireRejected(Name, reason) }
