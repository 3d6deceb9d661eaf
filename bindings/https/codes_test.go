package https

import (
	"net/http"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestEveryReceiptCodeHasAStatus: the table maps every receipt code to the status §6 pins, and nothing else.
func TestEveryReceiptCodeHasAStatus(t *testing.T) {
	pinned := map[core.Code]int{
		"invalid_response": 400, "unsupported_version": 400, "unauthorized": 401, "unknown_query": 404,
		"already_answered": 409, "response_id_conflict": 409, "expired": 410, "subject_mismatch": 422,
		"respondent_mismatch": 422, "answer_invalid": 422, "consent_required": 422, "consent_mismatch": 422,
		"rate_limited": 429, "unavailable": 503,
	}
	for _, c := range core.ReceiptCodes() {
		got, ok := wireOf[c]
		if !ok {
			t.Errorf("receipt code %s has no HTTP status in the binding's table", c)
			continue
		}
		if got.Status != pinned[c] {
			t.Errorf("%s: status %d, §6 pins %d", c, got.Status, pinned[c])
		}
		if got.RetryAfter != c.Retryable() {
			t.Errorf("%s: Retry-After %v, but the code's retryable is %v", c, got.RetryAfter, c.Retryable())
		}
	}
	if len(wireOf) != len(core.ReceiptCodes()) {
		t.Errorf("the table has %d entries for %d receipt codes", len(wireOf), len(core.ReceiptCodes()))
	}
	if WireFor("") != (Wire{Status: http.StatusOK}) || WireFor("no_such_code") != (Wire{Status: http.StatusInternalServerError}) {
		t.Error("accepted must be 200 and an unknown code 500")
	}
}

// TestChallenge: a 401 challenges without an error code when the request carried no bearer token, and with
// error="invalid_token" when it carried a wrong one (RFC 6750 §3.1, D42).
func TestChallenge(t *testing.T) {
	for _, tc := range []struct{ authorization, want string }{
		{"", `Bearer realm="aqp"`},
		{"Basic cXVlcnk6Y2FwYWJpbGl0eQ==", `Bearer realm="aqp"`},
		{"Bearer", `Bearer realm="aqp"`},
		{"Bearer   ", `Bearer realm="aqp"`},
		{"Bearer wrong", `Bearer realm="aqp", error="invalid_token"`},
		{"bearer wrong", `Bearer realm="aqp", error="invalid_token"`},
	} {
		if got := challenge(tc.authorization); got != tc.want {
			t.Errorf("challenge(%q) = %s, want %s", tc.authorization, got, tc.want)
		}
	}
}
