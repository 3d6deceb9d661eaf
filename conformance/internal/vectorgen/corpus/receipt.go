package corpus

import "fmt"

func receiptVectors() []sv {
	const k = "receipt"
	v := []sv{
		ok(k, "receipt/rejected/with-error-is-valid", "A rejected receipt carries an error with a code, a message and (optionally) a pointer.", rejectedReceipt()),
		ok(k, "receipt/rejected/retryable-with-retryAfter-is-valid", "A retryable rejection may say how many seconds to wait.", retryableReceipt()),
		ok(k, "receipt/rejected/retryable-without-retryAfter-is-valid", "retryAfter is optional even when retryable is true.", with(retryableReceipt(), del("/retryAfter"))),
		ok(k, "receipt/accepted/with-continuation-is-valid", "An accepted receipt may carry one follow-up query, itself a valid QueryRequest.", continuedReceipt()),
		ok(k, "receipt/rejected/error-without-pointer-is-valid", "error.pointer is optional.", with(rejectedReceipt(), del("/error/pointer"))),
	}
	for _, m := range []string{"protocolVersion", "queryId", "responseId", "status", "retryable", "receivedAt"} {
		v = append(v, bad(k, fmt.Sprintf("receipt/%s/absent-is-required", m),
			fmt.Sprintf("%s is one of the receipt's required members.", m),
			with(receipt(), del("/"+m)), E("/"+m, "required")))
	}
	for _, m := range []string{"code", "message"} {
		v = append(v, bad(k, fmt.Sprintf("receipt/error.%s/absent-is-required", m),
			fmt.Sprintf("error.%s is required: a rejection must say machine-readably and humanly what went wrong.", m),
			with(rejectedReceipt(), del("/error/"+m)), E("/error/"+m, "required")))
	}
	v = append(v,
		bad(k, "receipt/protocolVersion/other-version-is-rejected", "protocolVersion is const 2026-07-30.",
			with(receipt(), set("/protocolVersion", "2026-07-31")), E("/protocolVersion", "const")),
		bad(k, "receipt/status/unknown-value-is-rejected", "status is accepted or rejected; pending is neither.",
			with(receipt(), set("/status", "pending")), E("/status", "enum")),
	)

	// error.code: every receipt code, and codes that are not receipt codes.
	for _, c := range []string{"invalid_response", "unsupported_version", "unknown_query", "unauthorized", "expired",
		"subject_mismatch", "respondent_mismatch", "answer_invalid", "consent_required", "consent_mismatch",
		"already_answered", "response_id_conflict"} {
		v = append(v, ok(k, "receipt/error.code/"+c+"-is-valid", fmt.Sprintf("%s is one of the fourteen receipt codes (§4).", c),
			with(rejectedReceipt(), set("/error/code", c))))
	}
	for _, c := range []string{"rate_limited", "unavailable"} {
		v = append(v, ok(k, "receipt/error.code/"+c+"-is-valid", fmt.Sprintf("%s is one of the fourteen receipt codes, the retryable kind (§4).", c),
			with(retryableReceipt(), set("/error/code", c))))
	}
	v = append(v,
		bad(k, "receipt/error.code/paired-only-code-is-rejected", "query_mismatch is a paired-check code, not a receipt code: a collector reports a wrong queryId as unknown_query.",
			with(rejectedReceipt(), set("/error/code", "query_mismatch")), E("/error/code", "enum")),
		bad(k, "receipt/error.code/standalone-request-code-is-rejected", "invalid_request is not a receipt code: a collector validates responses.",
			with(rejectedReceipt(), set("/error/code", "invalid_request")), E("/error/code", "enum")),
	)

	// Conditionals.
	v = append(v,
		bad(k, "receipt/accepted/retryable-true-is-rejected", "if status is accepted then retryable is const false: there is nothing to retry.",
			with(receipt(), set("/retryable", true)), E("/retryable", "const")),
		bad(k, "receipt/accepted/retryable-true-with-retryAfter-reports-only-retryable",
			"With retryable true the retryAfter rule is satisfied; only the accepted branch's retryable const false fails.",
			with(receipt(), set("/retryable", true), set("/retryAfter", 5)), E("/retryable", "const")),
		bad(k, "receipt/accepted/error-is-rejected", "if status is accepted then error must be absent (not: {}), reported at the error member.",
			with(receipt(), set("/error", obj("code", "answer_invalid", "message", "no"))), E("/error", "not")),
		bad(k, "receipt/rejected/without-error-is-rejected", "if status is rejected then error is required: a rejection must say why.",
			with(rejectedReceipt(), del("/error")), E("/error", "required")),
		bad(k, "receipt/rejected/continuation-is-rejected", "if status is rejected then continuation must be absent: only an accepted response can lead to a follow-up query.",
			with(rejectedReceipt(), set("/continuation", continuation())), E("/continuation", "not")),
		bad(k, "receipt/retryAfter/with-retryable-false-is-rejected", "retryAfter is only allowed when retryable is true (else: not).",
			with(rejectedReceipt(), set("/retryAfter", 30)), E("/retryAfter", "not")),
		bad(k, "receipt/retryAfter/on-accepted-receipt-is-rejected", "An accepted receipt is not retryable, so it cannot carry retryAfter.",
			with(receipt(), set("/retryAfter", 30)), E("/retryAfter", "not")),
		ajvJudgesADouble(bad(k, "receipt/retryAfter/a-fraction-past-a-double-is-not-an-integer",
			"30.00000000000000000001 is not an integer, though the nearest double is 30: a validator judges the number as written (found by make interop's differential check).",
			with(retryableReceipt(), set("/retryAfter", num("30.00000000000000000001"))), E("/retryAfter", "type"))),
		bad(k, "receipt/retryAfter/without-retryable-is-rejected-too",
			"The retryable if-clause requires retryable, so with retryable absent the else branch applies: retryAfter is forbidden as well as retryable required.",
			with(retryableReceipt(), del("/retryable")), E("/retryable", "required"), E("/retryAfter", "not")),
		bad(k, "receipt/retryable/string-on-accepted-fails-type-and-const",
			"\"false\" is not a boolean, and not the const false the accepted branch demands: both causes are reported, at one pointer.",
			with(receipt(), set("/retryable", "false")), E("/retryable", "const"), E("/retryable", "type")),
		bad(k, "receipt/retryable/string-on-rejected-fails-type-and-its-code's-const",
			"retryable is a boolean, and answer_invalid is not retryable, so the code's branch demands const false (D39): \"false\" fails both.",
			with(rejectedReceipt(), set("/retryable", "false")), E("/retryable", "const"), E("/retryable", "type")),
		bad(k, "receipt/retryable/true-with-a-final-code-is-rejected",
			"retryable is tied to error.code (D39): expired is final, so a rejected receipt saying retryable true with it is invalid.",
			with(retryableReceipt(), set("/error/code", "expired")), E("/retryable", "const")),
		bad(k, "receipt/retryable/false-with-rate_limited-is-rejected",
			"rate_limited is retryable (D39): a receipt saying retryable false with it is invalid, whatever retryAfter says.",
			with(retryableReceipt(), set("/retryable", false), del("/retryAfter")), E("/retryable", "const")),
		bad(k, "receipt/retryable/false-with-unavailable-is-rejected",
			"unavailable is retryable (D39).",
			with(rejectedReceipt(), set("/error/code", "unavailable")), E("/retryable", "const")),
		ok(k, "receipt/retryable/false-with-a-final-code-is-valid",
			"Every code but rate_limited and unavailable is final (D39): retryable false.",
			with(rejectedReceipt(), set("/error/code", "expired"))),
		bad(k, "receipt/retryable/with-error-not-an-object-only-type-fails",
			"The code's branches require error to be an object with a code, so an error of another type leaves retryable alone: only the type fails (D6, D39).",
			with(retryableReceipt(), set("/error", "rate_limited")), E("/error", "type")),
	)

	// retryAfter bounds and type.
	v = append(v,
		ok(k, "receipt/retryAfter/minimum-1-is-valid", "retryAfter 1 second is the minimum.", with(retryableReceipt(), set("/retryAfter", 1))),
		ok(k, "receipt/retryAfter/maximum-86400-is-valid", "retryAfter 86400 seconds (a day) is the maximum.", with(retryableReceipt(), set("/retryAfter", 86400))),
		bad(k, "receipt/retryAfter/0-is-below-minimum", "retryAfter 0 would be a busy loop.", with(retryableReceipt(), set("/retryAfter", 0)), E("/retryAfter", "minimum")),
		bad(k, "receipt/retryAfter/86401-is-above-maximum", "86401 is one past the maximum.", with(retryableReceipt(), set("/retryAfter", 86401)), E("/retryAfter", "maximum")),
		bad(k, "receipt/retryAfter/fraction-is-not-an-integer", "retryAfter is whole seconds.", with(retryableReceipt(), set("/retryAfter", num("1.5"))), E("/retryAfter", "type")),
		ok(k, "receipt/retryAfter/60.0-is-an-integer", "A number with a zero fraction is an integer in JSON Schema 2020-12.", with(retryableReceipt(), set("/retryAfter", num("60.0")))),
		bad(k, "receipt/retryAfter/half-fails-type-and-minimum", "0.5 is not an integer and is below the minimum: both keywords fail and both are reported, though they sit in one schema object.",
			with(retryableReceipt(), set("/retryAfter", num("0.5"))), E("/retryAfter", "minimum"), E("/retryAfter", "type")),
		bad(k, "receipt/retryAfter/string-is-rejected", "retryAfter is a number of seconds, not an HTTP Retry-After string.", with(retryableReceipt(), set("/retryAfter", "60")), E("/retryAfter", "type")),
	)

	// error.pointer: RFC 6901.
	for _, p := range []struct{ name, val, why string }{
		{"empty-is-the-whole-document", "", "The empty pointer names the whole document."},
		{"deep-is-valid", "/answer/details/steps/1/ok", "A pointer may go deep into the answer."},
		{"escapes-are-valid", "/answer/a~0b~1c", "~0 and ~1 are the two escapes RFC 6901 defines."},
		{"empty-token-is-valid", "/answer/", "/answer/ names the member with the empty name; an empty token is allowed."},
	} {
		v = append(v, ok(k, "receipt/error.pointer/"+p.name, p.why, with(rejectedReceipt(), set("/error/pointer", p.val))))
	}
	for _, p := range []struct{ name, val, why string }{
		{"without-leading-slash-is-rejected", "answer", "A non-empty JSON Pointer starts with /."},
		{"uri-fragment-form-is-rejected", "#/answer", "The URI fragment form (#/answer) is not the plain JSON Pointer the schema asks for."},
		{"unknown-escape-is-rejected", "/answer/a~2", "~2 is not an RFC 6901 escape."},
		{"trailing-tilde-is-rejected", "/answer~", "A ~ must be followed by 0 or 1."},
	} {
		v = append(v, bad(k, "receipt/error.pointer/"+p.name, p.why, with(rejectedReceipt(), set("/error/pointer", p.val)), E("/error/pointer", "pattern")))
	}

	// Unknown members, including inside the continuation.
	v = append(v,
		bad(k, "receipt/root/unknown-member-is-rejected", "The receipt root has additionalProperties false.",
			with(receipt(), set("/reason", "ok")), E("/reason", "additionalProperties")),
		bad(k, "receipt/error/unknown-member-is-rejected", "error has additionalProperties false: details is not an error member.",
			with(rejectedReceipt(), set("/error/details", obj("x", 1))), E("/error/details", "additionalProperties")),
		bad(k, "receipt/continuation/unknown-member-is-rejected", "The continuation is a QueryRequest, with the request root's additionalProperties false.",
			with(continuedReceipt(), set("/continuation/parentQueryId", queryID)), E("/continuation/parentQueryId", "additionalProperties")),
		bad(k, "receipt/continuation.response/unknown-member-is-rejected", "The continuation's response contract has additionalProperties false too.",
			with(continuedReceipt(), set("/continuation/response/minimum", 0)), E("/continuation/response/minimum", "additionalProperties")),
		bad(k, "receipt/continuation.delivery/unknown-member-is-rejected", "The continuation's delivery has additionalProperties false too.",
			with(continuedReceipt(), set("/continuation/delivery/method", "POST")), E("/continuation/delivery/method", "additionalProperties")),
		bad(k, "receipt/continuation/missing-prompt-is-required", "The continuation must be a complete QueryRequest.",
			with(continuedReceipt(), del("/continuation/prompt")), E("/continuation/prompt", "required")),
		bad(k, "receipt/continuation/ask_once-without-consentScope-is-rejected", "The request schema's conditionals apply inside the continuation.",
			with(continuedReceipt(), set("/continuation/consentMode", "ask_once")), E("/continuation/consentScope", "required")),
		bad(k, "receipt/continuation/string-is-rejected", "The continuation is a QueryRequest object, not a link to one. Like any non-object request it also fails the vacuous consent branch's not.",
			with(receipt(), set("/continuation", "https://queries.example/q/"+nextID)), E("/continuation", "type"), E("/continuation", "not")),
	)

	// Types.
	for _, c := range []struct {
		ptr  string
		val  any
		base object
		why  string
	}{
		{"/queryId", 0, receipt(), "queryId is a string."},
		{"/responseId", obj(), receipt(), "responseId is a string."},
		{"/receivedAt", 1785431113, receipt(), "receivedAt is an RFC 3339 string."},
		{"/error", "answer_invalid", rejectedReceipt(), "error is an object, not a bare code."},
		{"/error/message", arr("bad"), rejectedReceipt(), "error.message is a string."},
		{"/error/pointer", 0, rejectedReceipt(), "error.pointer is a string."},
	} {
		v = append(v, bad(k, "receipt"+dotted(c.ptr)+"/wrong-type-is-rejected", c.why,
			with(c.base, set(c.ptr, c.val)), E(c.ptr, "type")))
	}
	return v
}
