package respondent

// This file is the runtime's seam with the bindings: a Transport per binding (bindings/*/client.go) delivers one
// response and reports what became of it, and the runtime decides what to do next (retry, stop, follow a
// continuation) from the error type alone.

import (
	"context"
	"fmt"
)

// Delivery is where and how a response goes: a query's delivery member.
type Delivery struct {
	// Binding is https, mcp or a2a.
	Binding string
	// Endpoint is the collector's endpoint for the binding.
	Endpoint string
	// Operation is the binding's operation (the MCP tool, the A2A method); "" for HTTPS.
	Operation string
	// Authorization is the value of the Authorization header to send: "Bearer <capability>".
	Authorization string
}

// Transport delivers responses over one binding. Implementations send the response bytes exactly as given (a
// retry must be the same response, byte for byte), bound every call by ctx, and dial through the http.Client they
// were built with, so that the runtime's destination policy holds for every connection they make.
type Transport interface {
	// Binding is the delivery.binding this transport serves.
	Binding() string
	// Deliver sends the QueryResponse JSON to d and returns the collector's receipt JSON, accepted or rejected.
	// It returns a *ProblemError when the collector answered but could form no receipt, and a *TransportError
	// when nothing is known to have been decided.
	Deliver(ctx context.Context, d Delivery, response []byte) (receipt []byte, err error)
}

// TransportError is a delivery that got no AQP answer: the connection failed or was refused by the destination
// policy, the context ended, or the reply was not a receipt. The same response may be sent again.
type TransportError struct {
	// Binding and Endpoint say where the delivery went.
	Binding, Endpoint string
	// Err says what failed.
	Err error
}

// Error implements the error interface.
func (e *TransportError) Error() string {
	return fmt.Sprintf("delivering over %s to %s: %v", e.Binding, e.Endpoint, e.Err)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *TransportError) Unwrap() error { return e.Err }

// ProblemError is a collector's answer that carries no receipt: the response was malformed beyond what a receipt
// can describe (no readable queryId and responseId). Sending it again unchanged gets the same answer.
type ProblemError struct {
	// Binding and Endpoint say where the delivery went.
	Binding, Endpoint string
	// Detail is the collector's explanation.
	Detail string
}

// Error implements the error interface.
func (e *ProblemError) Error() string {
	return fmt.Sprintf("the collector at %s (%s) formed no receipt: %s", e.Endpoint, e.Binding, e.Detail)
}

// PermanentRPCCode reports whether a JSON-RPC error code, answered to a delivery, says the request itself can
// never succeed, so that sending the same bytes again is pointless (D34): parse error (-32700), invalid request
// (-32600) and invalid params (-32602). A binding's client turns such an error into a *ProblemError, which the
// runtime does not retry; every other code (an internal error, a server-defined one) stays a *TransportError.
func PermanentRPCCode(code int) bool { return code == -32700 || code == -32600 || code == -32602 }
