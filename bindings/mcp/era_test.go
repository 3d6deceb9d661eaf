package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// eras are the two generations a client can pin.
var eras = []string{aqpmcp.ProtocolVersionModern, aqpmcp.ProtocolVersionLegacy}

func connect(t *testing.T, endpoint, version string) *aqpmcp.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := aqpmcp.Connect(ctx, nil, endpoint, aqpmcp.ConnOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	if conn.ProtocolVersion() != version {
		t.Fatalf("connected at %q, want %q", conn.ProtocolVersion(), version)
	}
	return conn
}

func request(t *testing.T, conn *aqpmcp.Conn, method, name, params string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := conn.Request(ctx, method, name, []byte(params))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDiscoverAdvertisesExtension: server/discover at 2026-07-28 lists both generations, the tools capability and
// the AQP extension naming the AQP version, the tool and the carriage key, with 2026-07-28's result metadata; the
// initialize of the earlier era declares the same extension.
func TestDiscoverAdvertisesExtension(t *testing.T) {
	ts := newService(t)
	modern := connect(t, ts.URL+spec.MCPPath, aqpmcp.ProtocolVersionModern)
	legacy := connect(t, ts.URL+spec.MCPPath, aqpmcp.ProtocolVersionLegacy)
	want := map[string]any{"version": spec.ProtocolVersion, "tool": spec.MCPOperation, "queriesMetaKey": spec.MCPQueriesMetaKey}
	for _, c := range []struct {
		era  string
		caps mcp.ServerCapabilities
	}{
		{aqpmcp.ProtocolVersionModern, modern.Discovered.Capabilities},
		{aqpmcp.ProtocolVersionLegacy, legacy.Initialized.Capabilities},
	} {
		t.Run(c.era, func(t *testing.T) {
			got, _ := json.Marshal(c.caps.Extensions[spec.MCPExtension])
			w, _ := json.Marshal(want)
			if string(got) != string(w) {
				t.Errorf("capabilities.extensions[%q] = %s, want %s", spec.MCPExtension, got, w)
			}
			if c.caps.Tools == nil {
				t.Error("no tools capability")
			}
		})
	}
	for _, v := range eras {
		if !containsString(modern.Discovered.SupportedVersions, v) {
			t.Errorf("supportedVersions %v lacks %s", modern.Discovered.SupportedVersions, v)
		}
	}
	d := request(t, modern, "server/discover", "", `{}`)
	if d["resultType"] != "complete" || d["cacheScope"] == nil || d["ttlMs"] == nil {
		t.Errorf("server/discover lacks 2026-07-28's result members: %v", d)
	}
	if meta, _ := d["_meta"].(map[string]any); meta[mcp.MetaKeyServerInfo] == nil {
		t.Errorf("server/discover has no _meta[%q]: %v", mcp.MetaKeyServerInfo, d)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestToolsListAnnotations: in both eras tools/list shows the tool's title and the annotations D31 gives it.
func TestToolsListAnnotations(t *testing.T) {
	ts := newService(t)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			list := request(t, connect(t, ts.URL+spec.MCPPath, era), "tools/list", "", `{}`)
			tools, _ := list["tools"].([]any)
			if len(tools) != 1 {
				t.Fatalf("tools: %v", list)
			}
			tool := tools[0].(map[string]any)
			if tool["name"] != spec.MCPOperation || tool["title"] != aqpmcp.ToolTitle {
				t.Errorf("name %v, title %v", tool["name"], tool["title"])
			}
			ann, _ := tool["annotations"].(map[string]any)
			for k, v := range map[string]any{"title": aqpmcp.ToolTitle, "readOnlyHint": false, "destructiveHint": false,
				"idempotentHint": true, "openWorldHint": false} {
				if ann[k] != v {
					t.Errorf("annotations.%s = %v, want %v (annotations %v)", k, ann[k], v, ann)
				}
			}
			if era == aqpmcp.ProtocolVersionModern && (list["resultType"] != "complete" || list["ttlMs"] == nil || list["cacheScope"] == nil) {
				t.Errorf("tools/list at %s lacks resultType, ttlMs or cacheScope: %v", era, list)
			}
		})
	}
}

