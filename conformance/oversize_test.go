package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// TestOversizedResponseGetsNoReceiptInEveryColumn: a response over core.MaxDocumentBytes (1 MiB), or nested more
// than core.MaxNesting deep, with readable ids and the right capability gets no receipt in any column — HTTPS's 413, and each other column's "no receipt
// can be formed" form — so the same body gets the same answer on every binding (D34, issue 16 item 2). Before, MCP
// and A2A, whose request bounds leave room for the envelope around a response, handed it to the core and returned
// an invalid_response receipt.
func TestOversizedResponseGetsNoReceiptInEveryColumn(t *testing.T) {
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url,
		RateLimit: collector.RateLimit{Disabled: true}, FailureLimit: collector.RateLimit{Disabled: true}},
		Bindings: []service.Binding{https.Binding{}, aqpmcp.Binding{}, a2ab.Binding{}}, AdminToken: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	defer ts.Close()
	bodies := []struct {
		name   string
		answer string
	}{
		{"over 1 MiB", `"` + strings.Repeat("x", core.MaxDocumentBytes) + `"`},
		{"nested past 10,000", strings.Repeat("[", core.MaxNesting+1) + strings.Repeat("]", core.MaxNesting+1)},
	}
	for _, b := range bodies {
		for _, col := range targets.All() {
			t.Run(b.name+"/"+col.Name, func(t *testing.T) {
				draft := `{"binding":"` + col.Binding + `","type":"clarification","subject":{"kind":"task","id":"t1"},"prompt":"Why?",
"timing":"immediate","consentMode":"not_required","response":{"format":"structured","jsonSchema":{}}}`
				req, err := svc.Collector().Issue(context.Background(), []byte(draft))
				if err != nil {
					t.Fatal(err)
				}
				var q struct {
					QueryID  string
					Delivery struct{ Authorization string }
				}
				if err := json.Unmarshal(req, &q); err != nil {
					t.Fatal(err)
				}
				body := []byte(`{"protocolVersion":"2026-07-30","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","queryId":"` + q.QueryID +
					`","subject":{"kind":"task","id":"t1"},"respondent":{"kind":"agent","provenance":"direct"},"answer":` +
					b.answer + `,"createdAt":"2026-01-01T00:00:00Z"}`)
				res, err := col.Remote(url, http.DefaultClient).Submit(context.Background(), body, q.Delivery.Authorization)
				switch {
				case res.Receipt != nil:
					t.Fatalf("a response %s got a receipt: %.300s", b.name, res.Receipt)
				case res.Problem:
				case err != nil && col.Name == "https" && strings.Contains(err.Error(), "status 413"):
					// HTTPS's problem for a body past the bound is 413 (§6), which the column's check names
				case err != nil && strings.Contains(err.Error(), fmt.Sprint(-32700)):
					// MCP's and A2A's envelope readers stop at the nesting bound: a parse error, no receipt
				case err != nil && col.Binding == "mcp" && strings.Contains(err.Error(), "not a JSON object"):
					// The binding's own client does not send what JSON readers stop at; sent anyway, the server
					// answers without a receipt.
					if reply := postMCP(t, url, q.Delivery.Authorization, body); strings.Contains(reply, `"structuredContent"`) || !strings.Contains(reply, `"error"`) {
						t.Fatalf("a response %s sent as raw tool arguments got: %.300s", b.name, reply)
					}
				default:
					t.Fatalf("a response %s: neither a problem nor the binding's refusal: %v", b.name, err)
				}
			})
		}
	}
}

// postMCP posts one 2025-11-25 tools/call of aqp_submit_response with body as its arguments, byte for byte, and
// returns the reply's text.
func postMCP(t *testing.T, base, auth string, body []byte) string {
	t.Helper()
	env := append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":`), body...), `}}`...)
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", bytes.NewReader(env))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return string(b)
}
