package mcp

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// recordingSubmitter keeps the body of every submission and answers with a fixed receipt.
type recordingSubmitter struct{ bodies [][]byte }

func (s *recordingSubmitter) WireRejected(string, string) {}

func (s *recordingSubmitter) Submit(_ context.Context, sub collector.Submission) collector.Outcome {
	s.bodies = append(s.bodies, bytes.Clone(sub.Body))
	return collector.Outcome{Accepted: true, Receipt: []byte(`{"status":"accepted"}`)}
}

// FuzzServe feeds the binding any JSON-RPC message — envelope, params, arguments, _meta, id — in either era and
// holds it to what it must do for any input (D27, D31, D34): never panic; answer every request with a JSON-RPC
// response (a JSON object) or an HTTP error; hand the collector at most one body, which is exactly a JSON object
// text from the request; and echo a numeric id's text exactly.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		directBody("1", "", ""), directBody("9007199254740993", modernMeta, ""), directBody(`"x"`, "", `,"x":[{},{}]`),
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":[{},{}]}}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":` + modernMeta + `}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, `{"id":1,"id":2}`, `{`, `"`, ``,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, modern bool) {
		sub := &recordingSubmitter{}
		s := NewServer(sub)
		r := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if modern {
			for k, v := range modernHeader {
				r.Header.Set(k, v)
			}
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if len(sub.bodies) > 1 {
			t.Fatalf("one request made %d submissions", len(sub.bodies))
		}
		if len(sub.bodies) == 1 {
			b := sub.bodies[0]
			if !bytes.Contains(body, b) || firstByte(b) != '{' || !jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
				t.Fatalf("the collector was handed %q, not a JSON object text of the request", b)
			}
		}
		out := w.Body.Bytes()
		if w.Code == http.StatusOK && w.Header().Get("Content-Type") == "application/json" && len(bytes.TrimSpace(out)) > 0 {
			if !jsontext.Value(bytes.TrimSpace(out)).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
				t.Fatalf("the response is not JSON: %q", out)
			}
			if id, _, _, ok := numericID(body); ok {
				if got, _, _, ok2 := numericID(out); ok2 && !bytes.Equal(got, id) {
					t.Fatalf("id %s came back as %s", id, got)
				}
			}
		}
	})
}
