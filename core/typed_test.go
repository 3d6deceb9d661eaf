package core_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/wire"
)

// sameJSON compares two decoded JSON values (core.DecodeJSON's: json.Number numbers) as JSON: objects by members
// in any order, numbers by exact decimal value (1.0 = 1, 0.90 = 0.9, 9007199254740993 ≠ 9007199254740992), never
// through a float. It returns where they first differ, or "".
func sameJSON(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: object vs %T", path, b)
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: %d members vs %d", path, len(x), len(y))
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok {
				return fmt.Sprintf("%s/%s: missing after the round trip", path, k)
			}
			if d := sameJSON(path+"/"+k, v, w); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: array of %d vs %v", path, len(x), b)
		}
		for i := range x {
			if d := sameJSON(fmt.Sprintf("%s/%d", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	case json.Number:
		y, ok := b.(json.Number)
		if !ok || !wire.Number(x).Equal(wire.Number(y)) {
			return fmt.Sprintf("%s: number %s vs %v", path, x, b)
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%s: %#v vs %#v", path, a, b)
	}
	return ""
}

// roundTrip decodes data into a new T with encoding/json, encodes it again, and says where the JSON values differ
// ("" when they are the same value).
func roundTrip[T any](data []byte) (string, error) {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return "", fmt.Errorf("json.Unmarshal into %T: %w", v, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("json.Marshal(%T): %w", v, err)
	}
	orig, err := core.DecodeJSON(data)
	if err != nil {
		return "", err
	}
	again, err := core.DecodeJSON(out)
	if err != nil {
		return "", fmt.Errorf("re-encoded %T is not JSON: %w", v, err)
	}
	return sameJSON("", orig, again), nil
}

func roundTripKind(kind string, data []byte) (string, error) {
	switch kind {
	case "request":
		return roundTrip[aqp.QueryRequest](data)
	case "response":
		return roundTrip[aqp.QueryResponse](data)
	case "receipt":
		return roundTrip[aqp.QueryReceipt](data)
	}
	return "", fmt.Errorf("unknown kind %q", kind)
}

// TestTypesRoundTripEveryValidVector: every valid standalone vector decodes into its generated type and encodes
// back to the same JSON value — lowercase t/z, leap seconds, 60.0 as an integer, 0.90, 2^53+1 in a jsonSchema.
// Every invalid vector that is JSON decodes or fails with an error, never a panic.
func TestTypesRoundTripEveryValidVector(t *testing.T) {
	corpus, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	valid, invalid := 0, 0
	for _, f := range corpus.Standalone {
		for _, v := range f.Vectors {
			data := v.Bytes()
			if !v.Valid {
				if !json.Valid(data) {
					continue
				}
				invalid++
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s: decoding an invalid document panicked: %v", v.Name, r)
						}
					}()
					_, _ = roundTripKind(v.Kind, data)
				}()
				continue
			}
			valid++
			diff, err := roundTripKind(v.Kind, data)
			if err != nil {
				t.Errorf("%s (%s): %v", v.Name, v.Kind, err)
			} else if diff != "" {
				t.Errorf("%s (%s): the round trip changed the document at %s", v.Name, v.Kind, diff)
			}
		}
	}
	if valid < 50 || invalid < 50 {
		t.Fatalf("only %d valid and %d invalid JSON vectors: the corpus did not load", valid, invalid)
	}
	t.Logf("%d valid vectors round-tripped, %d invalid JSON vectors decoded without panicking", valid, invalid)
}

// TestTypedParseAgreesWithParse: ParseRequest, ParseResponse and ParseReceipt give every vector exactly the
// verdict and errors of Validate, and a typed object for exactly the valid ones.
func TestTypedParseAgreesWithParse(t *testing.T) {
	corpus, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range corpus.Standalone {
		for _, v := range f.Vectors {
			kind := core.Kind(v.Kind)
			want := core.Validate(kind, v.Bytes())
			var got core.Errors
			var isNil bool
			switch kind {
			case core.KindRequest:
				obj, errs := core.ParseRequest(v.Bytes())
				got, isNil = errs, obj == nil
			case core.KindResponse:
				obj, errs := core.ParseResponse(v.Bytes())
				got, isNil = errs, obj == nil
			case core.KindReceipt:
				obj, errs := core.ParseReceipt(v.Bytes())
				got, isNil = errs, obj == nil
			}
			if got.String() != want.String() || len(got) != len(want) {
				t.Errorf("%s: typed parse errors\n%v\nwant\n%v", v.Name, got, want)
			}
			if isNil != (len(want) > 0) {
				t.Errorf("%s: typed object nil = %v with %d errors", v.Name, isNil, len(want))
			}
		}
	}
}

