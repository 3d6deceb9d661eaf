package corpus

import (
	"sort"
	"strings"
)

// The requirements a generated vector proves (conformance/requirements.json) are derived from the table it comes
// from, its name and its expected errors or codes, by the rules below, so that every vector of a table is tagged
// the same way and a new vector is tagged without being listed here.

// keywordRequirements maps an expected standalone error's keyword to what the failure proves.
var keywordRequirements = map[string][]string{
	"additionalProperties": {"AQP-OBJ-UNKNOWN-MEMBER", "AQP-VAL-POINTER-MEMBER"},
	"required":             {"AQP-VAL-POINTER-MEMBER"},
	"format":               {"AQP-D4"},
	"json":                 {"AQP-D13"},
	"compile":              {"AQP-ANS-COMPILE", "AQP-D11", "AQP-D13"},
	"not":                  {"AQP-D7"},
}

// codeRequirements maps a paired vector's code to the check it proves.
var codeRequirements = map[string][]string{
	"query_mismatch":         {"AQP-PAIR-QUERY-MISMATCH"},
	"response_mismatch":      {"AQP-PAIR-RESPONSE-MISMATCH"},
	"subject_mismatch":       {"AQP-PAIR-SUBJECT-MISMATCH", "AQP-D3"},
	"respondent_mismatch":    {"AQP-PAIR-RESPONDENT-MISMATCH"},
	"answer_invalid":         {"AQP-PAIR-ANSWER-INVALID"},
	"consent_required":       {"AQP-PAIR-CONSENT-REQUIRED"},
	"consent_mismatch":       {"AQP-PAIR-CONSENT-MISMATCH"},
	"expired":                {"AQP-PAIR-EXPIRED"},
	"continuation_mismatch":  {"AQP-PAIR-CONTINUATION-MISMATCH"},
	"receipt_not_equivalent": {"AQP-PAIR-RECEIPT-NOT-EQUIVALENT"},
	"invalid_request":        {"AQP-D14"},
	"invalid_response":       {"AQP-D14"},
	"invalid_receipt":        {"AQP-D14"},
}

// kindRequirements is what any vector of a kind proves, valid or not: the object's schema.
var kindRequirements = map[string][]string{
	"request":  {"AQP-SEED-REQUEST"},
	"response": {"AQP-OBJ-RESPONSE"},
	"receipt":  {"AQP-OBJ-RECEIPT"},
}

