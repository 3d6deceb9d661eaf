package a2a

import (
	"fmt"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"google.golang.org/grpc/codes"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// JSON-RPC error codes the binding answers with (JSON-RPC 2.0; A2A 1.0 §5.4, the same numbers in 0.3).
const (
	// CodeParseError: the body is not JSON.
	CodeParseError = -32700
	// CodeInvalidRequest: not a JSON-RPC request (or too large to read).
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: a method A2A does not define.
	CodeMethodNotFound = -32601
	// CodeInvalidParams: a send request without exactly one usable AQP response part.
	CodeInvalidParams = -32602
	// CodeUnsupportedOperation is A2A's error for an operation the agent does not support: every A2A operation but
	// sending a message (tasks, push notification configuration, the extended card).
	CodeUnsupportedOperation = -32004
	// CodeExtensionSupportRequired is A2A 1.0's error for a request that does not activate a required extension
	// (the AQP extension, by the A2A-Extensions service parameter).
	CodeExtensionSupportRequired = -32008
	// CodeVersionNotSupported is A2A 1.0's error for an A2A-Version the agent does not serve.
	CodeVersionNotSupported = -32009
)

// ProblemCode is the JSON-RPC error a submission gets when no receipt can be formed (no readable queryId and
// responseId): invalid params, its message saying what the response lacks.
const ProblemCode = CodeInvalidParams

// Wire is how a receipt with a given code appears on the A2A wire. Every receipt — accepted or rejected — is a
// result (a JSON-RPC result, an HTTP+JSON 200, a gRPC OK), never an error: the receipt is the agent's answer, and an
// A2A client that treated a rejection as a failed call would lose it. What differs between codes is what the
// receipt tells the respondent to do next.
type Wire struct {
	// Retryable: the reply's receipt has retryable true and a retryAfter (seconds); the respondent sends the same
	// response again after that many seconds. Otherwise retryable is false and sending the same response again
	// gets the same receipt.
	Retryable bool
}

// wireOf is the binding's one table from receipt code to its wire form. A test fails when a receipt code of
// core.ReceiptCodes has no entry, so a new code cannot reach the wire unmapped.
var wireOf = map[core.Code]Wire{
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

// WireFor maps a receipt's error code to its wire form; "" (accepted) is a plain, not retryable receipt, and so is
// a code outside the table — which the table test rules out for every receipt code (a check that a code is a
// receipt code at all is core.Code.IsReceiptCode's).
func WireFor(code core.Code) Wire {
	return wireOf[code]
}

// errorForm is how one A2A error is written on each transport: the JSON-RPC code, the HTTP+JSON status with its
// google.rpc status name, and the gRPC code. The A2A errors are a2a-go's sentinels, so a2a-go's clients
// (errors.Is) and every other SDK that follows A2A 1.0's mapping read them alike.
type errorForm struct {
	// Err is the A2A error, a2a-go's sentinel.
	Err error
	// JSONRPC is the JSON-RPC error code.
	JSONRPC int
	// HTTPStatus and Status are the HTTP+JSON transport's status code and google.rpc status name.
	HTTPStatus int
	Status     string
	// GRPC is the gRPC status code.
	GRPC codes.Code
}

// errorForms is the binding's one table of the A2A errors it answers with, on every transport (A2A 1.0 §5.4,
// a2a-go's mappings). A test writes every entry over every transport.
var errorForms = []errorForm{
	{a2a.ErrParseError, CodeParseError, http.StatusBadRequest, "INVALID_ARGUMENT", codes.InvalidArgument},
	{a2a.ErrInvalidRequest, CodeInvalidRequest, http.StatusBadRequest, "INVALID_ARGUMENT", codes.InvalidArgument},
	{a2a.ErrMethodNotFound, CodeMethodNotFound, http.StatusNotImplemented, "UNIMPLEMENTED", codes.Unimplemented},
	{a2a.ErrInvalidParams, CodeInvalidParams, http.StatusBadRequest, "INVALID_ARGUMENT", codes.InvalidArgument},
	{a2a.ErrUnsupportedOperation, CodeUnsupportedOperation, http.StatusBadRequest, "FAILED_PRECONDITION", codes.FailedPrecondition},
	{a2a.ErrExtensionSupportRequired, CodeExtensionSupportRequired, http.StatusBadRequest, "FAILED_PRECONDITION", codes.FailedPrecondition},
	{a2a.ErrVersionNotSupported, CodeVersionNotSupported, http.StatusBadRequest, "FAILED_PRECONDITION", codes.FailedPrecondition},
}

// errorFormFor is the wire form of one of the binding's A2A errors; it panics on an error outside the table, which
// is a programming error the table test rules out.
func errorFormFor(err error) errorForm {
	for _, f := range errorForms {
		if f.Err == err {
			return f
		}
	}
	panic(fmt.Sprintf("a2a: %v is not in the binding's error table", err))
}
