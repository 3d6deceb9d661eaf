package corpus

import "strings"

// The identifiers and instants of the Quickstart exchange, which every base document shares.
const (
	version    = "2026-07-30"
	queryID    = "0198c7cb-1af1-7e79-bd7f-02f8a89b8857"
	responseID = "0198c7d0-2180-7729-b005-d33c99fc7452"
	otherID    = "0198c7cb-1af1-7e79-bd7f-02f8a89b8858" // differs from queryID in its last digit
	nextID     = "0198c7d0-2190-7b3c-9a51-6f2d3e4c5b6a" // the continuation's queryId
	expiresAt  = "2026-07-30T19:00:00Z"
	createdAt  = "2026-07-30T17:05:12Z"
	receivedAt = "2026-07-30T17:05:13Z"
	scope      = "tool-call-feedback"
)

// quickstartRequest is the Quickstart's query exactly as published: it has no consentMode (D2).
func quickstartRequest() object {
	return obj(
		"protocolVersion", version,
		"queryId", queryID,
		"type", "clarification",
		"subject", obj("kind", "tool_call", "id", "call_01JQ8QY3EJX9", "idScope", "local", "protocol", "mcp"),
		"requestedRespondent", "agent",
		"prompt", "Did this tool result fully answer the user's request?",
		"timing", "after_outcome_known",
		"response", obj("format", "choice", "choices", arr("yes", "partly", "no")),
		"delivery", obj(
			"binding", "https",
			"endpoint", "https://queries.example/responses",
			"authorization", "Bearer <scoped-capability>",
		),
		"expiresAt", expiresAt,
	)
}

// request is the corrected Quickstart query (consentMode not_required, after prompt as in
// examples/quickstart-request-corrected.json): the base valid request.
func request() object {
	q := quickstartRequest()
	out := object{}
	for _, m := range q {
		out = append(out, m)
		if m.key == "prompt" {
			out = append(out, member{"consentMode", "not_required"})
		}
	}
	return out
}

// minimalRequest has only the required members, each as small as the schema allows.
func minimalRequest() object {
	return obj(
		"protocolVersion", version,
		"queryId", queryID,
		"type", "feedback",
		"subject", obj("kind", "task", "id", "task-42"),
		"prompt", "How did it go?",
		"timing", "immediate",
		"consentMode", "not_required",
		"response", obj("format", "text"),
		"delivery", obj("binding", "https"),
		"expiresAt", expiresAt,
	)
}

// fullRequest carries every optional member the request schema declares.
func fullRequest() object {
	return obj(
		"protocolVersion", version,
		"queryId", queryID,
		"type", "evaluation",
		"subject", obj("kind", "tool_call", "id", "call_01JQ8QY3EJX9", "idScope", "global", "protocol", "mcp"),
		"requestedRespondent", "human",
		"prompt", "Rate the answer the assistant gave.",
		"instructions", "Answer in at most two sentences.",
		"timing", "after_task_complete",
		"consentMode", "ask_once",
		"consentScope", scope,
		"response", obj("format", "text", "maxLength", 500),
		"delivery", obj(
			"binding", "mcp",
			"endpoint", "https://queries.example/mcp",
			"authorization", "Bearer <scoped-capability>",
			"operation", "aqp_submit_response",
		),
		"dataPolicy", "Kept 30 days, used only to improve tool selection.",
		"expiresAt", expiresAt,
	)
}

// structuredSchema is a jsonSchema with nesting, so that a failure deep inside an answer has a deep pointer.
func structuredSchema() object {
	return obj(
		"type", "object",
		"required", arr("rating", "details"),
		"additionalProperties", false,
		"properties", obj(
			"rating", obj("type", "integer", "minimum", 1, "maximum", 5),
			"details", obj(
				"type", "object",
				"required", arr("steps"),
				"properties", obj(
					"steps", obj(
						"type", "array",
						"items", obj(
							"type", "object",
							"required", arr("id", "ok"),
							"properties", obj(
								"id", obj("type", "string"),
								"ok", obj("type", "boolean"),
							),
						),
					),
				),
			),
		),
	)
}

// structuredAnswer satisfies structuredSchema.
func structuredAnswer() object {
	return obj(
		"rating", 4,
		"details", obj("steps", arr(
			obj("id", "search", "ok", true),
			obj("id", "summarise", "ok", false),
		)),
	)
}

