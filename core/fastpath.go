package core

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// The fast path (issue 19). The schema library evaluates the AQP schemas over generic trees, allocating a scope per
// keyword and member; for the common shapes the same verdict is reached by code written from the schemas
// (spec/query-*.schema.json) that reads the decoded tree once. fastValid only ever answers "certainly valid": it
// returns true when it has checked every rule of the verdict schema for the document at hand, and false whenever it
// is not sure — a member it does not know, a value of a type or spelling it does not model (an integer written 5.0
// or 5e0, a number beyond the simple decimals), any rule failing. false never means invalid: the document then takes
// the schema library's path, so every rejection, and every error report, is the library's as before.
// TestFastPathAgreesWithTheSchemas runs every conformance vector and the differential mutants through both and fails
// on a document fastValid accepts that the schemas reject.

// protocolVersion is the const every AQP document's protocolVersion must be.
const protocolVersion = "2026-07-30"

// fastPathSchemas is the SHA-256 of the schema files (spec.SchemaFiles, in order, concatenated) the fast path was
// written from. When the embedded schemas differ — a spec change that did not review this file — the fast path is
// off and every document takes the schema library (TestFastPathTakesTheQuickstart then fails, saying so).
const fastPathSchemas = "2220932269129c50d87158a587f295f68385273fb17a2aac1c127288d1a4a30e"

// fastPathOn reports whether the embedded schemas are the ones the fast path was written from.
var fastPathOn = sync.OnceValue(func() bool {
	h := sha256.New()
	for _, name := range spec.SchemaFiles {
		h.Write(spec.File(name))
	}
	return hex.EncodeToString(h.Sum(nil)) == fastPathSchemas
})

// fastValid reports whether v is certainly valid against kind's verdict schema (false: not sure). Numbers must
// already be within D22's bounds (validateValue checks them first).
func fastValid(k Kind, v any) bool {
	if !fastPathOn() {
		return false
	}
	switch k {
	case KindRequest:
		return fastRequest(v)
	case KindResponse:
		return fastResponse(v)
	case KindReceipt:
		return fastReceipt(v)
	}
	return false
}

// fastString reports whether v is a string of min to max code points (max < 0: unbounded).
func fastString(v any, min, max int) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	if len(s) < min { // fewer bytes than min: fewer code points too
		return false
	}
	if max >= 0 && len(s) > max || min > 1 { // else: at most max bytes, at least min (0 or 1) bytes — so code points

		n := utf8.RuneCountInString(s)
		return n >= min && (max < 0 || n <= max)
	}
	return true
}

// fastEnum reports whether v is a string equal to one of the allowed values: a schema enum as gen/aqp lists it
// (written from the schemas by make generate), so the fast path holds no copy of an enum to drift.
func fastEnum[T ~string](v any, allowed []T) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, a := range allowed {
		if s == string(a) {
			return true
		}
	}
	return false
}

func fastUUID(v any) bool {
	s, ok := v.(string)
	return ok && checkUUID(s) == nil
}

func fastDateTime(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	_, err := ParseDateTime(s)
	return err == nil
}

// fastInteger reports whether v is an integer written as plain decimal digits (no fraction, no exponent) within
// [min, max]. Other spellings of an integer (5.0, 5e0) are left to the schema library.
func fastInteger(v any, min, max int) bool {
	n, ok := v.(json.Number)
	if !ok || len(n) == 0 || len(n) > 9 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !isDigit(n[i]) && !(i == 0 && n[i] == '-' && len(n) > 1) {
			return false
		}
	}
	x, err := strconv.Atoi(string(n))
	return err == nil && x >= min && x <= max
}

// fastUnitInterval reports whether v is a number in [0, 1] written 0, 1, 1.0…, or 0.ddd (no sign, no exponent).
func fastUnitInterval(v any) bool {
	n, ok := v.(json.Number)
	if !ok || len(n) == 0 {
		return false
	}
	s := string(n)
	if s == "0" || s == "1" {
		return true
	}
	if len(s) < 3 || s[1] != '.' || s[0] != '0' && s[0] != '1' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isDigit(s[i]) || s[0] == '1' && s[i] != '0' {
			return false
		}
	}
	return true
}

// fastSubject checks query-subject.schema.json.
func fastSubject(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	var seen uint8
	for k, x := range m {
		switch k {
		case "kind":
			if !fastEnum(x, aqp.QuerySubjectKindValues) {
				return false
			}
			seen |= 1
		case "id":
			if !fastString(x, 1, 512) {
				return false
			}
			seen |= 2
		case "idScope":
			if !fastEnum(x, aqp.QuerySubjectIDScopeValues) {
				return false
			}
		case "protocol":
			if !fastEnum(x, aqp.QuerySubjectProtocolValues) {
				return false
			}
		default:
			return false
		}
	}
	return seen == 3
}

