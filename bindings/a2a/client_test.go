package a2a_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

func delivery(q issued) respondent.Delivery {
	return respondent.Delivery{Binding: q.Delivery.Binding, Endpoint: q.Delivery.Endpoint, Operation: q.Delivery.Operation,
		Authorization: q.Delivery.Authorization}
}

// TestClientDelivers: accepted, rejected and duplicate receipts come back byte for byte as the collector stored
// them, equal to the HTTPS binding's receipt for the same response; the integer 2^53 + 1 survives the trip.
func TestClientDelivers(t *testing.T) {
	ts, c := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &a2ab.Client{HTTP: ts.Client()}
	q := issueDraft(t, c, structuredDraft)
	body := responseWith(q.QueryID, rid, "9007199254740993")

	wrong := delivery(q)
	wrong.Authorization = "Bearer not-the-capability"
	rej, err := client.Deliver(ctx, wrong, body)
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := receiptCode(rej); code != core.CodeUnauthorized {
		t.Fatalf("wrong capability: %s", rej)
	}

	rec, err := client.Deliver(ctx, delivery(q), body)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := c.Lookup(ctx, q.QueryID)
	if st.Acceptance == nil || string(st.Acceptance.Receipt) != string(rec) {
		t.Fatalf("the client's receipt is not the stored one:\n got %s\nwant %+v", rec, st.Acceptance)
	}
	if !strings.Contains(string(st.Acceptance.Response), `"answer":9007199254740993`) {
		t.Fatalf("the integer did not survive: %s", st.Acceptance.Response)
	}
	// The same response over HTTPS is a duplicate: the identical receipt.
	reply, err := (&https.Client{HTTP: ts.Client()}).Post(ctx, ts.URL+"/aqp/v1/responses", q.Delivery.Authorization, body)
	if err != nil || string(reply.Receipt) != string(rec) {
		t.Fatalf("HTTPS gave a different receipt for the same response (%v):\nhttps %s\n  a2a %s", err, reply.Receipt, rec)
	}
	// And the A2A client again, after HTTPS.
	again, err := client.Deliver(ctx, delivery(q), body)
	if err != nil || string(again) != string(rec) {
		t.Fatalf("duplicate: %v %s", err, again)
	}
}

func receiptCode(receipt []byte) (core.Code, bool) {
	doc := core.Parse(core.KindReceipt, receipt)
	if !doc.Valid() {
		return "", false
	}
	e, _ := doc.Object()["error"].(map[string]any)
	c, _ := e["code"].(string)
	return core.Code(c), true
}

// TestClientErrors: a body with no ids and a body that is not an object are problems; a dead endpoint, a
// non-AQP server and an expired context are transport failures.
func TestClientErrors(t *testing.T) {
	ts, c := newService(t)
	client := &a2ab.Client{HTTP: ts.Client()}
	q := issueDraft(t, c, structuredDraft)
	ctx := context.Background()
	var pe *respondent.ProblemError
	var te *respondent.TransportError

	if _, err := client.Deliver(ctx, delivery(q), []byte(`{"hello":1}`)); !errors.As(err, &pe) || !strings.Contains(pe.Detail, "no receipt can be formed") {
		t.Errorf("no ids: %v, want a ProblemError", err)
	}
	if _, err := client.Deliver(ctx, delivery(q), []byte(`[1,2]`)); !errors.As(err, &pe) || !strings.Contains(pe.Detail, "JSON object") {
		t.Errorf("an array: %v, want a ProblemError saying an object is needed", err)
	}
	if _, err := client.Deliver(ctx, delivery(q), []byte(`{"a":1,"a":2}`)); !errors.As(err, &pe) {
		t.Errorf("duplicate names: %v, want a ProblemError", err)
	}

	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	d := delivery(q)
	d.Endpoint = dead.URL + "/a2a"
	if _, err := client.Deliver(ctx, d, responseWith(q.QueryID, rid, "1")); !errors.As(err, &te) {
		t.Errorf("dead endpoint: %v, want a TransportError", err)
	}

	notAQP := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":"x","result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"hi"}]}}`))
	}))
	defer notAQP.Close()
	d.Endpoint = notAQP.URL
	if _, err := (&a2ab.Client{}).Deliver(ctx, d, responseWith(q.QueryID, rid, "1")); !errors.As(err, &te) || !strings.Contains(te.Error(), "receipt") {
		t.Errorf("a reply without a receipt: %v, want a TransportError", err)
	}

	stop := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer slow.Close()
	defer close(stop)
	d.Endpoint = slow.URL
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := (&a2ab.Client{}).Deliver(short, d, responseWith(q.QueryID, rid, "1")); !errors.As(err, &te) || time.Since(start) > 5*time.Second {
		t.Errorf("a hung collector: %v after %v, want a TransportError at the deadline", err, time.Since(start))
	}
}
