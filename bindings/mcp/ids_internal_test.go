package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// TestIDsEchoedExactly: every JSON-RPC response carries the request's id as written (D34) — an integer past 2^53,
// a negative one, a 30-digit one, one with an exponent or a fraction — on the fast path (tools/call of the tool)
// and through mcp-go (tools/list, and a tools/call the fast path declines), in both eras. mcp-go reads a numeric id
// as a float64: before the fix 9007199254740993 came back as 9007199254740992.
func TestIDsEchoedExactly(t *testing.T) {
	sub := &fixedSubmitter{out: collector.Outcome{Accepted: true, Receipt: []byte(`{"status":"accepted"}`)}}
	s := NewServer(sub)
	for _, id := range []string{"1", "9007199254740992", "9007199254740993", "-9007199254740993", "123456789012345678901234567890", "1e3", "2.50", `"s-1"`} {
		for _, tc := range []struct {
			name, body string
			header     map[string]string
		}{
			{"tools/call 2025-11-25", directBody(id, "", ""), map[string]string{"Mcp-Protocol-Version": ProtocolVersionLegacy}},
			{"tools/call 2026-07-28", directBody(id, modernMeta, ""), modernHeader},
			{"tools/call through mcp-go", `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":` + directArgs + `,"x":1}}`, nil},
			{"tools/list", `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{}}`, map[string]string{"Mcp-Protocol-Version": ProtocolVersionLegacy}},
		} {
			t.Run(tc.name+" "+id, func(t *testing.T) {
				r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				for k, v := range tc.header {
					r.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				s.ServeHTTP(w, r)
				got, _, _, ok := numericID(w.Body.Bytes())
				if id[0] == '"' {
					ok = strings.Contains(w.Body.String(), `"id":`+id)
					got = []byte(id)
				}
				if !ok || string(got) != id || !jsontext.Value(w.Body.Bytes()).IsValid() {
					t.Errorf("id %s came back as %s: %s", id, got, w.Body.String())
				}
			})
		}
	}
}
