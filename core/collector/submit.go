package collector

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Receipt error codes a collector rejects with (§4), beyond the paired-check codes it shares with core.
const (
	CodeInvalidResponse    = "invalid_response"
	CodeUnsupportedVersion = "unsupported_version"
	CodeUnknownQuery       = "unknown_query"
	CodeUnauthorized       = "unauthorized"
	CodeExpired            = "expired"
	CodeAlreadyAnswered    = "already_answered"
	CodeResponseIDConflict = "response_id_conflict"
	CodeRateLimited        = "rate_limited"
	CodeUnavailable        = "unavailable"
)

// maxMessage bounds a receipt's error.message (the receipt schema's maxLength, in code points).
const maxMessage = 1000

// Submission is one response as a binding received it.
type Submission struct {
	// Body is the QueryResponse JSON, as received.
	Body []byte
	// Authorization is the value of the HTTP Authorization header of the binding's request ("" when absent).
	Authorization string
}

// Outcome is the collector's answer to a Submission: a receipt, or — when the body does not even name a queryId
// and a responseId — a Problem.
type Outcome struct {
	// Receipt is the QueryReceipt JSON to return; nil when Problem is set.
	Receipt []byte
	// Accepted is true for an accepted receipt (new or a duplicate's).
	Accepted bool
	// Code is the receipt's error.code; "" when accepted.
	Code string
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

// Submit decides one submission in the pinned order (§5): version; schema; query known; capability; an already
// accepted response (duplicate: the stored receipt byte for byte; same responseId, other content:
// response_id_conflict; other responseId: already_answered) — before expiry, so a duplicate is answered the same
// after the query expired; expiry; the paired checks; then accept, durably, before returning. Rate limiting comes
// first of all, keyed by queryId. A store failure becomes a retryable `unavailable` receipt.
func (c *Collector) Submit(ctx context.Context, s Submission) Outcome {
	now := c.now()
	// Decoded for the response schema: an answer (and any member the schema forbids) is checked as I-JSON but kept
	// as bytes, so that a hostile body costs little before it is rejected.
	skel, err := core.DecodeSkeleton(core.KindResponse, s.Body)
	obj := skel.Object()
	queryID, _ := obj["queryId"].(string)
	responseID, _ := obj["responseId"].(string)
	if !core.IsUUID(queryID) || !core.IsUUID(responseID) {
		p := &Problem{Detail: "the body must be a QueryResponse JSON object with a queryId and a responseId (UUIDs); no receipt can be formed without them"}
		var je *core.Error
		if errors.As(err, &je) {
			e := *je
			e.Code = core.CodeInvalidResponse
			p.Errors = core.Errors{e}
		}
		return Outcome{Problem: p}
	}
	r := receiptFor{queryID: queryID, responseID: responseID, receivedAt: now}
	// UUIDs are case-insensitive on input (D21); the collector issues lowercase queryIds.
	key := strings.ToLower(queryID)

	if !c.limiter.allow(key, now) {
		return r.retryable(CodeRateLimited, "too many submissions for this query; retry after the given number of seconds", c.limiter.retryAfter())
	}
	if v, ok := obj["protocolVersion"].(string); ok && v != spec.ProtocolVersion {
		return r.reject(CodeUnsupportedVersion, "/protocolVersion",
			fmt.Sprintf("this collector speaks AQP %s; the response is %s", spec.ProtocolVersion, v))
	}
	resp := skel.Parse()
	if !resp.Valid() {
		first := resp.Errors[0]
		msg := first.Message
		if n := len(resp.Errors) - 1; n > 0 {
			msg = fmt.Sprintf("%s (and %d more: %s)", msg, n, pointers(resp.Errors[1:]))
		}
		return r.reject(CodeInvalidResponse, first.Pointer, fmt.Sprintf("%s: %s [%s]", orRoot(first.Pointer), msg, first.Keyword))
	}
	q, acc, err := c.store.LoadQuery(ctx, key)
	switch {
	case errors.Is(err, ErrNotFound):
		return r.reject(CodeUnknownQuery, "/queryId", "this collector issued no query "+queryID)
	case err != nil:
		return c.unavailable(r, "loading the query", err)
	}
	r.queryID = q.QueryID // from here on, receipts and the store name the query by its issued id
	if !capabilityMatches(bearerToken(s.Authorization), q.CapabilityHash) {
		msg := "the Authorization header must carry the query's capability: Bearer <delivery.authorization's token>"
		if s.Authorization != "" {
			msg = "the capability is not this query's (a capability is good for one query only)"
		}
		return r.reject(CodeUnauthorized, "", msg)
	}
	if acc != nil {
		return c.answerAccepted(ctx, r, acc, contentHash(resp.Value))
	}
	if now.After(q.ExpiresAt) {
		return r.reject(CodeExpired, "", fmt.Sprintf("the query expired at %s", FormatTime(q.ExpiresAt)))
	}
	reqDoc, err := c.requestDocument(q)
	if err != nil {
		return c.unavailable(r, "reading the stored query", err)
	}
	if errs := core.CheckResponse(reqDoc, resp); len(errs) > 0 {
		return r.reject(string(errs[0].Code), errs[0].Pointer, errs[0].Message)
	}
	return c.accept(ctx, r, reqDoc, resp)
}

// answerAccepted answers a submission for a query that already has an accepted response.
func (c *Collector) answerAccepted(ctx context.Context, r receiptFor, acc *Acceptance, hash []byte) Outcome {
	switch {
	case !strings.EqualFold(acc.ResponseID, r.responseID):
		return r.reject(CodeAlreadyAnswered, "/responseId",
			fmt.Sprintf("the query was already answered by response %s; a query accepts one response", acc.ResponseID))
	case !bytes.Equal(acc.ContentHash, hash):
		return r.reject(CodeResponseIDConflict, "/responseId",
			"a different response with this responseId was accepted; a changed response needs a new responseId")
	}
	receipt, err := c.revealReceipt(ctx, acc)
	if err != nil {
		return c.unavailable(r, "rebuilding the stored receipt", err)
	}
	return Outcome{Receipt: receipt, Accepted: true, Duplicate: true}
}

// accept stores the response, its receipt and any continuation in one durable transaction.
func (c *Collector) accept(ctx context.Context, r receiptFor, reqDoc, resp *core.Document) Outcome {
	hash := contentHash(resp.Value)
	var cont *Query
	var contReq map[string]any
	if rule := c.rules.match(reqDoc.Object(), resp.Object()["answer"]); rule != nil {
		var err error
		if cont, contReq, err = c.continuation(ctx, rule, reqDoc, r); err != nil {
			return c.unavailable(r, "issuing the continuation of rule "+rule.Name, err)
		}
	}
	acc := Acceptance{QueryID: r.queryID, ResponseID: r.responseID, Response: resp.Raw, ContentHash: hash,
		Receipt: r.accepted(contReq), AcceptedAt: r.receivedAt, Continuation: cont}
	existing, err := c.store.Accept(ctx, acc)
	switch {
	case errors.Is(err, ErrAlreadyAccepted):
		// Another submission won the race (here or in another process): answer as if it had been first.
		return c.answerAccepted(ctx, r, existing, hash)
	case err != nil:
		return c.unavailable(r, "storing the acceptance", err)
	}
	receipt, err := c.revealReceipt(ctx, &acc)
	if err != nil {
		return c.unavailable(r, "rebuilding the receipt", err)
	}
	return Outcome{Receipt: receipt, Accepted: true}
}

// continuation issues the follow-up query a rule asks for, about the accepted response.
func (c *Collector) continuation(ctx context.Context, rule *Rule, reqDoc *core.Document, r receiptFor) (*Query, map[string]any, error) {
	key, err := c.continuationKey(ctx)
	if err != nil {
		return nil, nil, err
	}
	id, err := c.newID()
	if err != nil {
		return nil, nil, err
	}
	binding := "https"
	if d, ok := reqDoc.Object()["delivery"].(map[string]any); ok {
		if b, ok := d["binding"].(string); ok {
			if _, known := bindingEndpoints[b]; known {
				binding = b
			}
		}
	}
	draft := withSubject(rule.draft, r.responseID)
	req, errs := completeDraft(draft, draftDefaults{binding: binding, now: r.receivedAt, queryID: id, endpoint: c.publicURL,
		capability: capabilityMarker})
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("continuation rule %q: %w", rule.Name, errs)
	}
	q := &Query{QueryID: id, Request: withoutAuthorization(req), CapabilityHash: hashCapability(continuationCapability(key, id)),
		CreatedAt: r.receivedAt, ExpiresAt: mustTime(req["expiresAt"])}
	return q, req, nil
}

