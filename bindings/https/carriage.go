package https

import (
	"encoding/base64"
	"fmt"
	"net/http"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// QueryHeader is the response header that carries a query to a respondent over HTTPS (§6): the base64url
// encoding, without padding, of the QueryRequest's compact JSON, one header line per query.
const QueryHeader = spec.QueryHeader

// AttachQuery adds a query to an HTTP response's headers, for an application that asks its caller a question
// about the request it is answering. The request must be valid: a respondent would drop an invalid one.
func AttachQuery(h http.Header, request []byte) error {
	doc := core.Parse(core.KindRequest, request)
	if !doc.Valid() {
		return fmt.Errorf("https: attaching an invalid query: %w", doc.Errors)
	}
	h.Add(QueryHeader, base64.RawURLEncoding.EncodeToString(core.CompactJSON(doc.Value)))
	return nil
}

// Queries reads every query an HTTP response carries, validated, in header order. A header that does not decode
// or does not hold a valid QueryRequest is an error naming its position; the caller decides whether to act on
// the others.
func Queries(h http.Header) ([]*core.Document, error) {
	var out []*core.Document
	for i, v := range h.Values(QueryHeader) {
		raw, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			return out, fmt.Errorf("%s header %d: not base64url without padding: %w", QueryHeader, i+1, err)
		}
		doc := core.Parse(core.KindRequest, raw)
		if !doc.Valid() {
			return out, fmt.Errorf("%s header %d: not a valid QueryRequest: %w", QueryHeader, i+1, doc.Errors)
		}
		out = append(out, doc)
	}
	return out, nil
}
