package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Client delivers QueryResponses over the MCP binding: a respondent's transport. Each delivery opens a Conn to the
// collector's streamable HTTP endpoint — server/discover at MCP 2026-07-28, or the initialize handshake of the
// earlier revisions (ProtocolVersion says which; D31) — calls the tool with the response as its arguments and
// closes; no MCP session outlives it, so nothing about one delivery depends on the collector process that served
// another. It tells three outcomes apart, as the HTTPS client does: a receipt (accepted or rejected — isError, and
// a retryable one's retryAfter in the receipt), a problem (a tool error without a receipt: the response is
// malformed, do not retry it unchanged), and a transport failure (nothing was decided: retry the same response).
type Client struct {
	// HTTP sends every request of a delivery; nil uses http.DefaultClient. A respondent sets one whose dialer
	// enforces its destination policy.
	HTTP *http.Client
	// ProtocolVersion is the MCP era of every delivery: "" probes ProtocolVersionModern with server/discover and
	// falls back to initialize at ProtocolVersionLegacy when the server does not speak it (Connect says exactly
	// when); ProtocolVersionModern speaks 2026-07-28 only; ProtocolVersionLegacy, "2025-06-18" or "2025-03-26"
	// initialize at that revision and never send server/discover. Conformance columns pin one era each.
	ProtocolVersion string
}

var _ respondent.Transport = (*Client)(nil)

// Binding implements respondent.Transport.
func (c *Client) Binding() string { return Name }

// Reply is a collector's tool result for one delivery, as the wire carried it.
type Reply struct {
	// Receipt is the QueryReceipt JSON (the text content, which the binding pins to the same JSON as
	// structuredContent); nil for a problem.
	Receipt []byte
	// Structured is structuredContent as received; nil for a problem.
	Structured json.RawMessage
	// IsError is the result's isError.
	IsError bool
	// Problem is the text of a tool error that carries no receipt; "" otherwise.
	Problem string
	// ProtocolVersion is the MCP version the delivery spoke (ProtocolVersionModern after server/discover, else the
	// version initialize negotiated).
	ProtocolVersion string
	// Result is the JSON-RPC result object exactly as received, for checks of the era's wire form (resultType,
	// _meta).
	Result json.RawMessage
	// Discovered is the server/discover result of a modern delivery (nil otherwise): what the server declared
	// about itself, the AQP extension among it.
	Discovered *mcp.DiscoverResult
	// Initialized is the initialize result of an earlier-era delivery (nil otherwise), likewise.
	Initialized *mcp.InitializeResult
}

// Deliver implements respondent.Transport: the receipt of a delivery to d, a *respondent.ProblemError when the
// collector formed none, or a *respondent.TransportError when nothing was decided. d.Operation names the tool
// (aqp_submit_response when empty).
func (c *Client) Deliver(ctx context.Context, d respondent.Delivery, response []byte) ([]byte, error) {
	if firstByte(response) != '{' || !json.Valid(response) {
		// Not sent: no retry can carry it, so this is the collector's answer in advance, not a transport failure.
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: errNotObject.Error()}
	}
	reply, err := c.Call(ctx, d.Endpoint, d.Operation, d.Authorization, response)
	if re := (*RPCError)(nil); errors.As(err, &re) && re.Method == "tools/call" && respondent.PermanentRPCCode(re.Code) {
		// The server refused the call itself: the same bytes would be refused again (D34).
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: err.Error()}
	}
	if err != nil {
		return nil, &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: err}
	}
	if reply.Problem != "" {
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: reply.Problem}
	}
	return reply.Receipt, nil
}

