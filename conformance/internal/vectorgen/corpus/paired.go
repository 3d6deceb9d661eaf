package corpus

import "strings"

import (
	"fmt"
	"unicode/utf8"
)

func pairedQuickstartVectors() []pv {
	return []pv{
		pairOK("paired/valid/quickstart-triple",
			"The Quickstart's exchange (with the corrected request) passes every paired check: the ids tie the three together, the subjects match though only the request carries idScope (D3), the respondent is the requested agent, and partly is one of the choices.",
			request(), response(), receipt(), nil),
		pairOK("paired/valid/request-only",
			"A pair holding only a request has no check to run.",
			request(), nil, nil, nil),
		pairOK("paired/valid/response-and-receipt-without-request",
			"The response–receipt checks run without the request.",
			nil, response(), receipt(), nil),
		pairBad("paired/standalone/quickstart-request-as-published-contributes-invalid_request",
			"The published Quickstart request is invalid on its own (D2); it contributes invalid_request, and the checks that read it do not run, while the response–receipt checks still do and pass.",
			quickstartRequest(), response(), receipt(), nil, "invalid_request"),
		pairBad("paired/standalone/invalid-response-stops-the-checks-that-read-it",
			"A response without createdAt is invalid on its own; its wrong answer and subject are not reported, because a check runs only over documents valid on their own.",
			request(), with(response(), del("/createdAt"), set("/answer", "maybe"), set("/subject/id", "call_OTHER")), receipt(), nil, "invalid_response"),
		pairBad("paired/standalone/continuation-on-rejected-receipt-is-invalid_receipt",
			"A continuation on a rejected receipt is forbidden by the receipt schema itself, so it surfaces as invalid_receipt, not continuation_mismatch.",
			request(), response(), with(rejectedReceipt(), set("/continuation", continuation())), nil, "invalid_receipt"),
		pairBad("paired/standalone/uncompilable-jsonSchema-is-invalid_request",
			"A request whose jsonSchema needs a remote $ref is invalid (§3); the answer is not checked against a contract that does not exist.",
			with(request(), set("/response", obj("format", "structured", "jsonSchema", obj("$ref", "https://schemas.example/answer.schema.json")))),
			with(response(), set("/answer", obj("anything", true))), nil, nil, "invalid_request"),
		pairBad("paired/standalone/invalid-duplicate-is-invalid_receipt",
			"The duplicate is a receipt: invalid on its own it contributes invalid_receipt, and the equivalence check does not run.",
			nil, response(), receipt(), with(receipt(), set("/status", "pending")), "invalid_receipt"),
		pairBad("paired/standalone/standalone-codes-in-role-order",
			"Every invalid document contributes its standalone code, in the order request, response, receipt.",
			quickstartRequest(), with(response(), del("/answer")), with(receipt(), del("/status")), nil,
			"invalid_request", "invalid_response", "invalid_receipt"),
		pairBad("paired/standalone/standalone-codes-come-before-paired-codes",
			"An invalid request's code comes before the paired code of the valid response–receipt pair.",
			quickstartRequest(), response(), with(receipt(), set("/responseId", otherID)), nil,
			"invalid_request", "response_mismatch"),
	}
}

func identifierVectors() []pv {
	return []pv{
		pairBad("paired/query_mismatch/request-response",
			"A response answers the query whose queryId it carries; another queryId means it answers another query.",
			request(), with(response(), set("/queryId", otherID)), nil, nil, "query_mismatch"),
		pairBad("paired/query_mismatch/response-receipt",
			"A receipt is for the query the response answers; a receipt naming another queryId belongs to another exchange.",
			nil, response(), with(receipt(), set("/queryId", otherID)), nil, "query_mismatch"),
		pairBad("paired/query_mismatch/both-pairs-report-the-code-once",
			"The response's queryId differs from both the request's and the receipt's: two failures, one code.",
			request(), with(response(), set("/queryId", otherID)), receipt(), nil, "query_mismatch"),
		pairBad("paired/query_mismatch/receipt-differs-with-request-present",
			"The request and response agree; the receipt names another query.",
			request(), response(), with(receipt(), set("/queryId", otherID)), nil, "query_mismatch"),
		pairBad("paired/response_mismatch/receipt-responseId-differs",
			"A receipt is for one response; a receipt naming another responseId is not this response's receipt.",
			nil, response(), with(receipt(), set("/responseId", otherID)), nil, "response_mismatch"),
		pairBad("paired/response_mismatch/with-request-present",
			"response_mismatch with the whole exchange present.",
			request(), response(), with(receipt(), set("/responseId", otherID)), nil, "response_mismatch"),
		pairBad("paired/query_mismatch/and-response_mismatch-in-order",
			"A receipt for a different query and response reports query_mismatch, then response_mismatch.",
			nil, response(), with(receipt(), set("/queryId", otherID), set("/responseId", otherID)), nil, "query_mismatch", "response_mismatch"),
		pairOK("paired/valid/request-response-without-receipt",
			"The request–response checks run without a receipt.",
			request(), response(), nil, nil),
		pairOK("paired/valid/uuids-compare-case-insensitively",
			"RFC 4122 hex digits are case-insensitive on input (D21): a response and a receipt that write the ids in upper case name the same query and response.",
			request(), with(response(), set("/queryId", strings.ToUpper(queryID))), with(receipt(), set("/responseId", strings.ToUpper(responseID))), nil),
	}
}

