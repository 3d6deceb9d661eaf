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
	"github.com/a2aproject/a2a-go/v2/a2asrv"

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

// CardHandler serves the agent card as a2a-go/v2's compatibility layer writes it: the 1.0 card and, in the same
// document, the members a 0.3 client reads (url, preferredTransport, additionalInterfaces, protocolVersion), so
// clients of both generations find their interface.
//
// a2a-go/v2 (v2.3.1) writes each security scheme of that union with its 1.0 member under the 0.3 type's name
// ("http": {…}) rather than the name A2A 1.0 gives it ("httpAuthSecurityScheme": {…}), so a 1.0 client — a2a-go/v2's
// own agentcard.Resolver among them — cannot read the card. CardHandler writes the 1.0 member under its 1.0 name.
func CardHandler(publicURL string) http.Handler {
	card := AgentCard(publicURL)
	compat := a2av0.NewStaticAgentCardProducer(card)
	b, err := compat.(a2asrv.AgentCardJSONProducer).CardJSON(context.Background())
	if err != nil {
		panic("a2a: writing the agent card: " + err.Error())
	}
	return a2asrv.NewAgentCardHandler(cardJSON{card: card, json: renameSchemeMembers(b)})
}

// schemeMembers maps the member name a2a-go/v2's compatibility card gives a security scheme's 1.0 form to the name
// A2A 1.0 gives it.
var schemeMembers = map[string]string{
	"apiKey":        "apiKeySecurityScheme",
	"http":          "httpAuthSecurityScheme",
	"mutualTLS":     "mtlsSecurityScheme",
	"oauth2":        "oauth2SecurityScheme",
	"openIdConnect": "openIdConnectSecurityScheme",
}

// renameSchemeMembers moves each security scheme's 1.0 member of a compatibility card to its 1.0 name, keeping the
// 0.3 members (type, scheme, …) beside it; a card it cannot read is returned unchanged.
func renameSchemeMembers(card []byte) []byte {
	var doc map[string]json.RawMessage
	if json.Unmarshal(card, &doc) != nil {
		return card
	}
	var schemes map[string]map[string]json.RawMessage
	if json.Unmarshal(doc["securitySchemes"], &schemes) != nil || schemes == nil {
		return card
	}
	for _, s := range schemes {
		for old, name := range schemeMembers {
			if v, ok := s[old]; ok && s[name] == nil && string(v) != "null" {
				s[name] = v
				delete(s, old)
			}
		}
	}
	b, err := json.Marshal(schemes)
	if err != nil {
		return card
	}
	doc["securitySchemes"] = b
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return card
	}
	return out
}

// cardJSON is a static agent card served as fixed JSON.
type cardJSON struct {
	card *a2a.AgentCard
	json []byte
}

func (c cardJSON) Card(context.Context) (*a2a.AgentCard, error) { return c.card, nil }
func (c cardJSON) CardJSON(context.Context) ([]byte, error)     { return c.json, nil }

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
