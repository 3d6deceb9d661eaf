package a2a

import (
	"github.com/agentqueryprotocol/aqp-go/core"
)

// JSON-RPC error codes the binding answers with (JSON-RPC 2.0 and A2A 0.3 §8).
const (
	// CodeParseError: the body is not JSON.
	CodeParseError = -32700
	// CodeInvalidRequest: not a JSON-RPC request (or too large to read).
	CodeInvalidRequest = -32600
	// CodeInvalidParams: message/send without exactly one AQP response part.
	CodeInvalidParams = -32602
	// CodeUnsupportedOperation is A2A's error for a method the agent does not support (tasks/*, push
	// notification configuration).
	CodeUnsupportedOperation = -32004
)

// ProblemCode is the JSON-RPC error a submission gets when no receipt can be formed (no readable queryId and
// responseId): invalid params, its message saying what the response lacks.
const ProblemCode = CodeInvalidParams

// Surface is how a receipt with a given code appears on the A2A wire. Every receipt — accepted or rejected — is a
// JSON-RPC result (HTTP 200), never a JSON-RPC error: the receipt is the agent's answer, and an A2A client that
// treated a rejection as a failed call would lose it. What differs between codes is what the receipt tells the
// respondent to do next.
type Surface struct {
	// Retryable: the reply's receipt has retryable true and a retryAfter (seconds); the respondent sends the same
	// response again after that many seconds. Otherwise retryable is false and sending the same response again
	// gets the same receipt.
	Retryable bool
}

// surfaceOf is the binding's one table from receipt code to its wire form. A test fails when a receipt code of
// core.ReceiptCodes has no entry, so a new code cannot reach the wire unmapped.
var surfaceOf = map[core.Code]Surface{
	core.CodeInvalidResponse:    {},
	core.CodeUnsupportedVersion: {},
	core.CodeUnauthorized:       {},
	core.CodeUnknownQuery:       {},
	core.CodeAlreadyAnswered:    {},
	core.CodeResponseIDConflict: {},
	core.CodeExpired:            {},
	core.CodeSubjectMismatch:    {},
	core.CodeRespondentMismatch: {},
	core.CodeAnswerInvalid:      {},
	core.CodeConsentRequired:    {},
	core.CodeConsentMismatch:    {},
	core.CodeRateLimited:        {Retryable: true},
	core.CodeUnavailable:        {Retryable: true},
}

// SurfaceFor maps a receipt's error code to its wire form; "" (accepted) is a plain, not retryable receipt. ok is
// false for a code outside the table — which the table test rules out for every receipt code.
func SurfaceFor(code core.Code) (s Surface, ok bool) {
	if code == "" {
		return Surface{}, true
	}
	s, ok = surfaceOf[code]
	return s, ok
}
