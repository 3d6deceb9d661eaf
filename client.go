package aqp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	a2aproto "github.com/a2aproject/a2a-go/v2/a2a"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	genaqp "github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// Client delivers responses: the one value an agent host holds to answer queries. Submit sends one response over
// the binding its query's delivery names, through that binding's respondent.Transport (the same clients the
// respondent runtime delivers with), every connection dialled under one destination Policy. It is safe for
// concurrent use; build one and keep it (it keeps connections).
type Client struct {
	policy     *Policy
	transports *respondent.Registry
}

// Option configures NewClient.
type Option func(*options) error

type options struct {
	policy       *Policy
	mcpVersion   string
	a2aVersion   string
	a2aTransport string
}

// WithPolicy sets the destination policy every delivery obeys (which hosts, addresses and schemes a query may
// send the response to). Without it the policy is the strict zero Policy: https to public addresses only, so a
// collector on localhost needs &Policy{AllowHTTPLoopback: true}.
func WithPolicy(p *Policy) Option {
	return func(o *options) error {
		if p == nil {
			return errors.New("aqp: WithPolicy(nil): leave the option out for the strict policy")
		}
		o.policy = p
		return nil
	}
}

// WithMCPVersion pins the MCP era of every MCP delivery: mcp.ProtocolVersionModern (2026-07-28: server/discover,
// no handshake) or mcp.ProtocolVersionLegacy (2025-11-25, or an earlier revision: the initialize handshake).
// Without it the client probes 2026-07-28 and falls back to initialize only when the server shows it is of the
// older era.
func WithMCPVersion(version string) Option {
	return func(o *options) error {
		if version != mcp.ProtocolVersionModern && !mcpgo.IsValidProtocolVersion(version) {
			return fmt.Errorf("aqp: WithMCPVersion(%q): want %s, %s or one of %v", version,
				mcp.ProtocolVersionModern, mcp.ProtocolVersionLegacy, mcpgo.LegacyProtocolVersions())
		}
		o.mcpVersion = version
		return nil
	}
}

// WithA2A pins the A2A interface every A2A delivery uses: the generation (a2a.Version "1.0" or a2a.LegacyVersion
// "0.3"; "" for either) and the transport ("JSONRPC", "HTTP+JSON" or "GRPC"; "" for any). Without it the client
// reads the collector's agent card and takes the newest generation's first interface on the endpoint's host. A
// 0.3 delivery goes over JSON-RPC only.
func WithA2A(version, transport string) Option {
	return func(o *options) error {
		switch version {
		case "", a2a.Version, a2a.LegacyVersion:
		default:
			return fmt.Errorf("aqp: WithA2A: version %q: want %q, %q or \"\"", version, a2a.Version, a2a.LegacyVersion)
		}
		switch a2aproto.TransportProtocol(transport) {
		case "", a2aproto.TransportProtocolJSONRPC, a2aproto.TransportProtocolHTTPJSON, a2aproto.TransportProtocolGRPC:
		default:
			return fmt.Errorf("aqp: WithA2A: transport %q: want JSONRPC, HTTP+JSON, GRPC or \"\"", transport)
		}
		if version == a2a.LegacyVersion && transport != "" && a2aproto.TransportProtocol(transport) != a2aproto.TransportProtocolJSONRPC {
			return fmt.Errorf("aqp: WithA2A: A2A %s is delivered over JSONRPC only, not %s", version, transport)
		}
		o.a2aVersion, o.a2aTransport = version, transport
		return nil
	}
}

// NewClient builds a Client: the HTTPS, MCP and A2A transports, all dialling through the policy's http.Client
// (and, for A2A's gRPC, its dialer and TLS configuration), so no delivery reaches an address the policy refuses, whatever the query
// names and however its host resolves. An invalid option is an error.
func NewClient(opts ...Option) (*Client, error) {
	o := options{}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	p := o.policy
	if p == nil {
		p = &Policy{}
	}
	// Every binding's transport from the one list (package bindings), all under p, with the column pinned where
	// an option says so.
	reg := bindings.Registry(p)
	if t, ok := reg.Get(mcp.Name); ok {
		t.(*mcp.Client).ProtocolVersion = o.mcpVersion
	}
	if t, ok := reg.Get(a2a.Name); ok {
		c := t.(*a2a.Client)
		c.Version, c.Transport = o.a2aVersion, a2aproto.TransportProtocol(o.a2aTransport)
	}
	return &Client{policy: p, transports: reg}, nil
}

// Transports are the client's transports, one per binding, for the respondent runtime: a host that answers many
// queries over time (waiting for timing conditions, asking consent, retrying) gives them to respondent.New as
// Config.Transports, with the same Policy, and its deliveries are exactly Submit's.
func (c *Client) Transports() *respondent.Registry { return c.transports }

