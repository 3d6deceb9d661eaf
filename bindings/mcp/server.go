// Package mcp is AQP's MCP binding (§6). A collector serves streamable HTTP at /mcp with one tool,
// aqp_submit_response, whose arguments are the QueryResponse object itself and whose result carries the
// QueryReceipt as structuredContent (and as the same JSON in the text content), isError when rejected; the
// capability is the HTTP Authorization header of each request. The server is stateless: no MCP session carries
// anything a receipt depends on, so any number of collector processes sharing a store can serve it behind a load
// balancer without affinity. client.go delivers responses for a respondent; carriage.go attaches queries to an
// mcp-go tool server's results under _meta["com.agentqueryprotocol/queries"] and extracts them for a host;
// codes.go is the one table from receipt code to wire form. Built on github.com/mark3labs/mcp-go.
package mcp

import (
	"bytes"
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Name is the binding's name, as a query's delivery.binding spells it.
const Name = spec.BindingMCP

// toolName is the tool a respondent calls: the query's delivery.operation.
const toolName = spec.MCPOperation

// Endpoint is what the MCP binding serves: streamable HTTP at /mcp, delivery.operation aqp_submit_response.
func Endpoint() collector.Endpoint {
	return collector.Endpoint{Binding: Name, Path: spec.MCPPath, Operation: toolName, Transports: []collector.Transport{
		{ProtocolVersion: ProtocolVersionModern, Name: "streamable-http", Path: spec.MCPPath, Operation: toolName},
		{ProtocolVersion: ProtocolVersionLegacy, Name: "streamable-http", Path: spec.MCPPath, Operation: toolName},
	}}
}

// Binding is the MCP binding as a service composes it: it declares its Endpoint and builds its handler over the
// Submitter the service gives it.
type Binding struct{}

// Endpoint implements the service's binding contract.
func (Binding) Endpoint() collector.Endpoint { return Endpoint() }

// Handler implements the service's binding contract: the server for sub.
func (Binding) Handler(sub collector.Submitter) http.Handler { return NewServer(sub) }

// MaxMessage bounds the body of one MCP request: the largest QueryResponse core decides, plus room for the
// JSON-RPC envelope around it. mcp-go reads a request body whole, so the bound is applied before it does.
const MaxMessage = core.MaxDocumentBytes + 16<<10

// The MCP protocol versions the binding names (D31): the server answers both eras on the same endpoint, and a
// Client's ProtocolVersion picks one of them or, left empty, probes the modern one and falls back.
const (
	// ProtocolVersionModern is MCP 2026-07-28: no initialize handshake; server/discover, the protocol version in
	// every request's _meta and Mcp-Protocol-Version header, Mcp-Method and Mcp-Name headers, resultType on every
	// result.
	ProtocolVersionModern = mcp.ProtocolVersion20260728
	// ProtocolVersionLegacy is MCP 2025-11-25, the newest revision with the initialize handshake (2025-06-18 and
	// 2025-03-26 are served too).
	ProtocolVersionLegacy = mcp.ProtocolVersion20251125
)

// ExtensionKey is the identifier under which the server declares AQP among its capabilities' extensions, in
// server/discover and in initialize (spec.MCPExtension).
const ExtensionKey = spec.MCPExtension

// Extension is the settings object of the AQP extension a collector declares (capabilities.extensions
// ["com.agentqueryprotocol/aqp"]): the AQP version it speaks, the tool a respondent calls, and the _meta key under
// which tool results carry queries. A host reads them from server/discover before its first call, so it learns
// the tool without listing every tool.
func Extension() map[string]any {
	return map[string]any{"version": spec.ProtocolVersion, "tool": toolName, "queriesMetaKey": spec.MCPQueriesMetaKey}
}

// ToolTitle is the tool's human-readable title, as the tool's title and its annotations' title.
const ToolTitle = "Submit an Agent Query Protocol response"

// Tool is the aqp_submit_response tool as the server lists it: the bundled QueryResponse schema as inputSchema
// and the bundled QueryReceipt schema as outputSchema, a title, and the annotations a host's policy reads: the
// call changes the collector's state (readOnlyHint false) but never destroys anything (destructiveHint false), a
// repeated call with the same arguments has no further effect and gets the same receipt (idempotentHint true,
// §5's duplicates), and it reaches no world beyond the collector (openWorldHint false).
func Tool() mcp.Tool {
	t := mcp.NewToolWithRawSchema(toolName,
		"Submit a response to an Agent Query Protocol query: the arguments are the QueryResponse object itself; "+
			"send the query's delivery.authorization as the HTTP Authorization header. The result is the QueryReceipt "+
			"(structuredContent, and the same JSON as text); isError is true when the response was rejected, and a "+
			"retryable receipt's retryAfter says when to send the same response again.",
		InputSchema())
	t.RawOutputSchema = OutputSchema()
	t.Title = ToolTitle
	t.Annotations = mcp.ToolAnnotation{Title: ToolTitle, ReadOnlyHint: mcp.ToBoolPtr(false), DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false)}
	return t
}

