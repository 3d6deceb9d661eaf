package https

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
)

// Wire is how a receipt code surfaces on the HTTPS binding (§6): the receipt is the body whatever its code, and
// what the binding adds is the status line and the headers a client acts on without reading the body.
type Wire struct {
	// Status is the response's status code.
	Status int
	// RetryAfter says the response has a Retry-After header (seconds), equal to the receipt's retryAfter: the
	// respondent sends the same response again after that long.
	RetryAfter bool
}

// wireOf is the binding's one table from receipt code to its wire form. A test fails when a receipt code of
// core.ReceiptCodes has no entry, so a new code cannot reach the wire unmapped. A 401 also carries a
// WWW-Authenticate challenge, as HTTP asks of every 401.
var wireOf = map[core.Code]Wire{
	core.CodeInvalidResponse:    {Status: http.StatusBadRequest},
	core.CodeUnsupportedVersion: {Status: http.StatusBadRequest},
	core.CodeUnauthorized:       {Status: http.StatusUnauthorized},
	core.CodeUnknownQuery:       {Status: http.StatusNotFound},
	core.CodeAlreadyAnswered:    {Status: http.StatusConflict},
	core.CodeResponseIDConflict: {Status: http.StatusConflict},
	core.CodeExpired:            {Status: http.StatusGone},
	core.CodeSubjectMismatch:    {Status: http.StatusUnprocessableEntity},
	core.CodeRespondentMismatch: {Status: http.StatusUnprocessableEntity},
	core.CodeAnswerInvalid:      {Status: http.StatusUnprocessableEntity},
	core.CodeConsentRequired:    {Status: http.StatusUnprocessableEntity},
	core.CodeConsentMismatch:    {Status: http.StatusUnprocessableEntity},
	core.CodeRateLimited:        {Status: http.StatusTooManyRequests, RetryAfter: true},
	core.CodeUnavailable:        {Status: http.StatusServiceUnavailable, RetryAfter: true},
}

// WireFor maps a receipt's error code to its wire form; "" (accepted) is 200. A code outside the table — which the
// table test rules out for every receipt code — is a server error, never a guess.
func WireFor(code core.Code) Wire {
	if code == "" {
		return Wire{Status: http.StatusOK}
	}
	if w, ok := wireOf[code]; ok {
		return w
	}
	return Wire{Status: http.StatusInternalServerError}
}

// ProblemStatus is the status of a submission no receipt can be formed for (no readable queryId and responseId).
const ProblemStatus = http.StatusBadRequest

// writeOutcome writes a collector outcome as the HTTPS binding does: the receipt as the body with its status code
// and headers (WWW-Authenticate on 401; Retry-After equal to retryAfter on 429 and 503), or an RFC 9457 problem
// document when no receipt could be formed. authorization is the request's Authorization header: a 401 to a
// request that carried no bearer token challenges without an error code, one to a request whose token was wrong
// says error="invalid_token" (RFC 6750 §3.1, D42).
func writeOutcome(w http.ResponseWriter, out collector.Outcome, authorization string) {
	if out.Problem != nil {
		httpio.WriteProblem(w, ProblemStatus, "No receipt can be formed", out.Problem.Detail, out.Problem.Errors)
		return
	}
	wire := WireFor(out.Code)
	if wire.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", challenge(authorization))
	}
	if wire.RetryAfter {
		w.Header().Set("Retry-After", strconv.Itoa(out.RetryAfter))
	}
	httpio.WriteJSON(w, wire.Status, out.Receipt)
}

// challenge is the WWW-Authenticate value of a 401 (D42, RFC 6750 §3.1): `Bearer realm="aqp"` when the request
// carried no bearer token — no credentials, or another scheme's — since such a request gets no error code, and
// `Bearer realm="aqp", error="invalid_token"` when it carried one that is not the query's capability.
func challenge(authorization string) string {
	if !HasBearerToken(authorization) {
		return `Bearer realm="aqp"`
	}
	return `Bearer realm="aqp", error="invalid_token"`
}

// HasBearerToken reports whether an Authorization header value carries a bearer token: the scheme Bearer (any
// case) followed by a non-empty token.
func HasBearerToken(authorization string) bool {
	scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	return ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != ""
}
