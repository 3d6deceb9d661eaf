package core

import (
	"fmt"
	"strings"
)

// Code is a stable, machine-readable error code: the one set of codes every part of this module speaks. Standalone
// validation reports invalid_request, invalid_response or invalid_receipt; paired checks report the codes of the
// design's §4 table; a collector's receipt carries one of ReceiptCodes. Programs branch on Code, never on Message;
// a binding maps each receipt code to its wire form in one table of its own (its codes.go), tested for every code.
type Code string

// Standalone codes: the document itself breaks its schema or a rule beyond it.
const (
	CodeInvalidRequest  Code = "invalid_request"
	CodeInvalidResponse Code = "invalid_response"
	CodeInvalidReceipt  Code = "invalid_receipt"
)

// Paired codes, in the order the checks run. Those a collector also rejects with (subject_mismatch to expired)
// appear in ReceiptCodes.
const (
	CodeQueryMismatch        Code = "query_mismatch"
	CodeResponseMismatch     Code = "response_mismatch"
	CodeSubjectMismatch      Code = "subject_mismatch"
	CodeRespondentMismatch   Code = "respondent_mismatch"
	CodeAnswerInvalid        Code = "answer_invalid"
	CodeConsentRequired      Code = "consent_required"
	CodeConsentMismatch      Code = "consent_mismatch"
	CodeExpired              Code = "expired"
	CodeContinuationMismatch Code = "continuation_mismatch"
	CodeReceiptNotEquivalent Code = "receipt_not_equivalent"
)

// Collector codes: why a collector rejects a submission beyond the document and the paired checks (§5).
const (
	// CodeUnsupportedVersion: the response's protocolVersion is not the one this collector speaks.
	CodeUnsupportedVersion Code = "unsupported_version"
	// CodeUnknownQuery: the collector issued no query with the response's queryId.
	CodeUnknownQuery Code = "unknown_query"
	// CodeUnauthorized: the Authorization header does not carry the query's capability.
	CodeUnauthorized Code = "unauthorized"
	// CodeAlreadyAnswered: another response was accepted for the query.
	CodeAlreadyAnswered Code = "already_answered"
	// CodeResponseIDConflict: a different response with the same responseId was accepted.
	CodeResponseIDConflict Code = "response_id_conflict"
	// CodeRateLimited: too many submissions; retryable.
	CodeRateLimited Code = "rate_limited"
	// CodeUnavailable: the collector cannot decide right now (its store failed or timed out); retryable.
	CodeUnavailable Code = "unavailable"
)

// receiptCodes are the codes of a receipt's error.code, in the order of the receipt schema's enum (a test compares
// them with spec/query-receipt.schema.json).
var receiptCodes = []Code{
	CodeInvalidResponse, CodeUnsupportedVersion, CodeUnknownQuery, CodeUnauthorized, CodeExpired,
	CodeSubjectMismatch, CodeRespondentMismatch, CodeAnswerInvalid, CodeConsentRequired, CodeConsentMismatch,
	CodeAlreadyAnswered, CodeResponseIDConflict, CodeRateLimited, CodeUnavailable,
}

// ReceiptCodes lists every code a receipt's error.code may carry, in the receipt schema's order. A binding's wire
// table must map each of them.
func ReceiptCodes() []Code { return append([]Code(nil), receiptCodes...) }

// IsReceiptCode reports whether c may appear as a receipt's error.code.
func (c Code) IsReceiptCode() bool {
	for _, r := range receiptCodes {
		if r == c {
			return true
		}
	}
	return false
}

// Retryable reports whether a receipt with this code tells the respondent to send the same response again later
// (with retryAfter): only rate_limited and unavailable.
func (c Code) Retryable() bool { return c == CodeRateLimited || c == CodeUnavailable }

// Keywords that are not JSON Schema keywords: they name AQP rules that lie beyond a document's schema, so that
// every Error has a keyword a program can branch on.
const (
	// KeywordJSON: the bytes are not one well-formed UTF-8 JSON value.
	KeywordJSON = "json"
	// KeywordSize: the document is larger than the validator's bound.
	KeywordSize = "size"
	// KeywordCompile: a request's response.jsonSchema does not compile offline as draft 2020-12.
	KeywordCompile = "compile"
	// KeywordMember names a paired check that compares a member of two documents; the pointer names the member.
	KeywordMember = "member"
)

// Error is one failure: which document, which member (pointer), which rule (keyword), and what was expected.
type Error struct {
	// Code is the stable code of the failure.
	Code Code `json:"code"`
	// Document names the document the pointer points into: request, response, receipt or duplicate. It is set
	// in paired results and empty in standalone ones.
	Document Role `json:"document,omitempty"`
	// Pointer is the RFC 6901 JSON Pointer of the failing instance; for required and additionalProperties it
	// names the missing or extra member itself.
	Pointer string `json:"pointer"`
	// Keyword is the failing JSON Schema keyword, or one of the Keyword constants for AQP rules.
	Keyword string `json:"keyword"`
	// Message says what was expected, for a person.
	Message string `json:"message"`
}

// Error formats the failure for a log line or a terminal.
func (e Error) Error() string {
	var b strings.Builder
	if e.Document != "" {
		b.WriteString(string(e.Document))
		b.WriteString(" ")
	}
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	fmt.Fprintf(&b, "%s: %s [%s, %s]", p, e.Message, e.Keyword, e.Code)
	return b.String()
}

// Errors is a list of failures, in the order they were found. A nil or empty Errors means valid.
//
// Errors deliberately does not implement error: a function declared to return error that returned an empty Errors
// would return a non-nil interface for a valid document, and nothing (not even go vet) would say so. Test validity
// with len or Valid, and convert with Err where an error is wanted.
type Errors []Error

// Valid reports whether the list is empty: the document it describes passed every check.
func (es Errors) Valid() bool { return len(es) == 0 }

// Err is the failures as one error, or nil when there are none: the conversion to use where a function returns
// error. The error's text joins the failures one per line; errors.As recovers the list (as ValidationError).
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return ValidationError(es)
}

// String joins the failures, one per line.
func (es Errors) String() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// ValidationError is a non-empty Errors as an error value, made only by Errors.Err so that it is never empty.
type ValidationError Errors

// Error joins the failures, one per line.
func (ve ValidationError) Error() string { return Errors(ve).String() }

// Has reports whether any failure carries code c.
func (es Errors) Has(c Code) bool {
	for _, e := range es {
		if e.Code == c {
			return true
		}
	}
	return false
}

// Codes lists the failures' codes in order, with repeats removed.
func (es Errors) Codes() []Code {
	var out []Code
	seen := map[Code]bool{}
	for _, e := range es {
		if !seen[e.Code] {
			seen[e.Code] = true
			out = append(out, e.Code)
		}
	}
	return out
}
