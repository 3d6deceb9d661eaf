// Package https is AQP's HTTPS binding (§6): a respondent POSTs a QueryResponse to /aqp/v1/responses with the
// query's capability as its bearer token, and the collector answers with the QueryReceipt as the body, under an
// HTTP status from one table of receipt codes (or an RFC 9457 problem when it can form no receipt).
//
// # Serving, for a collector
//
// Binding is what service.New mounts at Endpoint's path; its Server maps each request to a collector.Submission
// and the collector's Outcome back onto the wire, and decides nothing itself. The rest of a collector's HTTP
// surface (admin API, discovery, health, metrics) is package service's.
//
// # Delivering, for a respondent
//
// Client is the binding's respondent.Transport. The module root's aqp.Client.Submit delivers a typed response
// through it in one call (see the Example); Client.Post returns the reply as the wire carried it (status, headers,
// receipt or problem), for checks of the wire form.
//
// # Carrying queries
//
// An application puts the queries it issued on its own HTTP replies: Attach adds one AQP-Query header per query
// (base64url of its JSON), and an agent host reads them back with Queries (each broken one reported as dropped,
// with why) or hands them straight to a respondent runtime with Intake.
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
package https
