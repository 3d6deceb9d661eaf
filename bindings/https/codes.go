package https

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
)

// statusOf is the binding's one table from receipt code to HTTP status (§6). A test fails when a receipt code of
// core.ReceiptCodes has no entry, so a new code cannot reach the wire unmapped.
var statusOf = map[core.Code]int{
	core.CodeInvalidResponse:    http.StatusBadRequest,
	core.CodeUnsupportedVersion: http.StatusBadRequest,
	core.CodeUnauthorized:       http.StatusUnauthorized,
	core.CodeUnknownQuery:       http.StatusNotFound,
	core.CodeAlreadyAnswered:    http.StatusConflict,
	core.CodeResponseIDConflict: http.StatusConflict,
	core.CodeExpired:            http.StatusGone,
	core.CodeSubjectMismatch:    http.StatusUnprocessableEntity,
	core.CodeRespondentMismatch: http.StatusUnprocessableEntity,
	core.CodeAnswerInvalid:      http.StatusUnprocessableEntity,
	core.CodeConsentRequired:    http.StatusUnprocessableEntity,
	core.CodeConsentMismatch:    http.StatusUnprocessableEntity,
	core.CodeRateLimited:        http.StatusTooManyRequests,
	core.CodeUnavailable:        http.StatusServiceUnavailable,
}

// StatusFor maps a receipt's error code to its HTTP status; "" (accepted) is 200. A code outside the table — which
// the table test rules out for every receipt code — is a server error, never a guess.
func StatusFor(code core.Code) int {
	if code == "" {
		return http.StatusOK
	}
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ProblemStatus is the status of a submission no receipt can be formed for (no readable queryId and responseId).
const ProblemStatus = http.StatusBadRequest

// WriteOutcome writes a collector outcome as the HTTPS binding does: the receipt as the body with its status code
// and headers (WWW-Authenticate on 401; Retry-After equal to retryAfter on 429 and 503), or an RFC 9457 problem
// document when no receipt could be formed. authorization is the request's Authorization header: a 401 to a
// request that carried no bearer token challenges without an error code, one to a request whose token was wrong
// says error="invalid_token" (RFC 6750 §3.1, D42).
func WriteOutcome(w http.ResponseWriter, out collector.Outcome, authorization string) {
	if out.Problem != nil {
		httpio.WriteProblem(w, ProblemStatus, "No receipt can be formed", out.Problem.Detail, out.Problem.Errors)
		return
	}
	status := StatusFor(out.Code)
	switch status {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", Challenge(authorization))
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(out.RetryAfter))
	}
	httpio.WriteJSON(w, status, out.Receipt)
}

// Challenge is the WWW-Authenticate value of a 401 (D42, RFC 6750 §3.1): `Bearer realm="aqp"` when the request
// carried no bearer token — no credentials, or another scheme's — since such a request gets no error code, and
// `Bearer realm="aqp", error="invalid_token"` when it carried one that is not the query's capability.
func Challenge(authorization string) string {
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