func subjectRespondentVectors() []pv {
	return []pv{
		pairBad("paired/subject_mismatch/different-id",
			"Subjects match only when kind, id and protocol are equal (D3): the response is about another tool call.",
			request(), with(response(), set("/subject/id", "call_01JQ8QY3EJXA")), nil, nil, "subject_mismatch"),
		pairBad("paired/subject_mismatch/id-differs-only-in-case",
			"Subject ids are compared exactly: case matters.",
			request(), with(response(), set("/subject/id", "CALL_01JQ8QY3EJX9")), nil, nil, "subject_mismatch"),
		pairBad("paired/subject_mismatch/different-kind",
			"The same id under another kind (tool_result, not tool_call) is another subject.",
			request(), with(response(), set("/subject/kind", "tool_result")), nil, nil, "subject_mismatch"),
		pairBad("paired/subject_mismatch/different-protocol",
			"The same id under another protocol (a2a, not mcp) is another subject.",
			request(), with(response(), set("/subject/protocol", "a2a")), nil, nil, "subject_mismatch"),
		pairBad("paired/subject_mismatch/protocol-on-one-side-only",
			"protocol is compared like kind and id (D3): present on one side and absent on the other, it is not equal.",
			request(), with(response(), del("/subject/protocol")), nil, nil, "subject_mismatch"),
		pairBad("paired/subject_mismatch/idScope-differs-when-both-carry-it",
			"idScope is compared when both subjects carry it (D3): a local id and a global id are different identifiers.",
			request(), with(response(), set("/subject/idScope", "global")), nil, nil, "subject_mismatch"),
		pairOK("paired/valid/idScope-on-one-side-only",
			"idScope present only in the request (as in the Quickstart) is not a mismatch (D3).",
			request(), response(), nil, nil),
		pairOK("paired/valid/idScope-on-response-only",
			"idScope present only in the response is not a mismatch either (D3).",
			with(request(), del("/subject/idScope")), with(response(), set("/subject/idScope", "global")), nil, nil),
		pairOK("paired/valid/idScope-equal-on-both-sides",
			"idScope equal on both sides matches.",
			request(), with(response(), set("/subject/idScope", "local")), nil, nil),
		pairOK("paired/valid/subject-without-optional-members-on-both-sides",
			"Subjects with only kind and id match when those are equal.",
			with(request(), set("/subject", obj("kind", "task", "id", "task-42"))),
			with(response(), set("/subject", obj("kind", "task", "id", "task-42"))), nil, nil),
		pairBad("paired/respondent_mismatch/human-requested-agent-answered",
			"The request asks a human; an agent's answer is not what was asked for.",
			with(request(), set("/requestedRespondent", "human")), response(), nil, nil, "respondent_mismatch"),
		pairBad("paired/respondent_mismatch/system-requested-human-answered",
			"The request asks a system; a human's answer is not what was asked for.",
			with(request(), set("/requestedRespondent", "system")), with(response(), set("/respondent/kind", "human")), nil, nil, "respondent_mismatch"),
		pairOK("paired/valid/requestedRespondent-any-accepts-every-kind",
			"requestedRespondent any accepts a respondent of any kind.",
			with(request(), set("/requestedRespondent", "any")), with(response(), set("/respondent/kind", "human")), nil, nil),
		pairOK("paired/valid/requestedRespondent-absent-accepts-every-kind",
			"Without requestedRespondent any respondent may answer.",
			with(request(), del("/requestedRespondent")), with(response(), set("/respondent/kind", "system")), nil, nil),
		pairOK("paired/valid/requestedRespondent-equal-to-respondent-kind",
			"A human answering a query for a human matches.",
			with(request(), set("/requestedRespondent", "human")), with(response(), set("/respondent/kind", "human"), set("/respondent/provenance", "relayed")), nil, nil),
	}
}

