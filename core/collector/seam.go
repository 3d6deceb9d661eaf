package collector

import (
	"context"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// Submitter is the one seam every binding uses: a binding turns its wire request into a Submission, hands it to
// a Submitter, and turns the Outcome back into its wire form; a request it refuses before it becomes a Submission
// it reports to WireRejected. Bindings depend on this interface, never on the concrete Collector, so that
// observation (metrics, logs, tracing) wraps it once for every binding, and a test can put anything behind a
// binding. Both jobs are in the one interface so that a wrapper cannot drop either: a wrapper written by hand must
// say what it does with a rejection (Wrap forwards it), where an optional second interface was silently lost by
// every wrapper that did not know of it.
type Submitter interface {
	// Submit decides one submission. It never fails outright: every outcome is a receipt or a Problem.
	Submit(ctx context.Context, s Submission) Outcome
	// WireRejected hears of a request binding refused before it became a Submission (a wrong media type, an
	// oversized body, arguments that are not an object), with reason in a metric label's words. A wrapper
	// forwards it to what it wraps; the Collector ignores it (it keeps no counts), the service's observer
	// (service.Observe) counts it.
	WireRejected(binding, reason string)
}

var _ Submitter = (*Collector)(nil)

// Submission is one response as a binding received it.
type Submission struct {
	// Body is the QueryResponse JSON exactly as the client wrote it: a binding whose SDK decodes messages into
	// generic values must still hand over the bytes it received, so numbers and strings reach the core unchanged.
	Body []byte
	// Authorization is the value of the HTTP Authorization header of the binding's request ("" when absent).
	Authorization string
	// Binding names the binding that carried the submission (https, mcp, a2a), for observation and logs; it
	// does not change the verdict.
	Binding string
	// Client identifies the party that sent the submission (the remote address, without the port, for HTTP-based
	// bindings; "" when unknown). Budgets that protect the collector from floods, such as the one on failed
	// authorizations, are kept per client, so that nobody without a query's capability can spend the genuine
	// respondent's.
	Client string
}

// Outcome is the collector's answer to a Submission: a receipt, or — when the body does not even name a queryId
// and a responseId — a Problem.
type Outcome struct {
	// Receipt is the QueryReceipt JSON to return; nil when Problem is set.
	Receipt []byte
	// Accepted is true for an accepted receipt (new or a duplicate's).
	Accepted bool
	// Code is the receipt's error.code; "" when accepted or when Problem is set.
	Code core.Code
	// RetryAfter is the receipt's retryAfter in seconds; 0 when not retryable.
	RetryAfter int
	// Duplicate is true when Receipt is the stored receipt of an earlier, identical submission.
	Duplicate bool
	// Problem explains why no receipt could be formed.
	Problem *Problem
}

// Problem is a submission no receipt can be formed for: no queryId and responseId can be read from it.
type Problem struct {
	// Detail says what the body lacks.
	Detail string
	// Errors are the body's decoding failures, when it is not JSON at all.
	Errors core.Errors
}

// Wrap makes a Submitter of a function that decides submissions, usually by calling next's Submit around what it
// adds (recording, rewriting, a fixed outcome in a test), and forwards every wire rejection to next, so wrapping
// never loses one. next is nil only for a submitter with nothing behind it, whose rejections go nowhere.
func Wrap(next Submitter, submit func(ctx context.Context, s Submission) Outcome) Submitter {
	return wrapped{next: next, submit: submit}
}

type wrapped struct {
	next   Submitter
	submit func(ctx context.Context, s Submission) Outcome
}

func (w wrapped) Submit(ctx context.Context, s Submission) Outcome { return w.submit(ctx, s) }

func (w wrapped) WireRejected(binding, reason string) {
	if w.next != nil {
		w.next.WireRejected(binding, reason)
	}
}

// Endpoint is what a binding serves: its name as delivery.binding spells it, the path of its endpoint on the
// collector's listener, and the delivery.operation a query for it names ("" when the binding has none). Bindings
// declare their Endpoint; the collector learns from Config.Endpoints which bindings it may issue queries for and
// where, and discovery lists the same, so no path or binding name is hard-coded outside its binding.
type Endpoint struct {
	// Binding is the binding's name: https, mcp or a2a.
	Binding string
	// Path is where the binding is served, relative to the collector's public URL.
	Path string
	// Operation is the delivery.operation of a query for this binding; "" for none.
	Operation string
	// Transports are the protocol generations and transports the binding serves, newest first, for discovery
	// (D31, D32); none for a binding with one.
	Transports []Transport
}

// Transport is one protocol generation over one transport that a binding serves, as /.well-known/aqp lists it.
type Transport struct {
	// ProtocolVersion is the binding protocol's version (MCP "2026-07-28", A2A "1.0").
	ProtocolVersion string
	// Name is the transport as the binding protocol names it ("streamable-http"; "JSONRPC", "HTTP+JSON", "GRPC").
	Name string
	// Path is where it is served, relative to the collector's public URL; "" with HostPort.
	Path string
	// HostPort: the transport is dialled at the public URL's host:port (gRPC), not at a URL.
	HostPort bool
	// Operation is the operation a response is sent with over this transport.
	Operation string
}

// Issuer issues queries from drafts: the QueryDraft JSON in, the complete QueryRequest JSON (capability included)
// out, or an *IssueError naming each member of the draft that breaks a rule. A Collector is one, in-process;
// service.AdminClient is another, over a remote collector's admin API. Carriage helpers (an MCP tool middleware,
// an A2A executor wrapper) issue through this interface, so they work the same beside an embedded collector and
// in front of a remote one.
type Issuer interface {
	Issue(ctx context.Context, draft []byte) ([]byte, error)
}

var _ Issuer = (*Collector)(nil)
