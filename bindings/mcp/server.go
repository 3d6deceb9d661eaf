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
	return collector.Endpoint{Binding: Name, Path: spec.MCPPath, Operation: toolName}
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

// Tool is the aqp_submit_response tool as the server lists it: the bundled QueryResponse schema as inputSchema
// and the bundled QueryReceipt schema as outputSchema.
func Tool() mcp.Tool {
	t := mcp.NewToolWithRawSchema(toolName,
		"Submit a response to an Agent Query Protocol query: the arguments are the QueryResponse object itself; "+
			"send the query's delivery.authorization as the HTTP Authorization header. The result is the QueryReceipt "+
			"(structuredContent, and the same JSON as text); isError is true when the response was rejected, and a "+
			"retryable receipt's retryAfter says when to send the same response again.",
		InputSchema())
	t.RawOutputSchema = OutputSchema()
	return t
}

// Server is the MCP binding's endpoint over a Submitter: an mcp-go streamable HTTP server in stateless mode with
// the one tool.
type Server struct {
	sub  collector.Submitter
	http *server.StreamableHTTPServer
}

// NewServer returns the binding's endpoint handler; it answers at whatever path it is mounted (spec.MCPPath in a
// collector).
func NewServer(sub collector.Submitter) *Server {
	s := &Server{sub: sub}
	ms := server.NewMCPServer("aqp-collector", spec.ProtocolVersion, server.WithToolCapabilities(false))
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

// ServeHTTP serves MCP's streamable HTTP transport with every request body bounded by MaxMessage.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