// Call connects to endpoint in the Client's era, calls the tool operation ("" for aqp_submit_response) with
// response as its arguments and the Authorization header value authorization on every request, closes, and
// returns the result as the wire carried it, for callers that check the wire form; Deliver is the respondent's
// view. The error is a transport failure: the connection, the MCP handshake or the context failed, or the result
// is neither a receipt nor a tool error (a *ResultError). Every call is bounded by ctx; give it a deadline. No
// reply is read past MaxMessage bytes.
//
// The arguments are response byte for byte, as the binding's server hands them to the collector: the JSON-RPC
// envelope is written around the response's own text, never re-encoded (which would re-space it and escape <, >
// and &), so a receipt that quotes a position in the body quotes the respondent's.
func (c *Client) Call(ctx context.Context, endpoint, operation, authorization string, response []byte) (*Reply, error) {
	if operation == "" {
		operation = toolName
	}
	if firstByte(response) != '{' || !json.Valid(response) {
		return nil, errNotObject
	}
	conn, err := Connect(ctx, c.HTTP, endpoint, ConnOptions{ProtocolVersion: c.ProtocolVersion, Authorization: authorization})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	params := make([]byte, 0, len(response)+len(operation)+32)
	params = append(params, `{"name":`...)
	params = strconv.AppendQuote(params, operation)
	params = append(append(append(params, `,"arguments":`...), response...), '}')
	result, err := conn.Request(ctx, "tools/call", operation, params)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", operation, err)
	}
	res, err := mcp.ParseCallToolResult(&result)
	if err != nil {
		return nil, &ResultError{Err: fmt.Errorf("the tools/call result is not a CallToolResult: %w", err)}
	}
	reply, err := replyOf(res)
	if err != nil {
		return nil, &ResultError{Err: err}
	}
	reply.ProtocolVersion, reply.Result = conn.ProtocolVersion(), result
	reply.Discovered, reply.Initialized = conn.Discovered, conn.Initialized
	return reply, nil
}

// ResultError is a tool result that came back but is neither a receipt nor a tool error as the binding pins them
// (no structuredContent, text that is not the same JSON, not a QueryReceipt): the collector broke the binding's
// result form, as opposed to a connection or handshake that failed. Conformance checks tell the two apart with
// errors.As.
type ResultError struct {
	// Err says what is wrong with the result.
	Err error
}

// Error implements the error interface.
func (e *ResultError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *ResultError) Unwrap() error { return e.Err }

var errNotObject = errors.New("the response is not a JSON object; the MCP binding carries it as the tool's arguments, which must be one")

// replyOf reads a tool result: a receipt (structuredContent, with the same JSON as its text content) or a tool
// error without structuredContent.
func replyOf(res *mcp.CallToolResult) (*Reply, error) {
	text, hasText := firstText(res.Content)
	structured := res.RawStructuredContent
	if len(structured) == 0 && res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, err
		}
		structured = b
	}
	if len(structured) == 0 || bytes.Equal(bytes.TrimSpace(structured), []byte("null")) {
		if res.IsError {
			if !hasText {
				text = "the collector returned a tool error without text"
			}
			return &Reply{IsError: true, Problem: text}, nil
		}
		return nil, fmt.Errorf("the result has no structuredContent, so it carries no receipt: %.200s", text)
	}
	if !hasText {
		return nil, errors.New("the result's structuredContent has no text content beside it")
	}
	a, errA := core.CanonicalizeJSON(structured)
	b, errB := core.CanonicalizeJSON([]byte(text))
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		return nil, fmt.Errorf("the result's text content is not the same JSON as its structuredContent: %.200s", text)
	}
	if len(core.Validate(core.KindReceipt, []byte(text))) > 0 {
		return nil, fmt.Errorf("the result is not a QueryReceipt: %.200s", text)
	}
	return &Reply{Receipt: []byte(text), Structured: structured, IsError: res.IsError}, nil
}

func firstText(cs []mcp.Content) (string, bool) {
	for _, c := range cs {
		switch t := c.(type) {
		case mcp.TextContent:
			return t.Text, true
		case *mcp.TextContent:
			return t.Text, true
		}
	}
	return "", false
}

// ConnOptions configure Connect.
type ConnOptions struct {
	// ProtocolVersion is the era to speak, as Client.ProtocolVersion: "" probes ProtocolVersionModern and falls
	// back to initialize at ProtocolVersionLegacy; ProtocolVersionModern only; or an initialize-era revision only.
	ProtocolVersion string
	// Authorization is sent as the Authorization header of every request; "" sends none.
	Authorization string
	// MaxReply bounds the bytes read from the body of any one reply (an SSE stream included); 0 is MaxMessage.
	// A reply past it fails the request: a hostile server cannot make the client buffer more.
	MaxReply int64
}

// Conn is one client connection to an MCP server over streamable HTTP at one protocol version: after
// server/discover (2026-07-28, where every request then carries the version in its _meta and the
// Mcp-Protocol-Version, Mcp-Method and Mcp-Name headers) or after the initialize handshake (the earlier
// revisions, with the session id the server may issue). It is what the binding's Client and the respondent's
// carrier reader (Fetch) share: small, bounded, and writing every request body itself, so that a tool's
// arguments are the caller's bytes. A Conn is not safe for concurrent use.
type Conn struct {
	hc       *http.Client
	endpoint string
	auth     string
	version  string
	session  string
	limit    int64
	id       int
	// Discovered is the server/discover result when the connection is modern; nil after initialize.
	Discovered *mcp.DiscoverResult
	// Initialized is the initialize result when the connection is of an earlier era; nil when modern.
	Initialized *mcp.InitializeResult
}