// DefaultTimeout bounds a Submit whose context has no deadline, as the respondent runtime bounds one attempt.
const DefaultTimeout = 30 * time.Second

// Submit delivers resp, the answer to req, over the binding req.Delivery names, in one attempt bounded by ctx
// (DefaultTimeout when ctx has no deadline), and returns the collector's receipt once it is checked to be a valid receipt for resp
// (its queryId and responseId are resp's). What went wrong decides what to do next:
//
//   - a *RejectedError: the collector decided against the response, and returned a receipt (in the error, and
//     returned beside it too). Its Code says why; Receipt.Retryable says whether the same response may go again
//     (rate_limited, unavailable: after Receipt.RetryAfter seconds). Otherwise do not resend it.
//   - a *ProblemError: the collector formed no receipt (it could not read the response's ids). Do not retry the
//     response unchanged.
//   - a *TransportError: nothing is known to have been decided (the connection failed, the context ended, the
//     reply was not a receipt for this response). Retry the same response, byte for byte: encode it once and
//     Submit the same value again — a collector answers a repeated response with the receipt it already gave.
//   - a *PolicyError or an *UndeliverableError: nothing was sent, and nothing will change that: the destination
//     is refused by the policy, or the query names no usable delivery. A dial the policy refuses is a
//     *TransportError wrapping a *PolicyError; Retryable says false for it.
//
// An accepted receipt may carry a continuation: a follow-up QueryRequest, answered like any other. Submit
// neither checks the answer against the query's contract first (core.CheckObjects does; the collector's receipt
// says the same), nor waits, asks consent or retries: that is the respondent runtime, core/respondent.
func (c *Client) Submit(ctx context.Context, req *QueryRequest, resp *QueryResponse) (*QueryReceipt, error) {
	if resp == nil {
		return nil, errors.New("aqp: Submit: no response (nil)")
	}
	d, err := respondent.DeliveryOf(req)
	if err != nil {
		return nil, err
	}
	if err := c.policy.CheckURL(d.Endpoint); err != nil {
		return nil, err
	}
	tr, ok := c.transports.Get(d.Binding)
	if !ok { // DeliveryOf admits only bindings NewClient registered
		return nil, &respondent.UndeliverableError{QueryID: req.QueryID, Pointer: "/delivery/binding", Reason: "no transport for " + d.Binding}
	}
	body, err := respondent.Encode(resp)
	if err != nil {
		return nil, &respondent.ProblemError{Binding: d.Binding, Endpoint: d.Endpoint, Detail: "the response cannot be encoded as JSON (nothing was sent): " + err.Error()}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	raw, err := tr.Deliver(ctx, d, body)
	if err != nil {
		return nil, err
	}
	rec, err := receiptFor(resp, body, raw)
	if err != nil {
		return nil, &respondent.TransportError{Binding: d.Binding, Endpoint: d.Endpoint,
			Err: fmt.Errorf("the reply is not a valid receipt for response %s: %w", resp.ResponseID, err)}
	}
	if rec.Status != genaqp.QueryReceiptStatusAccepted {
		return rec, respondent.Rejection(rec)
	}
	return rec, nil
}

// Retryable reports whether the same response may be submitted again after err: a *TransportError (unless the
// destination policy refused the dial), or a *RejectedError whose receipt is retryable. A problem, a
// non-retryable rejection, a refused destination and an undeliverable query are not.
func Retryable(err error) bool {
	var pe *PolicyError
	var te *TransportError
	var re *RejectedError
	switch {
	case err == nil, errors.As(err, &pe):
		return false
	case errors.As(err, &re):
		return re.Receipt != nil && re.Receipt.Retryable
	case errors.As(err, &te):
		return true
	}
	return false
}

// receiptFor reads raw as the receipt of the response sent as body: a valid receipt naming the response's queryId
// and responseId, and — when the response is itself valid — passing every paired check (a continuation's). An
// invalid response still gets its rejected receipt back: its own failures are what the receipt reports, not a
// reason to distrust it.
func receiptFor(resp *QueryResponse, body, raw []byte) (*QueryReceipt, error) {
	rec, errs := core.ParseReceipt(raw)
	switch {
	case len(errs) > 0:
		return nil, errs.Err()
	case !strings.EqualFold(rec.QueryID, resp.QueryID) || !strings.EqualFold(rec.ResponseID, resp.ResponseID):
		return nil, fmt.Errorf("it names response %s of query %s, not response %s of query %s", rec.ResponseID, rec.QueryID, resp.ResponseID, resp.QueryID)
	}
	if errs := core.CheckPair(core.Pair{Response: core.Parse(core.KindResponse, body), Receipt: core.Parse(core.KindReceipt, raw)}); len(errs) > 0 {
		return nil, errs.Err()
	}
	return rec, nil
}
