package bindings

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// carried is a valid, unexpired query a tool server attaches to its result.
const carried = `{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback",
"subject":{"kind":"tool_call","id":"call-1","protocol":"mcp"},"prompt":"Was it right?","timing":"immediate","consentMode":"not_required",
"response":{"format":"boolean"},"expiresAt":"2099-01-01T00:00:00.000Z",
"delivery":{"binding":"mcp","endpoint":"https://collector.example/mcp","operation":"aqp_submit_response","authorization":"Bearer x"}}`

func fetchRuntime(t *testing.T) *respondent.Respondent {
	t.Helper()
	grants, err := respondent.OpenGrantFile(filepath.Join(t.TempDir(), "grants.json"))
	if err != nil {
		t.Fatal(err)
	}
	policy := &respondent.Policy{AllowHTTPLoopback: true}
	r, err := respondent.New(respondent.Config{Transports: Registry(policy), Policy: policy, Grants: grants,
		Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect},
		Answer: func(context.Context, *respondent.Query) (respondent.Answer, error) {
			return respondent.Answer{Value: true}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFetchMCP: the carrier reader takes the query a tool result carries from a tool server of either MCP
// generation — 2026-07-28 (server/discover; the result's _meta then holds serverInfo beside the queries) and one
// restricted to the initialize era (the reader falls back) — and refuses a reply past its bound.
func TestFetchMCP(t *testing.T) {
	toolServer := func(opts ...server.StreamableHTTPOption) http.Handler {
		ms := server.NewMCPServer("tools", "1")
		ms.AddTool(mcp.NewTool("search"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := mcp.NewToolResultText("3 results")
			return res, aqpmcp.Attach(res, []byte(carried))
		})
		return server.NewStreamableHTTPServer(ms, append([]server.StreamableHTTPOption{server.WithStateLess(true)}, opts...)...)
	}
	var methods []string
	record := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			if i := bytes.Index(b, []byte(`"method":"`)); i >= 0 {
				methods = append(methods, strings.SplitN(string(b[i+10:]), `"`, 2)[0])
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
			h.ServeHTTP(w, r)
		})
	}
	huge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for i := 0; i < 1<<10 && r.Context().Err() == nil; i++ { // up to 1 GiB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	for _, c := range []struct {
		name    string
		handler http.Handler
		want    []string // methods sent, in order; nil for an error
	}{
		{"2026-07-28", toolServer(), []string{"server/discover", "tools/list", "tools/call"}},
		{"initialize era only", toolServer(server.WithStreamableHTTPProtocolVersions(mcp.LegacyProtocolVersions()...)),
			[]string{"server/discover", "initialize", "notifications/initialized", "tools/list", "tools/call"}},
		{"1 GiB reply", huge, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			methods = nil
			ts := httptest.NewServer(record(c.handler))
			defer ts.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			qs, drops, err := Fetch(ctx, ts.Client(), fetchRuntime(t), aqpmcp.Name, ts.URL)
			if c.want == nil {
				if err == nil || !strings.Contains(err.Error(), "larger than") {
					t.Fatalf("err %v; want the bound named", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(qs) != 1 || len(drops) != 0 || qs[0].Request.QueryID != "0198c7cb-1af1-7e79-bd7f-02f8a89b8857" {
				t.Fatalf("queries %v, drops %v", qs, drops)
			}
			if strings.Join(methods, " ") != strings.Join(c.want, " ") {
				t.Errorf("methods sent %v, want %v", methods, c.want)
			}
		})
	}
}
