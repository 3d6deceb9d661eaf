package core

// CarriageRule names the rule of §6 a carried query breaks when a respondent drops it, in the words of the carriage
// vectors (conformance/vectors/carriage, conformance/README.md). Every binding's decoder reports its drops with one,
// so the same broken carriage is reported the same way whichever binding carried it, and a vector can say which
// rule an entry breaks without quoting a decoder's prose.
type CarriageRule string

// MaxCarriedQueries is how many queries one carrying object carries at most, the same in every binding (D34): an
// HTTP response's AQP-Query elements, an MCP tool result's _meta entries, an A2A Message's or Task's metadata
// entries. Attaching more is an error on the sending side; a reader decodes only the first MaxCarriedQueries and
// drops the rest, each with a reason and no rule (too many is no fault of the entry).
const MaxCarriedQueries = 16

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

// CarriedRequest judges one carried entry's JSON text: the valid request, or the rule it breaks (CarriageObject
// when it is not one JSON object, CarriageRequest when it is one but not a valid QueryRequest) with the document
// holding the failures. It does not judge expiry: a respondent drops an expired query after intake (§7), not as a
// carriage fault.
func CarriedRequest(raw []byte) (*Document, CarriageRule) {
	doc := Parse(KindRequest, raw)
	if doc.Valid() {
		return doc, ""
	}
	for _, e := range doc.Errors {
		if e.Pointer == "" && (e.Keyword == KeywordJSON || e.Keyword == "type") {
			return doc, CarriageObject
		}
	}
	return doc, CarriageRequest
}