// clientInfo names this client in every modern request's _meta and in initialize.
var clientInfo = mcp.Implementation{Name: "aqp-go respondent", Version: spec.ProtocolVersion}

// Connect opens a Conn to the streamable HTTP endpoint in the era o.ProtocolVersion names. With "" it sends
// server/discover at 2026-07-28 first and falls back to initialize only when the server shows it does not speak
// 2026-07-28: it answers server/discover with the JSON-RPC error method not found (-32601) or unsupported protocol
// version (-32022), with HTTP 400, 404 or 405 (whatever the body), or with a discover result whose
// supportedVersions lacks 2026-07-28. Anything else — a connection that fails, a timeout, 401, 403, 413, a 5xx, any
// other JSON-RPC error, a reply that is not JSON-RPC or is larger than the bound — is an error, not a fallback:
// nothing shows the server is of the older era, and a second handshake would only hide the fault.
func Connect(ctx context.Context, hc *http.Client, endpoint string, o ConnOptions) (*Conn, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := &Conn{hc: hc, endpoint: endpoint, auth: o.Authorization, limit: o.MaxReply}
	if c.limit <= 0 {
		c.limit = MaxMessage
	}
	switch v := o.ProtocolVersion; {
	case v == "":
		derr := c.discover(ctx)
		if derr == nil {
			return c, nil
		}
		if !notModern(derr) {
			return nil, fmt.Errorf("server/discover at %s: %w", ProtocolVersionModern, derr)
		}
		if err := c.initialize(ctx, ProtocolVersionLegacy); err != nil {
			return nil, fmt.Errorf("the server does not speak MCP %s (%v), and initialize at %s failed: %w", ProtocolVersionModern, derr, ProtocolVersionLegacy, err)
		}
		return c, nil
	case v == ProtocolVersionModern:
		if err := c.discover(ctx); err != nil {
			if notModern(err) {
				return nil, &EraError{Version: v, Err: err}
			}
			return nil, fmt.Errorf("server/discover at %s: %w", ProtocolVersionModern, err)
		}
		return c, nil
	case mcp.IsValidProtocolVersion(v) && !mcp.IsModernProtocol(v):
		if err := c.initialize(ctx, v); err != nil {
			var re *RPCError
			var se *StatusError
			if errors.As(err, &re) || (errors.As(err, &se) && fallbackStatus(se.Status)) {
				return nil, &EraError{Version: v, Err: err}
			}
			return nil, fmt.Errorf("initialize at %s: %w", v, err)
		}
		return c, nil
	default:
		return nil, fmt.Errorf("MCP protocol version %q: want \"\" (probe %s, fall back to %s), %s, or one of %v",
			v, ProtocolVersionModern, ProtocolVersionLegacy, ProtocolVersionModern, mcp.LegacyProtocolVersions())
	}
}

// notModern says whether a failed server/discover shows a server of the initialize era (see Connect).
func notModern(err error) bool {
	var re *RPCError
	if errors.As(err, &re) {
		return re.Code == mcp.METHOD_NOT_FOUND || re.Code == mcp.UNSUPPORTED_PROTOCOL_VERSION || fallbackStatus(re.Status)
	}
	var se *StatusError
	if errors.As(err, &se) {
		return fallbackStatus(se.Status)
	}
	return errors.Is(err, errNoModernVersion)
}

func fallbackStatus(status int) bool {
	return status == http.StatusBadRequest || status == http.StatusNotFound || status == http.StatusMethodNotAllowed
}

var errNoModernVersion = errors.New("server/discover's supportedVersions does not list " + ProtocolVersionModern)

func (c *Conn) discover(ctx context.Context) error {
	c.version = ProtocolVersionModern
	result, err := c.Request(ctx, string(mcp.MethodServerDiscover), "", []byte(`{}`))
	if err != nil {
		c.version = ""
		return err
	}
	d := new(mcp.DiscoverResult)
	if err := json.Unmarshal(result, d); err != nil {
		c.version = ""
		return fmt.Errorf("the server/discover result: %w", err)
	}
	if !slices.Contains(d.SupportedVersions, ProtocolVersionModern) {
		c.version = ""
		return fmt.Errorf("%w (it lists %v)", errNoModernVersion, d.SupportedVersions)
	}
	c.Discovered = d
	return nil
}

