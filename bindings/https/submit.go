package https

import (
	"net/http"
	"strconv"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// StatusFor maps a receipt's error code to its HTTP status (§6); "" (accepted) is 200.
func StatusFor(code string) int {
	switch code {
	case "":
		return http.StatusOK
	case collector.CodeInvalidResponse, collector.CodeUnsupportedVersion:
		return http.StatusBadRequest
	case collector.CodeUnauthorized:
		return http.StatusUnauthorized
	case collector.CodeUnknownQuery:
		return http.StatusNotFound
	case collector.CodeAlreadyAnswered, collector.CodeResponseIDConflict:
		return http.StatusConflict
	case collector.CodeExpired:
		return http.StatusGone
	case collector.CodeRateLimited:
		return http.StatusTooManyRequests
	case collector.CodeUnavailable:
		return http.StatusServiceUnavailable
	}
	// subject_mismatch, respondent_mismatch, answer_invalid, consent_required, consent_mismatch
	return http.StatusUnprocessableEntity
}

// SubmitResponse is POST /aqp/v1/responses: the body is the QueryResponse, the capability is the bearer token.
func (s *Server) SubmitResponse(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body, status := readJSONBody(w, r)
	if status != 0 {
		s.metrics.Problem("https", status)
		return
	}
	out := s.c.Submit(r.Context(), collector.Submission{Body: body, Authorization: r.Header.Get("Authorization")})
	WriteOutcome(w, out)
	if out.Problem != nil {
		s.metrics.Problem("https", http.StatusBadRequest)
		return
	}
	s.metrics.Receipt("https", out.Accepted, out.Code, out.Duplicate, time.Since(start))
}

// WriteOutcome writes a collector outcome as the HTTPS binding does: the receipt as the body with its status
// code and headers, or a problem document when no receipt could be formed.
func WriteOutcome(w http.ResponseWriter, out collector.Outcome) {
	if out.Problem != nil {
		writeProblem(w, http.StatusBadRequest, "No receipt can be formed", out.Problem.Detail, out.Problem.Errors)
		return
	}
	status := StatusFor(out.Code)
	switch status {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="aqp", error="invalid_token"`)
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(out.RetryAfter))
	}
	writeJSON(w, status, out.Receipt)
}
