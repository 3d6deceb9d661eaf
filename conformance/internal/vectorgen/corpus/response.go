package corpus

import "fmt"

func responseVectors() []sv {
	const k = "response"
	v := []sv{
		ok(k, "response/minimal/only-required-members-is-valid", "A response with only its seven required members is valid.", minimalResponse()),
		ok(k, "response/full/every-optional-member-is-valid", "A response with explanation, confidence, respondent.id and consent (with scope) is valid.", fullResponse()),
	}
	for _, m := range []string{"protocolVersion", "responseId", "queryId", "subject", "respondent", "answer", "createdAt"} {
		v = append(v, bad(k, fmt.Sprintf("response/%s/absent-is-required", m),
			fmt.Sprintf("%s is one of the response's required members.", m),
			with(response(), del("/"+m)), E("/"+m, "required")))
	}
	for _, m := range []string{"kind", "provenance"} {
		v = append(v, bad(k, fmt.Sprintf("response/respondent.%s/absent-is-required", m),
			fmt.Sprintf("respondent.%s is required: a collector must know who answered and how.", m),
			with(response(), del("/respondent/"+m)), E("/respondent/"+m, "required")))
	}
	for _, m := range []string{"granted", "obtainedAt"} {
		v = append(v, bad(k, fmt.Sprintf("response/consent.%s/absent-is-required", m),
			fmt.Sprintf("consent.%s is required whenever consent is given.", m),
			with(fullResponse(), del("/consent/"+m)), E("/consent/"+m, "required")))
	}
	v = append(v,
		bad(k, "response/protocolVersion/other-version-is-rejected", "protocolVersion is const 2026-07-30.",
			with(response(), set("/protocolVersion", "2025-01-01")), E("/protocolVersion", "const")),
	)
	for _, r := range []string{"agent", "human", "system"} {
		v = append(v, ok(k, "response/respondent.kind/"+r+"-is-valid", fmt.Sprintf("%q is a respondent kind.", r),
			with(response(), set("/respondent/kind", r))))
	}
	v = append(v,
		bad(k, "response/respondent.kind/any-is-rejected", "any is a value of the request's requestedRespondent, not a kind of respondent: whoever answers is one definite kind.",
			with(response(), set("/respondent/kind", "any")), E("/respondent/kind", "enum")),
		bad(k, "response/respondent.kind/unknown-value-is-rejected", "user is not a respondent kind (human is).",
			with(response(), set("/respondent/kind", "user")), E("/respondent/kind", "enum")),
	)
	for _, p := range []string{"direct", "relayed", "inferred"} {
		v = append(v, ok(k, "response/respondent.provenance/"+p+"-is-valid", fmt.Sprintf("%q is a provenance.", p),
			with(response(), set("/respondent/provenance", p))))
	}
	v = append(v, bad(k, "response/respondent.provenance/unknown-value-is-rejected", "provenance is a closed enum; hearsay is not one of its values.",
		with(response(), set("/respondent/provenance", "hearsay")), E("/respondent/provenance", "enum")))

	// answer: any JSON value at all is schema-valid; the contract is a paired check.
	for _, a := range []struct {
		name string
		val  any
		why  string
	}{
		{"null", nil, "null is a JSON value, so a present null answer satisfies required; whether it satisfies the contract is a paired check."},
		{"zero", 0, "0 is a number answer."},
		{"negative", num("-17.25"), "A negative fraction is a number answer."},
		{"exponent", num("1e3"), "1e3 is a JSON number in exponent form."},
		{"big-integer", num("123456789012345678901234567890"), "An integer beyond 64 bits is still a JSON number."},
		{"false", false, "false is an answer (and a present one)."},
		{"empty-string", "", "The empty string is a JSON value; the schema puts no bound on the answer."},
		{"array", arr(1, "two", nil), "An array answer is schema-valid."},
		{"nested-object", structuredAnswer(), "A structured answer is schema-valid whatever its shape."},
	} {
		v = append(v, ok(k, "response/answer/"+a.name+"-is-valid", a.why, with(response(), set("/answer", a.val))))
	}

	// confidence.
	v = append(v,
		ok(k, "response/confidence/0-is-valid", "confidence 0 is the minimum.", with(response(), set("/confidence", 0))),
		ok(k, "response/confidence/1-is-valid", "confidence 1 is the maximum.", with(response(), set("/confidence", 1))),
		bad(k, "response/confidence/below-0-is-rejected", "confidence is at least 0.", with(response(), set("/confidence", num("-0.01"))), E("/confidence", "minimum")),
		bad(k, "response/confidence/above-1-is-rejected", "confidence is at most 1.", with(response(), set("/confidence", num("1.01"))), E("/confidence", "maximum")),
		bad(k, "response/confidence/percent-is-rejected", "confidence is a fraction, not a percentage: 92 is above the maximum.", with(response(), set("/confidence", 92)), E("/confidence", "maximum")),
		bad(k, "response/confidence/string-is-rejected", "confidence is a number.", with(response(), set("/confidence", "0.92")), E("/confidence", "type")),
	)

	// consent.
	v = append(v,
		ok(k, "response/consent/without-scope-is-valid", "consent.scope is optional (ask_always grants have none).", with(response(), set("/consent", consent("")))),
		bad(k, "response/consent.granted/false-is-rejected", "consent.granted is const true: a refusal sends nothing, so a response never carries a refused consent.",
			with(fullResponse(), set("/consent/granted", false)), E("/consent/granted", "const")),
		bad(k, "response/consent.granted/string-true-is-rejected", "The string \"true\" is not the boolean true.",
			with(fullResponse(), set("/consent/granted", "true")), E("/consent/granted", "const")),
		bad(k, "response/consent/unknown-member-is-rejected", "consent has additionalProperties false.",
			with(fullResponse(), set("/consent/grantedBy", "user-1")), E("/consent/grantedBy", "additionalProperties")),
		bad(k, "response/respondent/unknown-member-is-rejected", "respondent has additionalProperties false.",
			with(response(), set("/respondent/name", "support-bot")), E("/respondent/name", "additionalProperties")),
		bad(k, "response/root/unknown-member-is-rejected", "The response root has additionalProperties false.",
			with(response(), set("/status", "done")), E("/status", "additionalProperties")),
		bad(k, "response/root/request-member-is-rejected", "requestedRespondent belongs to a request; a response names its respondent instead.",
			with(response(), set("/requestedRespondent", "agent")), E("/requestedRespondent", "additionalProperties")),
	)

	// Types.
	for _, c := range []struct {
		ptr  string
		val  any
		base object
		why  string
	}{
		{"/responseId", 1, response(), "responseId is a string (a uuid)."},
		{"/queryId", nil, response(), "queryId is a string; null is not."},
		{"/respondent", "agent", response(), "respondent is an object, not a bare kind."},
		{"/respondent/id", 7, fullResponse(), "respondent.id is a string."},
		{"/explanation", arr("one", "two"), response(), "explanation is a string."},
		{"/consent", true, response(), "consent is an object, not a flag."},
		{"/consent/obtainedAt", 1785431040, fullResponse(), "consent.obtainedAt is an RFC 3339 string."},
		{"/consent/scope", 12345678, fullResponse(), "consent.scope is a string."},
		{"/createdAt", 1785431112, response(), "createdAt is an RFC 3339 string, not a Unix timestamp."},
	} {
		v = append(v, bad(k, "response"+dotted(c.ptr)+"/wrong-type-is-rejected", c.why,
			with(c.base, set(c.ptr, c.val)), E(c.ptr, "type")))
	}
	return v
}