// nameRequirements: a vector whose file is file (or any file, "") and whose name contains part proves these.
var nameRequirements = []struct {
	file, part string
	ids        []string
}{
	{"standalone/formats.json", "", []string{"AQP-D4"}},
	{"standalone/lengths.json", "", []string{"AQP-D5"}},
	{"standalone/derived.json", "Length", []string{"AQP-D5"}},
	{"standalone/json.json", "", []string{"AQP-D13"}},
	{"standalone/bounds.json", "/number/", []string{"AQP-D22"}},
	{"standalone/bounds.json", "jsonSchema", []string{"AQP-D24"}},
	{"standalone/quickstart.json", "quickstart/request", []string{"AQP-D2"}},
	{"standalone/subject.json", "", []string{"AQP-OBJ-SUBJECT"}},
	{"standalone/request.json", "requestedRespondent", []string{"AQP-D1"}},
	{"standalone/request.json", "consent", []string{"AQP-SEED-CONSENT-SCOPE"}},
	{"standalone/request-response-contract.json", "response.format/", []string{"AQP-SEED-FORMAT-CONDITIONAL"}},
	{"standalone/request-response-contract.json", "jsonSchema", []string{"AQP-ANS-COMPILE", "AQP-D11"}},
	{"standalone/request-response-contract.json", "ref-cycle", []string{"AQP-D35"}},
	{"standalone/request-response-contract.json", "ecma-262", []string{"AQP-D41"}},
	{"paired/answer.json", "ecma-262", []string{"AQP-D41"}},
	{"paired/answer.json", "uri-reference", []string{"AQP-D41", "AQP-D4"}},
	{"paired/answer.json", "format-regex", []string{"AQP-D41"}},
	{"standalone/request-response-contract.json", "recursion-that-descends", []string{"AQP-D35"}},
	{"standalone/response.json", "respondent.id", []string{"AQP-OBJ-RESPONSE-OPTIONAL"}},
	{"standalone/response.json", "explanation", []string{"AQP-OBJ-RESPONSE-OPTIONAL"}},
	{"standalone/response.json", "confidence", []string{"AQP-OBJ-RESPONSE-OPTIONAL"}},
	{"standalone/response.json", "consent", []string{"AQP-OBJ-RESPONSE-OPTIONAL"}},
	{"standalone/receipt.json", "receipt/accepted/", []string{"AQP-OBJ-RECEIPT-ACCEPTED"}},
	{"standalone/receipt.json", "receipt/rejected/", []string{"AQP-OBJ-RECEIPT-REJECTED"}},
	{"standalone/receipt.json", "error", []string{"AQP-OBJ-RECEIPT-REJECTED"}},
	{"standalone/receipt.json", "retryAfter", []string{"AQP-OBJ-RECEIPT-RETRYAFTER"}},
	{"standalone/receipt.json", "receipt/retryable/", []string{"AQP-D39"}},
	{"standalone/receipt.json", "receipt/rejected/retryable-with", []string{"AQP-D39"}},
	{"paired/duplicate.json", "retryable-and-code-differ", []string{"AQP-D39"}},
	{"standalone/receipt.json", "continuation", []string{"AQP-OBJ-RECEIPT-CONTINUATION"}},
	{"paired/answer.json", "text", []string{"AQP-ANS-TEXT"}},
	{"paired/answer.json", "code-points", []string{"AQP-D5"}},
	{"paired/answer.json", "choice", []string{"AQP-ANS-CHOICE"}},
	{"paired/answer.json", "boolean", []string{"AQP-ANS-BOOLEAN"}},
	{"paired/answer.json", "number", []string{"AQP-ANS-NUMBER"}},
	{"paired/answer.json", "jsonSchema", []string{"AQP-ANS-JSONSCHEMA-ANY-FORMAT"}},
	{"paired/answer.json", "structured", []string{"AQP-ANS-STRUCTURED"}},
	{"paired/answer.json", "structured-at-maxLength", []string{"AQP-D12"}},
	{"paired/answer.json", "structured-over-maxLength", []string{"AQP-D12"}},
	{"paired/consent-expiry.json", "valid/ask_", []string{"AQP-PAIR-CONSENT-REQUIRED", "AQP-PAIR-CONSENT-MISMATCH"}},
	{"paired/consent-expiry.json", "valid/not_required", []string{"AQP-PAIR-CONSENT-REQUIRED"}},
	{"paired/consent-expiry.json", "obtainedAt", []string{"AQP-PAIR-CONSENT-MISMATCH"}},
	{"paired/consent-expiry.json", "instant", []string{"AQP-D15"}},
	{"paired/consent-expiry.json", "offset", []string{"AQP-D15"}},
	{"paired/consent-expiry.json", "equal-to", []string{"AQP-D15"}},
	{"paired/consent-expiry.json", "expir", []string{"AQP-PAIR-EXPIRED"}},
	{"paired/continuation.json", "", []string{"AQP-PAIR-CONTINUATION-MISMATCH"}},
	{"paired/continuation.json", "idScope-global", []string{"AQP-D23"}},
	{"paired/continuation.json", "offset", []string{"AQP-D15"}},
	{"paired/duplicate.json", "", []string{"AQP-PAIR-RECEIPT-NOT-EQUIVALENT"}},
	{"paired/duplicate.json", "case", []string{"AQP-D21"}},
	{"paired/identifiers.json", "case", []string{"AQP-D21", "AQP-PAIR-QUERY-MISMATCH"}},
	{"paired/identifiers.json", "request-response", []string{"AQP-PAIR-QUERY-MISMATCH"}},
	{"paired/subject-respondent.json", "idScope", []string{"AQP-PAIR-SUBJECT-MISMATCH", "AQP-D3"}},
	{"paired/subject-respondent.json", "subject", []string{"AQP-PAIR-SUBJECT-MISMATCH", "AQP-D3"}},
	{"paired/subject-respondent.json", "respondent", []string{"AQP-PAIR-RESPONDENT-MISMATCH", "AQP-D1"}},
	{"paired/order.json", "", []string{"AQP-PAIR-ORDER"}},
	{"paired/quickstart.json", "standalone", []string{"AQP-D14"}},
	{"paired/subject-respondent.json", "requestedRespondent", []string{"AQP-PAIR-RESPONDENT-MISMATCH", "AQP-D1"}},
	// The pass side of the rules on how failures are reported: a valid document, or a valid exchange, gets no
	// error at all — nothing spurious, nothing shallow, no paired code — while every check still runs.
	{"standalone/quickstart.json", "-is-valid", []string{"AQP-VAL-ERROR-SHAPE", "AQP-VAL-DEEPEST"}},
	{"paired/quickstart.json", "quickstart-triple", []string{"AQP-D14", "AQP-PAIR-ORDER", "AQP-PAIR-QUERY-MISMATCH", "AQP-PAIR-RESPONSE-MISMATCH"}},
	{"paired/quickstart.json", "response-and-receipt-without-request", []string{"AQP-D14", "AQP-PAIR-RESPONSE-MISMATCH"}},
	{"paired/quickstart.json", "request-only", []string{"AQP-D14", "AQP-SEED-REQUEST"}},
	// A document holding every member its schema defines has no unknown one; the full request reaches the subject
	// schema through a relative $ref, which must resolve offline.
	{"standalone/request.json", "request/full/", []string{"AQP-OBJ-UNKNOWN-MEMBER", "AQP-OBJ-DIALECT"}},
	{"standalone/response.json", "response/full/", []string{"AQP-OBJ-UNKNOWN-MEMBER"}},
	// A member that must be absent and is absent (D7's pass side).
	{"standalone/request.json", "without-consentScope-is-valid", []string{"AQP-D7"}},
	{"standalone/receipt.json", "receipt/accepted/", []string{"AQP-D7"}},
	// The receipt schema's conditionals (D6): they hold for a receipt with its status, and a receipt without one
	// gets only /status required, no branch holding vacuously.
	{"standalone/receipt.json", "receipt/accepted/", []string{"AQP-D6"}},
	{"standalone/receipt.json", "receipt/rejected/", []string{"AQP-D6"}},
	{"standalone/receipt.json", "status/absent", []string{"AQP-D6"}},
	// What a collector may write in a receipt's error (D8): the codes and pointers the schema takes, and not others.
	{"standalone/receipt.json", "error.code/", []string{"AQP-D8"}},
	{"standalone/receipt.json", "error.pointer/", []string{"AQP-D8"}},
	// A duplicate's receipt carries the first receipt's continuation (D18): the same one passes, another or none
	// fails.
	{"paired/duplicate.json", "duplicate-with-the-same-continuation", []string{"AQP-D18"}},
	{"paired/duplicate.json", "continuation-differs", []string{"AQP-D18"}},
	{"paired/duplicate.json", "continuation-missing-on-duplicate", []string{"AQP-D18"}},
}