// Server is the MCP binding's endpoint over a Submitter: an mcp-go streamable HTTP server in stateless mode with
// the one tool, serving MCP 2026-07-28 (server/discover, per-request _meta) and the initialize-era revisions
// (2025-11-25, 2025-06-18, 2025-03-26) on the same endpoint, the era decided per request from the version the
// request declares (D31).
type Server struct {
	sub  collector.Submitter
	http *server.StreamableHTTPServer
}

// NewServer returns the binding's endpoint handler; it answers at whatever path it is mounted (spec.MCPPath in a
// collector).
func NewServer(sub collector.Submitter) *Server {
	s := &Server{sub: sub}
	ms := server.NewMCPServer("aqp-collector", spec.ProtocolVersion, server.WithToolCapabilities(false),
		server.WithExtensions(map[string]any{ExtensionKey: Extension()}))
	ms.AddTool(Tool(), s.call)
	s.http = server.NewStreamableHTTPServer(ms,
		server.WithStateLess(true),
		server.WithHTTPContextFunc(withRequest),
		// Every call needs a query's capability, which a page a DNS-rebinding attack runs in does not hold, and
		// a collector commonly sits behind a reverse proxy on the same host that keeps the public Host header.
		server.WithDisableLocalhostProtection(true),
	)
	return s
}

// ServeHTTP serves MCP's streamable HTTP transport with every request body bounded by MaxMessage. Only POST is
// served: GET (the legacy era's standalone SSE stream, which would stay open with nothing ever to send, since the
// server is stateless and notifies nothing) and DELETE (ending a session the server never issued) are 405 with
// Allow: POST in both eras, as 2026-07-28 answers them, so no request on the endpoint outlives its call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, r.Method+" is not served at this endpoint: the MCP binding is stateless and takes only POST "+
			"(a JSON-RPC request such as tools/call of "+toolName+")", http.StatusMethodNotAllowed)
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxMessage)
	}
	s.http.ServeHTTP(w, r)
}

type requestKey struct{}

// caller is what the binding keeps of the HTTP request a tool call came in.
type caller struct{ authorization, client string }

func withRequest(ctx context.Context, r *http.Request) context.Context {
	return context.WithValue(ctx, requestKey{}, caller{authorization: r.Header.Get("Authorization"), client: httpio.ClientAddress(r)})
}

// call is the tool's handler: the raw arguments, exactly as the client sent them, go to the Submitter.
func (s *Server) call(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw := req.Params.RawArguments
	switch first := firstByte(raw); first {
	case 0:
		s.rejected("arguments")
		return toolError("the call has no arguments"), nil
	case '{':
	default:
		s.rejected("arguments")
		return toolError("the arguments are " + jsonKind(first) + ", not a JSON object"), nil
	}
	c, _ := ctx.Value(requestKey{}).(caller)
	out := s.sub.Submit(ctx, collector.Submission{Body: raw, Authorization: c.authorization, Binding: Name, Client: c.client})
	return Result(out), nil
}

func (s *Server) rejected(reason string) { collector.RejectedOnWire(s.sub, Name, reason) }

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func jsonKind(first byte) string {
	switch first {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}