func answerVectors() []pv {
	contract := func(r object) any { return with(request(), set("/response", r)) }
	answer := func(a any) any { return with(response(), set("/answer", a)) }
	text5 := contract(obj("format", "text", "maxLength", 5))
	choice := request()
	boolean := contract(obj("format", "boolean"))
	number := contract(obj("format", "number"))
	structured := structuredRequest()

	// A structured answer whose compact JSON has more bytes than code points, so that counting bytes gives the
	// wrong verdict at the limit.
	wide := obj("summary", "r\u00e9sum\u00e9 "+grinning, "rating", 4)
	wideLen := utf8.RuneCountInString(canonicalText(wide))
	wideContract := func(max int) any {
		return contract(obj("format", "structured", "jsonSchema", obj("type", "object"), "maxLength", max))
	}

	// A structured answer written with escapes, whose canonical form is much shorter than its text, and one
	// written with an exponent, whose canonical form is longer.
	escaped := rawJSON(`{"s":"\u00e9\u00e9\u00e9\u00e9"}`)
	escapedLen := utf8.RuneCountInString(canonicalText(escaped))
	shortNumber := rawJSON(`[1e20]`)
	shortNumberLen := utf8.RuneCountInString(canonicalText(shortNumber))
	lengthContract := func(schema object, max int) any {
		return contract(obj("format", "structured", "jsonSchema", schema, "maxLength", max))
	}

	v := []pv{
		// text
		pairOK("paired/valid/text-at-maxLength-in-two-byte-code-points",
			"ééééé is 5 code points (10 bytes): at maxLength 5, valid. maxLength counts code points (D5).",
			text5, answer(rep(eAcute, 5)), nil, nil),
		pairOK("paired/valid/text-at-maxLength-in-astral-code-points",
			"5 × U+1F600 is 5 code points (20 bytes, 10 UTF-16 units): at maxLength 5, valid.",
			text5, answer(rep(grinning, 5)), nil, nil),
		pairBad("paired/answer_invalid/text-over-maxLength",
			"6 × U+1F600 is 6 code points: past maxLength 5.",
			text5, answer(rep(grinning, 6)), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/text-over-maxLength-in-combining-marks",
			"3 × e + U+0301 looks like 3 characters but is 6 code points: past maxLength 5.",
			text5, answer(rep(eComb, 3)), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/text-maxLength-written-5.0-is-enforced",
			"maxLength 5.0 is the integer 5 in JSON Schema 2020-12 (the request is valid), so the contract must enforce it: a 6-character answer is too long.",
			contract(obj("format", "text", "maxLength", num("5.0"))), answer("abcdef"), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/text-given-a-number",
			"A text answer is a string.",
			text5, answer(42), nil, nil, "answer_invalid"),
		pairOK("paired/valid/text-without-maxLength-is-unbounded",
			"Without maxLength a text answer has no length bound in the contract.",
			contract(obj("format", "text")), answer(rep("long ", 200)), nil, nil),

		// choice
		pairOK("paired/valid/choice-in-set", "no is one of yes, partly, no.", choice, answer("no"), nil, nil),
		pairBad("paired/answer_invalid/choice-not-in-set", "maybe is not one of yes, partly, no.", choice, answer("maybe"), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/choice-differs-in-case", "Choices compare as exact strings: Yes is not yes.", choice, answer("Yes"), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/choice-with-trailing-space", "yes followed by a space is not yes: no trimming.", choice, answer("yes "), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/choice-given-its-index", "The answer is the choice itself, not its index.", choice, answer(0), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/choice-is-not-unicode-normalised",
			"The choice is café with precomposed é (U+00E9); the answer spells it e + U+0301. Strings compare by code point, without normalisation.",
			contract(obj("format", "choice", "choices", arr("caf"+eAcute, "th"+eAcute))), answer("caf"+eComb), nil, nil, "answer_invalid"),

		// boolean
		pairOK("paired/valid/boolean-true", "true is a boolean answer.", boolean, answer(true), nil, nil),
		pairOK("paired/valid/boolean-false", "false is a boolean answer (and a present one).", boolean, answer(false), nil, nil),
		pairBad("paired/answer_invalid/boolean-given-string-true", "The string \"true\" is not the boolean true.", boolean, answer("true"), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/boolean-given-1", "1 is a number, not a boolean.", boolean, answer(1), nil, nil, "answer_invalid"),

		// number
		pairOK("paired/valid/number-zero", "0 is a number answer.", number, answer(0), nil, nil),
		pairOK("paired/valid/number-negative-fraction", "-17.25 is a number answer.", number, answer(num("-17.25")), nil, nil),
		pairOK("paired/valid/number-exponent", "1e3 is a JSON number.", number, answer(num("1e3")), nil, nil),
		pairOK("paired/valid/number-beyond-64-bits", "123456789012345678901234567890 is a JSON number, however large.", number, answer(num("123456789012345678901234567890")), nil, nil),
		pairBad("paired/answer_invalid/number-given-a-string", "\"42\" is a string, not a number.", number, answer("42"), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/number-given-a-boolean", "true is not a number.", number, answer(true), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/number-rejected-by-jsonSchema",
			"With format number a jsonSchema still applies (§3): 2.5 is a number but not an integer.",
			contract(obj("format", "number", "jsonSchema", obj("type", "integer", "minimum", 1, "maximum", 5))), answer(num("2.5")), nil, nil, "answer_invalid"),
		pairOK("paired/valid/number-4.0-is-an-integer-for-jsonSchema",
			"4.0 is an integer in JSON Schema 2020-12, so jsonSchema type integer accepts it.",
			contract(obj("format", "number", "jsonSchema", obj("type", "integer", "minimum", 1, "maximum", 5))), answer(num("4.0")), nil, nil),

		// structured
		pairOK("paired/valid/structured-nested-answer", "A nested answer valid against the request's jsonSchema.", structured, answer(structuredAnswer()), nil, nil),
		pairBad("paired/answer_invalid/structured-nested-type-failure",
			"The jsonSchema is applied in depth: details.steps[1].ok is a string where a boolean is required; the error points at /answer/details/steps/1/ok.",
			structured, answer(with(structuredAnswer(), set("/details/steps/1/ok", "no"))), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/structured-nested-missing-member",
			"details.steps[0] lacks its required id; the error points at /answer/details/steps/0/id.",
			structured, answer(with(structuredAnswer(), del("/details/steps/0/id"))), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/structured-unknown-member",
			"The jsonSchema forbids extra members; the error points at /answer/comment.",
			structured, answer(with(structuredAnswer(), set("/comment", "great"))), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/structured-given-a-string",
			"A structured answer must satisfy its jsonSchema, which asks for an object.",
			structured, answer("rating: 4"), nil, nil, "answer_invalid"),
		pairOK("paired/valid/structured-at-maxLength-counted-on-compact-json",
			fmt.Sprintf("The answer's canonical JSON (D12: RFC 8785, numbers by exact value) %s is %d code points (more bytes): at maxLength %d, valid, although the document's indented text of the answer is longer.", canonicalText(wide), wideLen, wideLen),
			wideContract(wideLen), answer(wide), nil, nil),
		pairBad("paired/answer_invalid/structured-over-maxLength-counted-on-compact-json",
			fmt.Sprintf("The same answer (%d code points canonical) against maxLength %d is one past the limit.", wideLen, wideLen-1),
			wideContract(wideLen-1), answer(wide), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/structured-string-maxLength-counts-the-quotes",
			"The canonical JSON of the string abcd is \"abcd\", 6 code points: past maxLength 5.",
			contract(obj("format", "structured", "jsonSchema", obj("type", "string"), "maxLength", 5)), answer("abcd"), nil, nil, "answer_invalid"),
		pairOK("paired/valid/structured-string-at-maxLength-with-quotes",
			"The canonical JSON of abc is \"abc\", 5 code points: at maxLength 5.",
			contract(obj("format", "structured", "jsonSchema", obj("type", "string"), "maxLength", 5)), answer("abc"), nil, nil),

		// D12: counted on the canonical encoding, not on the text as written.
		pairOK("paired/valid/structured-maxLength-counts-canonical-not-escapes",
			fmt.Sprintf("The answer is written %s (%d code points as written, escapes and all) but its canonical JSON is %s, %d code points: at maxLength %d, valid. Counting the text as written would make the verdict depend on the respondent's encoder.",
				compact(escaped), utf8.RuneCountInString(compact(escaped)), canonicalText(escaped), escapedLen, escapedLen),
			lengthContract(obj("type", "object"), escapedLen), answer(escaped), nil, nil),
		pairBad("paired/answer_invalid/structured-maxLength-one-below-canonical-with-escapes",
			fmt.Sprintf("The same escaped answer against maxLength %d: its canonical JSON (%d code points) is one past the limit.", escapedLen-1, escapedLen),
			lengthContract(obj("type", "object"), escapedLen-1), answer(escaped), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/structured-maxLength-counts-numbers-canonically",
			fmt.Sprintf("The answer is written %s, %d code points, exactly at maxLength %d; its canonical JSON %s (numbers by ECMAScript's rules on the exact value) is %d code points: past the limit.",
				compact(shortNumber), utf8.RuneCountInString(compact(shortNumber)), utf8.RuneCountInString(compact(shortNumber)), canonicalText(shortNumber), shortNumberLen),
			lengthContract(obj("type", "array"), utf8.RuneCountInString(compact(shortNumber))), answer(shortNumber), nil, nil, "answer_invalid"),
		pairOK("paired/valid/structured-maxLength-at-canonical-number-length",
			fmt.Sprintf("The same answer %s at maxLength %d, its canonical length: valid.", compact(shortNumber), shortNumberLen),
			lengthContract(obj("type", "array"), shortNumberLen), answer(shortNumber), nil, nil),

		// Patterns and formats inside a jsonSchema by their own dialects (D41).
		pairOK("paired/valid/ecma-262-whitespace-matches-a-no-break-space",
			"\\s is ECMA-262's whitespace, which holds U+00A0 (RE2's \\s does not): the answer matches (D41).",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "pattern", "^a\\sb$"))), answer("a\u00a0b"), nil, nil),
		pairBad("paired/answer_invalid/ecma-262-dot-does-not-match-a-line-separator",
			"ECMA-262's . matches no line terminator, U+2028 included (RE2's matches it): the answer fails the pattern (D41).",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "pattern", "^a.b$"))), answer("a\u2028b"), nil, nil, "answer_invalid"),
		pairBad("paired/answer_invalid/uri-reference-with-a-space",
			"format uri-reference is RFC 3986's URI-reference, which holds no space: \"a b\" fails (D41).",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "format", "uri-reference"))), answer("a b"), nil, nil, "answer_invalid"),
		pairOK("paired/valid/uri-reference-relative",
			"A relative reference is a URI-reference (D41).",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "format", "uri-reference"))), answer("../a/b?c=d#e"), nil, nil),
		pairBad("paired/answer_invalid/format-regex-with-a-lookahead",
			"format regex is ECMA-262 too: a lookahead is a regex RE2 cannot evaluate, so the answer is not one this validator can vouch for (D41).",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "format", "regex"))), answer("(?=a)b"), nil, nil, "answer_invalid"),

		// jsonSchema whatever the format.
		pairBad("paired/answer_invalid/jsonSchema-applies-to-text",
			"A jsonSchema applies whatever the format (§3): the text Partly fails its pattern.",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "pattern", "^[a-z]+$"))), answer("Partly"), nil, nil, "answer_invalid"),
		pairOK("paired/valid/jsonSchema-accepts-text",
			"The same contract accepts partly.",
			contract(obj("format", "text", "jsonSchema", obj("type", "string", "pattern", "^[a-z]+$"))), answer("partly"), nil, nil),
		pairBad("paired/answer_invalid/jsonSchema-applies-to-choice",
			"A choice in the set can still be refused by the jsonSchema.",
			contract(obj("format", "choice", "choices", arr("yes", "partly", "no"), "jsonSchema", obj("not", obj("const", "partly")))), response(), nil, nil, "answer_invalid"),
	}
	// null, for every format.
	for _, c := range []struct {
		format string
		req    any
	}{
		{"text", text5}, {"choice", choice}, {"boolean", boolean}, {"number", number},
		{"structured", contract(obj("format", "structured", "jsonSchema", obj("type", "object")))},
	} {
		v = append(v, pairBad("paired/answer_invalid/null-for-format-"+c.format,
			fmt.Sprintf("A null answer is schema-valid (answer is any JSON value) but never satisfies format %s.", c.format),
			c.req, answer(nil), nil, nil, "answer_invalid"))
	}
	return v
}

