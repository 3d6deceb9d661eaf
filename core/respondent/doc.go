// Package respondent is the half of AQP that answers: an agent host takes in the queries carried to it, decides
// when and whether to answer each, and delivers the response to the collector that asked.
//
// A host that answers one query now needs only the module root's aqp.Client.Submit. This package is for a host
// that answers queries over time:
//
//   - Respondent (New, Config) is the runtime: Intake and IntakeRequest take a query in from any carriage and drop
//     what must not be answered (invalid, expired, undeliverable, refused by the Policy); Respond waits for the
//     query's timing condition (OutcomeKnown, TaskComplete), applies its consent mode (asking through
//     Config.Consent, remembering ask_once grants in a GrantStore), gets the answer from Config.Answer, checks it
//     against the query's contract, delivers it and retries the same bytes until the query expires, and takes in a
//     continuation the receipt carries.
//   - Policy decides where a response may go, judged on the address actually dialled: https to public addresses
//     only, unless loopback or private prefixes are allowed, and to AllowHosts alone when set; redirects are never
//     followed. Its Client and Dialer are
//     what every transport dials through.
//   - Transport is the seam with the bindings: each binding's Client delivers one response and returns the
//     receipt, a *ProblemError (no receipt: do not resend it unchanged) or a *TransportError (nothing decided:
//     resend it). A Registry holds one per binding; DeliveryOf reads a query's delivery member for one.
//
// The runtime's errors say what became of a query: *DropError (not answered, with the reason), *RefusedError
// (consent refused: nothing sent), *AnswerError (the host's answer breaks the contract: nothing sent),
// *RejectedError (the collector's receipt rejected it) and *DeliveryError (not delivered: the query expired while retrying, or the
// failure was permanent).
package respondent
