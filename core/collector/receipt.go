package collector

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// receiptFor builds the receipts of one submission. Receipts are composed as JSON values and encoded with
// core.CompactJSON, so a continuation's jsonSchema keeps the issuer's numbers exactly.
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
	return core.CompactJSON(m)
}

// reject is a non-retryable rejection.
func (r receiptFor) reject(code core.Code, pointer, message string) Outcome {
	m := r.base("rejected", false)
	m["error"] = errorMember(code, pointer, message)
	return Outcome{Receipt: core.CompactJSON(m), Code: code}
}

// retryable is a retryable rejection (rate_limited, unavailable) with retryAfter seconds, kept within the
// schema's 1–86400 whatever the configuration asked for.
func (r receiptFor) retryable(code core.Code, message string, retryAfter int) Outcome {
	retryAfter = min(max(retryAfter, 1), maxRetryAfter)
	m := r.base("rejected", true)
	m["error"] = errorMember(code, "", message)
	m["retryAfter"] = retryAfter
	return Outcome{Receipt: core.CompactJSON(m), Code: code, RetryAfter: retryAfter}
}

// Receipt bounds from spec/query-receipt.schema.json: every member a collector writes stays inside them, whatever
// the submission held (D8).
const (
	// maxPointer is error.pointer's maxLength, in code points.
	maxPointer = 2048
	// maxRetryAfter is retryAfter's maximum, in seconds.
	maxRetryAfter = 86400
)

// errorMember composes a receipt's error member within the schema's bounds: the message is cut to maxMessage code
// points (and is never empty), and a pointer longer than maxPointer is shortened to an ancestor of the failing
// member (see boundPointer), which the message then says. A pointer that is not an RFC 6901 pointer — none of the
// collector's are — is left out rather than written into an invalid receipt.
func errorMember(code core.Code, pointer, message string) map[string]any {
	if message == "" {
		message = string(code)
	}
	e := map[string]any{"code": string(code)}
	if pointer != "" && validPointer(pointer) {
		short, cut := boundPointer(pointer, maxPointer)
		if cut {
			note := fmt.Sprintf(" (error.pointer was shortened to the failing member's ancestor of %d characters; the full pointer has %d)",
				utf8.RuneCountInString(short), utf8.RuneCountInString(pointer))
			message = truncate(message, maxMessage-utf8.RuneCountInString(note)) + note
		}
		if short != "" {
			e["pointer"] = short
		}
	}
	e["message"] = truncate(message, maxMessage)
	return e
}

// boundPointer returns p when it has at most n code points; otherwise the longest prefix of p that ends at a
// token boundary (just before a "/") and has at most n code points — still an RFC 6901 pointer, naming an
// ancestor of what p names ("" being the whole document). Cutting only at "/" never splits an escape (~0, ~1).
func boundPointer(p string, n int) (string, bool) {
	if utf8.RuneCountInString(p) <= n {
		return p, false
	}
	end, count := 0, 0
	for i, r := range p {
		if count > n {
			break
		}
		if r == '/' {
			end = i
		}
		count++
	}
	return p[:end], true
}

// validPointer reports whether p matches the receipt schema's pointer pattern ^(/([^/~]|~[01])*)*$.
func validPointer(p string) bool {
	if p != "" && p[0] != '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || (p[i+1] != '0' && p[i+1] != '1')) {
			return false
		}
	}
	return true
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
