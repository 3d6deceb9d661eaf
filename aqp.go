package aqp

import (
	"context"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	genaqp "github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// The canonical documents, as generated from spec/ (package gen/aqp): aliases, so a value of one is a value of
// the other and every package of the module takes them.
type (
	// QueryRequest is a collector's question: what it asks about, the answer's format, and where to deliver it.
	QueryRequest = genaqp.QueryRequest
	// QueryResponse is the respondent's answer to one QueryRequest.
	QueryResponse = genaqp.QueryResponse
	// QueryReceipt is the collector's decision on one QueryResponse: accepted or rejected, with the code why.
	QueryReceipt = genaqp.QueryReceipt
	// QuerySubject is what a query asks about (a tool call, a task, a message), shared by request and response.
	QuerySubject = genaqp.QuerySubject
	// Respondent is who answers: its kind (agent, human) and provenance (direct, relayed).
	Respondent = genaqp.QueryResponseRespondent
	// QueryDraft is a QueryRequest before the collector completes it (package gen/api): no queryId, delivery
	// or expiresAt, and optionally the binding and the seconds to live.
	QueryDraft = api.QueryDraft
)

// The decisions and failures Submit reports, from the packages that define them.
type (
	// Delivery is where and how a response goes: a query's delivery member with its optional members read
	// (DeliveryOf).
	Delivery = respondent.Delivery
	// Policy decides where a response may be delivered; the zero value is https to public addresses only.
	Policy = respondent.Policy
	// PolicyError is a destination the policy refused; nothing was sent to it.
	PolicyError = respondent.PolicyError
	// UndeliverableError is a query whose delivery names nothing to deliver to (binding other, no endpoint).
	UndeliverableError = respondent.UndeliverableError
	// ProblemError is a collector's answer without a receipt: the response cannot be decided; do not retry it
	// unchanged.
	ProblemError = respondent.ProblemError
	// TransportError is a delivery that got no AQP answer: nothing is known decided; retry the same response.
	TransportError = respondent.TransportError
	// RejectedError is a receipt whose status is rejected; the receipt is in it.
	RejectedError = respondent.RejectedError
	// Issuer issues queries from drafts: a collector.Collector in-process, a service.AdminClient remotely.
	Issuer = collector.Issuer
)

// ParseRequest validates a query's JSON (as a carriage delivered it) and returns the typed QueryRequest, or every
// rule it breaks with the member's pointer as an error (errors.As gives the core.ValidationError list). Taking a
// query in and answering it later is core/respondent's runtime; this is the first step of answering one now.
func ParseRequest(data []byte) (*QueryRequest, error) {
	req, errs := core.ParseRequest(data)
	return req, errs.Err()
}

// NewResponse starts the answer to req: queryId and subject copied from it, a fresh responseId, createdAt now,
// and answer encoded as the response's raw JSON answer. Explanation, confidence and consent are the caller's to
// set before Submit.
func NewResponse(req *QueryRequest, who Respondent, answer any) (*QueryResponse, error) {
	return core.NewResponse(req, who, answer)
}

// DeliveryOf reads a query's delivery member nil-safely: an absent operation or authorization is "", and a
// binding of `other` or an absent endpoint is an *UndeliverableError naming the member (respondent.DeliveryOf).
func DeliveryOf(req *QueryRequest) (Delivery, error) { return respondent.DeliveryOf(req) }

// Issue issues a query from a typed draft through iss and returns the complete QueryRequest, its capability in
// Delivery.Authorization (shown only this once). A refused draft is a *collector.IssueError naming each member
// (collector.IssueRequest).
func Issue(ctx context.Context, iss Issuer, draft *QueryDraft) (*QueryRequest, error) {
	return collector.IssueRequest(ctx, iss, draft)
}
