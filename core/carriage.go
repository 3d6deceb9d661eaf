package core

import (
	"encoding/json"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// CarriageRule names the rule of §6 a carried query breaks when a respondent drops it, in the words of the carriage
// vectors (conformance/vectors/carriage, conformance/README.md). Every binding's decoder reports its drops with one,
// so the same broken carriage is reported the same way whichever binding carried it, and a vector can say which
// rule an entry breaks without quoting a decoder's prose.
type CarriageRule string

// MaxQueries is how many queries one carrying object carries at most, the same in every binding (D34): an HTTP
// response's AQP-Query elements, an MCP tool result's _meta entries, an A2A Message's or Task's metadata entries.
// Attaching more is an error on the sending side; a reader decodes only the first MaxQueries and drops the rest,
// each with a reason and no rule (too many is no fault of the entry). Every binding re-exports it as MaxQueries.
const MaxQueries = 16

// CarriedQuery is one query a binding's reader kept from a carrying object: valid, in the carrier's order. Every
// binding's Queries returns these, so a host handles a query the same way whichever binding carried it.
type CarriedQuery struct {
	// JSON is the QueryRequest's JSON as the carrier held it (compact), so its numbers are exactly the sender's.
	JSON []byte
	// Request is the typed QueryRequest, what the respondent runtime takes in.
	Request *aqp.QueryRequest
}

// Dropped is a carried entry a binding's reader found and did not keep, and why. Every binding's Queries reports
// its drops with this one type, and the respondent runtime (respondent.IntakeCarried) takes them as they are, so a
// drop reads the same whichever binding carried the entry. A reader never judges expiry: that is the runtime's
// (§7), which drops an expired query after intake.
type Dropped struct {
	// Index is the entry's position, 0-based: among an HTTP response's AQP-Query elements, or in the carried array
	// (MCP, A2A); -1 when the carrying member itself is wrong (not an array), which loses every entry in it.
	Index int
	// Rule is the rule of §6 the entry breaks, in the carriage vectors' words; empty for an entry past MaxQueries
	// (too many is no fault of the entry).
	Rule CarriageRule
	// Reason says what is wrong with the entry, for a log.
	Reason string
}

// The carriage rules. A drop names exactly one: the first the entry breaks, in this order of checking — the
// carrier, then the entry's encoding, then its JSON, then the QueryRequest.
const (
	// CarriageArray: the carrier's member (MCP _meta["com.agentqueryprotocol/queries"], A2A metadata
	// ".../a2a/queries") holds something other than an array; every query in it is lost, so the drop has index -1.
	CarriageArray CarriageRule = "array"
	// CarriageBase64URL: an AQP-Query element is not the unpadded base64url of anything — padding, the standard
	// alphabet's '+' or '/', whitespace inside, any other character, or trailing bits that are not zero (the
	// encoding of some bytes is then not the one text §6 names).
	CarriageBase64URL CarriageRule = "base64url"
	// CarriageCompact: an AQP-Query element decodes to a JSON object written with insignificant whitespace; §6
	// carries compact JSON, so a header is as short as the query allows and has one spelling per member order.
	CarriageCompact CarriageRule = "compact"
	// CarriageObject: the entry is not exactly one JSON object (not JSON, trailing data, an array of queries in one
	// header, a string or a number in the array).
	CarriageObject CarriageRule = "object"
	// CarriageRequest: the entry is one JSON object but not a valid QueryRequest (including a duplicate member
	// name, which I-JSON forbids).
	CarriageRequest CarriageRule = "request"
)

// CarriedEntry judges one carried entry's JSON text, the entry at index of its carrier: the query, typed, or the
// drop naming the rule it breaks (CarriageObject when it is not one JSON object, CarriageRequest when it is one but
// not a valid QueryRequest) with the failures as its reason. Every binding's reader ends in it, after its own
// carrier's checks (the array, base64url, compact JSON), so one entry gets one verdict in every binding. It does
// not judge expiry: a respondent drops an expired query after intake (§7), not as a carriage fault.
func CarriedEntry(index int, raw []byte) (CarriedQuery, *Dropped) {
	doc := Parse(KindRequest, raw)
	if !doc.Valid() {
		for _, e := range doc.Errors {
			if e.Pointer == "" && (e.Keyword == KeywordJSON || e.Keyword == "type") {
				return CarriedQuery{}, &Dropped{Index: index, Rule: CarriageObject, Reason: "not one JSON object: " + doc.Errors.String()}
			}
		}
		return CarriedQuery{}, &Dropped{Index: index, Rule: CarriageRequest, Reason: "not a valid QueryRequest: " + doc.Errors.String()}
	}
	req := new(aqp.QueryRequest)
	if err := json.Unmarshal(raw, req); err != nil { // a valid request always decodes; say so should one not
		return CarriedQuery{}, &Dropped{Index: index, Rule: CarriageRequest, Reason: "a valid QueryRequest that does not decode: " + err.Error()}
	}
	return CarriedQuery{JSON: raw, Request: req}, nil
}
