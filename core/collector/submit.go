package collector

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// maxMessage bounds a receipt's error.message (the receipt schema's maxLength, in code points).
const maxMessage = 1000

// WireRejected ignores a binding's refusal: the Collector keeps no counts (service.Observe does, in front of it),
// and a request refused on the wire never reached a query, so no budget is spent on it.
func (c *Collector) WireRejected(binding, reason string) {}

// Submit decides one submission in the pinned order (§5): version; schema; query known; capability; an already
// accepted response (duplicate: the stored receipt byte for byte; same responseId, other content:
// response_id_conflict; other responseId: already_answered) — before expiry, so a duplicate is answered the same
// after the query expired; expiry; the paired checks; then accept, durably, before returning.
//
// Two budgets protect the collector without letting anyone hurt a query they hold no capability for (D17): a
// client whose submissions keep failing before a capability is proven is refused with rate_limited before its
// body is validated, and the per-query limit is spent only by submissions that carry the query's capability and
// are not duplicates (a duplicate of the accepted response always gets its stored receipt). Decoding and
// validation run under a global bound on concurrency. A store failure or timeout becomes a retryable
// `unavailable` receipt.
func (c *Collector) Submit(ctx context.Context, s Submission) Outcome {
	now := c.now()
	if len(s.Body) > core.MaxDocumentBytes {
		// Over the bound no receipt is formed, on any binding: HTTPS refuses such a body with 413 before it is
		// read, so MCP and A2A, which read a response inside a larger envelope, answer it the same way (D34).
		c.failed(s, now)
		return Outcome{Problem: &Problem{Detail: fmt.Sprintf("the response is %d bytes; a response may be at most %d bytes",
			len(s.Body), core.MaxDocumentBytes)}}
	}
	if core.NestsDeeperThan(s.Body, core.MaxNesting) {
		// Past the depth the MCP and A2A envelope readers stop at, no binding reads such a body, so none forms a
		// receipt for it: HTTPS's problem, as theirs (D34).
		c.failed(s, now)
		return Outcome{Problem: &Problem{Detail: fmt.Sprintf("the response nests objects and arrays more than %d deep; no receipt can be formed", core.MaxNesting)}}
	}
	if c.failures.exhausted(s.Client, now) && !c.holdsCapability(ctx, s) {
		return c.refuseClient(s, now)
	}
	if err := c.validate.enter(ctx); err != nil {
		return c.gone(s, now, err)
	}
	out, resp, r := c.check(s, now)
	c.validate.leave()
	if resp == nil {
		c.failed(s, now)
		return out
	}
	key := strings.ToLower(r.queryID) // UUIDs are case-insensitive on input (D21); the collector issues lowercase queryIds.
	// A query this collector issued is known without a read: queries never change. Whether it is answered is then
	// not known until the store is asked; decide asks it before any refusal, and Accept answers it otherwise (its
	// ErrAlreadyAccepted carries the acceptance), so every outcome is the one the pinned order gives. One store
	// call per acceptance instead of two.
	q, cached := c.requests.query(key)
	var acc *Acceptance
	var err error
	if !cached {
		q, acc, err = c.store.LoadQuery(ctx, key)
	}
	switch {
	case errors.Is(err, ErrNotFound):
		c.failed(s, now)
		return r.reject(core.CodeUnknownQuery, "/queryId", "this collector issued no query "+r.queryID)
	case err != nil:
		return c.unavailable(ctx, r, "loading the query", err)
	}
	r.queryID = q.QueryID // from here on, receipts and the store name the query by its issued id
	if !capabilityMatches(bearerToken(s.Authorization), q.CapabilityHash) {
		c.failed(s, now)
		msg := "the Authorization header must carry the query's capability: Bearer <delivery.authorization's token>"
		if s.Authorization != "" {
			msg = "the capability is not this query's (a capability is good for one query only)"
		}
		return r.reject(core.CodeUnauthorized, "", msg)
	}
	hash := contentHash(resp.Value)
	if acc != nil {
		return c.answerAccepted(ctx, r, acc, hash)
	}
	// Identical copies in flight are one submission (D36): the first decides, the others wait for its outcome.
	fkey := key + "\x00" + string(hash)
	fl, lead := c.flights.join(fkey)
	if !lead {
		select {
		case <-fl.done:
		case <-ctx.Done():
			return c.gone(s, now, ctx.Err())
		}
		if first := fl.out; first.Receipt != nil && !first.Code.Retryable() {
			if first.Accepted {
				first.Duplicate = true
			}
			// Each copy gets bytes of its own: a binding (or a wrapper) may write into the receipt it returns,
			// and the copies are answered concurrently.
			first.Receipt = bytes.Clone(first.Receipt)
			return first
		}
		// The first copy was told to retry (its budget spent, the store failing, its caller gone) or never
		// finished: this copy is decided on its own rather than inheriting a refusal that may already be over.
		return c.decide(ctx, r, key, q, cached, resp, hash, now)
	}
	var decided Outcome
	defer func() {
		// Landed even if deciding panics, so no copy waits forever; with bytes of the flight's own, since the
		// leader's caller may write into the receipt it is handed while the copies read theirs.
		landed := decided
		landed.Receipt = bytes.Clone(decided.Receipt)
		c.flights.land(fkey, fl, landed)
	}()
	decided = c.decide(ctx, r, key, q, cached, resp, hash, now)
	return decided
}

