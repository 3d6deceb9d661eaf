// Package aqp is the Agent Query Protocol for Go: the one import for the common case, and the map of the module.
//
// AQP lets an application ask the agent that used it a question about something it did (a tool call, a task) and
// get back one typed answer. A collector issues a QueryRequest; a carriage puts it in front of the agent on the
// traffic the two already exchange; the agent answers with a QueryResponse delivered over the binding the query
// names (https, mcp or a2a); and the collector decides it with a QueryReceipt, accepted or rejected.
//
// # Answering a query
//
// An agent host that holds a query answers it with this package alone: the canonical types (QueryRequest,
// QueryResponse, QueryReceipt: aliases of package gen/aqp), ParseRequest to read a query, NewResponse to start
// the answer, and a Client whose Submit delivers it over whatever binding the query's delivery names — every
// generation and transport of each — under a destination Policy, checks the receipt against the response, and
// returns it or an error that says what to do next (Retryable):
//
//	client, err := aqp.NewClient()
//	...
//	resp, err := aqp.NewResponse(req, aqp.Respondent{Kind: "agent", Provenance: "direct"}, true)
//	receipt, err := client.Submit(ctx, req, resp)
//
// # The rest of the module, in the order an implementer meets it
//
// Answering (an agent host):
//
//   - bindings/https, bindings/mcp, bindings/a2a: where a query comes from. Each binding's carriage reads the
//     queries riding on its traffic — AQP-Query headers on an HTTP reply, an MCP tool result's _meta, an A2A
//     message's or task's metadata — and each binding's Client is the transport Submit delivers through.
//   - core/respondent: the respondent runtime, for a host that answers many queries over time: intake from any
//     carriage, timing conditions, consent and its remembered grants, retries until expiry, continuations. It
//     delivers through the same transports (Client.Transports) under the same Policy.
//
// Asking (an application that embeds a collector):
//
//   - service: the collector's HTTP surface — the bindings mounted at their paths, the admin API, discovery,
//     the schemas, health and metrics — built from a collector.Config and the bindings to serve.
//   - store/memory, store/sqlite, store/postgres: where a collector keeps queries and acceptances.
//   - core/collector: the collector itself: Issue (typed: Issue here, collector.IssueRequest) completes a draft
//     into a query with a scoped capability; Submit decides a response; Lookup and List give the answers back
//     (Acceptance.ParseResponse). service.AdminClient issues through a collector run elsewhere.
//   - bindings/*: each binding's Binding, served by service, and its carriage's sending side, which attaches an
//     issued query to a reply.
//
// Underneath both:
//
//   - core: what is valid — decoding and validation of the three documents, the paired checks, the error codes
//     and canonical JSON. Everything above decides through it.
//   - gen/aqp and gen/api: the types generated from spec/ (the documents; the HTTP surface, QueryDraft among
//     them). wire: the exact date-time and number types they are made of.
//   - cmd/aqp: the command line (serve, query, respond, validate, conformance); conformance: the suites any
//     implementation, in any language, can be checked against.
package aqp
