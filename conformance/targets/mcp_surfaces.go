package targets

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// mcpSurfacesAt are the pinned surfaces of the column at MCP protocol version version: the tool list as that era
// reads it — aqp_submit_response with a title, its annotations (idempotent, not destructive, closed world) and the
// bundled response and receipt schemas as its inputSchema and outputSchema, needing no $ref outside them.
func mcpSurfacesAt(version string) []harness.Surface {
	return []harness.Surface{{Name: "tools-list", Requirements: []string{ReqMCP, ReqD31}, Read: func(ctx context.Context, base string, hc *http.Client) error {
		return readTools(ctx, base, hc, version)
	}}}
}

func readTools(ctx context.Context, base string, hc *http.Client, version string) error {
	conn, err := aqpmcp.Connect(ctx, hc, strings.TrimSuffix(base, "/")+spec.MCPPath, aqpmcp.ConnOptions{ProtocolVersion: version})
	if err != nil {
		return fmt.Errorf("connecting at MCP %s: %v", version, err)
	}
	defer conn.Close()
	res, err := conn.Request(ctx, "tools/list", "", []byte(`{}`))
	if err != nil {
		return fmt.Errorf("tools/list at MCP %s: %v", version, err)
	}
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
			Annotations  struct {
				Title           string `json:"title"`
				IdempotentHint  *bool  `json:"idempotentHint"`
				DestructiveHint *bool  `json:"destructiveHint"`
				OpenWorldHint   *bool  `json:"openWorldHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(res, &list); err != nil {
		return fmt.Errorf("tools/list at MCP %s: not a tool list: %v", version, err)
	}
	for _, t := range list.Tools {
		if t.Name != spec.MCPOperation {
			continue
		}
		same := func(a, b []byte) bool {
			x, errA := core.CanonicalizeJSON(a)
			y, errB := core.CanonicalizeJSON(b)
			return errA == nil && errB == nil && string(x) == string(y)
		}
		switch a := t.Annotations; {
		case !same(t.InputSchema, aqpmcp.InputSchema()):
			return fmt.Errorf("%s's inputSchema at MCP %s is not the bundled QueryResponse schema", t.Name, version)
		case !same(t.OutputSchema, aqpmcp.OutputSchema()):
			return fmt.Errorf("%s's outputSchema at MCP %s is not the bundled QueryReceipt schema", t.Name, version)
		case t.Title == "" && a.Title == "":
			return harness.Wire(fmt.Sprintf("%s at MCP %s has no title", t.Name, version), ReqD31)
		case a.IdempotentHint == nil || !*a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint:
			return harness.Wire(fmt.Sprintf("%s at MCP %s is not annotated idempotent, not destructive and closed-world", t.Name, version), ReqD31)
		}
		return nil
	}
	return fmt.Errorf("tools/list at MCP %s does not list %s", version, spec.MCPOperation)
}
