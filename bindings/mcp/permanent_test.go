package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// TestClientRPCRefusalsArePermanent: a JSON-RPC error to tools/call saying the call itself is wrong — parse error,
// invalid request, invalid params — is the collector's problem (a *respondent.ProblemError, never retried), in
// both eras; any other code decided nothing (a *respondent.TransportError, retried) (D34). Before, every JSON-RPC
// error was a transport failure: `aqp respond` sent a refused body again until the query expired.
func TestClientRPCRefusalsArePermanent(t *testing.T) {
	for _, era := range []string{aqpmcp.ProtocolVersionModern, aqpmcp.ProtocolVersionLegacy} {
		for _, tc := range []struct {
			code      int
			permanent bool
		}{{-32700, true}, {-32600, true}, {-32602, true}, {-32603, false}, {-32001, false}} {
			t.Run(fmt.Sprintf("%s %d", era, tc.code), func(t *testing.T) {
				real := aqpmcp.NewServer(nil)
				ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					if !bytes.Contains(b, []byte(`"method":"tools/call"`)) {
						r.Body = io.NopCloser(bytes.NewReader(b))
						real.ServeHTTP(w, r)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"refused"}}`, tc.code)
				}))
				defer ts.Close()
				d := respondent.Delivery{Binding: aqpmcp.Name, Endpoint: ts.URL, Authorization: "Bearer x"}
				_, err := (&aqpmcp.Client{ProtocolVersion: era}).Deliver(context.Background(), d,
					[]byte(`{"queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","answer":1e400}`))
				var pe *respondent.ProblemError
				var te *respondent.TransportError
				if tc.permanent && !errors.As(err, &pe) || !tc.permanent && !errors.As(err, &te) {
					t.Fatalf("JSON-RPC error %d: %T %v; want permanent=%v", tc.code, err, err, tc.permanent)
				}
			})
		}
	}
}
