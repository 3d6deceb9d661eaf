package core_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// fuzzResponse is a valid response with its answer (and extra members) left to fill in.
func fuzzResponse(extra string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452",` +
		`"queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","subject":{"kind":"tool_call","id":"call_1"},` +
		`"respondent":{"kind":"agent","provenance":"direct"},"createdAt":"2026-07-30T17:05:12Z",` + extra + `}`)
}

// FuzzParseTyped: the typed parse of every kind never panics, and a document core says is valid always decodes
// into its type and encodes back to the same JSON value (numbers by exact decimal value). The seeds are every
// standalone vector plus the inputs that break naive decoders: long member names, deep nesting, duplicate members,
// lone surrogates, numbers beyond float64.
func FuzzParseTyped(f *testing.F) {
	corpus, err := conformance.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range corpus.Standalone {
		for _, v := range file.Vectors {
			f.Add(v.Bytes())
		}
	}
	long := strings.Repeat("m", 70000)
	deep := strings.Repeat("[", 1500) + strings.Repeat("]", 1500)
	deepObj := strings.Repeat(`{"a":`, 1500) + "1" + strings.Repeat("}", 1500)
	hundred := "1" + strings.Repeat("2", 99)
	for _, seed := range [][]byte{
		[]byte(`{"` + long + `":1}`),
		fuzzResponse(`"answer":{"` + long + `":true}`),
		[]byte(deep),
		fuzzResponse(`"answer":` + deep),
		fuzzResponse(`"answer":` + deepObj),
		fuzzResponse(`"answer":"yes","answer":"no","confidence":0.1,"confidence":0.90`),
		fuzzResponse(`"answer":"yes","createdAt":"2026-07-30t17:05:12z"`),
		fuzzResponse(`"answer":"\ud800","explanation":"lone \udc00 surrogate"`),
		fuzzResponse(`"answer":["\ud800\ud800","\udfff"]`),
		fuzzResponse(`"answer":1e400,"confidence":1e-400`),
		fuzzResponse(`"answer":9007199254740993,"confidence":0.9999999999999999999999`),
		fuzzResponse(`"answer":` + hundred + `,"confidence":1E0`),
		fuzzResponse(`"answer":-` + hundred + `.` + hundred + `e-99999999999999999999`),
		fuzzResponse(`"answer":{"jsonSchema":{"maximum":9007199254740993}}`),
		[]byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","responseId":` +
			`"0198c7d0-2180-7729-b005-d33c99fc7452","status":"rejected","retryable":true,"retryAfter":8.64e4,` +
			`"receivedAt":"2016-12-31T23:59:60Z","error":{"code":"unavailable","message":"down"}}`),
		[]byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"survey",` +
			`"subject":{"kind":"task","id":"t"},"prompt":"?","timing":"deferred","consentMode":"not_required",` +
			`"response":{"format":"structured","maxLength":1.6e4,"jsonSchema":{"type":"integer","maximum":9007199254740993,` +
			`"multipleOf":1e-400}},"delivery":{"binding":"https"},"expiresAt":"2026-07-30T19:00:00.123456789123+14:00"}`),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzKind(t, core.KindRequest, data, core.ParseRequest)
		fuzzKind(t, core.KindResponse, data, core.ParseResponse)
		fuzzKind(t, core.KindReceipt, data, core.ParseReceipt)
	})
}

func fuzzKind[T any](t *testing.T, kind core.Kind, data []byte, parse func([]byte) (*T, core.Errors)) {
	obj, errs := parse(data)
	if errs != nil {
		if obj != nil {
			t.Fatalf("%s: a typed object and errors: %v", kind, errs)
		}
		for _, e := range errs {
			if strings.Contains(e.Message, "but does not decode into") {
				t.Fatalf("%s: a valid document does not decode: %v", kind, e)
			}
		}
		return
	}
	if obj == nil {
		t.Fatalf("%s: neither a typed object nor errors", kind)
	}
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("%s: a decoded valid document does not encode: %v", kind, err)
	}
	orig, err := core.DecodeJSON(data)
	if err != nil {
		t.Fatalf("%s: valid but not JSON: %v", kind, err)
	}
	again, err := core.DecodeJSON(out)
	if err != nil {
		t.Fatalf("%s: re-encoded document is not JSON: %v", kind, err)
	}
	if d := sameJSON("", orig, again); d != "" {
		t.Fatalf("%s: the round trip changed the document at %s\nin:  %.300s\nout: %.300s", kind, d, data, out)
	}
}
