package transports

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mark3labs/mcp-go/mcp"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// Carriers are the carriers Fetch reads queries from, named as the binding that carries them.
var Carriers = []string{https.Name, aqpmcp.Name, a2ab.Name}

// Fetch does what an agent host does before it answers a query: it calls an application over a binding and takes
// in the queries the reply carries — over https a GET whose reply carries them in AQP-Query headers, over mcp a
// call of the tool server's first tool (no arguments) whose result carries them in _meta, over a2a a message/send
// whose reply (a message or a task) carries them in its metadata. Every carried query goes through r's intake, so
// an invalid or expired one, or one naming a destination r's policy refuses, comes back as a DropError with its
// reason. hc dials the application (build it with respondent.Policy.Client). The error is a call that failed or
// an unknown carrier.
func Fetch(ctx context.Context, hc *http.Client, r *respondent.Respondent, carrier, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	switch carrier {
	case https.Name:
		return fetchHTTPS(ctx, hc, r, url)
	case aqpmcp.Name:
		return fetchMCP(ctx, hc, r, url)
	case a2ab.Name:
		return fetchA2A(ctx, hc, r, url)
	}
	return nil, nil, fmt.Errorf("unknown carrier %q: want one of %v", carrier, Carriers)
}

func fetchHTTPS(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	// Every well-carried query is taken, whatever the other headers hold; each broken one is reported.
	qs, drops := https.Intake(r, "GET "+url, resp.Header)
	return qs, drops, nil
}

// fetchMCP speaks to the tool server as the binding's client does (aqpmcp.Connect): server/discover at 2026-07-28,
// falling back to initialize when the server does not speak it, every reply bounded by aqpmcp.MaxCarryingReply.
func fetchMCP(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	conn, err := aqpmcp.Connect(ctx, hc, url, aqpmcp.ConnOptions{MaxReply: aqpmcp.MaxCarryingReply})
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to the tool server %s: %w", url, err)
	}
	defer conn.Close()
	list, err := conn.Request(ctx, string(mcp.MethodToolsList), "", []byte(`{}`))
	if err != nil {
		return nil, nil, fmt.Errorf("listing the tools of %s (MCP %s): %w", url, conn.ProtocolVersion(), err)
	}
	var tools mcp.ListToolsResult
	if err := json.Unmarshal(list, &tools); err != nil {
		return nil, nil, fmt.Errorf("the tools/list result of %s: %w", url, err)
	}
	if len(tools.Tools) == 0 {
		return nil, nil, fmt.Errorf("the tool server %s has no tools to call", url)
	}
	name := tools.Tools[0].Name
	params, err := json.Marshal(map[string]any{"name": name, "arguments": map[string]any{}})
	if err != nil {
		return nil, nil, err
	}
	raw, err := conn.Request(ctx, string(mcp.MethodToolsCall), name, params)
	if err != nil {
		return nil, nil, fmt.Errorf("calling %s at %s (MCP %s): %w", name, url, conn.ProtocolVersion(), err)
	}
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		return nil, nil, fmt.Errorf("the result of %s at %s: %w", name, url, err)
	}
	qs, drops := aqpmcp.Intake(r, "mcp tool result "+name, res)
	return qs, drops, nil
}

func fetchA2A(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	res, err := a2ab.SendText(ctx, hc, url, "hello")
	if err != nil {
		return nil, nil, err
	}
	switch v := res.(type) {
	case *a2a.Message:
		qs, drops := a2ab.Intake(r, "a2a message "+v.ID, v)
		return qs, drops, nil
	case *a2a.Task:
		qs, drops := a2ab.Intake(r, "a2a task "+string(v.ID), v)
		return qs, drops, nil
	}
	return nil, nil, fmt.Errorf("SendMessage to %s: the agent replied with a %T, neither a message nor a task", url, res)
}
