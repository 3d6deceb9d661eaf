// Package aqp is the Agent Query Protocol for Go: the one import for the common case, and the map of the rest.
//
// AQP lets an application ask the agent that used it a question about something it did (a tool call, a task) and
// get back one typed answer. A collector issues a QueryRequest, a carriage puts it in front of the agent, the
// agent's respondent delivers a QueryResponse over the binding the query names, and the collector answers with a
// QueryReceipt, accepted or rejected.
//
// # Answering a query (a respondent)
//
// This package holds what an agent host needs to answer one query: the canonical types (QueryRequest,
// QueryResponse, QueryReceipt: aliases of package gen/aqp), ParseRequest and NewResponse to read a query and start
// an answer, and Client, whose Submit delivers the response over whichever binding the query's delivery names —
// https, mcp or a2a, every generation and transport of each — under the destination policy, checks the receipt
// against the response and returns it, or an error saying whether to retry:
//
//	client, _ := aqp.NewClient()
//	receipt, err := client.Submit(ctx, req, resp)
//
// # The rest of the module, in the order an implementer meets it
//
//   - core: validation of the three documents (Parse, ParseRequest, CheckObjects), the error codes, and the
//     canonical JSON; everything else is built on it. core/formats and wire hold the exact date-time and number
//     types the generated types use.
//   - gen/aqp: the generated types this package aliases. gen/api: the HTTP surface's types and client
//     (QueryDraft, the admin API).
//   - core/respondent: the respondent runtime an agent host embeds to answer many queries over time — intake from
//     any carriage, timing conditions, consent and its grants, the destination Policy, retries, continuations —
//     and the Transport seam every binding's client implements. Client here is one delivery through the same
//     transports; Respondent is the loop around them.
//   - core/collector: the collector an application embeds to ask questions: Issue (or IssueRequest, typed) turns
//     a draft into a query with a scoped capability, Submit decides a submitted response, Lookup and List read
//     what was answered. It knows no wire; a binding hands it bytes.
//   - service: the collector's HTTP surface — the bindings mounted at their paths, the admin API, discovery, the
//     schemas, health and metrics — and AdminClient, an Issuer for a collector run elsewhere.
//   - store/memory, store/sqlite, store/postgres: the collector's stores.
//   - bindings/https, bindings/mcp, bindings/a2a: each binding's server (service.Binding), its client (a
//     respondent.Transport), and its carriage: how a query rides on the binding's own traffic (an AQP-Query
//     header, an MCP tool result's _meta, an A2A message's metadata) to reach the agent.
//   - cmd/aqp: the command (serve, query, respond, validate, conformance). conformance: the suites any
//     implementation, in any language, can be run against.
package aqp