func consentExpiryVectors() []pv {
	askOnce := with(request(), set("/consentMode", "ask_once"), set("/consentScope", scope))
	askAlways := with(request(), set("/consentMode", "ask_always"))
	withConsent := func(c object) any { return with(response(), set("/consent", c)) }
	at := func(ts string) func(object) object {
		return func(c object) object { return with(c, set("/obtainedAt", ts)).(object) }
	}
	created := func(ts string) any { return with(response(), set("/createdAt", ts)) }
	return []pv{
		pairBad("paired/consent_required/ask_once-without-consent",
			"consentMode ask_once: the response must show the consent it was given under.",
			askOnce, response(), nil, nil, "consent_required"),
		pairBad("paired/consent_required/ask_always-without-consent",
			"consentMode ask_always: the response must show this query's consent.",
			askAlways, response(), nil, nil, "consent_required"),
		pairOK("paired/valid/ask_once-with-matching-scope",
			"ask_once with consent whose scope equals the request's consentScope.",
			askOnce, withConsent(consent(scope)), nil, nil),
		pairOK("paired/valid/ask_always-without-scope",
			"ask_always with consent and no scope.",
			askAlways, withConsent(consent("")), nil, nil),
		pairOK("paired/valid/not_required-with-consent",
			"Consent a request did not require does no harm.",
			request(), withConsent(consent("")), nil, nil),
		pairBad("paired/consent_mismatch/ask_once-scope-differs",
			"ask_once: the grant must be for the scope the request names, not another.",
			askOnce, withConsent(consent("all-feedback")), nil, nil, "consent_mismatch"),
		pairBad("paired/consent_mismatch/ask_once-scope-absent",
			"ask_once: a consent without a scope does not show it covers the request's consentScope.",
			askOnce, withConsent(consent("")), nil, nil, "consent_mismatch"),
		pairBad("paired/consent_mismatch/ask_always-with-scope",
			"ask_always: consent is for this query alone, so it carries no scope.",
			askAlways, withConsent(consent(scope)), nil, nil, "consent_mismatch"),
		pairBad("paired/consent_mismatch/obtainedAt-after-createdAt",
			"Consent obtained after the answer was created did not cover it.",
			askOnce, withConsent(at("2026-07-30T17:05:13Z")(consent(scope))), nil, nil, "consent_mismatch"),
		pairBad("paired/consent_mismatch/obtainedAt-after-createdAt-even-when-not-required",
			"The obtainedAt rule holds whatever the consentMode: a consent claimed after the fact is inconsistent.",
			request(), withConsent(at("2026-07-30T17:06:00Z")(consent(""))), nil, nil, "consent_mismatch"),
		pairOK("paired/valid/obtainedAt-equal-to-createdAt",
			"Consent obtained at the very instant the answer was created is not after it.",
			askOnce, withConsent(at(createdAt)(consent(scope))), nil, nil),
		pairOK("paired/valid/obtainedAt-compared-as-an-instant",
			"obtainedAt 18:05:00+01:00 is 17:05:00Z, before createdAt 17:05:12Z, though it sorts after it as text: instants are compared, not strings.",
			askOnce, withConsent(at("2026-07-30T18:05:00+01:00")(consent(scope))), nil, nil),
		pairBad("paired/consent_mismatch/obtainedAt-later-instant-with-negative-offset",
			"obtainedAt 16:06:00-01:00 is 17:06:00Z, after createdAt 17:05:12Z, though it sorts before it as text.",
			askOnce, withConsent(at("2026-07-30T16:06:00-01:00")(consent(scope))), nil, nil, "consent_mismatch"),
		pairBad("paired/consent_mismatch/two-failures-one-code",
			"Wrong scope and obtained too late: two failures, reported under one code.",
			askOnce, withConsent(at("2026-07-30T18:00:00Z")(consent("all-feedback"))), nil, nil, "consent_mismatch"),
		pairBad("paired/expired/createdAt-after-expiresAt",
			"An answer created after the query expired answers nothing.",
			request(), created("2026-07-30T19:00:01Z"), nil, nil, "expired"),
		pairBad("paired/expired/by-one-millisecond",
			"Fractions of a second count: 19:00:00.001Z is after 19:00:00Z.",
			request(), created("2026-07-30T19:00:00.001Z"), nil, nil, "expired"),
		pairOK("paired/valid/createdAt-equal-to-expiresAt",
			"expired means createdAt strictly after expiresAt; the expiry instant itself is still in time.",
			request(), created(expiresAt), nil, nil),
		pairOK("paired/valid/createdAt-with-offset-before-expiry",
			"createdAt 20:30:00+02:00 is 18:30:00Z, before expiresAt 19:00:00Z, though it sorts after it as text.",
			request(), created("2026-07-30T20:30:00+02:00"), nil, nil),
		pairBad("paired/expired/createdAt-with-offset-after-expiry",
			"createdAt 18:30:00-01:00 is 19:30:00Z, after expiresAt 19:00:00Z, though it sorts before it as text.",
			request(), created("2026-07-30T18:30:00-01:00"), nil, nil, "expired"),
	}
}

