// Package mcp is AQP's MCP binding (§6), built on github.com/mark3labs/mcp-go. A collector serves streamable HTTP
// at /mcp with one tool, aqp_submit_response, whose arguments are the QueryResponse object itself and whose
// result carries the QueryReceipt as structuredContent (and as the same JSON in the text content), isError when
// rejected; the capability is the HTTP Authorization header of each request. Both MCP eras are served on the one
// endpoint (D31): 2026-07-28 (server/discover, no handshake) and 2025-11-25 and earlier (initialize).
//
// # Serving, for a collector
//
// Binding is what service.New mounts at Endpoint's path. Its Server is stateless: no MCP session carries anything
// a receipt depends on, so any number of collector processes sharing a store can serve it behind a load balancer
// without affinity. Tool, InputSchema and OutputSchema are the tool as it is declared.
//
// # Delivering, for a respondent
//
// Client is the binding's respondent.Transport: each delivery opens a Conn in one era (ProtocolVersionModern,
// ProtocolVersionLegacy, or a probe of the modern one first), calls the tool and closes. The module root's
// aqp.Client.Submit delivers a typed response through it in one call, aqp.WithMCPVersion pinning the era (see the
// Example); Client.Call returns the tool result as the wire carried it.
//
// # Carrying queries
//
// A tool server asks about its own tool calls: Carriage.Middleware wraps its tools so that the query a DraftFunc
// drafts is issued and attached to the result's _meta["com.agentqueryprotocol/queries"] (Attach does it by hand),
// and an agent host reads them back with Queries or hands them to a respondent runtime with Intake.
package mcp
