package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// QueriesMetaKey is the _meta key of a tool result that carries queries to the calling agent (§6): an array of
// QueryRequest objects.
const QueriesMetaKey = spec.MCPQueriesMetaKey

// MaxQueriesPerResult bounds how many queries a tool result carries: Attach refuses more, and a host reads no
// more from one result, dropping the rest with a reason (core.MaxCarriedQueries, the same in every binding, D34).
const MaxQueriesPerResult = core.MaxCarriedQueries

// MaxCarryingReply bounds the reply a host reads when it calls a tool whose result may carry queries
// (ConnOptions.MaxReply of bindings.Fetch): room for MaxQueriesPerResult queries of the largest size core
// decides, plus the result around them. A larger reply fails the call rather than being buffered.
const MaxCarryingReply = MaxQueriesPerResult*core.MaxDocumentBytes + MaxMessage

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
	existing, _ := res.Meta.AdditionalFields[QueriesMetaKey].([]any)
	if len(existing)+len(add) > MaxQueriesPerResult {
		return fmt.Errorf("mcp: %d queries on one tool result; at most %d are carried", len(existing)+len(add), MaxQueriesPerResult)
	}
	res.Meta.AdditionalFields[QueriesMetaKey] = append(existing, add...)
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

// Dropped is a query a host found on a tool result and did not keep.
type Dropped struct {
	// Index is its position in the _meta array; -1 when the _meta member itself is not an array.
	Index int
	// Rule is the rule of §6 the entry breaks, in the carriage vectors' words; empty for a drop that is no carriage
	// fault (expired, too many on one result).
	Rule core.CarriageRule
	// Reason says why: not an array, not a JSON object, not a valid QueryRequest (with the failures), expired, or
	// too many.
	Reason string
}

// Queries returns the valid, unexpired queries a tool result carries, in order, and a reason for each one dropped.
// now is the host's clock, against which expiresAt is judged.
func Queries(res *mcp.CallToolResult, now time.Time) ([]*aqp.QueryRequest, []Dropped) {
	if res == nil || res.Meta == nil {
		return nil, nil
	}
	v, ok := res.Meta.AdditionalFields[QueriesMetaKey]
	if !ok {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, []Dropped{{Index: -1, Rule: core.CarriageArray, Reason: fmt.Sprintf("_meta[%q] is %s, not an array of QueryRequest", QueriesMetaKey, jsonType(v))}}
	}
	var out []*aqp.QueryRequest
	var dropped []Dropped
	for i, it := range items {
		if i >= MaxQueriesPerResult {
			dropped = append(dropped, Dropped{Index: i, Reason: fmt.Sprintf("more than %d queries on one result", MaxQueriesPerResult)})
			continue
		}
		if _, isObject := it.(map[string]any); !isObject {
			if _, isRaw := it.(json.RawMessage); !isRaw {
				dropped = append(dropped, Dropped{Index: i, Rule: core.CarriageObject, Reason: jsonType(it) + ", not a QueryRequest object"})
				continue
			}
		}
		raw, err := json.Marshal(it)
		if err != nil {
			dropped = append(dropped, Dropped{Index: i, Rule: core.CarriageObject, Reason: "not JSON: " + err.Error()})
			continue
		}
		if doc, rule := core.CarriedRequest(raw); rule != "" {
			dropped = append(dropped, Dropped{Index: i, Rule: rule, Reason: "not a valid QueryRequest: " + doc.Errors.String()})
			continue
		}
		q := new(aqp.QueryRequest)
		if err := json.Unmarshal(raw, q); err != nil { // a valid request always decodes; say so should one not
			dropped = append(dropped, Dropped{Index: i, Rule: core.CarriageRequest, Reason: "a valid QueryRequest that does not decode: " + err.Error()})
			continue
		}
		exp, err := q.ExpiresAt.Time()
		if err != nil || !exp.After(now) {
			dropped = append(dropped, Dropped{Index: i, Reason: "expired at " + q.ExpiresAt.String()})
			continue
		}
		out = append(out, q)
	}
	return out, dropped
}

// Intake hands the queries a tool result carries to a respondent runtime, as a host does with every result it
// receives: each valid, unexpired query is taken in (and judged by the runtime: its transport, its destination
// policy), and every entry not kept comes back as a *respondent.DropError with the carriage's reason (invalid,
// expired, too many) or the runtime's. source names the result in the host's log ("mcp tool result search").
func Intake(r *respondent.Respondent, source string, res *mcp.CallToolResult) ([]*respondent.Query, []*respondent.DropError) {
	if r == nil {
		return nil, []*respondent.DropError{{Source: source, Reason: "no respondent runtime to take the queries in"}}
	}
	qs, dropped := Queries(res, time.Now())
	drops := make([]respondent.CarriedDrop, len(dropped))
	for i, d := range dropped {
		drops[i] = respondent.CarriedDrop{Index: d.Index, Reason: d.Reason}
	}
	return r.IntakeCarried(source, qs, drops)
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
