package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Client delivers QueryResponses over the MCP binding: a respondent's transport. Each delivery connects to the
// collector's streamable HTTP endpoint, initializes, calls the tool with the response as its arguments and closes;
// no MCP session outlives it, so nothing about one delivery depends on the collector process that served another.
// It tells three outcomes apart, as the HTTPS client does: a receipt (accepted or rejected — isError, and a
// retryable one's retryAfter in the receipt), a problem (a tool error without a receipt: the response is
// malformed, do not retry it unchanged), and a transport failure (nothing was decided: retry the same response).
type Client struct {
	// HTTP sends every request of a delivery; nil uses http.DefaultClient. A respondent sets one whose dialer
	// enforces its destination policy.
	HTTP *http.Client
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
	if err != nil {
		return nil, &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: err}
	}
	if reply.Problem != "" {
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: reply.Problem}
	}
	return reply.Receipt, nil
}

// Call connects to endpoint, initializes, calls the tool operation ("" for aqp_submit_response) with response as
// its arguments and the Authorization header value authorization on every request, closes, and returns the result
// as the wire carried it, for callers that check the wire form; Deliver is the respondent's view. The error is a
// transport failure: the connection, the MCP handshake or the context failed, or the result is neither a receipt
// nor a tool error. Every call is bounded by ctx; give it a deadline.
//
// The arguments are response byte for byte, as the binding's server hands them to the collector: mcp-go encodes
// the JSON-RPC envelope (which would re-space the arguments and escape <, > and &), and the request's body then
// gets the response's own text in place of a one-time placeholder, so a receipt that quotes a position in the
// body quotes the respondent's.
func (c *Client) Call(ctx context.Context, endpoint, operation, authorization string, response []byte) (*Reply, error) {
	if operation == "" {
		operation = toolName
	}
	if firstByte(response) != '{' || !json.Valid(response) {
		return nil, errNotObject
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	placeholder := "aqp-arguments-" + hex.EncodeToString(nonce[:])
	exact := *hc
	exact.Transport = &exactArguments{next: hc.Transport, placeholder: []byte(`"` + placeholder + `"`), arguments: response}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(&exact)}
	if authorization != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": authorization}))
	}
	tr, err := transport.NewStreamableHTTP(endpoint, opts...)
	if err != nil {
		return nil, err
	}
	cl := mcpclient.NewClient(tr)
	defer cl.Close()
	if err := cl.Start(ctx); err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "aqp-go respondent", Version: spec.ProtocolVersion}
	if _, err := cl.Initialize(ctx, init); err != nil {
		return nil, fmt.Errorf("initializing: %w", err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = operation
	call.Params.Arguments = placeholder
	res, err := cl.CallTool(ctx, call)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", operation, err)
	}
	reply, err := replyOf(res)
	if err != nil {
		return nil, &ResultError{Err: err}
	}
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

// exactArguments puts the response's own text in place of the placeholder mcp-go encoded as the tool's arguments.
// It wraps the caller's transport, so every connection still goes through the caller's dialer and its policy.
type exactArguments struct {
	next                   http.RoundTripper
	placeholder, arguments []byte
}

func (e *exactArguments) RoundTrip(r *http.Request) (*http.Response, error) {
	next := e.next
	if next == nil {
		next = http.DefaultTransport
	}
	if r.Method != http.MethodPost || r.Body == nil {
		return next.RoundTrip(r)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxMessage+1))
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	i := bytes.Index(body, e.placeholder)
	if i < 0 {
		r2 := r.Clone(r.Context())
		r2.Body = io.NopCloser(bytes.NewReader(body))
		return next.RoundTrip(r2)
	}
	out := make([]byte, 0, len(body)-len(e.placeholder)+len(e.arguments))
	out = append(append(append(out, body[:i]...), e.arguments...), body[i+len(e.placeholder):]...)
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(out))
	r2.ContentLength = int64(len(out))
	r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(out)), nil }
	return next.RoundTrip(r2)
}

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
