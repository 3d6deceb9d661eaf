package https

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// QueryHeader is the response header that carries a query to a respondent over HTTPS (§6): the base64url
// encoding, without padding, of the QueryRequest's compact JSON, one header line per query.
const QueryHeader = spec.QueryHeader

// strictBase64 decodes exactly the texts RawURLEncoding writes: no padding, the URL-safe alphabet, and zero bits
// after the last byte, so each query has one header text. (Line breaks, which encoding/base64 skips even in strict
// mode, are refused separately.)
var strictBase64 = base64.RawURLEncoding.Strict()

// AttachQuery adds a query to an HTTP response's headers, for an application that asks its caller a question
// about the request it is answering. The request must be valid: a respondent would drop an invalid one.
//
// A response carries at most MaxQueries queries (core.MaxCarriedQueries, D34): attaching one more is an error.
func AttachQuery(h http.Header, request []byte) error {
	doc := core.Parse(core.KindRequest, request)
	if !doc.Valid() {
		return fmt.Errorf("https: attaching an invalid query: %w", doc.Errors.Err())
	}
	if n := len(Elements(h)); n >= MaxQueries {
		return fmt.Errorf("https: the response already carries %d queries; at most %d are carried", n, MaxQueries)
	}
	h.Add(QueryHeader, base64.RawURLEncoding.EncodeToString(core.CompactJSON(doc.Value)))
	return nil
}

// MaxQueries bounds the queries one HTTP response carries, as in every binding (core.MaxCarriedQueries, D34):
// AttachQuery refuses more, and Carried and Queries decode only the first MaxQueries elements.
const MaxQueries = core.MaxCarriedQueries

// Dropped is an AQP-Query element a respondent found and did not keep.
type Dropped struct {
	// Index is the element's position (0-based) among every element of every AQP-Query field line, in order.
	Index int
	// Rule is the rule of §6 the element breaks, in the carriage vectors' words; empty for an element past
	// MaxQueries (too many is no fault of the element).
	Rule core.CarriageRule
	// Reason says what is wrong with it, for a log.
	Reason string
}

// Elements lists the AQP-Query elements of h in order: every field line's value split as an HTTP list (RFC 9110
// §5.6.1: comma-separated, optional whitespace around each element, empty elements ignored). A sender writes one
// field line per query, but an intermediary may join field lines of one name with commas (RFC 9110 §5.3), and a
// base64url text holds no comma, so splitting recovers the queries exactly.
func Elements(h http.Header) []string {
	var out []string
	for _, line := range h.Values(QueryHeader) {
		for _, e := range strings.Split(line, ",") {
			if e = strings.Trim(e, " \t"); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// Carried reads every query an HTTP response carries, in order: each element that is the unpadded base64url of
// the compact JSON of one valid QueryRequest is kept; every other is dropped with the rule it breaks. Expiry is
// the respondent runtime's to judge (§7), not the carriage's.
func Carried(h http.Header) ([]*core.Document, []Dropped) {
	var out []*core.Document
	var dropped []Dropped
	for i, e := range Elements(h) {
		if i >= MaxQueries {
			dropped = append(dropped, Dropped{Index: i, Reason: fmt.Sprintf("more than %d queries on one response", MaxQueries)})
			continue
		}
		doc, rule, reason := decodeElement(e)
		if rule != "" {
			dropped = append(dropped, Dropped{Index: i, Rule: rule, Reason: reason})
			continue
		}
		out = append(out, doc)
	}
	return out, dropped
}

func decodeElement(e string) (*core.Document, core.CarriageRule, string) {
	if strings.ContainsAny(e, "\r\n") {
		return nil, core.CarriageBase64URL, "not base64url without padding: a line break inside"
	}
	raw, err := strictBase64.DecodeString(e)
	if err != nil {
		return nil, core.CarriageBase64URL, "not base64url without padding: " + err.Error()
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil && !bytes.Equal(compact.Bytes(), raw) {
		return nil, core.CarriageCompact, "the JSON is not compact: it holds whitespace outside strings"
	}
	doc, rule := core.CarriedRequest(raw)
	switch rule {
	case "":
		return doc, "", ""
	case core.CarriageObject:
		return nil, rule, "not one JSON object: " + doc.Errors.String()
	}
	return nil, rule, "not a valid QueryRequest: " + doc.Errors.String()
}

// Queries reads the queries an HTTP response carries, validated, in order (see Carried), and stops at the first
// element that is not one: its error names the element's position (1-based) and why, and the queries before it are
// returned. A caller that wants every valid query whatever the others hold uses Carried.
func Queries(h http.Header) ([]*core.Document, error) {
	var out []*core.Document
	for i, e := range Elements(h) {
		if i >= MaxQueries {
			return out, fmt.Errorf("%s header %d: more than %d queries on one response", QueryHeader, i+1, MaxQueries)
		}
		doc, rule, reason := decodeElement(e)
		if rule != "" {
			return out, fmt.Errorf("%s header %d: %s", QueryHeader, i+1, reason)
		}
		out = append(out, doc)
	}
	return out, nil
}
