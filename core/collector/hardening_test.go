package collector_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// budgetFixture is a collector with small, deterministic budgets on a fixed clock.
func budgetFixture(t *testing.T, store collector.Store, log *slog.Logger, timeout time.Duration) *fixture {
	t.Helper()
	f := &fixture{now: time.Date(2026, 7, 30, 17, 0, 0, 0, time.UTC)}
	n := 0
	var mu sync.Mutex
	c, err := collector.New(collector.Config{
		Store:        store,
		PublicURL:    "https://collector.example",
		Endpoints:    []collector.Endpoint{{Binding: "https", Path: "/aqp/v1/responses"}},
		Clock:        func() time.Time { return f.now },
		RateLimit:    collector.RateLimit{PerSecond: 1, Burst: 2},
		FailureLimit: collector.RateLimit{PerSecond: 1, Burst: 3},
		StoreTimeout: timeout,
		Logger:       log,
		NewID: func() (string, error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			return "0198c7cb-1af1-7e79-bd7f-" + strings.Repeat("0", 12-len(itoa(n))) + itoa(n), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.c = c
	return f
}

// TestNobodyWithoutTheCapabilityChangesTheOutcome: a flood of wrong capabilities for a query (from the
// respondent's own address too) neither spends the query's budget nor stops the genuine respondent; the flooding
// client is refused without validation once its failure budget is spent.
func TestNobodyWithoutTheCapabilityChangesTheOutcome(t *testing.T) {
	f := budgetFixture(t, memory.New(), nil, 0)
	ctx := context.Background()
	q, auth := f.issue(t, draft)
	good := response(q, "0198c7d0-2180-7729-b005-d33c99fc7452", `"partly"`)
	for _, client := range []string{"198.51.100.7", "203.0.113.9"} {
		for i := 0; i < 50; i++ {
			out := f.c.Submit(ctx, collector.Submission{Body: good, Authorization: "Bearer wrong", Client: client})
			want := core.CodeUnauthorized
			if i >= 3 {
				want = core.CodeRateLimited // the client's failure budget (burst 3) is spent
			}
			if out.Code != want {
				t.Fatalf("%s flood %d: %s, want %s: %s", client, i, out.Code, want, out.Receipt)
			}
		}
	}
	// A flooding client's malformed body is refused unread once its budget is spent: rate_limited, not invalid.
	hostile := []byte(`{"queryId":"` + q + `","responseId":"0198c7d0-2180-7729-b005-d33c99fc7459","answer":[` + strings.Repeat("0,", 1000) + `0],"x":1}`)
	if out := f.c.Submit(ctx, collector.Submission{Body: hostile, Client: "198.51.100.7"}); out.Code != core.CodeRateLimited || out.RetryAfter < 1 {
		t.Fatalf("hostile body from a spent client: %s %s", out.Code, out.Receipt)
	}
	// The genuine respondent — even at a flooder's address — is decided normally.
	out := f.c.Submit(ctx, collector.Submission{Body: good, Authorization: auth, Client: "198.51.100.7"})
	if !out.Accepted {
		t.Fatalf("genuine submission after the flood: %s", out.Receipt)
	}
	// Duplicates past the per-query burst (2) still get the stored receipt, byte for byte.
	for i := 0; i < 10; i++ {
		dup := f.c.Submit(ctx, collector.Submission{Body: good, Authorization: auth, Client: "192.0.2.1"})
		if !dup.Accepted || !dup.Duplicate || !bytes.Equal(dup.Receipt, out.Receipt) {
			t.Fatalf("duplicate %d: %s", i, dup.Receipt)
		}
	}
	// The failure budget comes back with time.
	f.now = f.now.Add(10 * time.Second)
	if out := f.c.Submit(ctx, collector.Submission{Body: good, Authorization: "Bearer wrong", Client: "203.0.113.9"}); out.Code != core.CodeUnauthorized {
		t.Fatalf("after the budget refilled: %s", out.Code)
	}
}

// TestQueryBudgetIsSpentOnlyByCapabilityHolders: the per-query limit still stops the capability holder's own
// tight loop of new submissions.
func TestQueryBudgetIsSpentOnlyByCapabilityHolders(t *testing.T) {
	f := budgetFixture(t, memory.New(), nil, 0)
	ctx := context.Background()
	q, auth := f.issue(t, draft)
	codes := []core.Code{}
	for i := 0; i < 4; i++ {
		out := f.c.Submit(ctx, collector.Submission{Body: response(q, "0198c7d0-2180-7729-b005-d33c99fc7452", `"maybe"`), Authorization: auth})
		codes = append(codes, out.Code)
	}
	want := []core.Code{core.CodeAnswerInvalid, core.CodeAnswerInvalid, core.CodeRateLimited, core.CodeRateLimited}
	for i := range want {
		if codes[i] != want[i] {
			t.Fatalf("codes %v, want %v", codes, want)
		}
	}
}

// frozenStore blocks every call until its context ends, as a PostgreSQL server stopped with SIGSTOP does.
type frozenStore struct {
	collector.Store
	frozen bool
	mu     sync.Mutex
}

func (s *frozenStore) wait(ctx context.Context) error {
	s.mu.Lock()
	frozen := s.frozen
	s.mu.Unlock()
	if !frozen {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

func (s *frozenStore) LoadQuery(ctx context.Context, id string) (collector.Query, *collector.Acceptance, error) {
	if err := s.wait(ctx); err != nil {
		return collector.Query{}, nil, err
	}
	return s.Store.LoadQuery(ctx, id)
}

func (s *frozenStore) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.Store.Accept(ctx, a)
}

func (s *frozenStore) CreateQueries(ctx context.Context, qs ...collector.Query) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.Store.CreateQueries(ctx, qs...)
}

func (s *frozenStore) Ping(ctx context.Context) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.Store.Ping(ctx)
}

// TestFrozenStoreGivesUnavailableWithinTheTimeout: every store call is bounded (a store that never answers must not
// hang a submission: the 5 s guard is a hang detector, the latency is measured by aqp-load -mode freeze); a frozen store gives a retryable
// unavailable receipt, an Issue error and a Ready error within the timeout, and one log line for many failures.
func TestFrozenStoreGivesUnavailableWithinTheTimeout(t *testing.T) {
	var logs bytes.Buffer
	store := &frozenStore{Store: memory.New()}
	f := budgetFixture(t, store, slog.New(slog.NewTextHandler(&logs, nil)), 50*time.Millisecond)
	ctx := context.Background()
	q, auth := f.issue(t, draft)
	store.mu.Lock()
	store.frozen = true
	store.mu.Unlock()
	for i := 0; i < 20; i++ {
		start := time.Now()
		out := f.c.Submit(ctx, collector.Submission{Body: response(q, "0198c7d0-2180-7729-b005-d33c99fc7452", `"partly"`), Authorization: auth})
		if took := time.Since(start); out.Code != core.CodeUnavailable || out.RetryAfter < 1 || took > 5*time.Second {
			t.Fatalf("frozen store: %s after %v: %s", out.Code, took, out.Receipt)
		}
	}
	if _, err := f.c.Issue(ctx, []byte(draft)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Issue on a frozen store: %v", err)
	}
	if err := f.c.Ready(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Ready on a frozen store: %v", err)
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n != 1 {
		t.Fatalf("20 failures of one kind logged %d ERROR lines, want 1 (summarised):\n%s", n, logs.String())
	}
	// A caller that goes away is not a store failure.
	logs.Reset()
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	f2 := budgetFixture(t, store, slog.New(slog.NewTextHandler(&logs, nil)), time.Minute)
	f2.c.Submit(cctx, collector.Submission{Body: response(q, "0198c7d0-2180-7729-b005-d33c99fc7452", `"partly"`), Authorization: auth})
	if strings.Contains(logs.String(), "ERROR") {
		t.Fatalf("a client that went away was logged as a store failure:\n%s", logs.String())
	}
}
