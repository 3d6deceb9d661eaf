package collector_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// slowStore is a memory store whose commit takes a while, as a durable database's does.
type slowStore struct {
	collector.Store
	commit time.Duration
}

func (s slowStore) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	time.Sleep(s.commit)
	return s.Store.Accept(ctx, a)
}

// TestRacingCopiesAllGetTheReceipt: however many identical copies race, against however slow a commit, every one
// gets the accepted receipt byte for byte (D36), while the per-query budget still bounds distinct submissions:
// with a burst of 2, the third different response in a row is rate_limited. Before D36, 64 copies against a
// 20 ms commit got 1 acceptance, a few duplicates and dozens of rate_limited.
func TestRacingCopiesAllGetTheReceipt(t *testing.T) {
	for _, tc := range []struct {
		copies int
		commit time.Duration
	}{
		{4, 0},
		{64, 20 * time.Millisecond},
		{200, 5 * time.Millisecond},
	} {
		t.Run(fmt.Sprintf("%d copies, %v commit", tc.copies, tc.commit), func(t *testing.T) {
			now := time.Date(2026, 7, 30, 17, 0, 0, 0, time.UTC)
			var mu sync.Mutex
			c, err := collector.New(collector.Config{
				Store: slowStore{memory.New(), tc.commit}, PublicURL: "https://collector.example",
				Endpoints: []collector.Endpoint{{Binding: "https", Path: "/aqp/v1/responses"}},
				Clock:     func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
				RateLimit: collector.RateLimit{PerSecond: 1, Burst: 2},
			})
			if err != nil {
				t.Fatal(err)
			}
			req, err := c.Issue(context.Background(), []byte(draft))
			if err != nil {
				t.Fatal(err)
			}
			doc := core.Parse(core.KindRequest, req)
			id := doc.Object()["queryId"].(string)
			auth := doc.Object()["delivery"].(map[string]any)["authorization"].(string)

			// Distinct submissions spend the budget: two wrong answers, then the third is refused.
			for i, want := range []core.Code{core.CodeAnswerInvalid, core.CodeAnswerInvalid, core.CodeRateLimited} {
				out := c.Submit(context.Background(), collector.Submission{Binding: "https", Authorization: auth,
					Body: response(id, fmt.Sprintf("0198c7d0-2180-7729-b005-d33c99fc%04d", i+10), `"maybe"`)})
				if out.Code != want {
					t.Fatalf("distinct submission %d got %q, want %q: %s", i, out.Code, want, out.Receipt)
				}
			}
			mu.Lock()
			now = now.Add(2 * time.Second) // the budget refills
			mu.Unlock()

			body := response(id, "0198c7d0-2180-7729-b005-d33c99fc0001", `"yes"`)
			outs := make([]collector.Outcome, tc.copies)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range outs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					outs[i] = c.Submit(context.Background(), collector.Submission{Binding: "https", Authorization: auth, Body: body})
				}()
			}
			close(start)
			wg.Wait()
			fresh := 0
			for i, out := range outs {
				if !out.Accepted || !bytes.Equal(out.Receipt, outs[0].Receipt) {
					t.Fatalf("copy %d got %s, want the accepted receipt %s", i, out.Receipt, outs[0].Receipt)
				}
				if !out.Duplicate {
					fresh++
				}
			}
			if fresh != 1 {
				t.Fatalf("%d copies report a fresh acceptance, want exactly 1", fresh)
			}
		})
	}
}
