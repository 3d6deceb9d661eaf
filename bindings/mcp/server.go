package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/decodegate"
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

// extension is the settings object of the AQP extension a collector declares (capabilities.extensions
// ["com.agentqueryprotocol/aqp"]): the AQP version it speaks, the tool a respondent calls, and the _meta key under
// which tool results carry queries. A host reads them from server/discover before its first call, so it learns
// the tool without listing every tool.
func extension() map[string]any {
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
	// gate bounds the requests mcp-go handles at once: it decodes a message into generic values (tens of bytes of
	// memory per byte of `[{},{},…]`) before any handler of ours runs, so the requests off the fast path are
	// admitted a gate's worth at a time (D34).
	gate *decodegate.Gate
}

// NewServer returns the binding's endpoint handler; it answers at whatever path it is mounted (spec.MCPPath in a
// collector).
func NewServer(sub collector.Submitter) *Server {
	s := &Server{sub: sub, gate: decodegate.New(0)}
	ms := server.NewMCPServer(serverName, spec.ProtocolVersion, server.WithToolCapabilities(false),
		server.WithExtensions(map[string]any{ExtensionKey: extension()}))
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
	if r.Body == nil {
		s.general(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	if err == nil && s.direct(w, r, body) {
		return
	}
	// mcp-go reads the body again: the bytes read, then the read's error (a body past MaxMessage), which it
	// answers as it answers any unreadable body.
	rest := io.Reader(bytes.NewReader(body))
	if err != nil {
		rest = io.MultiReader(rest, errReader{err})
	}
	var swap *idSwap
	if err == nil {
		body, swap = swapID(body)
		rest = bytes.NewReader(body)
		r.ContentLength = int64(len(body))
	}
	r.Body = io.NopCloser(rest)
	if swap != nil {
		iw := &idWriter{ResponseWriter: w, swap: swap}
		s.general(iw, r)
		iw.finish()
		return
	}
	s.general(w, r)
}

// integerLiteral reports whether b is a JSON number without fraction or exponent.
func integerLiteral(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || (b[0] == '0' && len(b) > 1) {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// general hands a request to mcp-go's dispatch, a gate's worth at a time; one whose context ends while it waits
// gets nothing more (its client has gone).
func (s *Server) general(w http.ResponseWriter, r *http.Request) {
	if !s.gate.Enter(r.Context()) {
		return
	}
	defer s.gate.Leave()
	s.http.ServeHTTP(w, r)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// serverInfo is the identity mcp-go stamps on a 2026-07-28 result's _meta; direct stamps the same.
var serverInfo = mcp.Implementation{Name: serverName, Version: spec.ProtocolVersion}

const serverName = "aqp-collector"

// direct answers the one request a collector exists for — a tools/call of aqp_submit_response whose arguments are
// an object, well formed for its era — without mcp-go's general dispatch, and reports whether it did; every other
// request (and every such request that is anything but well formed) goes to mcp-go, which answers it as before.
// It writes what mcp-go writes for the same request, byte for byte (TestDirectAnswersAsMCPGo): the same
// CallToolResult, decorated in 2026-07-28 with resultType and serverInfo, in the same JSON-RPC response encoded by
// the same encoder. It exists for speed: for this call mcp-go decodes the message four times and the arguments
// into generic values the tool never reads, and in 2026-07-28 re-encodes and decodes the tool's whole inputSchema
// (the bundled response schema) on every call to look for x-mcp-header annotations it does not have — together
// most of the binding's cost (BENCHMARKS.md). The checks are mcp-go's own for this path: the media type; JSON-RPC
// 2.0 with an integer or string id; params holding only name, arguments and _meta; in 2026-07-28 the version in
// _meta and Mcp-Protocol-Version equal and served, client capabilities in _meta, Mcp-Method and Mcp-Name equal to
// the body's, no Last-Event-ID; before it, no version in _meta, a known Mcp-Protocol-Version or none, and no
// session id (the stateless server issues none).
func (s *Server) direct(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	var msg struct {
		JSONRPC string                     `json:"jsonrpc"`
		ID      json.RawMessage            `json:"id"`
		Method  string                     `json:"method"`
		Params  map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.JSONRPC != mcp.JSONRPC_VERSION || msg.Method != string(mcp.MethodToolsCall) {
		return false
	}
	// The id is echoed as written (D34): a string, or an integer however large (mcp-go would round one past 2^53).
	var id any
	switch rawID := bytes.TrimSpace(msg.ID); {
	case firstByte(rawID) == '"':
		var s string
		if json.Unmarshal(rawID, &s) != nil {
			return false
		}
		id = s
	case integerLiteral(rawID):
		id = json.Number(rawID)
	default:
		return false
	}
	var name string
	raw := msg.Params["arguments"]
	if json.Unmarshal(msg.Params["name"], &name) != nil || name != toolName || firstByte(raw) != '{' {
		return false
	}
	for k := range msg.Params {
		if k != "name" && k != "arguments" && k != "_meta" {
			return false
		}
	}
	var meta map[string]json.RawMessage
	if m, ok := msg.Params["_meta"]; ok && json.Unmarshal(m, &meta) != nil {
		return false
	}
	var metaVersion string
	if v, ok := meta[mcp.MetaKeyProtocolVersion]; ok && json.Unmarshal(v, &metaVersion) != nil {
		return false
	}
	h := r.Header
	headerVersion := h.Get(mcp.HeaderProtocolVersion)
	modern := mcp.IsModernProtocol(metaVersion) || mcp.IsModernProtocol(headerVersion)
	if modern {
		var caps mcp.ClientCapabilities
		c, ok := meta[mcp.MetaKeyClientCapabilities]
		if metaVersion != ProtocolVersionModern || headerVersion != metaVersion || h.Get(mcp.HeaderLastEventID) != "" ||
			!ok || firstByte(c) != '{' || json.Unmarshal(c, &caps) != nil ||
			h.Get(mcp.HeaderMethod) != msg.Method || h.Get(mcp.HeaderName) != name {
			return false
		}
	} else if metaVersion != "" || (headerVersion != "" && !mcp.IsValidProtocolVersion(headerVersion)) || h.Get(mcp.HeaderSessionID) != "" {
		return false
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.RawArguments = raw
	res, _ := s.call(withRequest(r.Context(), r), req)
	if modern {
		res.SetResultType(mcp.ResultTypeComplete)
		res.EnsureResultMeta().SetServerInfo(serverInfo)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(mcp.NewJSONRPCResultResponse(mcp.NewRequestId(id), res))
	return true
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
	return result(out), nil
}

func (s *Server) rejected(reason string) { s.sub.WireRejected(Name, reason) }

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
