package main

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestServeMCP: `aqp serve` lists the MCP binding in discovery with its endpoint and operation, `aqp query create
// --binding mcp` issues a query whose delivery works with the binding's client, and the HTTPS binding returns the
// byte-identical receipt for the same response afterwards.
func TestServeMCP(t *testing.T) {
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=mcp"}, "--data-dir", t.TempDir())
	resp, err := http.Get(p.url + "/.well-known/aqp")
	if err != nil {
		t.Fatal(err)
	}
	var disc struct {
		Bindings []struct{ Binding, Endpoint, Operation string }
	}
	_ = json.NewDecoder(resp.Body).Decode(&disc)
	resp.Body.Close()
	found := false
	for _, b := range disc.Bindings {
		if b.Binding == spec.BindingMCP {
			found = b.Endpoint == p.url+spec.MCPPath && b.Operation == spec.MCPOperation
		}
	}
	if !found {
		t.Fatalf("/.well-known/aqp does not list mcp at %s with operation %s: %+v", p.url+spec.MCPPath, spec.MCPOperation, disc)
	}

	q := queryCreate(t, p.url, "mcp", append([]string{"--binding", "mcp"}, quickstartFlags...)...)
	d := q["delivery"].(map[string]any)
	if d["binding"] != "mcp" || d["endpoint"] != p.url+spec.MCPPath || d["operation"] != spec.MCPOperation {
		t.Fatalf("delivery: %v", d)
	}
	endpoint, auth, queryID := delivery(q)
	body := quickstartResponse(queryID, uuid.Must(uuid.NewV7()).String(), "partly")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	receipt, err := (&aqpmcp.Client{}).Deliver(ctx, respondent.Delivery{Binding: "mcp", Endpoint: endpoint,
		Operation: spec.MCPOperation, Authorization: auth}, body)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := core.ParseReceipt(receipt); c == nil || c.Status != "accepted" {
		t.Fatalf("not accepted: %s", receipt)
	}
	status, viaHTTPS := post(t, p.url+spec.HTTPSPath, auth, body)
	if status != 200 || string(viaHTTPS) != string(receipt) {
		t.Fatalf("HTTPS duplicate: %d\n%s\nwant the MCP receipt\n%s", status, viaHTTPS, receipt)
	}
}

// TestServeTwoProcessesOnePostgresMCP: two `aqp serve` processes on one PostgreSQL database, 50 different
// responses to one query racing over MCP on alternating processes: exactly one is accepted, with no session
// affinity.
func TestServeTwoProcessesOnePostgresMCP(t *testing.T) {
	url := freshPostgres(t, "aqp_e2e_mcp_")
	env := []string{"AQP_ADMIN_TOKEN=two"}
	a := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--rate-limit", "0")
	b := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--rate-limit", "0")
	_, auth, queryID := delivery(queryCreate(t, a.url, "two", append([]string{"--binding", "mcp"}, quickstartFlags...)...))

	var mu sync.Mutex
	counts := map[string]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	urls := []string{a.url, b.url}
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := quickstartResponse(queryID, uuid.Must(uuid.NewV7()).String(), []string{"yes", "partly", "no"}[i%3])
			// A fresh connection per submission, alternating between the processes.
			client := &aqpmcp.Client{HTTP: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
			<-start
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			reply, err := client.Call(ctx, urls[i%2]+spec.MCPPath, spec.MCPOperation, auth, body)
			if err != nil {
				t.Error(err)
				return
			}
			r, errs := core.ParseReceipt(reply.Receipt)
			if len(errs) > 0 {
				t.Errorf("invalid receipt: %v", errs)
				return
			}
			key := string(r.Status)
			if r.Error != nil {
				key = string(r.Error.Code)
			}
			if reply.IsError != (r.Status != "accepted") {
				t.Errorf("isError %v on %s", reply.IsError, reply.Receipt)
			}
			mu.Lock()
			counts[key]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if counts["accepted"] != 1 || counts["already_answered"] != 49 {
		t.Fatalf("want exactly one accepted and 49 already_answered across two processes over MCP, got %v", counts)
	}
}
