package collector

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// receiptFor builds the receipts of one submission. Receipts are composed as JSON values and encoded with
// core.CanonicalJSON, so a continuation's jsonSchema keeps the issuer's numbers exactly.
type receiptFor struct {
	queryID, responseID string
	receivedAt          time.Time
}

func (r receiptFor) base(status string, retryable bool) map[string]any {
	return map[string]any{
		"protocolVersion": spec.ProtocolVersion,
		"queryId":         r.queryID,
		"responseId":      r.responseID,
		"status":          status,
		"retryable":       retryable,
		"receivedAt":      FormatTime(r.receivedAt),
	}
}

// accepted encodes the accepted receipt, with the continuation (whose authorization is the marker) if any.
func (r receiptFor) accepted(continuation map[string]any) []byte {
	m := r.base("accepted", false)
	if continuation != nil {
		m["continuation"] = continuation
	}
	return core.CanonicalJSON(m)
}

// reject is a non-retryable rejection.
func (r receiptFor) reject(code core.Code, pointer, message string) Outcome {
	m := r.base("rejected", false)
	m["error"] = errorMember(code, pointer, message)
	return Outcome{Receipt: core.CanonicalJSON(m), Code: code}
}

// retryable is a retryable rejection (rate_limited, unavailable) with retryAfter seconds.
func (r receiptFor) retryable(code core.Code, message string, retryAfter int) Outcome {
	m := r.base("rejected", true)
	m["error"] = errorMember(code, "", message)
	m["retryAfter"] = retryAfter
	return Outcome{Receipt: core.CanonicalJSON(m), Code: code, RetryAfter: retryAfter}
}

func errorMember(code core.Code, pointer, message string) map[string]any {
	e := map[string]any{"code": string(code), "message": truncate(message, maxMessage)}
	if pointer != "" {
		e["pointer"] = pointer
	}
	return e
}

// truncate shortens s to at most n code points, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func orRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func pointers(errs core.Errors) string {
	ps := make([]string, len(errs))
	for i, e := range errs {
		ps[i] = orRoot(e.Pointer)
	}
	return strings.Join(ps, ", ")
}
