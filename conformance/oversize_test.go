package conformance_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/columns"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// TestOversizedResponseGetsNoReceiptInEveryColumn: a response over core.MaxDocumentBytes (1 MiB) with readable
// ids and the right capability gets no receipt in any column — HTTPS's 413, and each other column's "no receipt
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
	for _, col := range columns.All() {
		t.Run(col.Name, func(t *testing.T) {
			draft := `{"binding":"` + col.Binding + `","type":"clarification","subject":{"kind":"task","id":"t1"},"prompt":"Why?",
"timing":"immediate","consentMode":"not_required","response":{"format":"text"}}`
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
				`","subject":{"kind":"task","id":"t1"},"respondent":{"kind":"agent","provenance":"direct"},"answer":"` +
				strings.Repeat("x", core.MaxDocumentBytes) + `","createdAt":"2026-01-01T00:00:00Z"}`)
			res, err := col.Remote(url, http.DefaultClient).Submit(context.Background(), body, "Bearer "+q.Delivery.Authorization)
			if col.Name == "https" && err != nil && strings.Contains(err.Error(), "status 413") {
				return // HTTPS's problem for a body past the bound is 413 (§6), which the column's check names
			}
			if err != nil {
				t.Fatal(err)
			}
			if !res.Problem {
				t.Fatalf("a %d-byte response got a receipt: %.300s", len(body), res.Receipt)
			}
		})
	}
}
