package https_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/fuzzseed"
)

// headerRequest is a valid request with room for a hostile jsonSchema, so that seeds reach the header's JSON.
func headerRequest(schema string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"survey",` +
		`"subject":{"kind":"tool_call","id":"call_1"},"prompt":"?","timing":"deferred","consentMode":"not_required",` +
		`"response":{"format":"structured","jsonSchema":` + schema + `},"delivery":{"binding":"https"},` +
		`"expiresAt":"2026-07-30T19:00:00Z"}`)
}

// requestSeeds are the valid requests of the conformance corpus, the hostile values inside a request's
// jsonSchema, and the hostile values alone.
func requestSeeds(f *testing.F) [][]byte {
	corpus, err := conformance.Load()
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, file := range corpus.Standalone {
		for _, v := range file.Vectors {
			if v.Kind == string(core.KindRequest) {
				out = append(out, v.Bytes())
			}
		}
	}
	long := strings.Repeat("p", fuzzseed.LongName)
	out = append(out, headerRequest(`{"properties":{"`+long+`":{"maximum":9007199254740993}},"required":["`+long+`"]}`))
	for _, s := range fuzzseed.Values() {
		out = append(out, s.Bytes, headerRequest(string(s.Bytes)), headerRequest(`{"const":`+string(s.Bytes)+`}`))
	}
	return out
}

// FuzzQueries reads arbitrary AQP-Query field lines (the fuzzed string, one line per line). Queries never panics;
// it returns, in order, a valid request for each element (the lines split as an HTTP list on commas) that is the
// unpadded base64url of one's compact JSON; and it stops with an error naming the first element that is not, so
// that it returns every element only when it reports no error. Carried agrees: it keeps the same prefix, and drops
// exactly the elements that are not such a request.
func FuzzQueries(f *testing.F) {
	for _, r := range requestSeeds(f) {
		f.Add(base64.RawURLEncoding.EncodeToString(r))
	}
	valid := base64.RawURLEncoding.EncodeToString(headerRequest(`{"type":"object"}`))
	f.Add(valid + "\n" + valid)
	f.Add(valid + ", " + valid + ",,")
	f.Add(valid + "=")
	f.Add(base64.StdEncoding.EncodeToString(headerRequest(`{"const":"\u00ff\u00fe\u00fd"}`)))
	f.Add(valid + "\n" + string(headerRequest(`{}`)))
	f.Add(valid + "\ne30\n" + valid)
	f.Add("")
	f.Add("\n\n")
	f.Add("e30")
	f.Add("e31")
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, lines string) {
		h := http.Header{}
		var elements []string
		for _, line := range strings.Split(lines, "\n") {
			h.Add(https.QueryHeader, line)
			for _, e := range strings.Split(line, ",") {
				if e = strings.Trim(e, " \t"); e != "" {
					elements = append(elements, e)
				}
			}
		}
		// wellFormed: what the element must be for a respondent to keep it, judged independently of the decoder.
		wellFormed := func(e string) bool {
			raw, err := base64.RawURLEncoding.DecodeString(e)
			if err != nil || base64.RawURLEncoding.EncodeToString(raw) != e {
				return false
			}
			var c bytes.Buffer
			return json.Compact(&c, raw) == nil && c.String() == string(raw) && core.Parse(core.KindRequest, raw).Valid()
		}
		kept, dropped := https.Queries(h)
		if len(kept)+len(dropped) != len(elements) {
			t.Fatalf("%d elements, %d kept and %d dropped", len(elements), len(kept), len(dropped))
		}
		for _, d := range dropped {
			if wellFormed(elements[d.Index]) || d.Rule == "" || d.Reason == "" {
				t.Fatalf("element %d dropped (%s: %s) although it is a well-formed query", d.Index, d.Rule, d.Reason)
			}
		}
		next := 0 // the kept queries are the well-formed elements, in order, each its element's decoding
		for i, e := range elements {
			if !wellFormed(e) {
				continue
			}
			raw, _ := base64.RawURLEncoding.DecodeString(e)
			if next >= len(kept) || string(kept[next].JSON) != string(raw) || kept[next].Request == nil {
				t.Fatalf("element %d is well-formed but is not the next query kept", i+1)
			}
			next++
		}
	})
}

// FuzzAttachQuery attaches arbitrary bytes as a query. Attach accepts exactly the valid requests, adds
// nothing to the headers when it refuses, and what it attaches is one unpadded base64url value that Queries reads
// back as the same JSON value (numbers by exact value, members in any order), twice over when attached twice.
func FuzzAttachQuery(f *testing.F) {
	for _, r := range requestSeeds(f) {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := http.Header{}
		err := https.Attach(h, data)
		doc := core.Parse(core.KindRequest, data)
		if (err == nil) != doc.Valid() {
			t.Fatalf("Attach says %v, but Parse says %v", err, doc.Errors)
		}
		if err != nil {
			if len(h) != 0 {
				t.Fatalf("a refused query left headers: %v", h)
			}
			if !strings.Contains(err.Error(), doc.Errors[0].Pointer) {
				t.Fatalf("the error does not name the failing member %q: %v", doc.Errors[0].Pointer, err)
			}
			return
		}
		if err := https.Attach(h, data); err != nil {
			t.Fatalf("a second attach of the same request fails: %v", err)
		}
		values := h.Values(https.QueryHeader)
		if len(values) != 2 || values[0] != values[1] || strings.ContainsAny(values[0], "=+/\r\n") {
			t.Fatalf("want two equal unpadded base64url values, got %.200q", values)
		}
		docs, dropped := https.Queries(h)
		if len(dropped) != 0 || len(docs) != 2 {
			t.Fatalf("Queries of attached queries: %d, %v", len(docs), dropped)
		}
		for _, d := range docs {
			if got, _ := core.DecodeJSON(d.JSON); !core.EqualJSON(got, doc.Value) {
				t.Fatalf("the query changed on the way:\nsent: %.300s\ngot:  %.300s", data, d.JSON)
			}
		}
	})
}
