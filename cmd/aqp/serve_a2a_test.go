package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestServeA2A: `aqp serve` serves the A2A binding — discovery lists it, the agent card is at its well-known path,
// and `aqp query create --binding a2a` issues a query whose delivery works with the binding's client; the same
// response over HTTPS afterwards gets the byte-identical receipt.
func TestServeA2A(t *testing.T) {
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=a2a"}, "--data-dir", t.TempDir())
	disc := get(t, p.url+"/.well-known/aqp")
	if !strings.Contains(disc, `"binding":"a2a"`) || !strings.Contains(disc, p.url+"/a2a") || !strings.Contains(disc, `"SendMessage"`) ||
		!strings.Contains(disc, `"transport":"GRPC"`) || !strings.Contains(disc, `"protocolVersion":"0.3"`) {
		t.Fatalf("discovery does not list the a2a binding: %s", disc)
	}
	if card := get(t, p.url+spec.A2AAgentCardPath); !strings.Contains(card, spec.A2AExtension) || !strings.Contains(card, `"url": "`+p.url+`/a2a"`) ||
		!strings.Contains(card, `"httpAuthSecurityScheme"`) {
		t.Fatalf("agent card: %s", card)
	}
	q := queryCreate(t, p.url, "a2a", append([]string{"--binding", "a2a"}, quickstartFlags...)...)
	d := q["delivery"].(map[string]any)
	if d["binding"] != "a2a" || d["endpoint"] != p.url+"/a2a" || d["operation"] != "SendMessage" {
		t.Fatalf("delivery: %v", d)
	}
	endpoint, auth, queryID := delivery(q)
	body := quickstartResponse(queryID, uuid.Must(uuid.NewV7()).String(), "partly")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	receipt, err := (&a2a.Client{}).Deliver(ctx, respondent.Delivery{Binding: "a2a", Endpoint: endpoint, Operation: "SendMessage", Authorization: auth}, body)
	if err != nil || !strings.Contains(string(receipt), `"status":"accepted"`) {
		t.Fatalf("deliver: %v %s", err, receipt)
	}
	status, again := post(t, p.url+"/aqp/v1/responses", auth, body)
	if status != 200 || string(again) != string(receipt) {
		t.Fatalf("HTTPS duplicate: %d\nhttps %s\n  a2a %s", status, again, receipt)
	}
}

// TestServeA2ATwoProcessesOnePostgres: 50 different responses to one query, raced over A2A through two `aqp
// serve` processes sharing one PostgreSQL database: exactly one is accepted, 49 are already_answered.
func TestServeA2ATwoProcessesOnePostgres(t *testing.T) {
	url := freshPostgres(t, "aqp_e2e_a2a_")
	env := []string{"AQP_ADMIN_TOKEN=two"}
	a := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--rate-limit", "0")
	b := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--rate-limit", "0")
	_, auth, queryID := delivery(queryCreate(t, a.url, "two", append([]string{"--binding", "a2a"}, quickstartFlags...)...))
	var mu sync.Mutex
	codes := map[core.Code]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := quickstartResponse(queryID, uuid.Must(uuid.NewV7()).String(), []string{"yes", "partly", "no"}[i%3])
			d := respondent.Delivery{Binding: "a2a", Endpoint: []string{a.url, b.url}[i%2] + "/a2a", Operation: "message/send", Authorization: auth}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			<-start
			receipt, err := (&a2a.Client{}).Deliver(ctx, d, body)
			if err != nil {
				t.Error(err)
				return
			}
			doc := core.Parse(core.KindReceipt, receipt)
			if !doc.Valid() {
				t.Errorf("invalid receipt: %v", doc.Errors)
				return
			}
			code := core.Code("")
			if e, ok := doc.Object()["error"].(map[string]any); ok {
				code = core.Code(fmt.Sprint(e["code"]))
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if codes[""] != 1 || codes[core.CodeAlreadyAnswered] != 49 {
		t.Fatalf("want exactly one acceptance and 49 already_answered across two processes over A2A, got %v", codes)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