// fastRequest checks query-request.schema.json.
func fastRequest(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	const required = 1<<10 - 1
	var seen uint16
	for k, x := range m {
		switch k {
		case "protocolVersion":
			if x != any(protocolVersion) {
				return false
			}
			seen |= 1 << 0
		case "queryId":
			if !fastUUID(x) {
				return false
			}
			seen |= 1 << 1
		case "type":
			if !fastEnum(x, aqp.QueryRequestTypeValues) {
				return false
			}
			seen |= 1 << 2
		case "subject":
			if !fastSubject(x) {
				return false
			}
			seen |= 1 << 3
		case "prompt":
			if !fastString(x, 1, 4000) {
				return false
			}
			seen |= 1 << 4
		case "timing":
			if !fastEnum(x, aqp.QueryRequestTimingValues) {
				return false
			}
			seen |= 1 << 5
		case "consentMode":
			if !fastEnum(x, aqp.QueryRequestConsentModeValues) {
				return false
			}
			seen |= 1 << 6
		case "response":
			if !fastResponseContract(x) {
				return false
			}
			seen |= 1 << 7
		case "delivery":
			if !fastDelivery(x) {
				return false
			}
			seen |= 1 << 8
		case "expiresAt":
			if !fastDateTime(x) {
				return false
			}
			seen |= 1 << 9
		case "requestedRespondent":
			if !fastEnum(x, aqp.QueryRequestRequestedRespondentValues) {
				return false
			}
		case "instructions":
			if !fastString(x, 1, 4000) {
				return false
			}
		case "dataPolicy":
			if !fastString(x, 1, 1000) {
				return false
			}
		case "consentScope":
			if !fastString(x, 8, 256) {
				return false
			}
		default:
			return false
		}
	}
	if seen != required {
		return false
	}
	// allOf: ask_once requires consentScope; not_required and ask_always forbid it (consentMode is one of the three).
	_, scoped := m["consentScope"]
	return scoped == (m["consentMode"] == any("ask_once"))
}

// fastResponseContract checks a request's response member.
func fastResponseContract(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, x := range m {
		switch k {
		case "format":
			if !fastEnum(x, aqp.QueryRequestResponseFormatValues) {
				return false
			}
		case "jsonSchema":
			if _, ok := x.(map[string]any); !ok {
				return false
			}
		case "choices":
			if !fastChoices(x) {
				return false
			}
		case "maxLength":
			if !fastInteger(x, 1, 16000) {
				return false
			}
		default:
			return false
		}
	}
	format, ok := m["format"]
	if !ok {
		return false
	}
	// allOf: structured requires jsonSchema, choice requires choices.
	switch format {
	case any("structured"):
		_, ok = m["jsonSchema"]
	case any("choice"):
		_, ok = m["choices"]
	}
	return ok
}

// fastChoices checks response.choices: 1–64 unique strings of 1–256 code points each.
func fastChoices(v any) bool {
	a, ok := v.([]any)
	if !ok || len(a) < 1 || len(a) > 64 {
		return false
	}
	for i, x := range a {
		if !fastString(x, 1, 256) {
			return false
		}
		for _, y := range a[:i] {
			if x == y { // both strings: equal JSON values exactly when equal Go strings (valid UTF-8)
				return false
			}
		}
	}
	return true
}

// fastDelivery checks a request's delivery member.
func fastDelivery(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	bound := false
	for k, x := range m {
		switch k {
		case "binding":
			if !fastEnum(x, aqp.QueryRequestDeliveryBindingValues) {
				return false
			}
			bound = true
		case "endpoint":
			s, ok := x.(string)
			if !ok || !fastString(x, 0, 2048) || checkURI(s) != nil {
				return false
			}
		case "authorization":
			if !fastString(x, 1, 4096) {
				return false
			}
		case "operation":
			if !fastString(x, 1, 128) {
				return false
			}
		default:
			return false
		}
	}
	return bound
}