func (c *Conn) initialize(ctx context.Context, version string) error {
	params, err := json.Marshal(map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": clientInfo})
	if err != nil {
		return err
	}
	result, err := c.Request(ctx, string(mcp.MethodInitialize), "", params)
	if err != nil {
		return err
	}
	in := new(mcp.InitializeResult)
	if err := json.Unmarshal(result, in); err != nil {
		return fmt.Errorf("the initialize result: %w", err)
	}
	if !mcp.IsValidProtocolVersion(in.ProtocolVersion) || mcp.IsModernProtocol(in.ProtocolVersion) {
		return fmt.Errorf("initialize negotiated protocol version %q, which no initialize-era revision names", in.ProtocolVersion)
	}
	c.version, c.Initialized = in.ProtocolVersion, in
	if _, err := c.send(ctx, string(mcp.MethodNotificationInitialized), "", []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), 0); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// ProtocolVersion is the MCP version the connection speaks.
func (c *Conn) ProtocolVersion() string { return c.version }

// Modern says whether the connection speaks 2026-07-28 (server/discover, no handshake).
func (c *Conn) Modern() bool { return mcp.IsModernProtocol(c.version) }

// Request sends one JSON-RPC request and returns its result exactly as received. params is the request's params
// object as JSON text, written into the body unchanged (a modern connection adds the _meta 2026-07-28 requires
// after its last member); name is the Mcp-Name header's value on a modern connection (the tool's name for
// tools/call), "" for none. A JSON-RPC error reply is an *RPCError; a refusal by HTTP status without one, a
// *StatusError.
func (c *Conn) Request(ctx context.Context, method, name string, params []byte) (json.RawMessage, error) {
	params = bytes.TrimSpace(params)
	if len(params) < 2 || params[0] != '{' || params[len(params)-1] != '}' {
		return nil, fmt.Errorf("the params of %s are not a JSON object", method)
	}
	c.id++
	body := make([]byte, 0, len(params)+256)
	body = append(body, `{"jsonrpc":"2.0","id":`...)
	body = strconv.AppendInt(body, int64(c.id), 10)
	body = append(body, `,"method":`...)
	body = strconv.AppendQuote(body, method)
	body = append(body, `,"params":`...)
	if c.Modern() {
		meta, err := json.Marshal(map[string]any{
			mcp.MetaKeyProtocolVersion:    c.version,
			mcp.MetaKeyClientCapabilities: map[string]any{},
			mcp.MetaKeyClientInfo:         clientInfo,
		})
		if err != nil {
			return nil, err
		}
		inner := bytes.TrimSpace(params[1 : len(params)-1])
		body = append(body, '{')
		if len(inner) > 0 {
			body = append(append(body, params[1:len(params)-1]...), ',')
		}
		body = append(append(append(body, `"_meta":`...), meta...), '}')
	} else {
		body = append(body, params...)
	}
	body = append(body, '}')
	return c.send(ctx, method, name, body, c.id)
}

// send POSTs one message (a request with id, or a notification with id 0) and reads its reply: the JSON-RPC
// response with that id, from a JSON body or an SSE stream, never more than the connection's bound.
func (c *Conn) send(ctx context.Context, method, name string, body []byte, id int) (json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if c.auth != "" {
		h.Set("Authorization", c.auth)
	}
	if c.session != "" {
		h.Set(mcp.HeaderSessionID, c.session)
	}
	if c.version != "" && method != string(mcp.MethodInitialize) {
		h.Set(mcp.HeaderProtocolVersion, c.version)
	}
	if c.Modern() {
		h.Set(mcp.HeaderMethod, method)
		if name != "" {
			if v, ok := mcp.EncodeHeaderValue(name); ok {
				h.Set(mcp.HeaderName, v)
			}
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if method == string(mcp.MethodInitialize) {
		c.session = resp.Header.Get(mcp.HeaderSessionID)
	}
	if id == 0 { // a notification: 202 and no body is the answer
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		if resp.StatusCode/100 != 2 {
			return nil, &StatusError{Method: method, Status: resp.StatusCode}
		}
		return nil, nil
	}
	msg, err := readReply(resp, id, c.limit)
	if err != nil {
		if resp.StatusCode/100 != 2 {
			return nil, &StatusError{Method: method, Status: resp.StatusCode, Detail: err.Error()}
		}
		return nil, fmt.Errorf("reading the reply to %s: %w", method, err)
	}
	if msg.Error != nil {
		return nil, &RPCError{Method: method, Status: resp.StatusCode, Code: msg.Error.Code, Message: msg.Error.Message, Data: msg.Error.Data}
	}
	if resp.StatusCode/100 != 2 {
		return nil, &StatusError{Method: method, Status: resp.StatusCode, Detail: "a result with a failure status"}
	}
	if len(msg.Result) == 0 {
		return nil, fmt.Errorf("the reply to %s has neither a result nor an error", method)
	}
	return msg.Result, nil
}

// rpcMessage is one JSON-RPC message as read from a reply.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// readReply reads the JSON-RPC response with the given id from a reply body: a JSON object, or the first SSE
// event carrying it (other events — notifications, requests the server makes — are skipped). It reads at most
// limit bytes.
func readReply(resp *http.Response, id int, limit int64) (*rpcMessage, error) {
	want := strconv.Itoa(id)
	lr := &io.LimitedReader{R: resp.Body, N: limit + 1}
	tooLarge := func() error { return fmt.Errorf("the reply is larger than %d bytes", limit) }
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct != "text/event-stream" {
		b, err := io.ReadAll(lr)
		if err != nil {
			return nil, err
		}
		if lr.N <= 0 {
			return nil, tooLarge()
		}
		m := new(rpcMessage)
		if err := json.Unmarshal(b, m); err != nil {
			return nil, fmt.Errorf("not a JSON-RPC message (%s): %.200s", resp.Header.Get("Content-Type"), b)
		}
		if string(bytes.TrimSpace(m.ID)) != want && m.Error == nil {
			return nil, fmt.Errorf("a JSON-RPC response to id %s, not %s", m.ID, want)
		}
		return m, nil
	}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), int(limit)+1)
	var data []byte
	for {
		more := sc.Scan()
		line := sc.Bytes()
		if !more || len(line) == 0 { // the end of an event
			if len(data) > 0 {
				m := new(rpcMessage)
				if json.Unmarshal(data, m) == nil && string(bytes.TrimSpace(m.ID)) == want && (m.Result != nil || m.Error != nil) {
					return m, nil
				}
				data = data[:0]
			}
			if !more {
				break
			}
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(v, []byte(" "))...)
		}
	}
	if lr.N <= 0 {
		return nil, tooLarge()
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("the event stream ended without the response to id %s", want)
}

// Close ends the connection: a DELETE of the session when the server issued one at initialize (best effort,
// bounded by a second), nothing otherwise.
func (c *Conn) Close() {
	if c.session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.endpoint, nil)
	if err != nil {
		return
	}
	req.Header.Set(mcp.HeaderSessionID, c.session)
	req.Header.Set(mcp.HeaderProtocolVersion, c.version)
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	if resp, err := c.hc.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
	}
	c.session = ""
}

