package targets

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// cardSurface is a column's agent card as its generation's clients read it: a2a-go/v2's 1.0 parser for a 1.0
// column, its 0.3 compatibility parser for the 0.3 column. The card must declare the AQP extension, required, and
// list the column's interface (transport and protocolVersion).
func cardSurface(version string, transport a2a.TransportProtocol) []harness.Surface {
	return []harness.Surface{{Name: "agent-card", Requirements: []string{ReqA2A, ReqD32}, Read: func(ctx context.Context, base string, hc *http.Client) error {
		return readCard(ctx, base, hc, version, transport)
	}}}
}

func readCard(ctx context.Context, base string, hc *http.Client, version string, transport a2a.TransportProtocol) error {
	parse := agentcard.DefaultCardParser
	if version == "0.3" {
		parse = a2av0.NewAgentCardParser()
	}
	r := &agentcard.Resolver{Client: hc, CardParser: parse}
	card, err := r.Resolve(ctx, strings.TrimSuffix(base, "/"))
	if err != nil {
		return fmt.Errorf("%s: an A2A %s client cannot read the agent card: %v", spec.A2AAgentCardPath, version, err)
	}
	required := false
	for _, e := range card.Capabilities.Extensions {
		required = required || (e.URI == spec.A2AExtension && e.Required)
	}
	if !required {
		return fmt.Errorf("the agent card does not declare the extension %s as required", spec.A2AExtension)
	}
	for _, in := range card.SupportedInterfaces {
		if in != nil && in.ProtocolBinding == transport && strings.HasPrefix(string(in.ProtocolVersion), version) {
			return nil
		}
	}
	return harness.Wire(fmt.Sprintf("the agent card lists no %s interface at A2A %s", transport, version), ReqD32)
}