func continuationVectors() []pv {
	cont := func(muts ...mutation) any {
		prefixed := make([]mutation, len(muts))
		for i, m := range muts {
			m.ptr = "/continuation" + m.ptr
			prefixed[i] = m
		}
		return with(continuedReceipt(), prefixed...)
	}
	return []pv{
		pairOK("paired/valid/accepted-receipt-with-correct-continuation",
			"A continuation with a new queryId, the response as its subject ({kind: response, id: responseId, protocol: aqp}) and an expiry after receivedAt is correct.",
			request(), response(), continuedReceipt(), nil),
		pairOK("paired/valid/continuation-subject-with-idScope-global",
			"A collector may say the response id is global, as a UUID is (D23); the check compares kind, id and protocol and leaves idScope alone.",
			request(), response(), cont(set("/subject/idScope", "global")), nil),
		pairOK("paired/valid/continuation-checked-without-request",
			"The continuation check reads only the response and the receipt.",
			nil, response(), continuedReceipt(), nil),
		pairBad("paired/continuation_mismatch/same-queryId",
			"A continuation is a new query; reusing the answered query's queryId would make two queries one.",
			request(), response(), cont(set("/queryId", queryID)), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/subject-id-is-not-the-responseId",
			"A continuation is about the response it follows: its subject id must be that responseId.",
			request(), response(), cont(set("/subject/id", otherID)), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/subject-kind-is-not-response",
			"A continuation's subject is the response (kind response), not the original tool call.",
			request(), response(), cont(set("/subject", obj("kind", "tool_call", "id", "call_01JQ8QY3EJX9", "protocol", "mcp"))), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/subject-protocol-is-not-aqp",
			"A continuation's subject is an AQP response: protocol aqp.",
			request(), response(), cont(set("/subject/protocol", "https")), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/subject-protocol-absent",
			"protocol aqp is part of the required subject; absent is not aqp.",
			request(), response(), cont(del("/subject/protocol")), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/expiresAt-equal-to-receivedAt",
			"A continuation must expire after the receipt is issued; expiring at that very instant leaves no time to answer.",
			request(), response(), cont(set("/expiresAt", receivedAt)), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/expiresAt-before-receivedAt",
			"A continuation already expired when issued can never be answered.",
			request(), response(), cont(set("/expiresAt", "2026-07-30T17:00:00Z")), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/expiresAt-with-offset-not-after-receivedAt",
			"expiresAt 18:05:13+01:00 is 17:05:13Z, equal to receivedAt, though it sorts after it as text.",
			request(), response(), cont(set("/expiresAt", "2026-07-30T18:05:13+01:00")), nil, "continuation_mismatch"),
		pairBad("paired/continuation_mismatch/three-failures-one-code",
			"Same queryId, wrong subject and expired: three failures, one code.",
			nil, response(), cont(set("/queryId", queryID), set("/subject/id", otherID), set("/expiresAt", receivedAt)), nil, "continuation_mismatch"),
	}
}