// EraError is a server that does not speak the MCP era a Conn was pinned to: with ProtocolVersionModern, a
// server/discover refused as Connect's fallback rule describes; with an initialize-era version, an initialize
// refused with a JSON-RPC error or HTTP 400, 404 or 405. Conformance columns blame D31 for it.
type EraError struct {
	// Version is the protocol version asked for.
	Version string
	// Err is the server's refusal.
	Err error
}

// Error implements the error interface.
func (e *EraError) Error() string {
	return fmt.Sprintf("the server does not speak MCP %s: %v", e.Version, e.Err)
}

// Unwrap returns the refusal.
func (e *EraError) Unwrap() error { return e.Err }

// RPCError is a JSON-RPC error an MCP server answered a request with.
type RPCError struct {
	// Method is the request's method.
	Method string
	// Status is the HTTP status the error came with.
	Status int
	// Code is the JSON-RPC error code (-32601 method not found, -32022 unsupported protocol version, …).
	Code int
	// Message is the error's message, as the server wrote it.
	Message string
	// Data is the error's data member, raw; nil when absent.
	Data json.RawMessage
}

// Error implements the error interface.
func (e *RPCError) Error() string {
	return fmt.Sprintf("%s: JSON-RPC error %d (HTTP %d): %s", e.Method, e.Code, e.Status, e.Message)
}

// StatusError is a request an MCP server refused by its HTTP status, without a JSON-RPC error.
type StatusError struct {
	// Method is the request's method.
	Method string
	// Status is the HTTP status.
	Status int
	// Detail says what the body held, when anything.
	Detail string
}

// Error implements the error interface.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d %s", e.Method, e.Status, http.StatusText(e.Status))
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}