// fastResponse checks query-response.schema.json.
func fastResponse(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	const required = 1<<7 - 1
	var seen uint8
	for k, x := range m {
		switch k {
		case "protocolVersion":
			if x != any(protocolVersion) {
				return false
			}
			seen |= 1 << 0
		case "responseId":
			if !fastUUID(x) {
				return false
			}
			seen |= 1 << 1
		case "queryId":
			if !fastUUID(x) {
				return false
			}
			seen |= 1 << 2
		case "subject":
			if !fastSubject(x) {
				return false
			}
			seen |= 1 << 3
		case "respondent":
			if !fastRespondent(x) {
				return false
			}
			seen |= 1 << 4
		case "answer": // {}: any value
			seen |= 1 << 5
		case "createdAt":
			if !fastDateTime(x) {
				return false
			}
			seen |= 1 << 6
		case "explanation":
			if !fastString(x, 1, 4000) {
				return false
			}
		case "confidence":
			if !fastUnitInterval(x) {
				return false
			}
		case "consent":
			if !fastConsent(x) {
				return false
			}
		default:
			return false
		}
	}
	return seen == required
}

func fastRespondent(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	var seen uint8
	for k, x := range m {
		switch k {
		case "kind":
			if !fastEnum(x, aqp.QueryResponseRespondentKindValues) {
				return false
			}
			seen |= 1
		case "provenance":
			if !fastEnum(x, aqp.QueryResponseRespondentProvenanceValues) {
				return false
			}
			seen |= 2
		case "id":
			if !fastString(x, 1, 256) {
				return false
			}
		default:
			return false
		}
	}
	return seen == 3
}

func fastConsent(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	var seen uint8
	for k, x := range m {
		switch k {
		case "granted":
			if x != any(true) {
				return false
			}
			seen |= 1
		case "obtainedAt":
			if !fastDateTime(x) {
				return false
			}
			seen |= 2
		case "scope":
			if !fastString(x, 8, 256) {
				return false
			}
		default:
			return false
		}
	}
	return seen == 3
}

// receiptPointer is the receipt schema's error.pointer pattern, compiled by the engine the schemas are compiled
// with.
var receiptPointer = sync.OnceValue(func() interface{ MatchString(string) bool } {
	re, err := compileECMA("^(/([^/~]|~[01])*)*$")
	if err != nil {
		panic("core: receipt pointer pattern: " + err.Error())
	}
	return re
})

// fastReceipt checks query-receipt.schema.json.
func fastReceipt(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	const required = 1<<6 - 1
	var seen uint8
	for k, x := range m {
		switch k {
		case "protocolVersion":
			if x != any(protocolVersion) {
				return false
			}
			seen |= 1 << 0
		case "queryId":
			if !fastUUID(x) {
				return false
			}
			seen |= 1 << 1
		case "responseId":
			if !fastUUID(x) {
				return false
			}
			seen |= 1 << 2
		case "status":
			if !fastEnum(x, aqp.QueryReceiptStatusValues) {
				return false
			}
			seen |= 1 << 3
		case "retryable":
			if _, ok := x.(bool); !ok {
				return false
			}
			seen |= 1 << 4
		case "receivedAt":
			if !fastDateTime(x) {
				return false
			}
			seen |= 1 << 5
		case "error":
			if !fastReceiptError(x) {
				return false
			}
		case "retryAfter":
			if !fastInteger(x, 1, 86400) {
				return false
			}
		case "continuation":
			if !fastRequest(x) {
				return false
			}
		default:
			return false
		}
	}
	if seen != required {
		return false
	}
	retryable := m["retryable"] == any(true)
	_, hasError := m["error"]
	_, hasContinuation := m["continuation"]
	_, hasRetryAfter := m["retryAfter"]
	switch m["status"] {
	case any("accepted"): // retryable false, no error
		if retryable || hasError {
			return false
		}
	case any("rejected"): // error required, no continuation
		if !hasError || hasContinuation {
			return false
		}
	}
	if !retryable && hasRetryAfter { // retryAfter only when retryable
		return false
	}
	if hasError { // rate_limited and unavailable are retryable; every other code is not
		code, _ := m["error"].(map[string]any)["code"].(string)
		if retryable != Code(code).Retryable() {
			return false
		}
	}
	return true
}

// fastReceiptError checks a receipt's error member.
func fastReceiptError(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	var seen uint8
	for k, x := range m {
		switch k {
		case "code":
			// receiptCodes is the schema's enum (TestReceiptCodesAreTheSchemaEnum).
			c, ok := x.(string)
			if !ok || !slices.Contains(receiptCodes, Code(c)) {
				return false
			}
			seen |= 1
		case "message":
			if !fastString(x, 1, 1000) {
				return false
			}
			seen |= 2
		case "pointer":
			s, ok := x.(string)
			if !ok || !fastString(x, 0, 2048) || !receiptPointer().MatchString(s) {
				return false
			}
		default:
			return false
		}
	}
	return seen == 3
}