func duplicateVectors() []pv {
	rejectedWith := func(code string) object {
		return with(rejectedReceipt(), set("/error/code", code)).(object)
	}
	return []pv{
		pairOK("paired/valid/duplicate-identical-to-receipt",
			"A duplicate submission that gets the very same receipt.",
			request(), response(), receipt(), receipt()),
		pairOK("paired/valid/duplicate-differs-only-in-receivedAt",
			"receivedAt records when each submission arrived; it is not part of equivalence.",
			request(), response(), receipt(), with(receipt(), set("/receivedAt", "2026-07-30T17:09:00Z"))),
		pairOK("paired/valid/duplicate-with-the-same-continuation",
			"Every duplicate's receipt carries the same continuation (§5).",
			request(), response(), continuedReceipt(), with(continuedReceipt(), set("/receivedAt", "2026-07-30T17:09:00Z"))),
		pairOK("paired/valid/duplicate-continuation-with-members-in-another-order",
			"Continuations are compared as JSON values: member order does not matter.",
			nil, response(), continuedReceipt(), with(receipt(), set("/continuation", reversed(continuation())))),
		pairOK("paired/valid/rejected-duplicate-differs-only-in-message-and-pointer",
			"error.message is for people and error.pointer a detail; equivalence compares error.code.",
			nil, nil, rejectedReceipt(), with(rejectedReceipt(), set("/error/message", "answer not in choices"), del("/error/pointer"))),
		pairOK("paired/valid/retryable-duplicate-differs-only-in-retryAfter",
			"retryAfter may change between attempts; it is not part of equivalence.",
			nil, nil, retryableReceipt(), with(retryableReceipt(), set("/retryAfter", 90))),
		pairOK("paired/valid/duplicate-ids-differ-only-in-case",
			"UUIDs are compared without regard to case (D21): a duplicate's receipt that writes the same queryId and responseId in upper case is equivalent.",
			nil, nil, receipt(), with(receipt(), set("/queryId", strings.ToUpper(queryID)), set("/responseId", strings.ToUpper(responseID)))),
		pairBad("paired/receipt_not_equivalent/status-differs",
			"A duplicate of an accepted response must be accepted too; here it is rejected (status and error.code differ, one code).",
			request(), response(), receipt(), rejectedWith("answer_invalid"), "receipt_not_equivalent"),
		pairBad("paired/receipt_not_equivalent/retryable-and-code-differ",
			"Both rejected, one final, the other retryable: retryable follows the code (D39), so a retryable duplicate of a final rejection differs in both.",
			nil, nil, rejectedReceipt(), with(rejectedReceipt(), set("/error/code", "unavailable"), set("/retryable", true)), "receipt_not_equivalent"),
		pairBad("paired/receipt_not_equivalent/error-code-differs",
			"Both rejected, for different reasons.",
			nil, nil, rejectedWith("answer_invalid"), rejectedWith("subject_mismatch"), "receipt_not_equivalent"),
		pairBad("paired/receipt_not_equivalent/continuation-differs",
			"Duplicates must carry the same continuation, not a second follow-up query.",
			nil, response(), continuedReceipt(), with(continuedReceipt(), set("/continuation/queryId", otherID)), "receipt_not_equivalent"),
		pairBad("paired/receipt_not_equivalent/continuation-missing-on-duplicate",
			"The first receipt carried a continuation; the duplicate's must too.",
			nil, response(), continuedReceipt(), receipt(), "receipt_not_equivalent"),
		pairBad("paired/receipt_not_equivalent/queryId-differs",
			"A duplicate's receipt is for the same query.",
			nil, nil, receipt(), with(receipt(), set("/queryId", otherID)), "receipt_not_equivalent"),
		pairBad("paired/receipt_not_equivalent/responseId-differs",
			"A duplicate's receipt is for the same response.",
			nil, nil, receipt(), with(receipt(), set("/responseId", otherID)), "receipt_not_equivalent"),
	}
}

