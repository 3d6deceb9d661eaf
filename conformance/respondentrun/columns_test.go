package respondentrun

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestColumnFilterLetsThroughOnlyTheColumn: each column's collector passes its own generation and transport and
// refuses every other, so a respondent that ignores what a column offers (its card, its era) delivers nothing there.
func TestColumnFilterLetsThroughOnlyTheColumn(t *testing.T) {
	type req struct {
		name, path, method, body, header string
	}
	reqs := []req{
		{"mcp initialize", spec.MCPPath, http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, ""},
		{"mcp server/discover", spec.MCPPath, http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, ""},
		{"mcp modern tools/call", spec.MCPPath, http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, aqpmcp.ProtocolVersionModern},
		{"a2a 1.0 jsonrpc", spec.A2APath, http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"` + a2ab.SendMethod + `"}`, ""},
		{"a2a 0.3 jsonrpc", spec.A2APath, http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"` + a2ab.LegacySendMethod + `"}`, ""},
		{"a2a http+json", spec.A2APath + a2ab.RESTSendPath, http.MethodPost, `{}`, ""},
		{"a2a grpc", "/" + a2ab.GRPCService + "/SendMessage", http.MethodPost, ``, ""},
	}
	passes := map[string][]string{
		"mcp-2026-07-28":    {"mcp server/discover", "mcp modern tools/call", "a2a 1.0 jsonrpc", "a2a 0.3 jsonrpc", "a2a http+json", "a2a grpc"},
		"mcp-2025-11-25":    {"mcp initialize", "a2a 1.0 jsonrpc", "a2a 0.3 jsonrpc", "a2a http+json", "a2a grpc"},
		"a2a-1.0-jsonrpc":   {"mcp initialize", "mcp server/discover", "mcp modern tools/call", "a2a 1.0 jsonrpc"},
		"a2a-1.0-http-json": {"mcp initialize", "mcp server/discover", "mcp modern tools/call", "a2a http+json"},
		"a2a-1.0-grpc":      {"mcp initialize", "mcp server/discover", "mcp modern tools/call", "a2a grpc"},
		"a2a-0.3-jsonrpc":   {"mcp initialize", "mcp server/discover", "mcp modern tools/call", "a2a 0.3 jsonrpc"},
		"https":             {"mcp initialize", "mcp server/discover", "mcp modern tools/call", "a2a 1.0 jsonrpc", "a2a 0.3 jsonrpc", "a2a http+json", "a2a grpc"},
	}
	for _, c := range Columns {
		h := columnFilter(c, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
		for _, rq := range reqs {
			r := httptest.NewRequest(rq.method, rq.path, strings.NewReader(rq.body))
			if rq.header != "" {
				r.Header.Set("MCP-Protocol-Version", rq.header)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			passed := w.Code == http.StatusTeapot
			want := false
			for _, p := range passes[c.Name] {
				want = want || p == rq.name
			}
			if passed != want {
				t.Errorf("column %s, %s: passed %v, want %v (%d %s)", c.Name, rq.name, passed, want, w.Code, w.Body)
			}
		}
	}
}

// TestColumnsAreTheTable: the respondent runner's columns are the one table's, in its order, each of its binding.
func TestColumnsAreTheTable(t *testing.T) {
	all := targets.All()
	if len(Columns) != len(all) {
		t.Fatalf("%d columns, the table has %d", len(Columns), len(all))
	}
	for i, c := range all {
		if Columns[i].Name != c.Name || Columns[i].Binding != c.Binding {
			t.Errorf("column %d is %s (%s), the table's is %s (%s)", i, Columns[i].Name, Columns[i].Binding, c.Name, c.Binding)
		}
	}
}
