package a2a_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/go-json-experiment/json/jsontext"
	"google.golang.org/protobuf/proto"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// keepSubmitter keeps every body it is handed and answers with a fixed receipt.
type keepSubmitter struct{ bodies [][]byte }

func (s *keepSubmitter) WireRejected(string, string) {}

func (s *keepSubmitter) Submit(_ context.Context, sub collector.Submission) collector.Outcome {
	s.bodies = append(s.bodies, bytes.Clone(sub.Body))
	return collector.Outcome{Accepted: true, Receipt: []byte(`{"status":"accepted"}`)}
}

var fuzzOpts = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// FuzzServeJSON feeds the binding any request body over JSON-RPC (both generations: the method decides) and
// HTTP+JSON, holding it to what it must do for any input (D27, D32, D34): never panic; answer with JSON; and hand
// the collector at most one body.
func FuzzServeJSON(f *testing.F) {
	resp := `{"queryId":"q","responseId":"r","answer":1e400}`
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":` + resp + `,"metadata":{"aqpObject":"response"}}]}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"message/send","params":{"message":{"messageId":"m","role":"user","kind":"message","parts":[{"kind":"data","data":` + resp + `,"metadata":{"aqpObject":"response","x":[{},{}]}}]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[{},{}]}`, `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}`,
		`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"raw":"e30=","mediaType":"application/json","metadata":{"aqpObject":"response"}}]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x"}`, `[]`, `{`, ``,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, rest bool) {
		sub := &keepSubmitter{}
		s := a2ab.NewServer(sub)
		path := "/a2a"
		if rest {
			path = "/a2a" + a2ab.RESTSendPath
		}
		r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set(a2ab.ExtensionsHeader, spec.A2AExtension)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if len(sub.bodies) > 1 {
			t.Fatalf("one request made %d submissions", len(sub.bodies))
		}
		out := bytes.TrimSpace(w.Body.Bytes())
		if w.Header().Get("Content-Type") == "application/json" && !jsontext.Value(out).IsValid(fuzzOpts...) {
			t.Fatalf("the reply is not JSON: %q", out)
		}
	})
}

// FuzzServeGRPCMessage feeds the gRPC transport's SendMessage any protobuf bytes that decode as a
// SendMessageRequest (parts, metadata Structs, data Values): it must never panic and hand the collector at most one
// body.
func FuzzServeGRPCMessage(f *testing.F) {
	seed, _ := proto.Marshal(&a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m", Role: a2apb.Role_ROLE_USER,
		Parts: []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: []byte(`{"a":1}`)}, MediaType: "application/json", Metadata: responseMeta()}}}})
	f.Add(seed)
	f.Fuzz(func(t *testing.T, b []byte) {
		var req a2apb.SendMessageRequest
		if proto.Unmarshal(b, &req) != nil {
			return
		}
		sub := &keepSubmitter{}
		_, _ = a2ab.SendPB(a2ab.NewServer(sub), &req)
		if len(sub.bodies) > 1 {
			t.Fatalf("one request made %d submissions", len(sub.bodies))
		}
	})
}