// capabilityMarker stands in a stored receipt where a continuation's capability goes; revealReceipt puts the
// derived capability back. In the encoded receipt it can only appear as the value of delivery.authorization.
const capabilityMarker = "aqp-capability-withheld"

var markerBytes = []byte(`"authorization":"Bearer ` + capabilityMarker + `"`)

// revealReceipt returns the receipt to send for a stored acceptance: the stored bytes, with the continuation's
// capability derived again where the marker stands. Every call gives the same bytes.
func (c *Collector) revealReceipt(ctx context.Context, acc *Acceptance) ([]byte, error) {
	if !bytes.Contains(acc.Receipt, markerBytes) {
		return acc.Receipt, nil
	}
	if acc.Continuation == nil {
		return nil, fmt.Errorf("the stored receipt of query %s carries a continuation the store did not return", acc.QueryID)
	}
	key, err := c.continuationKey(ctx)
	if err != nil {
		return nil, err
	}
	real := []byte(`"authorization":"Bearer ` + continuationCapability(key, acc.Continuation.QueryID) + `"`)
	return bytes.Replace(acc.Receipt, markerBytes, real, 1), nil
}

func (c *Collector) unavailable(r receiptFor, doing string, err error) Outcome {
	c.log.Error("collector: store failure", "doing", doing, "queryId", r.queryID, "responseId", r.responseID, "err", err)
	return r.retryable(CodeUnavailable, "the collector cannot decide right now ("+doing+" failed); retry the same response", c.retry)
}

// requestDocument returns the parsed stored request of q, from a cache: requests never change. The request was
// validated when it was issued, so it is decoded, not validated again.
func (c *Collector) requestDocument(q Query) (*core.Document, error) {
	if d := c.requests.get(q.QueryID); d != nil {
		return d, nil
	}
	d, err := core.ParseTrusted(core.KindRequest, q.Request)
	if err != nil {
		return nil, fmt.Errorf("stored query %s: %w", q.QueryID, err)
	}
	c.requests.put(q.QueryID, d)
	return d, nil
}

// contentHash is the SHA-256 of the response's canonical encoding (D16): the same JSON value, however it is
// written, hashes the same. A validated response always encodes; should one not, the nil hash matches no stored
// one and the resubmission is a response_id_conflict rather than a wrong duplicate.
func contentHash(v any) []byte {
	enc, err := core.EncodeCanonical(v)
	if err != nil {
		return nil
	}
	h := sha256.Sum256(enc)
	return h[:]
}