type cycle struct{ Next *cycle }

type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("boom") }

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("no JSON for you") }

// TestParseValueAnyGoValue: ParseValue and ValidateObject take any Go value without panicking; what cannot be
// encoded is one json error saying why, and anything else is judged by its JSON text.
func TestParseValueAnyGoValue(t *testing.T) {
	quickstart, err := os.ReadFile("../examples/quickstart-response.json")
	if err != nil {
		t.Fatal(err)
	}
	resp, errs := core.ParseResponse(quickstart)
	if errs != nil {
		t.Fatal(errs)
	}
	var decoded any
	if err := json.Unmarshal(quickstart, &decoded); err != nil {
		t.Fatal(err)
	}
	c := &cycle{}
	c.Next = c
	for _, tc := range []struct {
		name  string
		value any
		want  string // "" for valid; otherwise "pointer keyword" of the first error, and a part of its message
		msg   string
	}{
		{"a valid typed response", *resp, "", ""},
		{"a pointer to it", resp, "", ""},
		{"a float64-decoded value", decoded, "", ""},
		{"an empty typed response", aqp.QueryResponse{}, "/createdAt format", "not a valid date-time"},
		{"a typed response with only an answer", aqp.QueryResponse{Answer: json.RawMessage(`"yes"`)}, "/createdAt format", ""},
		{"map[string]string", map[string]string{"answer": "yes"}, "/createdAt required", "missing required member"},
		{"[]string", []string{"a"}, " type", "must be an object, got an array"},
		{"nil", nil, " type", "got null"},
		{"a nil pointer", (*aqp.QueryResponse)(nil), " type", "got null"},
		{"a channel", make(chan int), " json", "unsupported type: chan int"},
		{"a function", func() {}, " json", "unsupported type: func()"},
		{"NaN", map[string]any{"confidence": math.NaN()}, " json", "unsupported value: NaN"},
		{"a cycle", c, " json", "cycle"},
		{"a failing MarshalJSON", failing{}, " json", "no JSON for you"},
		{"a panicking MarshalJSON", panicky{}, " json", "panicked: boom"},
		{"an invalid json.RawMessage answer", aqp.QueryResponse{Answer: json.RawMessage(`{`)}, " json", "cannot be encoded"},
		{"a wire.Number that is not a number", aqp.QueryResponse{Confidence: ptr(wire.Number("high"))}, " json", "not a JSON number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc *core.Document
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("ParseValue panicked: %v", r)
					}
				}()
				doc = core.ParseValue(core.KindResponse, tc.value)
			}()
			if v := core.ValidateObject(core.KindResponse, tc.value); v.String() != doc.Errors.String() {
				t.Errorf("ValidateObject = %v, ParseValue = %v", v, doc.Errors)
			}
			if tc.want == "" {
				if !doc.Valid() {
					t.Fatalf("errors: %v", doc.Errors)
				}
				return
			}
			if doc.Valid() {
				t.Fatal("valid, want an error")
			}
			var found bool
			for _, e := range doc.Errors {
				if e.Pointer+" "+e.Keyword == tc.want && strings.Contains(e.Message, tc.msg) && e.Code == core.CodeInvalidResponse {
					found = true
				}
			}
			if !found {
				t.Errorf("errors %v\nwant one at %q (code invalid_response) saying %q", doc.Errors, tc.want, tc.msg)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestNewResponse(t *testing.T) {
	req, errs := core.ParseRequest([]byte(exampleQuery))
	if errs != nil {
		t.Fatal(errs)
	}
	id := "agent-7"
	who := aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect, ID: &id}
	before := time.Now().Add(-time.Millisecond)
	resp, err := core.NewResponse(req, who, json.RawMessage(" { \"n\" : 1.50 , \"s\": \"<b>\" } "))
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Answer) != `{"n":1.50,"s":"<b>"}` {
		t.Errorf("answer = %s, want the raw JSON compacted, number text and < kept", resp.Answer)
	}
	u, err := uuid.Parse(resp.ResponseID)
	if err != nil || u.Version() != 7 || resp.ResponseID != strings.ToLower(resp.ResponseID) {
		t.Errorf("responseId %q: want a lowercase UUIDv7 (%v)", resp.ResponseID, err)
	}
	created, err := resp.CreatedAt.Time()
	if err != nil || created.Before(before) || created.After(time.Now()) || len(resp.CreatedAt) != 24 || !strings.HasSuffix(string(resp.CreatedAt), "Z") {
		t.Errorf("createdAt %q: want now, UTC with milliseconds (%v)", resp.CreatedAt, err)
	}
	if resp.QueryID != req.QueryID || resp.ProtocolVersion != "2026-07-30" || !reflect.DeepEqual(resp.Subject, req.Subject) {
		t.Errorf("queryId/version/subject not copied: %+v", resp)
	}
	// The response shares no memory with the request or the caller's respondent.
	*req.Subject.Protocol = "a2a"
	*req.Subject.IDScope = "global"
	id = "someone-else"
	if *resp.Subject.Protocol != "mcp" || *resp.Subject.IDScope != "local" || *resp.Respondent.ID != "agent-7" {
		t.Errorf("the response aliases its inputs: %+v %+v", resp.Subject, resp.Respondent)
	}
	if errs := core.ValidateObject(core.KindResponse, resp); errs != nil {
		t.Errorf("NewResponse's response is invalid: %v", errs)
	}
	other, _ := core.NewResponse(req, who, "yes")
	if other.ResponseID == resp.ResponseID {
		t.Error("two responses got the same responseId")
	}

	for _, c := range []struct {
		name   string
		req    *aqp.QueryRequest
		answer any
		want   string
	}{
		{"nil request", nil, "yes", "the request is nil"},
		{"unencodable answer", req, make(chan int), "answer: the value cannot be encoded as JSON: json: unsupported type: chan int"},
		{"invalid raw answer", req, json.RawMessage("{"), "answer: the value cannot be encoded"},
		{"oversized answer", req, strings.Repeat("x", core.MaxDocumentBytes), "bytes of JSON; a whole document may have at most"},
	} {
		if resp, err := core.NewResponse(c.req, who, c.answer); err == nil || resp != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: NewResponse = %v, %v; want an error containing %q", c.name, resp, err, c.want)
		}
	}
}