// decide runs the steps of the pinned order after the already-accepted check, for a submission that proved the
// query's capability: the per-query budget, expiry, the paired checks, then acceptance. unread says that the
// query came from the issued-query cache, so whether it is answered was not read: before refusing, decide reads
// it, and a query answered already gets the answer the already-accepted check would have given.
func (c *Collector) decide(ctx context.Context, r receiptFor, key string, q Query, unread bool, resp *core.Document, hash []byte, now time.Time) Outcome {
	refuse := func(out Outcome) Outcome {
		if !unread {
			return out
		}
		_, acc, err := c.store.LoadQuery(ctx, key)
		switch {
		case err != nil:
			return c.unavailable(ctx, r, "loading the query", err)
		case acc != nil:
			return c.answerAccepted(ctx, r, acc, hash)
		}
		return out
	}
	allowed, giveBack := c.limiter.take(key, now)
	if !allowed {
		limited := r.retryable(core.CodeRateLimited, "too many submissions for this query; retry after the given number of seconds", c.limiter.retryAfter())
		if unread {
			// Not read yet: a store that cannot answer gives unavailable, as it would have before the budget.
			return refuse(limited)
		}
		// A copy of the accepted response that was loaded before the acceptance committed, and missed its flight,
		// still gets the stored receipt (D36); so does a late different response get already_answered. The store
		// is read again only on this refusal path.
		if _, acc, err := c.store.LoadQuery(ctx, key); err == nil && acc != nil {
			return c.answerAccepted(ctx, r, acc, hash)
		}
		return limited
	}
	if now.After(q.ExpiresAt) {
		return refuse(r.reject(core.CodeExpired, "", fmt.Sprintf("the query expired at %s", FormatTime(q.ExpiresAt))))
	}
	if msg := checkCreatedAt(resp, q.CreatedAt, now); msg != "" {
		return refuse(r.reject(core.CodeInvalidResponse, "/createdAt", msg))
	}
	reqDoc, err := c.requestDocument(q)
	if err != nil {
		return refuse(c.unavailable(ctx, r, "reading the stored query", err))
	}
	if errs := core.CheckResponse(reqDoc, resp); len(errs) > 0 {
		return refuse(r.reject(errs[0].Code, errs[0].Pointer, errs[0].Message))
	}
	out := c.accept(ctx, r, reqDoc, resp, hash)
	if unread && out.Code == core.CodeUnavailable {
		// Read first, the query would have met the failing store before its budget was spent (a respondent
		// retrying through an outage hears unavailable, not rate_limited).
		giveBack()
	}
	return out
}

