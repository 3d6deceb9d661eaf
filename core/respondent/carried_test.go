package respondent

import (
	"strings"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestIntakeCarried: the queries a carriage hands over are taken in in order; the carriage's own drops and the
// runtime's (expired, no transport, nil) each come back as a DropError naming where the query came from.
func TestIntakeCarried(t *testing.T) {
	h := newHarness(t, "")
	typed := func(raw []byte) core.CarriedQuery {
		t.Helper()
		req, errs := core.ParseRequest(raw)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return core.CarriedQuery{JSON: raw, Request: req}
	}
	a, b := typed(query(t, time.Hour, nil)), typed(query(t, time.Hour, nil))
	expired := typed(query(t, -time.Second, nil))
	noTransport := typed(query(t, time.Hour, func(m map[string]any) { m["delivery"].(map[string]any)["binding"] = "a2a" }))
	qs, drops := h.r.IntakeCarried("a2a message m1", []core.CarriedQuery{a, expired, {}, b, noTransport},
		[]core.Dropped{{Index: 2, Rule: core.CarriageRequest, Reason: "not a valid QueryRequest: /prompt: required"}, {Index: -1, Rule: core.CarriageArray, Reason: "metadata is not an array"}})
	if len(qs) != 2 || qs[0].Request != a.Request || qs[1].Request != b.Request || qs[0].Source != "a2a message m1" {
		t.Fatalf("taken in: %+v", qs)
	}
	want := []struct{ source, reason, id string }{
		{"a2a message m1, entry 2", "not carried as §6 says (request): not a valid QueryRequest: /prompt: required", ""},
		{"a2a message m1", "not carried as §6 says (array): metadata is not an array", ""},
		{"a2a message m1", "expired at", expired.Request.QueryID},
		{"a2a message m1", "no query (nil)", ""},
		{"a2a message m1", `delivery.binding "a2a" has no transport`, noTransport.Request.QueryID},
	}
	if len(drops) != len(want) {
		t.Fatalf("%d drops, want %d: %v", len(drops), len(want), drops)
	}
	for i, w := range want {
		d := drops[i]
		if d.Source != w.source || !strings.Contains(d.Reason, w.reason) || d.QueryID != w.id {
			t.Errorf("drop %d: %+v, want source %q, reason %q, queryId %q", i, d, w.source, w.reason, w.id)
		}
	}
	// Nothing carried: nothing taken in, nothing dropped.
	if qs, drops := h.r.IntakeCarried("empty", nil, nil); len(qs)+len(drops) != 0 {
		t.Fatalf("%v %v", qs, drops)
	}
}
