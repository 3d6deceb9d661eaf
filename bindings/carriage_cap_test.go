package bindings

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
)

func compactCarried(t *testing.T) []byte {
	t.Helper()
	doc := core.Parse(core.KindRequest, []byte(carried))
	if !doc.Valid() {
		t.Fatal(doc.Errors)
	}
	return core.CompactJSON(doc.Value)
}

// TestOneCarriageCap: every binding carries at most core.MaxQueries (16) queries on one carrying object,
// refusing the 17th on the sending side and decoding no more than 16 on the reading side (D34, issue 16 item 4).
// Before, HTTPS had no cap on either side (12,000 AQP-Query headers were 12,000 queries) and mcp.Attach attached
// any number.
func TestOneCarriageCap(t *testing.T) {
	q := compactCarried(t)
	seventeen := make([][]byte, core.MaxQueries+1)
	for i := range seventeen {
		seventeen[i] = q
	}
	for _, tc := range []struct {
		name   string
		attach func() error
		read   func() (kept, dropped int)
	}{
		{"https", func() error {
			h := http.Header{}
			for _, r := range seventeen {
				if err := https.Attach(h, r); err != nil {
					return err
				}
			}
			return nil
		}, func() (int, int) {
			h := http.Header{}
			e := base64.RawURLEncoding.EncodeToString(q)
			for range 12_000 {
				h.Add(https.QueryHeader, e)
			}
			docs, dropped := https.Queries(h)
			return len(docs), len(dropped)
		}},
		{"mcp", func() error { return aqpmcp.Attach(mcp.NewToolResultText("x"), seventeen...) }, func() (int, int) {
			items := make([]any, 12_000)
			for i := range items {
				items[i] = map[string]any{}
			}
			res := mcp.NewToolResultText("x")
			res.Meta = &mcp.Meta{AdditionalFields: map[string]any{aqpmcp.QueriesKey: items}}
			kept, dropped := aqpmcp.Queries(res)
			return len(kept), len(dropped) - core.MaxQueries // the first 16 are dropped as not requests
		}},
		{"a2a", func() error { return a2ab.Attach(a2a.NewMessage(a2a.MessageRoleAgent), seventeen...) }, func() (int, int) {
			items := make([]any, 12_000)
			for i := range items {
				items[i] = map[string]any{}
			}
			kept, dropped := a2ab.Queries(&a2a.Message{Metadata: map[string]any{a2ab.QueriesKey: items}})
			return len(kept), len(dropped) - core.MaxQueries
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.attach(); err == nil || !strings.Contains(err.Error(), "at most 16") {
				t.Errorf("attaching 17 queries: %v; want a refusal naming the cap", err)
			}
			kept, over := tc.read()
			if kept > core.MaxQueries || over != 12_000-core.MaxQueries {
				t.Errorf("reading 12,000 entries: %d kept, %d dropped as too many; want at most 16 read", kept, over)
			}
		})
	}
}

// TestCopiesTakenInOnce: a query carried three times on one carrier — three AQP-Query headers, three _meta
// entries — is taken in once, so the respondent answers it once (D34).
func TestCopiesTakenInOnce(t *testing.T) {
	q := compactCarried(t)
	mcpServer := func() http.Handler {
		ms := server.NewMCPServer("tools", "1")
		ms.AddTool(mcp.NewTool("search"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := mcp.NewToolResultText("3 results")
			return res, aqpmcp.Attach(res, q, q, q)
		})
		return server.NewStreamableHTTPServer(ms, server.WithStateLess(true))
	}
	for _, tc := range []struct {
		carrier string
		handler http.Handler
	}{
		{https.Name, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for range 3 {
				_ = https.Attach(w.Header(), q)
			}
		})},
		{aqpmcp.Name, mcpServer()},
	} {
		t.Run(tc.carrier, func(t *testing.T) {
			ts := httptest.NewServer(tc.handler)
			defer ts.Close()
			qs, drops, err := Fetch(context.Background(), ts.Client(), fetchRuntime(t), tc.carrier, ts.URL)
			if err != nil || len(qs) != 1 || len(drops) != 0 {
				t.Fatalf("three copies: %d queries, drops %v, err %v; want one query", len(qs), drops, err)
			}
		})
	}
}