// check decodes and validates the body on its own: the ids a receipt needs, the version, the schema. It returns
// the parsed response when all hold; otherwise the outcome to return (a problem, or a rejection).
func (c *Collector) check(s Submission, now time.Time) (Outcome, *core.Document, receiptFor) {
	// Decoded for the response schema: an answer (and any member the schema forbids) is checked as I-JSON but kept
	// as bytes, so that a hostile body costs little before it is rejected.
	skel, err := core.DecodeSkeleton(core.KindResponse, s.Body)
	obj := skel.Object()
	queryID, _ := obj["queryId"].(string)
	responseID, _ := obj["responseId"].(string)
	var je *core.Error
	if skel == nil && errors.As(err, &je) && je.Keyword == core.KeywordSize {
		// Over a bound (nested too deep, a number too large) but JSON: the ids a receipt needs may still be read.
		if q, r := peekIDs(s.Body); core.IsUUID(q) && core.IsUUID(r) {
			rf := receiptFor{queryID: q, responseID: r, receivedAt: now}
			return rf.reject(core.CodeInvalidResponse, je.Pointer, fmt.Sprintf("%s: %s [%s]", orRoot(je.Pointer), je.Message, je.Keyword)), nil, rf
		}
	}
	if !core.IsUUID(queryID) || !core.IsUUID(responseID) {
		p := &Problem{Detail: "the body must be a QueryResponse JSON object with a queryId and a responseId (UUIDs); no receipt can be formed without them"}
		if errors.As(err, &je) {
			e := *je
			e.Code = core.CodeInvalidResponse
			p.Errors = core.Errors{e}
		}
		return Outcome{Problem: p}, nil, receiptFor{}
	}
	r := receiptFor{queryID: queryID, responseID: responseID, receivedAt: now}
	if v, ok := obj["protocolVersion"].(string); ok && v != spec.ProtocolVersion {
		return r.reject(core.CodeUnsupportedVersion, "/protocolVersion",
			fmt.Sprintf("this collector speaks AQP %s; the response is %s", spec.ProtocolVersion, v)), nil, r
	}
	resp := skel.Parse()
	if !resp.Valid() {
		first := resp.Errors[0]
		msg := first.Message
		if n := len(resp.Errors) - 1; n > 0 {
			msg = fmt.Sprintf("%s (and %d more: %s)", msg, n, pointers(resp.Errors[1:]))
		}
		return r.reject(core.CodeInvalidResponse, first.Pointer, fmt.Sprintf("%s: %s [%s]", orRoot(first.Pointer), msg, first.Keyword)), nil, r
	}
	return Outcome{}, resp, r
}

// failed spends one token of the client's failure budget.
func (c *Collector) failed(s Submission, now time.Time) { c.failures.allow(s.Client, now) }

// holdsCapability reports whether a submission carries the capability of the query it names, reading only the
// ids (streaming) and the query: a client whose failure budget is spent is still served when it proves the
// capability, so a genuine respondent that shares an address with a flooder (a NAT, a proxy) is not refused.
func (c *Collector) holdsCapability(ctx context.Context, s Submission) bool {
	queryID, _ := peekIDs(s.Body)
	token := bearerToken(s.Authorization)
	if !core.IsUUID(queryID) || token == "" {
		return false
	}
	q, _, err := c.store.LoadQuery(ctx, strings.ToLower(queryID))
	return err == nil && capabilityMatches(token, q.CapabilityHash)
}

// refuseClient answers a client whose failure budget is spent, without validating its body: rate_limited when the
// body names its ids (read with a streaming scan that keeps nothing), a problem otherwise.
func (c *Collector) refuseClient(s Submission, now time.Time) Outcome {
	queryID, responseID := peekIDs(s.Body)
	if !core.IsUUID(queryID) || !core.IsUUID(responseID) {
		return Outcome{Problem: &Problem{Detail: "too many failed submissions from this client; no receipt can be formed without a queryId and a responseId"}}
	}
	r := receiptFor{queryID: queryID, responseID: responseID, receivedAt: now}
	return r.retryable(core.CodeRateLimited, "too many failed submissions from this client (wrong capability, unknown query or malformed response); retry after the given number of seconds",
		c.failures.retryAfter())
}

// gone answers a submission whose caller went away (or whose deadline passed) while it waited to be validated.
func (c *Collector) gone(s Submission, now time.Time, err error) Outcome {
	queryID, responseID := peekIDs(s.Body)
	if !core.IsUUID(queryID) || !core.IsUUID(responseID) {
		return Outcome{Problem: &Problem{Detail: "the request ended before the body was validated: " + err.Error()}}
	}
	r := receiptFor{queryID: queryID, responseID: responseID, receivedAt: now}
	return r.retryable(core.CodeUnavailable, "the collector was too busy to validate the response before the request ended; retry the same response", c.retry)
}

// peekIDs reads the top-level queryId and responseId of a JSON object with a streaming scan, without building the
// document: what a refusal needs to form a receipt, at a cost that does not grow with what an adversary nests.
func peekIDs(body []byte) (queryID, responseID string) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", ""
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", ""
		}
		name, _ := t.(string)
		switch name {
		case "queryId", "responseId":
			var v string
			if dec.Decode(&v) != nil {
				return "", ""
			}
			if name == "queryId" {
				queryID = v
			} else {
				responseID = v
			}
			if queryID != "" && responseID != "" {
				return queryID, responseID
			}
		default:
			if skipValue(dec) != nil {
				return "", ""
			}
		}
	}
	return queryID, responseID
}

