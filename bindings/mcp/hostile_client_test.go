package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// TestClientBoundsHostileReplies: a collector that answers a delivery's request with up to 1 GiB — as the
// server/discover reply, the initialize reply, the tools/call result, or one SSE line — is read no further than
// the client's bound (MaxMessage): the delivery fails at once as a transport failure naming the bound, and the
// collector gets to write only what the client read plus the sockets' buffers (issue 16 item 3, D34). The MCP
// SDK's client read such replies whole (6.33 GB RSS for 1 GiB); the binding's own Conn, since the rebuild, does
// not — this test holds it there.
func TestClientBoundsHostileReplies(t *testing.T) {
	for _, tc := range []struct {
		name, method, era string
		sse               bool
	}{
		{"server/discover reply", "server/discover", aqpmcp.ProtocolVersionModern, false},
		{"initialize reply", "initialize", aqpmcp.ProtocolVersionLegacy, false},
		{"tools/call result", "tools/call", aqpmcp.ProtocolVersionModern, false},
		{"tools/call SSE line", "tools/call", aqpmcp.ProtocolVersionLegacy, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			real := aqpmcp.NewServer(nil)
			var written atomic.Int64
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if !bytes.Contains(b, []byte(`"method":"`+tc.method+`"`)) {
					r.Body = io.NopCloser(bytes.NewReader(b))
					real.ServeHTTP(w, r)
					return
				}
				prefix := `{"jsonrpc":"2.0","id":1,"result":{"x":"`
				if tc.sse {
					w.Header().Set("Content-Type", "text/event-stream")
					prefix = "event: message\ndata: " + prefix
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				n, _ := io.WriteString(w, prefix)
				written.Add(int64(n))
				chunk := bytes.Repeat([]byte("x"), 64<<10)
				for written.Load() < 1<<30 && r.Context().Err() == nil {
					n, err := w.Write(chunk)
					written.Add(int64(n))
					if err != nil {
						return
					}
				}
			}))
			defer ts.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			d := respondent.Delivery{Binding: aqpmcp.Name, Endpoint: ts.URL, Authorization: "Bearer x"}
			_, err := (&aqpmcp.Client{ProtocolVersion: tc.era}).Deliver(ctx, d, []byte(`{"queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857"}`))
			var te *respondent.TransportError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "larger than") {
				t.Fatalf("%v; want a transport failure naming the bound", err)
			}
			ts.CloseClientConnections()
			if w := written.Load(); w > 64<<20 {
				t.Errorf("the collector wrote %d MiB before the client stopped reading", w>>20)
			}
		})
	}
}
