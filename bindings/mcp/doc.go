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
//
// # One vocabulary
//
// The three binding packages (bindings/https, bindings/mcp, bindings/a2a) name the same jobs the same way, so code
// written against one reads against the others:
//
//	job                                    https               mcp                   a2a
//	the binding's name (delivery.binding)  Name                Name                  Name
//	what a collector serves                Endpoint()          Endpoint()            Endpoint()
//	the collector's side, over a Submitter Binding, NewServer  Binding, NewServer    Binding, NewServer
//	the respondent's side (a Transport)    Client.Deliver      Client.Deliver        Client.Deliver
//	receipt code to wire form (codes.go)   WireFor(code) Wire  WireFor(code) Wire    WireFor(code) Wire
//	where carried queries ride             QueryHeader         QueriesKey (_meta)    QueriesKey (metadata)
//	carry queries (carriage.go)            Attach(h, reqs...)  Attach(res, reqs...)  Attach(msgOrTask, reqs...)
//	read them: ([]core.CarriedQuery,       Queries(h)          Queries(res)          Queries(msgOrTask)
//	  []core.Dropped), no clock
//	hand them to a respondent runtime      Intake(r, src, h)   Intake(r, src, res)   Intake(r, src, msgOrTask)
//	the most one carrier carries (D34)     MaxQueries          MaxQueries            MaxQueries
//
// A reader never judges expiry: the respondent runtime does (respondent.IntakeCarried), in one place for every
// binding. Every drop is a core.Dropped naming the rule of §6 it breaks (core.CarriageRule).
package mcp
