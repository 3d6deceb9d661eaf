package corpus

import "strings"

func jsonVectors() []sv {
	const why = "Whether the text is one JSON value is decided before any schema is applied; a JSON Schema validator is handed a parsed value and never sees the text."
	compactRequest := compact(request())
	compactResponse := compact(response())
	return []sv{
		textDoc("request", "json/not-json-is-rejected", "Text that is not JSON at all is reported with keyword json at the root pointer.",
			"consentMode: not_required", false, E("", "json")).beyondSchema(why),
		textDoc("request", "json/empty-text-is-rejected", "Empty input is not a JSON value.",
			"", false, E("", "json")).beyondSchema(why),
		textDoc("request", "json/truncated-object-is-rejected", "A document cut off mid-object is not well-formed.",
			compactRequest[:len(compactRequest)/2], false, E("", "json")).beyondSchema(why),
		textDoc("request", "json/trailing-value-is-rejected", "A valid request followed by a second value is not one JSON value: trailing data must not be ignored.",
			compactRequest+" {}", false, E("", "json")).beyondSchema(why),
		textDoc("response", "json/trailing-garbage-is-rejected", "A valid response followed by a stray } is not one JSON value.",
			compact(response())+"}", false, E("", "json")).beyondSchema(why),
		textDoc("receipt", "json/two-concatenated-documents-are-rejected", "Two receipts back to back (a streaming mistake) are not one document.",
			compact(receipt())+compact(receipt()), false, E("", "json")).beyondSchema(why),
		textDoc("request", "json/trailing-comma-is-rejected", "JSON has no trailing commas.",
			strings.TrimSuffix(compactRequest, "}")+",}", false, E("", "json")).beyondSchema(why),
		textDoc("request", "json/single-quotes-are-rejected", "JSON strings use double quotes.",
			strings.ReplaceAll(compactRequest, `"`, `'`), false, E("", "json")).beyondSchema(why),
		textDoc("request", "json/surrounding-whitespace-is-valid", "Whitespace before and after the value is part of JSON text (RFC 8259 §2); only other trailing data is an error.",
			"\n  "+compactRequest+"\n\n", true),
		// I-JSON (RFC 7493): AQP documents are I-JSON, so the texts JSON allows but I-JSON forbids are rejected
		// before any schema is applied, with keyword json and the pointer of the offending member.
		textDoc("response", "json/duplicate-member-at-top-level-is-rejected",
			"answer appears twice. JSON parsers disagree on which value counts (the first, the last, or an error), so two readers of the stored text could see two answers: I-JSON forbids duplicate names (RFC 7493 §2.3). The pointer names the second occurrence.",
			strings.Replace(compactResponse, `"answer":"partly",`, `"answer":"partly","answer":"no",`, 1), false, E("/answer", "json")).beyondSchema(why),
		textDoc("response", "json/duplicate-member-nested-is-rejected",
			"subject.kind appears twice inside subject: duplicates are forbidden at every depth, and the pointer names the nested member.",
			strings.Replace(compactResponse, `"subject":{"kind":"tool_call",`, `"subject":{"kind":"tool_call","kind":"task",`, 1), false, E("/subject/kind", "json")).beyondSchema(why),
		textDoc("response", "json/lone-high-surrogate-is-rejected",
			"The escape \\ud800 is a high surrogate with no low surrogate after it: not a Unicode character, so the string is not I-JSON (RFC 7493 §2.1). Decoders that replace it with U+FFFD would make it collide with a real U+FFFD.",
			strings.Replace(compactResponse, `after one retry.`, `after one retry.\ud800`, 1), false, E("/explanation", "json")).beyondSchema(why),
		textDoc("response", "json/lone-low-surrogate-is-rejected",
			"The escape \\udc00 is a low surrogate with no high surrogate before it.",
			strings.Replace(compactResponse, `"The result`, `"\udc00The result`, 1), false, E("/explanation", "json")).beyondSchema(why),
		textDoc("response", "json/high-surrogate-before-other-escape-is-rejected",
			"A high surrogate followed by an escape that is not a low surrogate (\\ud83d\\u0041) is still a lone surrogate.",
			strings.Replace(compactResponse, `after one retry.`, `after one retry.\ud83d\u0041`, 1), false, E("/explanation", "json")).beyondSchema(why),
		textDoc("response", "json/escaped-surrogate-pair-is-valid",
			"A high surrogate followed by a low one (\\ud83d\\ude00) is one character, U+1F600, written as JSON escapes must write it: valid.",
			strings.Replace(compactResponse, `after one retry.`, `after one retry. \ud83d\ude00`, 1), true),
		bad("request", "json/array-root-is-rejected",
			"A JSON array is well-formed JSON but not an object: type fails at the root. JSON Schema evaluates every keyword, and for a non-object the consent if-clauses hold vacuously (properties ignores it), so the not-required branch is evaluated too and fails (required holds vacuously): a conformant validator also reports not at the root.",
			arr(request()), E("", "type"), E("", "not")),
		bad("request", "json/null-request-root-is-rejected",
			"null is not a request object: type and, as for any non-object request, the vacuous consent branch's not.",
			nil, E("", "type"), E("", "not")),
		bad("response", "json/null-root-is-rejected", "null is well-formed JSON but not a response object.",
			nil, E("", "type")),
		bad("receipt", "json/string-root-is-rejected", "A JSON string holding a receipt is not a receipt: the document is not decoded twice.",
			compact(receipt()), E("", "type")),
	}
}
