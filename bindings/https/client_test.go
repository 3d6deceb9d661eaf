package https_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// TestClientTellsOutcomesApart: a receipt (accepted or rejected), a problem and a transport failure are three
// different results for a respondent, and the client reports each as such.
func TestClientTellsOutcomesApart(t *testing.T) {
	ts := newServer(t)
	endpoint, auth, q := issue(t, ts)
	c := &https.Client{HTTP: ts.Client()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d := respondent.Delivery{Binding: "https", Endpoint: endpoint, Authorization: auth}

	rec, err := c.Deliver(ctx, respondent.Delivery{Binding: "https", Endpoint: endpoint, Authorization: "Bearer wrong"}, responseFor(q))
	if err != nil || !core.Parse(core.KindReceipt, rec).Valid() {
		t.Fatalf("a rejection is a receipt: %v %s", err, rec)
	}
	if rec, err = c.Deliver(ctx, d, responseFor(q)); err != nil || !core.Parse(core.KindReceipt, rec).Valid() {
		t.Fatalf("accepted: %v %s", err, rec)
	}
	var pe *respondent.ProblemError
	if _, err := c.Deliver(ctx, d, []byte(`{"answer":true}`)); !errors.As(err, &pe) || pe.Detail == "" {
		t.Fatalf("no ids: want a ProblemError, got %v", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/aqp/v1/responses"
	ln.Close()
	var te *respondent.TransportError
	if _, err := c.Deliver(ctx, respondent.Delivery{Binding: "https", Endpoint: dead, Authorization: auth}, responseFor(q)); !errors.As(err, &te) {
		t.Fatalf("refused connection: want a TransportError, got %v", err)
	}
	expired, cancelNow := context.WithCancel(ctx)
	cancelNow()
	if _, err := c.Deliver(expired, d, responseFor(q)); !errors.As(err, &te) || !errors.Is(err, context.Canceled) {
		t.Fatalf("ended context: want a TransportError wrapping context.Canceled, got %v", err)
	}
}