func orderVectors() []pv {
	req := with(request(),
		set("/requestedRespondent", "human"),
		set("/consentMode", "ask_once"),
		set("/consentScope", scope),
	)
	resp := with(response(),
		set("/queryId", otherID),
		set("/subject/id", "call_OTHER"),
		set("/answer", "maybe"),
		set("/createdAt", "2026-07-30T19:30:00Z"),
	)
	return []pv{
		pairBad("paired/order/every-request-response-check",
			"A response failing every request–response check reports query_mismatch, subject_mismatch, respondent_mismatch, answer_invalid, consent_required and expired, in that pinned order.",
			req, resp, nil, nil,
			"query_mismatch", "subject_mismatch", "respondent_mismatch", "answer_invalid", "consent_required", "expired"),
		pairBad("paired/order/consent_mismatch-before-expired",
			"With a consent of the wrong scope, consent_mismatch takes consent_required's place, still before expired.",
			req, with(resp, set("/consent", consent("all-feedback"))), nil, nil,
			"query_mismatch", "subject_mismatch", "respondent_mismatch", "answer_invalid", "consent_mismatch", "expired"),
		pairBad("paired/order/response-receipt-and-duplicate-checks",
			"query_mismatch and response_mismatch come first, then continuation_mismatch, then receipt_not_equivalent.",
			nil, response(),
			with(continuedReceipt(), set("/queryId", otherID), set("/responseId", otherID), set("/continuation/queryId", queryID)),
			receipt(),
			"query_mismatch", "response_mismatch", "continuation_mismatch", "receipt_not_equivalent"),
		pairBad("paired/order/whole-exchange",
			"Request–response failures come before the response–receipt checks that follow them: answer_invalid before continuation_mismatch.",
			request(), with(response(), set("/answer", "maybe")),
			with(continuedReceipt(), set("/continuation/expiresAt", receivedAt)), nil,
			"answer_invalid", "continuation_mismatch"),
	}
}

// reversed returns the object with its members in reverse order.
func reversed(o object) object {
	out := make(object, len(o))
	for i, m := range o {
		out[len(o)-1-i] = m
	}
	return out
}
