package corpus

func quickstartVectors() []sv {
	return []sv{
		bad("request", "quickstart/request-as-published-is-invalid",
			"The Quickstart's query omits consentMode, which the schema requires; with consentMode absent the seed's ask_once if-clause holds vacuously, so consentScope is reported as required too. A conformant 2020-12 validator reports exactly these two errors (D2).",
			quickstartRequest(),
			E("/consentMode", "required"), E("/consentScope", "required")),
		ok("request", "quickstart/request-corrected-is-valid",
			"The Quickstart's query with consentMode not_required added (examples/quickstart-request-corrected.json) is valid, including requestedRespondent, the one member the project adds to the seed schema (D1).",
			request()),
		ok("response", "quickstart/response-as-published-is-valid",
			"The Quickstart's response as published is valid; its subject omits idScope, which is optional.",
			response()),
		ok("receipt", "quickstart/receipt-as-published-is-valid",
			"The Quickstart's receipt as published is valid: accepted, not retryable, no error.",
			receipt()),
	}
}