func byName(file, name string) []string {
	var out []string
	for _, r := range nameRequirements {
		if r.file == file && strings.Contains(name, r.part) {
			out = append(out, r.ids...)
		}
	}
	return out
}

func (v sv) requirements(file string) []string {
	ids := append([]string{}, kindRequirements[v.kind]...)
	ids = append(ids, byName(file, v.name)...)
	if !v.valid {
		ids = append(ids, "AQP-VAL-ERROR-SHAPE", "AQP-VAL-DEEPEST")
		for _, e := range v.errs {
			ids = append(ids, keywordRequirements[e.keyword]...)
			if e.keyword == "size" {
				switch {
				case strings.HasPrefix(e.pointer, "/response/jsonSchema"):
					ids = append(ids, "AQP-D24")
				case v.text == nil:
					ids = append(ids, "AQP-D22")
				default:
					ids = append(ids, "AQP-D13")
				}
			}
		}
	}
	return sorted(ids)
}

func (v pv) requirements(file string) []string {
	ids := byName(file, v.name)
	for _, c := range v.codes {
		ids = append(ids, codeRequirements[c]...)
	}
	if len(v.codes) > 1 {
		ids = append(ids, "AQP-PAIR-ORDER")
	}
	return sorted(ids)
}

func sorted(ids []string) []string {
	set := map[string]bool{}
	for _, id := range ids {
		set[id] = true
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
