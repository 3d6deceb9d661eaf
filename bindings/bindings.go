// Package bindings is the one place the module's bindings are listed, for both sides of the flow: the
// collector-side service.Binding each contributes to `aqp serve`, the respondent-side transport each registers in a
// respondent.Registry, and the carriage reader each uses to take in the queries an application's reply carries.
// A new binding is one entry in All, and every command, host, demo and runner that lists bindings gets it.
package bindings

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/service"
)

// Binding is one binding of this module, both sides of it.
type Binding struct {
	// Name is the binding's name, as a query's delivery.binding names it.
	Name string
	// Service is the collector side: the binding's routes on the service surface.
	Service service.Binding
	// Transport is the respondent side: the binding's client, making every connection under p (its http.Client,
	// and for a client that opens connections of its own, A2A's gRPC, its dialers and TLS settings).
	Transport func(p *respondent.Policy) respondent.Transport
	// Fetch is the binding's carriage reader: it calls an application over the binding and takes in the queries
	// its reply carries (the binding's own Fetch; see Fetch here).
	Fetch func(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error)
}

// All lists every binding, HTTPS first (a continuation's default binding, and the service's first routes).
var All = []Binding{
	{Name: https.Name, Service: https.Binding{}, Fetch: https.Fetch,
		Transport: func(p *respondent.Policy) respondent.Transport { return &https.Client{HTTP: p.Client()} }},
	{Name: mcp.Name, Service: mcp.Binding{}, Fetch: mcp.Fetch,
		Transport: func(p *respondent.Policy) respondent.Transport { return &mcp.Client{HTTP: p.Client()} }},
	{Name: a2a.Name, Service: a2a.Binding{}, Fetch: a2a.Fetch,
		Transport: func(p *respondent.Policy) respondent.Transport {
			secure, plain := p.Dialer(false), p.Dialer(true)
			return &a2a.Client{HTTP: p.Client(), TLSConfig: p.TLSConfig,
				// gRPC opens its own connections: they go through the policy's dialers like every HTTP one.
				Dial: func(ctx context.Context, isPlain bool, addr string) (net.Conn, error) {
					if isPlain {
						return plain(ctx, addr)
					}
					return secure(ctx, addr)
				}}
		}},
}

// Names are the bindings' names, in All's order: the carriers `aqp respond --carrier` accepts, the bindings a
// runner carries queries over.
func Names() []string {
	names := make([]string, len(All))
	for i, b := range All {
		names[i] = b.Name
	}
	return names
}

// Service returns every binding's collector side, in All's order: what `aqp serve` composes the service from.
func Service() []service.Binding {
	out := make([]service.Binding, len(All))
	for i, b := range All {
		out[i] = b.Service
	}
	return out
}

// Registry returns the transports of every binding, every connection they make under p, the destination
// policy (nil: the strict policy). Taking the policy rather than an http.Client is what keeps A2A's gRPC, which
// dials for itself, under the same rules and TLS roots as every HTTP connection.
func Registry(p *respondent.Policy) *respondent.Registry {
	if p == nil {
		p = &respondent.Policy{}
	}
	ts := make([]respondent.Transport, len(All))
	for i, b := range All {
		ts[i] = b.Transport(p)
	}
	r, err := respondent.NewRegistry(ts...)
	if err != nil {
		// Only a programming error (two clients for one binding) gets here; TestRegistry catches it.
		panic(err)
	}
	return r
}

// Fetch does what an agent host does before it answers a query: it calls an application over the binding named
// carrier and takes in the queries the reply carries — over https a GET whose reply carries them in AQP-Query
// headers, over mcp a call of the tool server's first tool (no arguments) whose result carries them in _meta, over
// a2a a message/send whose reply (a message or a task) carries them in its metadata. Every carried query goes
// through r's intake, so an invalid or expired one, or one naming a destination r's policy refuses, comes back as
// a DropError with its reason. hc dials the application (build it with respondent.Policy.Client). The error is a
// call that failed or an unknown carrier.
func Fetch(ctx context.Context, hc *http.Client, r *respondent.Respondent, carrier, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	for _, b := range All {
		if b.Name == carrier {
			return b.Fetch(ctx, hc, r, url)
		}
	}
	return nil, nil, fmt.Errorf("unknown carrier %q: want one of %v", carrier, Names())
}