// structuredRequest asks for a structured answer.
func structuredRequest() object {
	return with(request(), set("/response", obj("format", "structured", "jsonSchema", structuredSchema()))).(object)
}

// response is the Quickstart's response as published: the base valid response.
func response() object {
	return obj(
		"protocolVersion", version,
		"responseId", responseID,
		"queryId", queryID,
		"subject", obj("kind", "tool_call", "id", "call_01JQ8QY3EJX9", "protocol", "mcp"),
		"respondent", obj("kind", "agent", "provenance", "direct"),
		"answer", "partly",
		"explanation", "The result answered the question after one retry.",
		"confidence", num("0.92"),
		"createdAt", createdAt,
	)
}

// minimalResponse has only the required members.
func minimalResponse() object {
	return obj(
		"protocolVersion", version,
		"responseId", responseID,
		"queryId", queryID,
		"subject", obj("kind", "task", "id", "task-42"),
		"respondent", obj("kind", "human", "provenance", "relayed"),
		"answer", "Fine.",
		"createdAt", createdAt,
	)
}

// fullResponse carries every optional member the response schema declares.
func fullResponse() object {
	return with(response(),
		set("/respondent/id", "agent:support-bot-7"),
		set("/consent", consent(scope)),
	).(object)
}

// consent is a granted consent obtained before createdAt; scope "" leaves scope out.
func consent(sc string) object {
	c := obj("granted", true, "obtainedAt", "2026-07-30T17:04:00Z")
	if sc != "" {
		c = append(c, member{"scope", sc})
	}
	return c
}

// receipt is the Quickstart's receipt as published: the base valid receipt.
func receipt() object {
	return obj(
		"protocolVersion", version,
		"queryId", queryID,
		"responseId", responseID,
		"status", "accepted",
		"retryable", false,
		"receivedAt", receivedAt,
	)
}

// rejectedReceipt rejects the response, not retryably, naming the failing member.
func rejectedReceipt() object {
	return obj(
		"protocolVersion", version,
		"queryId", queryID,
		"responseId", responseID,
		"status", "rejected",
		"retryable", false,
		"receivedAt", receivedAt,
		"error", obj("code", "answer_invalid", "message", "the answer must be one of \"yes\", \"partly\", \"no\"", "pointer", "/answer"),
	)
}

// retryableReceipt rejects the response for now and says when to retry.
func retryableReceipt() object {
	return obj(
		"protocolVersion", version,
		"queryId", queryID,
		"responseId", responseID,
		"status", "rejected",
		"retryable", true,
		"receivedAt", receivedAt,
		"error", obj("code", "rate_limited", "message", "too many submissions; retry later"),
		"retryAfter", 30,
	)
}

// continuation is a correct follow-up query to the Quickstart response: a new queryId, the response as subject,
// and an expiry after the receipt's receivedAt.
func continuation() object {
	return obj(
		"protocolVersion", version,
		"queryId", nextID,
		"type", "feedback",
		"subject", obj("kind", "response", "id", responseID, "protocol", "aqp"),
		"requestedRespondent", "agent",
		"prompt", "Was the partial answer caused by the first tool error?",
		"timing", "immediate",
		"consentMode", "not_required",
		"response", obj("format", "boolean"),
		"delivery", obj(
			"binding", "https",
			"endpoint", "https://queries.example/responses",
			"authorization", "Bearer <scoped-capability>",
		),
		"expiresAt", "2026-07-30T21:05:13Z",
	)
}

// continuedReceipt accepts the response and carries the continuation.
func continuedReceipt() object {
	return with(receipt(), set("/continuation", continuation())).(object)
}

// rep repeats s n times.
func rep(s string, n int) string { return strings.Repeat(s, n) }

// The characters the length vectors are made of: each is one code point, but not one byte or one UTF-16 unit.
const (
	eAcute   = "\u00e9"     // é: 1 code point, 2 bytes in UTF-8, 1 UTF-16 unit
	grinning = "\U0001F600" // 😀: 1 code point, 4 bytes in UTF-8, 2 UTF-16 units (a surrogate pair)
	eComb    = "e\u0301"    // é as e + COMBINING ACUTE ACCENT: 1 grapheme, 2 code points
)
