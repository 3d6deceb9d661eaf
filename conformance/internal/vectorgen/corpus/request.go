package corpus

import "fmt"

func requestVectors() []sv {
	const k = "request"
	v := []sv{
		ok(k, "request/minimal/only-required-members-is-valid",
			"A request with only the ten required members (and a text response, a binding-only delivery) is valid: every other member is optional.",
			minimalRequest()),
		ok(k, "request/full/every-optional-member-is-valid",
			"A request carrying every optional member (requestedRespondent, instructions, consentScope, response.maxLength, delivery.endpoint/authorization/operation, dataPolicy) is valid.",
			fullRequest()),
	}

	// Every required member, each one missing.
	for _, m := range []string{"protocolVersion", "queryId", "type", "subject", "prompt", "timing", "response", "delivery", "expiresAt"} {
		v = append(v, bad(k, fmt.Sprintf("request/%s/absent-is-required", m),
			fmt.Sprintf("%s is one of the request's required members; the error points at the missing member itself.", m),
			with(request(), del("/"+m)), E("/"+m, "required")))
	}
	v = append(v, bad(k, "request/consentMode/absent-is-required-and-consentScope-too",
		"consentMode is required; with it absent the ask_once if-clause holds vacuously, so consentScope is required as well (D2), even in an otherwise minimal request.",
		with(minimalRequest(), del("/consentMode")), E("/consentMode", "required"), E("/consentScope", "required")))
	v = append(v, bad(k, "request/delivery.binding/absent-is-required",
		"delivery.binding is required: a respondent cannot deliver without knowing the binding.",
		with(request(), del("/delivery/binding")), E("/delivery/binding", "required")))

	// protocolVersion is a const.
	v = append(v,
		bad(k, "request/protocolVersion/other-version-is-rejected",
			"protocolVersion is const 2026-07-30; a document of another version must not validate against this version's schema.",
			with(request(), set("/protocolVersion", "2026-07-29")), E("/protocolVersion", "const")),
		bad(k, "request/protocolVersion/number-is-rejected",
			"protocolVersion is the string 2026-07-30; a number is not equal to it (const, not type, is the failing keyword).",
			with(request(), set("/protocolVersion", 20260730)), E("/protocolVersion", "const")),
	)

	// Enums: every value valid, and values that are not.
	for _, t := range []string{"feedback", "evaluation", "clarification", "approval", "status", "preference", "correction", "survey", "custom"} {
		v = append(v, ok(k, "request/type/"+t+"-is-valid",
			fmt.Sprintf("%q is one of the nine query types.", t), with(request(), set("/type", t))))
	}
	v = append(v,
		bad(k, "request/type/unknown-value-is-rejected",
			"type is a closed enum; bug_report is not one of its values.",
			with(request(), set("/type", "bug_report")), E("/type", "enum")),
		bad(k, "request/type/enum-is-case-sensitive",
			"Enum values compare as exact strings: Feedback is not feedback.",
			with(request(), set("/type", "Feedback")), E("/type", "enum")),
	)
	for _, r := range []string{"agent", "human", "system", "any"} {
		v = append(v, ok(k, "request/requestedRespondent/"+r+"-is-valid",
			fmt.Sprintf("%q is one of requestedRespondent's values (D1).", r), with(request(), set("/requestedRespondent", r))))
	}
	v = append(v,
		bad(k, "request/requestedRespondent/unknown-value-is-rejected",
			"requestedRespondent is enum agent, human, system, any (D1); robot is not one of them.",
			with(request(), set("/requestedRespondent", "robot")), E("/requestedRespondent", "enum")),
		bad(k, "request/requestedRespondent/null-is-rejected",
			"An optional member is left out, not set to null: null is not in requestedRespondent's enum.",
			with(request(), set("/requestedRespondent", nil)), E("/requestedRespondent", "enum")),
	)
	for _, t := range []string{"immediate", "after_outcome_known", "after_task_complete", "deferred"} {
		v = append(v, ok(k, "request/timing/"+t+"-is-valid",
			fmt.Sprintf("%q is one of the four timing conditions.", t), with(request(), set("/timing", t))))
	}
	v = append(v, bad(k, "request/timing/unknown-value-is-rejected",
		"timing is a closed enum; later is not one of its values.",
		with(request(), set("/timing", "later")), E("/timing", "enum")))
	for _, b := range []string{"https", "mcp", "a2a", "other"} {
		v = append(v, ok(k, "request/delivery.binding/"+b+"-is-valid",
			fmt.Sprintf("%q is one of the four bindings.", b), with(request(), set("/delivery/binding", b))))
	}
	v = append(v, bad(k, "request/delivery.binding/unknown-value-is-rejected",
		"delivery.binding is a closed enum; smtp is not one of its values.",
		with(request(), set("/delivery/binding", "smtp")), E("/delivery/binding", "enum")))

	// consentMode and its conditionals.
	v = append(v,
		ok(k, "request/consentMode/not_required-without-consentScope-is-valid",
			"not_required needs no consentScope.", with(minimalRequest(), set("/consentMode", "not_required"))),
		ok(k, "request/consentMode/ask_once-with-consentScope-is-valid",
			"ask_once names the scope its remembered grant covers.",
			with(minimalRequest(), set("/consentMode", "ask_once"), set("/consentScope", scope))),
		ok(k, "request/consentMode/ask_always-without-consentScope-is-valid",
			"ask_always asks for every query, so it has no scope.", with(minimalRequest(), set("/consentMode", "ask_always"))),
		bad(k, "request/consentMode/unknown-value-is-rejected",
			"consentMode is a closed enum; neither if-clause matches an unknown value, so only the enum fails.",
			with(minimalRequest(), set("/consentMode", "sometimes")), E("/consentMode", "enum")),
		bad(k, "request/consentMode/ask_once-without-consentScope-is-rejected",
			"if consentMode is ask_once then consentScope is required: a grant remembered once must say what it covers.",
			with(minimalRequest(), set("/consentMode", "ask_once")), E("/consentScope", "required")),
		bad(k, "request/consentMode/not_required-with-consentScope-is-rejected",
			"if consentMode is not_required then consentScope must be absent (not: required); the not fails at the request object itself, so the pointer is the root.",
			with(minimalRequest(), set("/consentScope", scope)), E("", "not")),
		bad(k, "request/consentMode/ask_always-with-consentScope-is-rejected",
			"if consentMode is ask_always then consentScope must be absent: consent is asked for every query, so a scope would be meaningless.",
			with(minimalRequest(), set("/consentMode", "ask_always"), set("/consentScope", scope)), E("", "not")),
	)

	// Types.
	for _, c := range []struct {
		ptr string
		val any
		why string
	}{
		{"/queryId", 42, "queryId is a string (a uuid); a number is not."},
		{"/prompt", 7, "prompt is a string."},
		{"/instructions", arr("Be brief."), "instructions is a string, not a list of strings."},
		{"/dataPolicy", true, "dataPolicy is a string."},
		{"/expiresAt", 1785438000, "expiresAt is an RFC 3339 string, not a Unix timestamp."},
		{"/subject", "call_01JQ8QY3EJX9", "subject is an object, not a bare id."},
		{"/response", "choice", "response is an object, not a bare format."},
		{"/delivery", arr("https"), "delivery is an object."},
		{"/delivery/endpoint", obj("url", "https://queries.example/responses"), "delivery.endpoint is a string."},
		{"/delivery/authorization", 12345, "delivery.authorization is a string."},
		{"/delivery/operation", true, "delivery.operation is a string."},
	} {
		v = append(v, bad(k, "request"+dotted(c.ptr)+"/wrong-type-is-rejected", c.why,
			with(request(), set(c.ptr, c.val)), E(c.ptr, "type")))
	}
	v = append(v, bad(k, "request/consentScope/wrong-type-is-rejected",
		"consentScope is a string; ask_once is satisfied by its presence, so only the type fails.",
		with(minimalRequest(), set("/consentMode", "ask_once"), set("/consentScope", 12345678)), E("/consentScope", "type")))

	// Unknown members.
	v = append(v,
		bad(k, "request/root/unknown-member-is-rejected",
			"The request root has additionalProperties false; the error points at the extra member itself.",
			with(request(), set("/requester", "agent")), E("/requester", "additionalProperties")),
		bad(k, "request/root/$schema-member-is-rejected",
			"A request document may not carry a $schema member: additionalProperties false covers it like any other name.",
			with(request(), set("/$schema", "https://agentqueryprotocol.com/specification/2026-07-30/schema/query-request.schema.json")), E("/$schema", "additionalProperties")),
		bad(k, "request/root/response-member-consent-is-rejected",
			"consent belongs to a response; in a request it is an unknown member.",
			with(request(), set("/consent", consent(""))), E("/consent", "additionalProperties")),
		bad(k, "request/root/unknown-member-name-is-escaped-in-pointer",
			"An extra member named a/b~c is reported at /a~1b~0c: '~' and '/' are escaped as RFC 6901 requires.",
			with(request(), set("/a~1b~0c", 1)), E("/a~1b~0c", "additionalProperties")),
		bad(k, "request/root/two-unknown-members-are-both-reported",
			"Every extra member is reported, each at its own pointer.",
			with(request(), set("/priority", "high"), set("/tags", arr("x"))), E("/priority", "additionalProperties"), E("/tags", "additionalProperties")),
		bad(k, "request/delivery/unknown-member-is-rejected",
			"delivery has additionalProperties false: headers is not a delivery member.",
			with(request(), set("/delivery/headers", obj("X-Trace", "1"))), E("/delivery/headers", "additionalProperties")),
		bad(k, "request/root/errors-at-several-levels-are-all-reported",
			"Failures in different members are all reported: an empty delivery (binding missing) and an extra root member.",
			with(request(), set("/delivery", obj()), set("/extra", true)), E("/delivery/binding", "required"), E("/extra", "additionalProperties")),
	)
	return v
}

// dotted turns a pointer into the member path used in names: /delivery/endpoint becomes /delivery.endpoint.
func dotted(ptr string) string {
	out := []byte{'/'}
	for i := 1; i < len(ptr); i++ {
		if ptr[i] == '/' {
			out = append(out, '.')
		} else {
			out = append(out, ptr[i])
		}
	}
	return string(out)
}
