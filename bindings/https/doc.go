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
package https
