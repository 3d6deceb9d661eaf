package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// QueriesKey is the _meta key of a tool result that carries queries to the calling agent (§6): an array of
// QueryRequest objects.
const QueriesKey = spec.MCPQueriesMetaKey

// MaxQueries bounds how many queries a tool result carries: Attach refuses more, and a host reads no more from
// one result, dropping the rest with a reason (core.MaxQueries, the same in every binding, D34).
const MaxQueries = core.MaxQueries

// MaxCarryingReply bounds the reply a host reads when it calls a tool whose result may carry queries
// (ConnOptions.MaxReply of Fetch): room for MaxQueries queries of the largest size core
// decides, plus the result around them. A larger reply fails the call rather than being buffered.
const MaxCarryingReply = MaxQueries*core.MaxDocumentBytes + MaxMessage

// Attach adds queries (each a valid QueryRequest's JSON) to a tool result's _meta, after any it already carries.
// An invalid request is an error and nothing is attached: a host would drop it.
func Attach(res *mcp.CallToolResult, requests ...[]byte) error {
	if res == nil {
		return errors.New("mcp: attaching queries to a nil tool result")
	}
	add := make([]any, 0, len(requests))
	for i, r := range requests {
		doc := core.Parse(core.KindRequest, r)
		if !doc.Valid() {
			return fmt.Errorf("mcp: attaching query %d: not a valid QueryRequest: %w", i, doc.Errors.Err())
		}
		add = append(add, json.RawMessage(core.CompactJSON(doc.Value)))
	}
	if res.Meta == nil {
		res.Meta = &mcp.Meta{}
	}
	if res.Meta.AdditionalFields == nil {
		res.Meta.AdditionalFields = map[string]any{}
	}
	existing, _ := res.Meta.AdditionalFields[QueriesKey].([]any)
	if len(existing)+len(add) > MaxQueries {
		return fmt.Errorf("mcp: %d queries on one tool result; at most %d are carried", len(existing)+len(add), MaxQueries)
	}
	res.Meta.AdditionalFields[QueriesKey] = append(existing, add...)
	return nil
}

// DraftFunc decides the query to ask about one tool call's result: the QueryDraft JSON, or nil for none. It sees
// the call and the result the tool returned, so the draft can name the call as its subject.
type DraftFunc func(ctx context.Context, req mcp.CallToolRequest, res *mcp.CallToolResult) ([]byte, error)

// Carriage asks the calling agent about tool results: its Middleware issues a query through Issuer for each result
// Draft chooses and attaches it under _meta["com.agentqueryprotocol/queries"]. Issuer is the collector in-process
// (*collector.Collector) or a remote one (service.AdminClient).
type Carriage struct {
	// Issuer issues the queries.
	Issuer collector.Issuer
	// Draft chooses the query for a result; nil results get no query.
	Draft DraftFunc
	// OnError receives failures to draft, issue or attach a query (the tool's result is returned without it: a
	// question is never worth losing the answer it is about); nil ignores them.
	OnError func(tool string, err error)
}

// Middleware is an mcp-go tool handler middleware (server.WithToolHandlerMiddleware). Results that are tool
// errors, and calls that failed, go back unchanged.
func (c Carriage) Middleware() server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := next(ctx, req)
			if err != nil || res == nil || res.IsError || c.Draft == nil || c.Issuer == nil {
				return res, err
			}
			if qerr := c.attach(ctx, req, res); qerr != nil && c.OnError != nil {
				c.OnError(req.Params.Name, qerr)
			}
			return res, nil
		}
	}
}

func (c Carriage) attach(ctx context.Context, req mcp.CallToolRequest, res *mcp.CallToolResult) error {
	draft, err := c.Draft(ctx, req, res)
	if err != nil || draft == nil {
		return err
	}
	request, err := c.Issuer.Issue(ctx, draft)
	if err != nil {
		return fmt.Errorf("issuing a query for %s: %w", req.Params.Name, err)
	}
	return Attach(res, request)
}

// Queries returns the valid queries a tool result carries, in order, and each entry dropped with the rule it
// breaks (Index its position in the _meta array; -1 when the _meta member itself is not an array). Expiry is the
// respondent runtime's to judge (§7), not the carriage's: Intake hands the queries to it.
func Queries(res *mcp.CallToolResult) ([]core.CarriedQuery, []core.Dropped) {
	if res == nil || res.Meta == nil {
		return nil, nil
	}
	v, ok := res.Meta.AdditionalFields[QueriesKey]
	if !ok {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, []core.Dropped{{Index: -1, Rule: core.CarriageArray, Reason: fmt.Sprintf("_meta[%q] is %s, not an array of QueryRequest", QueriesKey, jsonType(v))}}
	}
	var out []core.CarriedQuery
	var dropped []core.Dropped
	for i, it := range items {
		if i >= MaxQueries {
			dropped = append(dropped, core.Dropped{Index: i, Reason: fmt.Sprintf("more than %d queries on one result", MaxQueries)})
			continue
		}
		if _, isObject := it.(map[string]any); !isObject {
			if _, isRaw := it.(json.RawMessage); !isRaw {
				dropped = append(dropped, core.Dropped{Index: i, Rule: core.CarriageObject, Reason: jsonType(it) + ", not a QueryRequest object"})
				continue
			}
		}
		raw, err := json.Marshal(it)
		if err != nil {
			dropped = append(dropped, core.Dropped{Index: i, Rule: core.CarriageObject, Reason: "not JSON: " + err.Error()})
			continue
		}
		q, d := core.CarriedEntry(i, raw)
		if d != nil {
			dropped = append(dropped, *d)
			continue
		}
		out = append(out, q)
	}
	return out, dropped
}

// Intake hands the queries a tool result carries to a respondent runtime, as a host does with every result it
// receives: each query Queries keeps is taken in (and judged by the runtime: expiry, its transport, its
// destination policy), and every entry not kept comes back as a *respondent.DropError with the carriage's reason
// (invalid, too many) or the runtime's. source names the result in the host's log ("mcp tool result search").
func Intake(r *respondent.Respondent, source string, res *mcp.CallToolResult) ([]*respondent.Query, []*respondent.DropError) {
	if r == nil {
		return nil, []*respondent.DropError{{Source: source, Reason: "no respondent runtime to take the queries in"}}
	}
	qs, dropped := Queries(res)
	return r.IntakeCarried(source, qs, dropped)
}

// jsonType names the JSON type of a decoded value, for a reason a host logs ("a string", "null").
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// Fetch does what an agent host does before it answers a query carried over MCP: it speaks to the tool server at
// url as the binding's client does (Connect: server/discover at 2026-07-28, falling back to initialize, every reply
// bounded by MaxCarryingReply), calls its first tool with no arguments, and takes in the queries the result carries
// under _meta through r's intake (Intake). The error is a call that failed; a broken or refused query is a
// DropError.
func Fetch(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	conn, err := Connect(ctx, hc, url, ConnOptions{MaxReply: MaxCarryingReply})
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
	qs, drops := Intake(r, "mcp tool result "+name, res)
	return qs, drops, nil
}
