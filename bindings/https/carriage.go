package https

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// QueryHeader is the response header that carries a query to a respondent over HTTPS (§6): the base64url
// encoding, without padding, of the QueryRequest's compact JSON, one header line per query.
const QueryHeader = spec.QueryHeader

// strictBase64 decodes exactly the texts RawURLEncoding writes: no padding, the URL-safe alphabet, and zero bits
// after the last byte, so each query has one header text. (Line breaks, which encoding/base64 skips even in strict
// mode, are refused separately.)
var strictBase64 = base64.RawURLEncoding.Strict()

// Attach adds queries (each a valid QueryRequest's JSON) to an HTTP response's headers, one AQP-Query field line
// each after any it already carries, for an application that asks its caller about the request it is answering.
// An invalid request is an error and nothing is attached: a respondent would drop it. A response carries at most
// MaxQueries queries (D34): attaching more is an error, and nothing is attached.
func Attach(h http.Header, requests ...[]byte) error {
	if h == nil {
		return errors.New("https: attaching queries to a nil header")
	}
	lines := make([]string, 0, len(requests))
	for i, r := range requests {
		doc := core.Parse(core.KindRequest, r)
		if !doc.Valid() {
			return fmt.Errorf("https: attaching query %d: not a valid QueryRequest: %w", i, doc.Errors.Err())
		}
		lines = append(lines, base64.RawURLEncoding.EncodeToString(core.CompactJSON(doc.Value)))
	}
	if n := len(elements(h)); n+len(lines) > MaxQueries {
		return fmt.Errorf("https: %d queries on one response; at most %d are carried", n+len(lines), MaxQueries)
	}
	for _, l := range lines {
		h.Add(QueryHeader, l)
	}
	return nil
}

// MaxQueries bounds the queries one HTTP response carries, as in every binding (core.MaxQueries, D34): Attach
// refuses more, and Queries decodes only the first MaxQueries elements.
const MaxQueries = core.MaxQueries

// elements lists the AQP-Query elements of h in order: every field line's value split as an HTTP list (RFC 9110
// §5.6.1: comma-separated, optional whitespace around each element, empty elements ignored). A sender writes one
// field line per query, but an intermediary may join field lines of one name with commas (RFC 9110 §5.3), and a
// base64url text holds no comma, so splitting recovers the queries exactly.
func elements(h http.Header) []string {
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

// Queries reads every query an HTTP response carries, in order: each element that is the unpadded base64url of
// the compact JSON of one valid QueryRequest is kept; every other is dropped with the rule it breaks, its Index
// the element's position (0-based) among every element of every AQP-Query field line. Expiry is the respondent
// runtime's to judge (§7), not the carriage's.
func Queries(h http.Header) ([]core.CarriedQuery, []core.Dropped) {
	var out []core.CarriedQuery
	var dropped []core.Dropped
	for i, e := range elements(h) {
		if i >= MaxQueries {
			dropped = append(dropped, core.Dropped{Index: i, Reason: fmt.Sprintf("more than %d queries on one response", MaxQueries)})
			continue
		}
		raw, d := decodeElement(i, e)
		if d != nil {
			dropped = append(dropped, *d)
			continue
		}
		q, d := core.CarriedEntry(i, raw)
		if d != nil {
			dropped = append(dropped, *d)
			continue
		}
		out = append(out, q)
	}
	return out, dropped
}

// decodeElement undoes an element's encoding: the compact JSON it carries, or the drop naming the rule it breaks.
func decodeElement(i int, e string) ([]byte, *core.Dropped) {
	if strings.ContainsAny(e, "\r\n") {
		return nil, &core.Dropped{Index: i, Rule: core.CarriageBase64URL, Reason: "not base64url without padding: a line break inside"}
	}
	raw, err := strictBase64.DecodeString(e)
	if err != nil {
		return nil, &core.Dropped{Index: i, Rule: core.CarriageBase64URL, Reason: "not base64url without padding: " + err.Error()}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil && !bytes.Equal(compact.Bytes(), raw) {
		return nil, &core.Dropped{Index: i, Rule: core.CarriageCompact, Reason: "the JSON is not compact: it holds whitespace outside strings"}
	}
	return raw, nil
}

// Intake hands the queries an HTTP response carries to a respondent runtime, as a host does with every response it
// receives: each query Queries keeps is taken in (and judged by the runtime: expiry, its transport, its destination
// policy), and every element not kept comes back as a *respondent.DropError with the carriage's reason or the
// runtime's. source names the response in the host's log ("GET https://app.example/forecast").
func Intake(r *respondent.Respondent, source string, h http.Header) ([]*respondent.Query, []*respondent.DropError) {
	if r == nil {
		return nil, []*respondent.DropError{{Source: source, Reason: "no respondent runtime to take the queries in"}}
	}
	qs, dropped := Queries(h)
	return r.IntakeCarried(source, qs, dropped)
}

// Fetch does what an agent host does before it answers a query carried over HTTPS: a GET of url with hc (the
// respondent's destination policy's client), whose reply carries queries in AQP-Query headers, each taken in
// through r's intake (Intake). The error is a request that failed; a broken or refused query is a DropError.
func Fetch(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	// Every well-carried query is taken, whatever the other headers hold; each broken one is reported.
	qs, drops := Intake(r, "GET "+url, resp.Header)
	return qs, drops, nil
}
