package a2a

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// SecurityScheme is the name the agent card gives the bearer scheme the query's capability travels in.
const SecurityScheme = "aqpCapability"

// AgentCard is the collector's A2A 1.0 agent card: every interface it serves — JSON-RPC, HTTP+JSON and gRPC at
// protocolVersion 1.0, and JSON-RPC at 0.3 — the AQP extension in capabilities.extensions (required), one skill
// (submitting responses), and the bearer scheme the capability travels in, written as 1.0 writes it
// (httpAuthSecurityScheme). JSON-RPC and HTTP+JSON share the URL publicURL + /a2a (HTTP+JSON appends its
// /message:send); gRPC is dialled at host:port, the form 1.0's clients dial, on the same listener.
func AgentCard(publicURL string) *a2a.AgentCard {
	base := strings.TrimSuffix(publicURL, "/") + spec.A2APath
	return &a2a.AgentCard{
		Name:        "AQP collector",
		Description: "Collects answers to Agent Query Protocol queries: send a QueryResponse as the part marked {\"aqpObject\": \"response\"} (a data part, or a raw part holding its JSON text) with the query's capability as the bearer token; the reply carries the QueryReceipt.",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: base, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
			{URL: base, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version},
			{URL: GRPCTarget(publicURL), ProtocolBinding: a2a.TransportProtocolGRPC, ProtocolVersion: a2a.Version},
			{URL: base, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version},
		},
		Version: spec.ProtocolVersion,
		Capabilities: a2a.AgentCapabilities{
			Streaming: true,
			Extensions: []a2a.AgentExtension{{
				URI:         spec.A2AExtension,
				Description: "Agent Query Protocol " + spec.ProtocolVersion + ": QueryResponse in, QueryReceipt out, as parts marked by metadata aqpObject.",
				Required:    true,
			}},
		},
		DefaultInputModes:  []string{MediaTypeJSON},
		DefaultOutputModes: []string{MediaTypeJSON},
		Skills: []a2a.AgentSkill{{
			ID:          "aqp-submit-response",
			Name:        "Submit an AQP response",
			Description: "Takes one QueryResponse answering a query this collector issued and returns its QueryReceipt (accepted or rejected, with the reason).",
			Tags:        []string{"aqp", "query", "response"},
			InputModes:  []string{MediaTypeJSON},
			OutputModes: []string{MediaTypeJSON},
		}},
		SecuritySchemes: a2a.NamedSecuritySchemes{
			SecurityScheme: a2a.HTTPAuthSecurityScheme{Scheme: "Bearer",
				Description: "The query's capability: the value of its delivery.authorization."},
		},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{SecurityScheme: a2a.SecuritySchemeScopes{}}},
	}
}

// CardHandler serves the agent card for clients of both generations: the document a2a-go/v2's compatibility layer
// writes — the 1.0 card and, beside its members, those a 0.3 client reads (url, preferredTransport,
// additionalInterfaces, protocolVersion, and each security scheme as {"type": "http", "scheme": …}) — with each
// HTTP security scheme also under httpAuthSecurityScheme, the member A2A 1.0 (and a2a-go/v2's own card parser)
// reads it from: the compatibility layer writes it only as "http", which 1.0 parsers refuse ("unknown security
// scheme type"). A test parses the served card with both generations' parsers.
func CardHandler(publicURL string) http.Handler {
	card, err := CardJSON(publicURL)
	if err != nil {
		panic("a2a: the agent card does not encode: " + err.Error()) // a programming error, caught by every test
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "the agent card is read with GET", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", "*") // the card is public, as a2asrv serves it
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(card)
	})
}

// CardJSON is the agent card document CardHandler serves for a collector at publicURL.
func CardJSON(publicURL string) ([]byte, error) {
	b, err := a2av0.NewStaticAgentCardProducer(AgentCard(publicURL)).(interface {
		CardJSON(context.Context) ([]byte, error)
	}).CardJSON(context.Background())
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	var schemes map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc["securitySchemes"], &schemes); err != nil {
		return nil, err
	}
	for _, s := range schemes {
		if h, ok := s["http"]; ok {
			s["httpAuthSecurityScheme"] = h
		}
	}
	if doc["securitySchemes"], err = json.Marshal(schemes); err != nil {
		return nil, err
	}
	return json.MarshalIndent(doc, "", "  ")
}

// GRPCTarget is the gRPC interface's address for a collector at publicURL: host:port, the port being the URL's
// own or its scheme's default.
func GRPCTarget(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" {
		return publicURL
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}
