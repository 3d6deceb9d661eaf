package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestClientRPCRefusalsArePermanent: a JSON-RPC error saying the request itself is wrong — parse error, invalid
// request, invalid params — is the collector's problem (a *respondent.ProblemError, never retried), in both
// generations; any other code decided nothing (a *respondent.TransportError, retried) (D34). Before, -32600 and
// -32700 were transport failures, sent again until the query expired.
func TestClientRPCRefusalsArePermanent(t *testing.T) {
	for _, op := range []string{a2ab.SendMethod, a2ab.LegacySendMethod} {
		for _, tc := range []struct {
			code      int
			permanent bool
		}{{-32700, true}, {-32600, true}, {-32602, true}, {-32603, false}, {-32001, false}} {
			t.Run(fmt.Sprintf("%s %d", op, tc.code), func(t *testing.T) {
				var ts *httptest.Server
				ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == spec.A2AAgentCardPath {
						if op == a2ab.LegacySendMethod { // no card: the generation delivery.operation names
							http.NotFound(w, r)
							return
						}
						a2ab.CardHandler(ts.URL).ServeHTTP(w, r)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"refused"}}`, tc.code)
				}))
				defer ts.Close()
				d := respondent.Delivery{Binding: a2ab.Name, Endpoint: ts.URL + "/a2a", Operation: op, Authorization: "Bearer x"}
				c := &a2ab.Client{Transport: a2a.TransportProtocolJSONRPC}
				_, err := c.Deliver(context.Background(), d, responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1"))
				var pe *respondent.ProblemError
				var te *respondent.TransportError
				if tc.permanent && !errors.As(err, &pe) || !tc.permanent && !errors.As(err, &te) {
					t.Fatalf("JSON-RPC error %d: %T %v; want permanent=%v", tc.code, err, err, tc.permanent)
				}
			})
		}
	}
}
