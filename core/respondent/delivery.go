package respondent

import (
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// UndeliverableError is a query whose delivery member names nothing a response can be sent to: no query at all, a
// binding this module has no client for (`other`, which the schema allows for bindings outside the spec), or no
// endpoint. Nothing was sent, and no retry can change it: the query itself says nowhere this module can deliver.
type UndeliverableError struct {
	// QueryID is the query's id ("" when there was no query).
	QueryID string
	// Pointer is the JSON Pointer of the member at fault (/delivery/binding, /delivery/endpoint); "" for no query.
	Pointer string
	// Reason says what is missing or unusable.
	Reason string
}

// Error implements the error interface.
func (e *UndeliverableError) Error() string {
	id := e.QueryID
	if id == "" {
		id = "(no queryId)"
	}
	if e.Pointer == "" {
		return fmt.Sprintf("query %s cannot be answered: %s", id, e.Reason)
	}
	return fmt.Sprintf("query %s cannot be answered: %s: %s", id, e.Pointer, e.Reason)
}

// DeliveryOf turns a query's delivery member into the Delivery a Transport takes, for a program that delivers
// outside the runtime (aqp.Client does; the runtime itself checks the same on intake). The generated type keeps
// optional members as pointers; DeliveryOf reads them nil-safely, so an absent operation or authorization is ""
// (HTTPS names no operation; a query may be answered without a credential), while a binding no Transport here
// serves — `other` — and an absent or empty endpoint are an *UndeliverableError naming the member, never a panic.
// It does not apply the destination policy: Policy.CheckURL(d.Endpoint) does, and every Transport dials through it.
func DeliveryOf(req *aqp.QueryRequest) (Delivery, error) {
	if req == nil {
		return Delivery{}, &UndeliverableError{Reason: "no query (nil)"}
	}
	d := req.Delivery
	switch b := string(d.Binding); b {
	case spec.BindingHTTPS, spec.BindingMCP, spec.BindingA2A:
	case string(aqp.QueryRequestDeliveryBindingOther):
		return Delivery{}, &UndeliverableError{QueryID: req.QueryID, Pointer: "/delivery/binding",
			Reason: "the binding is \"other\": the query names a binding outside the spec, which only its own client can deliver over"}
	default:
		return Delivery{}, &UndeliverableError{QueryID: req.QueryID, Pointer: "/delivery/binding",
			Reason: fmt.Sprintf("unknown binding %q: want https, mcp or a2a", b)}
	}
	if deref(d.Endpoint) == "" {
		return Delivery{}, &UndeliverableError{QueryID: req.QueryID, Pointer: "/delivery/endpoint",
			Reason: "the endpoint is absent: nowhere to deliver"}
	}
	return Delivery{Binding: string(d.Binding), Endpoint: *d.Endpoint, Operation: deref(d.Operation),
		Authorization: deref(d.Authorization)}, nil
}
