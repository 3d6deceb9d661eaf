// Package https is AQP's HTTPS binding (§6): a respondent POSTs a QueryResponse to /aqp/v1/responses with the
// query's capability as its bearer token and gets the QueryReceipt back as the body, with a status code from one
// table (codes.go). The server maps the wire to a collector.Submitter and back, and decides nothing itself;
// client.go delivers responses for a respondent; carriage.go carries queries to respondents in the AQP-Query
// header. The rest of a collector's HTTP surface (admin API, discovery, health, metrics) is package service's.
//
// # One vocabulary
//
// The three binding packages (bindings/https, bindings/mcp, bindings/a2a) name the same jobs the same way, so code
// written against one reads against the others:
//
//	job                                    https               mcp                   a2a
//	the binding's name (delivery.binding)  Name                Name                  Name
//	what a collector serves                Endpoint()          Endpoint()            Endpoint()
//	the collector's side, over a Submitter Binding, NewServer  Binding, NewServer    Binding, NewServer
//	the respondent's side (a Transport)    Client.Deliver      Client.Deliver        Client.Deliver
//	receipt code to wire form (codes.go)   WireFor(code) Wire  WireFor(code) Wire    WireFor(code) Wire
//	where carried queries ride             QueryHeader         QueriesKey (_meta)    QueriesKey (metadata)
//	carry queries (carriage.go)            Attach(h, reqs...)  Attach(res, reqs...)  Attach(msgOrTask, reqs...)
//	read them: ([]core.CarriedQuery,       Queries(h)          Queries(res)          Queries(msgOrTask)
//	  []core.Dropped), no clock
//	hand them to a respondent runtime      Intake(r, src, h)   Intake(r, src, res)   Intake(r, src, msgOrTask)
//	the most one carrier carries (D34)     MaxQueries          MaxQueries            MaxQueries
//
// A reader never judges expiry: the respondent runtime does (respondent.IntakeCarried), in one place for every
// binding. Every drop is a core.Dropped naming the rule of §6 it breaks (core.CarriageRule).
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