// TestOnlyPostIsServed: GET (the legacy era's standalone SSE stream, with and without a session or a modern
// version header), DELETE and other methods are 405 with Allow: POST at once, so no request on /mcp outlives a
// bound — a GET used to be held open as an SSE stream until shutdown.
func TestOnlyPostIsServed(t *testing.T) {
	ts := newService(t)
	hc := &http.Client{Timeout: time.Second}
	for _, c := range []struct {
		method string
		header map[string]string
	}{
		{http.MethodGet, map[string]string{"Accept": "text/event-stream"}},
		{http.MethodGet, map[string]string{"Accept": "text/event-stream", mcp.HeaderProtocolVersion: aqpmcp.ProtocolVersionLegacy}},
		{http.MethodGet, map[string]string{"Accept": "text/event-stream", mcp.HeaderProtocolVersion: aqpmcp.ProtocolVersionModern}},
		{http.MethodGet, map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: "s-1"}},
		{http.MethodDelete, map[string]string{mcp.HeaderSessionID: "s-1"}},
		{http.MethodDelete, nil},
		{http.MethodPut, nil},
		{http.MethodHead, nil},
	} {
		t.Run(fmt.Sprintf("%s %v", c.method, c.header), func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ts.URL+spec.MCPPath, nil)
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			start := time.Now()
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatalf("no answer within a second: %v", err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
				t.Errorf("%d, Allow %q; want 405 with Allow: POST", resp.StatusCode, resp.Header.Get("Allow"))
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// recorder counts the JSON-RPC methods a server is sent and lets a test answer some of them itself.
type recorder struct {
	next    http.Handler
	refuse  func(method string, w http.ResponseWriter) bool
	mu      sync.Mutex
	methods []string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m struct{ Method string }
	_ = json.Unmarshal(body, &m)
	rec.mu.Lock()
	rec.methods = append(rec.methods, m.Method)
	rec.mu.Unlock()
	if rec.refuse != nil && rec.refuse(m.Method, w) {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec.next.ServeHTTP(w, r)
}

func (rec *recorder) sent(method string) bool {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return containsString(rec.methods, method)
}

// legacyOnlyServer is an mcp-go server restricted to the initialize era, with the tool returning a fixed receipt.
func legacyOnlyServer(t *testing.T) http.Handler {
	ms := server.NewMCPServer("legacy", "1")
	ms.AddTool(aqpmcp.Tool(), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(json.RawMessage(fixedReceipt), fixedReceipt), nil
	})
	return server.NewStreamableHTTPServer(ms, server.WithStateLess(true),
		server.WithStreamableHTTPProtocolVersions(mcp.LegacyProtocolVersions()...))
}

const fixedReceipt = `{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","status":"accepted","retryable":false,"receivedAt":"2026-07-30T17:05:13.000Z"}`

func jsonRPCError(w http.ResponseWriter, status, code int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":%d,"message":"refused by the test"}}`, code)
}

// TestClientEraSelection: the client goes modern against the binding's server, falls back to initialize against
// servers that show they do not speak 2026-07-28 (a legacy-only mcp-go server; server/discover refused by method
// not found, 400, 404 or 405), and neither falls back nor initializes when the refusal shows nothing of the kind
// (401, 500, an internal JSON-RPC error). A pinned era never speaks the other.
func TestClientEraSelection(t *testing.T) {
	ts := newService(t)
	q := issue(t, ts)
	ours := func() http.Handler { return ts.Config.Handler }
	refuseDiscover := func(f func(w http.ResponseWriter)) func(string, http.ResponseWriter) bool {
		return func(method string, w http.ResponseWriter) bool {
			if method != "server/discover" {
				return false
			}
			f(w)
			return true
		}
	}
	for _, c := range []struct {
		name    string
		handler func() http.Handler
		refuse  func(string, http.ResponseWriter) bool
		pin     string
		want    string // the version spoken; "" for an error
	}{
		{"ours, probing", ours, nil, "", aqpmcp.ProtocolVersionModern},
		{"ours, pinned modern", ours, nil, aqpmcp.ProtocolVersionModern, aqpmcp.ProtocolVersionModern},
		{"ours, pinned legacy", ours, nil, aqpmcp.ProtocolVersionLegacy, aqpmcp.ProtocolVersionLegacy},
		{"ours, pinned 2025-06-18", ours, nil, "2025-06-18", "2025-06-18"},
		{"legacy-only mcp-go, probing", func() http.Handler { return legacyOnlyServer(t) }, nil, "", aqpmcp.ProtocolVersionLegacy},
		{"legacy-only mcp-go, pinned modern", func() http.Handler { return legacyOnlyServer(t) }, nil, aqpmcp.ProtocolVersionModern, ""},
		{"method not found", ours, refuseDiscover(func(w http.ResponseWriter) { jsonRPCError(w, 200, -32601) }), "", aqpmcp.ProtocolVersionLegacy},
		{"400 with a JSON-RPC error", ours, refuseDiscover(func(w http.ResponseWriter) { jsonRPCError(w, 400, -32000) }), "", aqpmcp.ProtocolVersionLegacy},
		{"404", ours, refuseDiscover(func(w http.ResponseWriter) { http.NotFound(w, nil) }), "", aqpmcp.ProtocolVersionLegacy},
		{"405", ours, refuseDiscover(func(w http.ResponseWriter) { http.Error(w, "no", 405) }), "", aqpmcp.ProtocolVersionLegacy},
		{"method not found, pinned modern", ours, refuseDiscover(func(w http.ResponseWriter) { jsonRPCError(w, 200, -32601) }), aqpmcp.ProtocolVersionModern, ""},
		{"401 is no fallback", ours, refuseDiscover(func(w http.ResponseWriter) { http.Error(w, "who?", 401) }), "", ""},
		{"500 is no fallback", ours, refuseDiscover(func(w http.ResponseWriter) { http.Error(w, "down", 500) }), "", ""},
		{"internal error is no fallback", ours, refuseDiscover(func(w http.ResponseWriter) { jsonRPCError(w, 200, -32603) }), "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{next: c.handler(), refuse: c.refuse}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			body := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc2001", "yes")
			reply, err := (&aqpmcp.Client{ProtocolVersion: c.pin}).Call(ctx, srv.URL+spec.MCPPath, "", q.auth, body)
			switch {
			case c.want == "" && err == nil:
				t.Fatalf("spoke %s; want an error", reply.ProtocolVersion)
			case c.want == "":
				if c.pin == "" && rec.sent("initialize") {
					t.Errorf("fell back to initialize after %v", err)
				}
				if c.pin == aqpmcp.ProtocolVersionModern {
					var ee *aqpmcp.EraError
					if !errors.As(err, &ee) {
						t.Errorf("a modern-only client against a legacy server: %v is not an EraError", err)
					}
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if reply.ProtocolVersion != c.want || reply.Receipt == nil {
				t.Fatalf("spoke %q (receipt %s), want %s", reply.ProtocolVersion, reply.Receipt, c.want)
			}
			if modern := c.want == aqpmcp.ProtocolVersionModern; modern == rec.sent("initialize") || (c.pin != "" && !modern && rec.sent("server/discover")) {
				t.Errorf("methods sent: %v", rec.methods)
			}
		})
	}
}

// TestClientBoundsReplies: a hostile server answering with an endless body — JSON or an SSE stream — gets an error
// naming the bound, promptly, from the client and from the carrier reader's bound alike.
func TestClientBoundsReplies(t *testing.T) {
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	for _, ct := range []string{"application/json", "text/event-stream"} {
		t.Run(ct, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", ct)
				if ct == "text/event-stream" {
					_, _ = io.WriteString(w, "data: ")
				} else {
					_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"x":"`)
				}
				for i := 0; i < 1<<14 && r.Context().Err() == nil; i++ { // up to 1 GiB
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			start := time.Now()
			_, err := aqpmcp.Connect(ctx, nil, srv.URL, aqpmcp.ConnOptions{ProtocolVersion: aqpmcp.ProtocolVersionModern})
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("larger than %d bytes", aqpmcp.MaxMessage)) {
				t.Fatalf("err %v; want the bound named", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestColumnsRefuseABrokenEra is AQP-D31's failing proof: each column's submitter, against a collector whose
// server breaks its era — no AQP extension declared, no resultType on a 2026-07-28 result, the era not served at
// all — fails with a RuleError naming AQP-D31; against the real server both pass.
func TestColumnsRefuseABrokenEra(t *testing.T) {
	ts := newService(t)
	rewrite := func(old, new string) func() http.Handler {
		return func() http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rw := httptest.NewRecorder()
				ts.Config.Handler.ServeHTTP(rw, r)
				for k, v := range rw.Header() {
					w.Header()[k] = v
				}
				b := bytes.ReplaceAll(rw.Body.Bytes(), []byte(old), []byte(new))
				w.Header().Del("Content-Length")
				w.WriteHeader(rw.Code)
				_, _ = w.Write(b)
			})
		}
	}
	refuse := func(method string) func() http.Handler {
		return func() http.Handler {
			return &recorder{next: ts.Config.Handler, refuse: func(m string, w http.ResponseWriter) bool {
				if m == method {
					jsonRPCError(w, 200, -32601)
					return true
				}
				return false
			}}
		}
	}
	for _, c := range []struct {
		name    string
		handler func() http.Handler
		column  string
		breaks  bool
	}{
		{"real server", func() http.Handler { return ts.Config.Handler }, targets.MCPColumnModern, false},
		{"real server", func() http.Handler { return ts.Config.Handler }, targets.MCPColumnLegacy, false},
		{"no extension", rewrite(`"`+spec.MCPExtension+`"`, `"com.example/other"`), targets.MCPColumnModern, true},
		{"no extension", rewrite(`"`+spec.MCPExtension+`"`, `"com.example/other"`), targets.MCPColumnLegacy, true},
		{"no resultType", rewrite(`"resultType":"complete"`, `"kind":"complete"`), targets.MCPColumnModern, true},
		{"no server/discover", refuse("server/discover"), targets.MCPColumnModern, true},
		{"no initialize", refuse("initialize"), targets.MCPColumnLegacy, true},
	} {
		t.Run(c.column+"/"+c.name, func(t *testing.T) {
			q := issue(t, ts)
			srv := httptest.NewServer(c.handler())
			defer srv.Close()
			var col *harness.Column
			for i := range targets.MCPColumns {
				if targets.MCPColumns[i].Name == c.column {
					col = &targets.MCPColumns[i]
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			body := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc3001", "no")
			res, err := col.Remote(srv.URL, srv.Client()).Submit(ctx, body, q.auth)
			reqs := harness.RuleRequirements(err)
			switch {
			case c.breaks && !containsString(reqs, targets.ReqD31):
				t.Fatalf("err %v names %v; want %s", err, reqs, targets.ReqD31)
			case !c.breaks && (err != nil || res.Receipt == nil):
				t.Fatalf("err %v, receipt %s", err, res.Receipt)
			}
		})
	}
}

// TestErasGetTheSameReceipt: one response delivered at 2026-07-28, its duplicate at 2025-11-25 and again by a
// probing client get the same receipt bytes as over HTTPS.
func TestErasGetTheSameReceipt(t *testing.T) {
	ts := newService(t)
	q := issue(t, ts)
	body := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc4001", "partly")
	var receipts [][]byte
	for _, pin := range append(eras, "") {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		reply, err := (&aqpmcp.Client{ProtocolVersion: pin}).Call(ctx, q.endpoint, "", q.auth, body)
		cancel()
		if err != nil {
			t.Fatalf("%q: %v", pin, err)
		}
		if code, _ := harnessCode(reply.Receipt); code != "" || reply.IsError {
			t.Fatalf("%q: %s", pin, reply.Receipt)
		}
		receipts = append(receipts, reply.Receipt)
	}
	https := postHTTPS(t, ts, q.auth, body)
	for i, r := range receipts {
		if !bytes.Equal(r, https) || !core.EqualJSON(mustDecode(t, r), mustDecode(t, https)) {
			t.Errorf("receipt %d\n%s\nHTTPS\n%s", i, r, https)
		}
	}
}
