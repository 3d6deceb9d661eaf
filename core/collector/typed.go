package collector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// The typed view of what a collector hands back as bytes. A binding passes the bytes on unchanged (a receipt must
// reach the respondent as the collector wrote it), so the bytes stay the primary form; these read them into the
// generated types for a program that embeds a collector and acts on what it decided.

// IssueRequest issues a query through iss (a Collector in-process, or service.AdminClient for a remote one) from
// draft — any value that encodes to a QueryDraft object: the generated api.QueryDraft (aqp.QueryDraft at the
// module root), a struct of your own or a map — and returns the complete QueryRequest, capability included in
// Delivery.Authorization: the only time it is shown, so keep the request (json.Marshal of it is the query to
// carry) rather than the draft. A draft the collector refuses is an *IssueError naming each member at fault.
func IssueRequest(ctx context.Context, iss Issuer, draft any) (*aqp.QueryRequest, error) {
	if iss == nil {
		return nil, errors.New("collector: IssueRequest: no Issuer")
	}
	raw, err := json.Marshal(draft)
	if err != nil {
		return nil, &IssueError{Errors: core.Errors{{Code: core.CodeInvalidRequest, Keyword: core.KeywordJSON,
			Message: "the draft cannot be encoded as JSON: " + err.Error()}}}
	}
	out, err := iss.Issue(ctx, raw)
	if err != nil {
		return nil, err
	}
	req, errs := core.ParseRequest(out)
	if len(errs) > 0 {
		// A collector completes and validates every request it issues; one that does not parse is its fault.
		return nil, fmt.Errorf("collector: the issued query is not a valid QueryRequest: %w", errs.Err())
	}
	return req, nil
}

// ParseReceipt reads the Outcome's receipt as a typed QueryReceipt, for a Submitter wrapper or a binding that acts
// on the decision (the status, the error's code, a continuation) rather than only passing the bytes on. An
// Outcome with a Problem has no receipt: the error says so, with the problem's detail.
func (o Outcome) ParseReceipt() (*aqp.QueryReceipt, error) {
	if o.Problem != nil {
		return nil, fmt.Errorf("collector: the outcome is a problem, not a receipt: %s", o.Problem.Detail)
	}
	rec, errs := core.ParseReceipt(o.Receipt)
	if len(errs) > 0 {
		return nil, fmt.Errorf("collector: the outcome's receipt is not a valid QueryReceipt: %w", errs.Err())
	}
	return rec, nil
}

// ParseResponse reads the accepted response as a typed QueryResponse: the answer an embedding program came for
// (Lookup and List return acceptances as stored bytes). Its Answer is the raw JSON as the respondent wrote it.
func (a *Acceptance) ParseResponse() (*aqp.QueryResponse, error) {
	if a == nil {
		return nil, errors.New("collector: no acceptance: the query is unanswered")
	}
	resp, errs := core.ParseResponse(a.Response)
	if len(errs) > 0 {
		return nil, fmt.Errorf("collector: the accepted response of query %s is not a valid QueryResponse: %w", a.QueryID, errs.Err())
	}
	return resp, nil
}
