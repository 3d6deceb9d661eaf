package corpus

import "fmt"

func subjectVectors() []sv {
	var v []sv
	for _, kind := range []string{"tool_call", "tool_result", "task", "message", "artifact", "session", "resource", "response", "custom"} {
		v = append(v, ok("request", "subject/kind/"+kind+"-is-valid",
			fmt.Sprintf("%q is one of the nine subject kinds.", kind), with(request(), set("/subject/kind", kind))))
	}
	for _, sc := range []string{"local", "global"} {
		v = append(v, ok("request", "subject/idScope/"+sc+"-is-valid",
			fmt.Sprintf("idScope %q is allowed.", sc), with(request(), set("/subject/idScope", sc))))
	}
	for _, p := range []string{"mcp", "a2a", "https", "aqp", "other"} {
		v = append(v, ok("request", "subject/protocol/"+p+"-is-valid",
			fmt.Sprintf("protocol %q is allowed.", p), with(request(), set("/subject/protocol", p))))
	}
	v = append(v,
		ok("request", "subject/minimal/kind-and-id-only-is-valid",
			"A subject needs only kind and id; idScope and protocol are optional.",
			with(request(), set("/subject", obj("kind", "task", "id", "task-42")))),
		bad("request", "subject/kind/unknown-value-is-rejected", "kind is a closed enum; tool is not one of its values.",
			with(request(), set("/subject/kind", "tool")), E("/subject/kind", "enum")),
		bad("request", "subject/idScope/unknown-value-is-rejected", "idScope is local or global; public is neither.",
			with(request(), set("/subject/idScope", "public")), E("/subject/idScope", "enum")),
		bad("request", "subject/protocol/unknown-value-is-rejected", "protocol is a closed enum; http is not https.",
			with(request(), set("/subject/protocol", "http")), E("/subject/protocol", "enum")),
		bad("request", "subject/protocol/enum-is-case-sensitive", "MCP is not mcp.",
			with(request(), set("/subject/protocol", "MCP")), E("/subject/protocol", "enum")),
		bad("request", "subject/kind/absent-is-required", "A subject without a kind cannot be matched (D3).",
			with(request(), del("/subject/kind")), E("/subject/kind", "required")),
		bad("request", "subject/id/absent-is-required", "A subject without an id cannot be matched (D3).",
			with(request(), del("/subject/id")), E("/subject/id", "required")),
		bad("request", "subject/id/number-is-rejected", "id is a string even when it looks numeric.",
			with(request(), set("/subject/id", 42)), E("/subject/id", "type")),
		bad("request", "subject/unknown-member-is-rejected", "The subject has additionalProperties false: name is not a subject member.",
			with(request(), set("/subject/name", "search")), E("/subject/name", "additionalProperties")),
		bad("response", "subject/in-response/id-absent-is-required", "The response's subject is the same QuerySubject, with the same required members.",
			with(response(), del("/subject/id")), E("/subject/id", "required")),
		bad("response", "subject/in-response/unknown-member-is-rejected", "The response's subject has additionalProperties false too.",
			with(response(), set("/subject/url", "https://queries.example/calls/1")), E("/subject/url", "additionalProperties")),
		bad("response", "subject/in-response/wrong-type-is-rejected", "The response's subject is an object.",
			with(response(), set("/subject", nil)), E("/subject", "type")),
		bad("receipt", "subject/in-continuation/unknown-kind-is-rejected", "The subject of a receipt's continuation is validated like any request's.",
			with(continuedReceipt(), set("/continuation/subject/kind", "reply")), E("/continuation/subject/kind", "enum")),
	)
	return v
}