// TestCheckObjects: standalone failures come first, tagged with their role, then the paired checks; nil members
// are skipped.
func TestCheckObjects(t *testing.T) {
	req, _ := core.ParseRequest([]byte(exampleQuery))
	who := aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect}
	resp, _ := core.NewResponse(req, who, "yes")
	rec := &aqp.QueryReceipt{ProtocolVersion: wire.ProtocolVersion(spec.ProtocolVersion), QueryID: req.QueryID, ResponseID: resp.ResponseID,
		Status: aqp.QueryReceiptStatusAccepted, ReceivedAt: wire.NewDateTime(time.Now())}
	if errs := core.CheckObjects(req, resp, rec); errs != nil {
		t.Fatalf("a matching exchange: %v", errs)
	}
	if errs := core.CheckObjects(nil, nil, nil); errs != nil {
		t.Fatalf("nothing to check: %v", errs)
	}
	wrong := *rec
	wrong.ResponseID = "0198c7d0-2180-7729-b005-d33c99fc7452"
	errs := core.CheckObjects(req, resp, &wrong)
	if len(errs) != 1 || errs[0].Code != core.CodeResponseMismatch || errs[0].Document != core.RoleReceipt {
		t.Errorf("mismatched receipt: %v", errs)
	}
	bad := *resp
	bad.CreatedAt = ""
	errs = core.CheckObjects(req, &bad, rec)
	if len(errs) == 0 || errs[0].Code != core.CodeInvalidResponse || errs[0].Document != core.RoleResponse || errs[0].Pointer != "/createdAt" {
		t.Errorf("invalid response: %v", errs)
	}
}
