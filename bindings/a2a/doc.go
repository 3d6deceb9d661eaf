// Package a2a is AQP's A2A binding (§6), built on github.com/a2aproject/a2a-go/v2: a collector is an A2A agent.
// It speaks A2A 1.0 over all three transports 1.0 defines — JSON-RPC (SendMessage, SendStreamingMessage) at /a2a,
// HTTP+JSON (POST /a2a/message:send and /a2a/message:stream) and gRPC (lf.a2a.v1.A2AService on the same listener,
// over unencrypted HTTP/2 or TLS) — and A2A 0.3's JSON-RPC (message/send, message/stream) at the same /a2a, for
// peers of the previous generation (D32). A respondent sends the QueryResponse as the one part of its message
// marked {"aqpObject": "response"} — a data part whose value is the response, or (1.0) a raw part holding its JSON
// text, which is how it travels exactly over gRPC (D33) — with the query's capability as its bearer token (the
// Authorization header, or gRPC's authorization metadata). The reply is a Message whose one part, marked
// {"aqpObject": "receipt"}, is the QueryReceipt.
//
// # Serving, for a collector
//
// Binding is what service.New mounts: its Server at Endpoint's path, the HTTP+JSON paths and the gRPC service
// beside it, and the agent card (AgentCard, CardHandler) at /.well-known/agent-card.json, which lists every
// interface and declares the AQP extension, required; 1.0 requests must activate it (A2A-Extensions). Serve it
// with unencrypted HTTP/2 enabled (http.Protocols) for gRPC without TLS.
//
// Both directions keep the bytes: the response reaches the core exactly as the client wrote it (its text is cut
// from the request body, never re-encoded from an SDK's map of float64s, so an integer of 2^53 + 1 survives), and
// the receipt leaves exactly as the core wrote it. Nothing of a request is decoded into generic values before the
// collector's gate: methods the agent does not serve are refused from the envelope alone.
//
// # Delivering, for a respondent
//
// Client is the binding's respondent.Transport: it reads the collector's agent card and delivers over the newest
// generation it lists on the delivery endpoint's own host, or over the generation and transport it is pinned to.
// The module root's aqp.Client.Submit delivers a typed response through it in one call, aqp.WithA2A pinning the
// interface (see the Example).
//
// # Carrying queries
//
// An A2A agent asks about its own work: AskingExecutor wraps an executor so that a DraftFunc's query is issued
// and attached to the reply's metadata (Attach does it by hand, on a Message or a Task), and an agent host reads
// them back with Queries or hands them to a respondent runtime with Intake.
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
package a2a