// skipValue consumes one JSON value token by token.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// answerAccepted answers a submission for a query that already has an accepted response.
func (c *Collector) answerAccepted(ctx context.Context, r receiptFor, acc *Acceptance, hash []byte) Outcome {
	switch {
	case !strings.EqualFold(acc.ResponseID, r.responseID):
		return r.reject(core.CodeAlreadyAnswered, "/responseId",
			fmt.Sprintf("the query was already answered by response %s; a query accepts one response", acc.ResponseID))
	case !bytes.Equal(acc.ContentHash, hash):
		return r.reject(core.CodeResponseIDConflict, "/responseId",
			"a different response with this responseId was accepted; a changed response needs a new responseId")
	}
	receipt, err := c.revealReceipt(ctx, acc)
	if err != nil {
		return c.unavailable(ctx, r, "rebuilding the stored receipt", err)
	}
	return Outcome{Receipt: receipt, Accepted: true, Duplicate: true}
}

// accept stores the response, its receipt and any continuation in one durable transaction.
func (c *Collector) accept(ctx context.Context, r receiptFor, reqDoc, resp *core.Document, hash []byte) Outcome {
	var cont *Query
	var contReq map[string]any
	if rule := c.rules.match(reqDoc.Object(), resp.Object()["answer"]); rule != nil {
		var err error
		if cont, contReq, err = c.continuation(ctx, rule, reqDoc, r); err != nil {
			return c.unavailable(ctx, r, "issuing the continuation of rule "+rule.Name, err)
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
		return c.unavailable(ctx, r, "storing the acceptance", err)
	}
	receipt, err := c.revealReceipt(ctx, &acc)
	if err != nil {
		return c.unavailable(ctx, r, "rebuilding the receipt", err)
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
	// The follow-up goes over the answered query's binding while this collector serves it (D-rules), else the default.
	binding := c.endpoints.defaultBinding()
	if d, ok := reqDoc.Object()["delivery"].(map[string]any); ok {
		if b, ok := d["binding"].(string); ok {
			if _, served := c.endpoints[b]; served {
				binding = b
			}
		}
	}
	draft := withSubject(rule.draft, r.responseID)
	req, errs := completeDraft(draft, draftDefaults{endpoints: c.endpoints, binding: binding, now: r.receivedAt, queryID: id, endpoint: c.publicURL,
		capability: capabilityMarker})
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("continuation rule %q: %w", rule.Name, errs.Err())
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

// unavailable is the retryable receipt of a submission the store could not decide. A caller that went away (a
// client that closed its connection) is not a store failure and is not logged as one: anyone could otherwise raise
// false store alerts.
func (c *Collector) unavailable(ctx context.Context, r receiptFor, doing string, err error) Outcome {
	if ctx.Err() != nil {
		c.log.Debug("collector: the caller went away", "doing", doing, "queryId", r.queryID, "err", err)
	} else {
		c.failLog.failed(doing, err, "queryId", r.queryID, "responseId", r.responseID)
	}
	return r.retryable(core.CodeUnavailable, "the collector cannot decide right now ("+doing+" failed); retry the same response", c.retry)
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

// MaxClockSkew is how far a response's createdAt may stray from the collector's clock (D37): at most this long
// after the collector received it, and at most this long before the query was issued. 15 minutes, as AWS
// Signature Version 4 allows a request's timestamp: wide enough for an agent host's clock that nobody keeps, narrow
// enough that a date from another year, or a clock an hour fast, is caught.
const MaxClockSkew = 15 * time.Minute

// checkCreatedAt reports why a response's createdAt breaks the skew bound against the collector's clock, or "".
// The query's openness is judged by the collector's clock alone (receivedAt against expiresAt); createdAt is the
// respondent's claim, held to the bound so that a respondent whose clock is far off hears it precisely, as an
// invalid_response at /createdAt, rather than as an "expired" it cannot explain.
func checkCreatedAt(resp *core.Document, issued, received time.Time) string {
	text, _ := resp.Object()["createdAt"].(string)
	created, err := core.ParseDateTime(text)
	if err != nil {
		return "" // the schema already holds createdAt to RFC 3339
	}
	if ahead := created.Sub(received); ahead > MaxClockSkew {
		return fmt.Sprintf("createdAt %s is %s after this collector received the response (receivedAt %s); a response may be dated at most %s ahead of the collector's clock (D37): the respondent's clock is off",
			text, ahead.Round(time.Second), FormatTime(received), MaxClockSkew)
	}
	if !issued.IsZero() {
		if before := issued.Sub(created); before > MaxClockSkew {
			return fmt.Sprintf("createdAt %s is %s before the query was issued (%s); a response may be dated at most %s before its query (D37): the respondent's clock is off",
				text, before.Round(time.Second), FormatTime(issued), MaxClockSkew)
		}
	}
	return ""
}
