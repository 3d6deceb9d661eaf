package collector_test

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// countingStore counts LoadQuery calls.
type countingStore struct {
	collector.Store
	loads atomic.Int64
}

func (s *countingStore) LoadQuery(ctx context.Context, id string) (collector.Query, *collector.Acceptance, error) {
	s.loads.Add(1)
	return s.Store.LoadQuery(ctx, id)
}

// TestIssuedQueryNeedsNoRead: a submission to a query this collector issued is accepted without reading the query
// back (one store call per acceptance), and every later submission still gets the outcome of the pinned order —
// the stored receipt for a duplicate, already_answered for another response even when that response would fail a
// later check (a paired check, expiry) — from the issuing collector and from another one on the same store.
func TestIssuedQueryNeedsNoRead(t *testing.T) {
	store := &countingStore{Store: memory.New()}
	// No per-query budget: each step must reach the check it names.
	f, other := unlimited(t, store), unlimited(t, store)
	ctx := context.Background()
	q, auth := f.issue(t, draft)
	r1, r2 := "0198c7d0-2180-7729-b005-d33c99fc7452", "0198c7d0-2180-7729-b005-d33c99fc7453"
	first := f.c.Submit(ctx, collector.Submission{Body: response(q, r1, `"partly"`), Authorization: auth})
	if !first.Accepted || first.Duplicate {
		t.Fatalf("first submission: %s", first.Receipt)
	}
	if n := store.loads.Load(); n != 0 {
		t.Fatalf("accepting a response to an issued query read the query %d times, want 0", n)
	}
	for _, step := range []struct {
		name    string
		advance time.Duration
		body    []byte
		code    core.Code // "" means the stored receipt, as a duplicate
	}{
		{"duplicate", 0, response(q, r1, `"partly"`), ""},
		{"another response", 0, response(q, r2, `"yes"`), core.CodeAlreadyAnswered},
		{"another response failing the paired check", 0, response(q, r2, `"maybe"`), core.CodeAlreadyAnswered},
		{"same responseId, other content", 0, response(q, r1, `"no"`), core.CodeResponseIDConflict},
		{"duplicate after expiry", 2 * time.Hour, response(q, r1, `"partly"`), ""},
		{"another response after expiry", 0, response(q, r2, `"yes"`), core.CodeAlreadyAnswered},
	} {
		f.now = f.now.Add(step.advance)
		other.now = f.now
		for name, c := range map[string]*collector.Collector{"issuer": f.c, "other": other.c} {
			out := c.Submit(ctx, collector.Submission{Body: step.body, Authorization: auth})
			switch {
			case step.code == "" && (!out.Duplicate || !bytes.Equal(out.Receipt, first.Receipt)):
				t.Errorf("%s, %s: want the stored receipt, got %s", step.name, name, out.Receipt)
			case step.code != "" && out.Code != step.code:
				t.Errorf("%s, %s: code %q, want %q: %s", step.name, name, out.Code, step.code, out.Receipt)
			}
		}
	}
}

// unlimited is a collector on store with the fixture's clock and no per-query budget.
func unlimited(t *testing.T, store collector.Store) *fixture {
	t.Helper()
	f := &fixture{now: time.Date(2026, 7, 30, 17, 0, 0, 0, time.UTC)}
	c, err := collector.New(collector.Config{Store: store, PublicURL: "https://collector.example",
		Endpoints: []collector.Endpoint{{Binding: "https", Path: "/aqp/v1/responses"}},
		Clock:     func() time.Time { return f.now }, RateLimit: collector.RateLimit{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	f.c = c
	return f
}
