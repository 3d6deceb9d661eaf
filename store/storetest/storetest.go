// Package storetest is the contract test suite every collector.Store implementation runs, so the in-memory,
// SQLite and PostgreSQL stores are proven to behave the same rather than merely believed to.
//
// A store package's test calls Run with a function that opens a new handle on one database; the benchmark helper
// BenchAccept gives every store the same workload so their numbers can be compared.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Run runs the contract suite as subtests of t.
//
// open must return a new, open Store handle on the same database every time it is called during the run (the
// suite closes and reopens it, and races two handles as two collector processes would). The database may be shared
// by all subtests and may hold rows other subtests made: the suite uses fresh queryIds and, in listings, checks the
// order of everything and the presence of its own rows only. The suite closes every store it opens.
func Run(t *testing.T, open func(t *testing.T) collector.Store) {
	s := &suite{open: open}
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"CreateLoadRoundTrip", s.createLoadRoundTrip},
		{"LoadUnknown", s.loadUnknown},
		{"DuplicateQuery", s.duplicateQuery},
		{"AcceptThenLoad", s.acceptThenLoad},
		{"AcceptWithContinuation", s.acceptWithContinuation},
		{"SecondAcceptReturnsFirst", s.secondAcceptReturnsFirst},
		{"AcceptUnknownQuery", s.acceptUnknownQuery},
		{"AcceptDuplicateContinuation", s.acceptDuplicateContinuation},
		{"CanceledContext", s.canceledContext},
		{"RaceAccept", func(t *testing.T) { s.raceAccept(t, 1) }},
		{"RaceAcceptTwoInstances", func(t *testing.T) { s.raceAccept(t, 2) }},
		{"Secret", s.secret},
		{"RaceSecret", s.raceSecret},
		{"ListNewestFirst", s.listNewestFirst},
		{"ListPagination", s.listPagination},
		{"ListStateFilter", s.listStateFilter},
		{"Ping", s.ping},
		{"CloseAndReopen", s.closeAndReopen},
	} {
		t.Run(tc.name, tc.fn)
	}
}

type suite struct {
	open func(t *testing.T) collector.Store
}

// store opens a handle and closes it when the test ends unless the test closed it itself.
func (s *suite) store(t *testing.T) collector.Store {
	t.Helper()
	st := s.open(t)
	c := &closeOnce{Store: st}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// closeOnce keeps the suite's cleanup from closing a store the test already closed; stores need not tolerate that.
type closeOnce struct {
	collector.Store
	once sync.Once
	err  error
}

func (c *closeOnce) Close() error {
	c.once.Do(func() { c.err = c.Store.Close() })
	return c.err
}

func mustCreate(t *testing.T, st collector.Store, qs ...collector.Query) {
	t.Helper()
	if err := st.CreateQueries(context.Background(), cloneQueries(qs)...); err != nil {
		t.Fatalf("CreateQueries: %v", err)
	}
}

func mustAccept(t *testing.T, st collector.Store, a collector.Acceptance) {
	t.Helper()
	got, err := st.Accept(context.Background(), cloneAcceptance(a))
	if err != nil {
		t.Fatalf("Accept: %v", err)
	}
	checkAcceptance(t, "Accept's result", got, &a, true)
}

// checkLoad loads id and compares it with the expected query and acceptance.
func checkLoad(t *testing.T, st collector.Store, want collector.Query, wantA *collector.Acceptance) {
	t.Helper()
	q, a, err := st.LoadQuery(context.Background(), want.QueryID)
	if err != nil {
		t.Fatalf("LoadQuery(%s): %v", want.QueryID, err)
	}
	checkQuery(t, "LoadQuery", q, want)
	checkAcceptance(t, "LoadQuery", a, wantA, true)
}

func checkNotFound(t *testing.T, st collector.Store, id, why string) {
	t.Helper()
	if _, _, err := st.LoadQuery(context.Background(), id); !errors.Is(err, collector.ErrNotFound) {
		t.Errorf("LoadQuery(%s) (%s): err = %v, want ErrNotFound", id, why, err)
	}
}

func (s *suite) createLoadRoundTrip(t *testing.T) {
	st := s.store(t)
	berlin := time.FixedZone("CEST", 2*60*60)
	qs := []collector.Query{
		newQuery(base, time.Hour),                                          // nanoseconds
		newQuery(base.Truncate(time.Millisecond), 24*time.Hour),            // as the collector gives them
		newQuery(base.In(berlin), 90*time.Second+7*time.Nanosecond),        // another zone: must come back in UTC
		newQuery(time.Date(1970, 1, 1, 0, 0, 0, 1, time.UTC), time.Second), // near the epoch
	}
	mustCreate(t, st, qs...)
	for _, q := range qs {
		checkLoad(t, st, q, nil)
	}

	// Returned slices belong to the caller: scribbling on them must not change what is stored.
	got, _, err := st.LoadQuery(context.Background(), qs[0].QueryID)
	if err != nil {
		t.Fatal(err)
	}
	clear(got.Request)
	clear(got.CapabilityHash)
	checkLoad(t, st, qs[0], nil)

	if err := st.CreateQueries(context.Background()); err != nil {
		t.Errorf("CreateQueries with no queries: %v", err)
	}
}

func (s *suite) loadUnknown(t *testing.T) {
	st := s.store(t)
	checkNotFound(t, st, newID(), "never created")
}

func (s *suite) duplicateQuery(t *testing.T) {
	st := s.store(t)
	existing := newQuery(base, time.Hour)
	mustCreate(t, st, existing)
	impostor := newQuery(base, 2*time.Hour)
	impostor.QueryID = existing.QueryID

	for _, tc := range []struct {
		name  string
		batch func() []collector.Query
	}{
		{"existing id alone", func() []collector.Query { return []collector.Query{impostor} }},
		{"second of two is existing", func() []collector.Query {
			return []collector.Query{newQuery(base, time.Hour), impostor}
		}},
		{"second of three repeats the first", func() []collector.Query {
			a := newQuery(base, time.Hour)
			b := a
			b.Request = []byte(`{"other":true}`)
			return []collector.Query{a, b, newQuery(base, time.Hour)}
		}},
		{"existing id in the middle", func() []collector.Query {
			return []collector.Query{newQuery(base, time.Hour), impostor, newQuery(base, time.Hour)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			batch := tc.batch()
			err := st.CreateQueries(context.Background(), cloneQueries(batch)...)
			if !errors.Is(err, collector.ErrDuplicateQuery) {
				t.Fatalf("CreateQueries: err = %v, want ErrDuplicateQuery", err)
			}
			for _, q := range batch {
				if q.QueryID != existing.QueryID {
					checkNotFound(t, st, q.QueryID, "its batch failed")
				}
			}
			checkLoad(t, st, existing, nil) // untouched by the impostor
		})
	}
}

func (s *suite) acceptThenLoad(t *testing.T) {
	st := s.store(t)
	q := newQuery(base, time.Hour)
	mustCreate(t, st, q)
	a := newAcceptance(q.QueryID, false)
	mustAccept(t, st, a)
	checkLoad(t, st, q, &a)

	_, got, err := st.LoadQuery(context.Background(), q.QueryID)
	if err != nil {
		t.Fatal(err)
	}
	clear(got.Receipt)
	checkLoad(t, st, q, &a) // the caller's copy was its own
}

func (s *suite) acceptWithContinuation(t *testing.T) {
	st := s.store(t)
	q := newQuery(base, time.Hour)
	mustCreate(t, st, q)
	a := newAcceptance(q.QueryID, true)
	mustAccept(t, st, a)
	checkLoad(t, st, q, &a)
	checkLoad(t, st, *a.Continuation, nil) // a query in its own right, open for its respondent
}

func (s *suite) secondAcceptReturnsFirst(t *testing.T) {
	st := s.store(t)
	q := newQuery(base, time.Hour)
	mustCreate(t, st, q)
	first := newAcceptance(q.QueryID, true)
	mustAccept(t, st, first)

	for _, tc := range []struct {
		name   string
		second collector.Acceptance
	}{
		{"other response with continuation", newAcceptance(q.QueryID, true)},
		{"other response without continuation", newAcceptance(q.QueryID, false)},
		// A retried Accept carries the same continuation queryId, which exists by now: it is the query being
		// answered already, not the duplicate continuation, that the caller must hear about.
		{"identical retry", first},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.Accept(context.Background(), cloneAcceptance(tc.second))
			if !errors.Is(err, collector.ErrAlreadyAccepted) {
				t.Fatalf("second Accept: err = %v, want ErrAlreadyAccepted", err)
			}
			checkAcceptance(t, "second Accept's result", got, &first, true)
			if c := tc.second.Continuation; c != nil && c.QueryID != first.Continuation.QueryID {
				checkNotFound(t, st, c.QueryID, "continuation of a refused acceptance")
			}
			checkLoad(t, st, q, &first)
		})
	}
}

func (s *suite) acceptUnknownQuery(t *testing.T) {
	st := s.store(t)
	a := newAcceptance(newID(), true)
	if _, err := st.Accept(context.Background(), cloneAcceptance(a)); !errors.Is(err, collector.ErrNotFound) {
		t.Fatalf("Accept for an unknown query: err = %v, want ErrNotFound", err)
	}
	checkNotFound(t, st, a.Continuation.QueryID, "continuation of a refused acceptance")
}

func (s *suite) acceptDuplicateContinuation(t *testing.T) {
	st := s.store(t)
	q, other := newQuery(base, time.Hour), newQuery(base, time.Hour)
	mustCreate(t, st, q, other)
	a := newAcceptance(q.QueryID, true)
	a.Continuation.QueryID = other.QueryID
	if _, err := st.Accept(context.Background(), cloneAcceptance(a)); !errors.Is(err, collector.ErrDuplicateQuery) {
		t.Fatalf("Accept with an existing continuation queryId: err = %v, want ErrDuplicateQuery", err)
	}
	checkLoad(t, st, q, nil)     // nothing accepted
	checkLoad(t, st, other, nil) // and the other query untouched

	good := newAcceptance(q.QueryID, true)
	mustAccept(t, st, good) // the query is still open
	checkLoad(t, st, q, &good)
}

func (s *suite) canceledContext(t *testing.T) {
	st := s.store(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	q := newQuery(base, time.Hour)
	if err := st.CreateQueries(ctx, cloneQuery(q)); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateQueries with a canceled context: err = %v, want context.Canceled", err)
	}
	checkNotFound(t, st, q.QueryID, "created with a canceled context")

	mustCreate(t, st, q)
	a := newAcceptance(q.QueryID, true)
	if _, err := st.Accept(ctx, cloneAcceptance(a)); !errors.Is(err, context.Canceled) {
		t.Errorf("Accept with a canceled context: err = %v, want context.Canceled", err)
	}
	checkLoad(t, st, q, nil)
	checkNotFound(t, st, a.Continuation.QueryID, "continuation of an Accept with a canceled context")
}

// raceAccept races 50 different responses to one query, spread over n store handles: exactly one wins, and every
// loser is told about the winner, continuation included, while the losers' continuations never exist.
func (s *suite) raceAccept(t *testing.T, n int) {
	stores := make([]collector.Store, n)
	for i := range stores {
		stores[i] = s.store(t)
	}
	q := newQuery(base, time.Hour)
	mustCreate(t, stores[0], q)

	const racers = 50
	as := make([]collector.Acceptance, racers)
	for i := range as {
		as[i] = newAcceptance(q.QueryID, true)
	}
	type outcome struct {
		got *collector.Acceptance
		err error
	}
	outcomes := make([]outcome, racers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range as {
		wg.Go(func() {
			a := cloneAcceptance(as[i])
			<-start
			got, err := stores[i%n].Accept(context.Background(), a)
			outcomes[i] = outcome{got, err}
		})
	}
	close(start)
	wg.Wait()

	winner := -1
	for i, o := range outcomes {
		switch {
		case o.err == nil:
			if winner >= 0 {
				t.Fatalf("racers %d and %d were both accepted", winner, i)
			}
			winner = i
		case !errors.Is(o.err, collector.ErrAlreadyAccepted):
			t.Fatalf("racer %d: err = %v, want nil or ErrAlreadyAccepted", i, o.err)
		}
	}
	if winner < 0 {
		t.Fatal("no racer was accepted")
	}
	w := &as[winner]
	for i, o := range outcomes {
		checkAcceptance(t, fmt.Sprintf("racer %d", i), o.got, w, true)
		if i != winner {
			checkNotFound(t, stores[0], as[i].Continuation.QueryID, "continuation of a losing racer")
		}
	}
	for _, st := range stores {
		checkLoad(t, st, q, w)
	}
	checkLoad(t, stores[0], *w.Continuation, nil)
}

func (s *suite) secret(t *testing.T) {
	st := s.store(t)
	ctx := context.Background()
	name := "test-" + newID()
	calls := 0
	gen := func() ([]byte, error) { calls++; return randomBytes(32), nil }

	broken := errors.New("no entropy today")
	if _, err := st.Secret(ctx, name, func() ([]byte, error) { return nil, broken }); !errors.Is(err, broken) {
		t.Fatalf("Secret with a failing generate: err = %v, want %v", err, broken)
	}
	v1, err := st.Secret(ctx, name, gen)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || len(v1) != 32 {
		t.Fatalf("first Secret: %d generate calls, %d bytes; want 1 call, 32 bytes (a failed generate stores nothing)", calls, len(v1))
	}
	want := slices.Clone(v1)
	clear(v1) // the caller's copy
	v2, err := st.Secret(ctx, name, gen)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v2, want) {
		t.Errorf("second Secret = %x, want the stored %x", v2, want)
	}
	clear(v2) // a stored value handed out must be a copy too
	if v3, err := st.Secret(ctx, name, gen); err != nil || !slices.Equal(v3, want) {
		t.Errorf("third Secret = %x, %v; want the stored %x", v3, err, want)
	}
	other, err := st.Secret(ctx, name+"-other", gen)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other, want) {
		t.Error("two secret names share one value")
	}
}

func (s *suite) raceSecret(t *testing.T) {
	stores := []collector.Store{s.store(t), s.store(t)}
	name := "race-" + newID()
	const racers = 50
	vals := make([][]byte, racers)
	errs := make([]error, racers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			<-start
			vals[i], errs[i] = stores[i%2].Secret(context.Background(), name, func() ([]byte, error) {
				return randomBytes(32), nil
			})
		})
	}
	close(start)
	wg.Wait()
	for i := range racers {
		if errs[i] != nil {
			t.Fatalf("racer %d: %v", i, errs[i])
		}
		if !slices.Equal(vals[i], vals[0]) {
			t.Fatalf("racer %d got %x, racer 0 got %x", i, vals[i], vals[0])
		}
	}
}

// listAll pages through the whole listing with the given page size and checks the pages are strictly
// newest-first, within the limit and non-overlapping.
func listAll(t *testing.T, st collector.Store, f collector.ListFilter) []collector.QueryWithAcceptance {
	t.Helper()
	var all []collector.QueryWithAcceptance
	f.After = ""
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatal("listing does not end")
		}
		page, err := st.ListQueries(context.Background(), f)
		if err != nil {
			t.Fatalf("ListQueries(%+v): %v", f, err)
		}
		if len(page) > f.Limit {
			t.Fatalf("ListQueries(limit %d) returned %d", f.Limit, len(page))
		}
		for _, r := range page {
			if n := len(all); n > 0 && r.Query.QueryID >= all[n-1].Query.QueryID {
				t.Fatalf("listing not strictly newest first: %s after %s", r.Query.QueryID, all[n-1].Query.QueryID)
			}
			all = append(all, r)
		}
		if len(page) < f.Limit {
			return all
		}
		f.After = page[len(page)-1].Query.QueryID
	}
}

// pick returns the rows whose queryIds are in want, in listing order.
func pick(rows []collector.QueryWithAcceptance, want map[string]bool) []collector.QueryWithAcceptance {
	var out []collector.QueryWithAcceptance
	for _, r := range rows {
		if want[r.Query.QueryID] {
			out = append(out, r)
		}
	}
	return out
}

func (s *suite) listNewestFirst(t *testing.T) {
	st := s.store(t)
	qs := make([]collector.Query, 7)
	for i := range qs {
		qs[i] = newQuery(base, time.Hour)
	}
	shuffled := slices.Clone(qs)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	mustCreate(t, st, shuffled...) // insertion order must not matter
	// No continuations: they would be newer queries than these.
	answered := map[int]collector.Acceptance{2: newAcceptance(qs[2].QueryID, false), 5: newAcceptance(qs[5].QueryID, false)}
	for _, a := range answered {
		mustAccept(t, st, a)
	}

	// These are the newest queries in the database, so the first page is exactly them, newest first.
	page, err := st.ListQueries(context.Background(), collector.ListFilter{Now: base, Limit: len(qs)})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != len(qs) {
		t.Fatalf("ListQueries returned %d rows, want %d", len(page), len(qs))
	}
	for i, r := range page {
		j := len(qs) - 1 - i
		checkQuery(t, fmt.Sprintf("row %d", i), r.Query, qs[j])
		var want *collector.Acceptance
		if a, ok := answered[j]; ok {
			want = &a
		}
		checkAcceptance(t, fmt.Sprintf("row %d", i), r.Acceptance, want, false)
	}

	// After a queryId: strictly older ones only.
	page, err = st.ListQueries(context.Background(), collector.ListFilter{Now: base, Limit: 2, After: qs[4].QueryID})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 2 || page[0].Query.QueryID != qs[3].QueryID || page[1].Query.QueryID != qs[2].QueryID {
		t.Errorf("ListQueries(after %s, limit 2) = %v, want %s, %s", qs[4].QueryID, ids(page), qs[3].QueryID, qs[2].QueryID)
	}
}

func ids(rows []collector.QueryWithAcceptance) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Query.QueryID
	}
	return out
}

func (s *suite) listPagination(t *testing.T) {
	st := s.store(t)
	mine := map[string]bool{}
	var qs []collector.Query
	for range 23 {
		q := newQuery(base, time.Hour)
		qs = append(qs, q)
		mine[q.QueryID] = true
	}
	mustCreate(t, st, qs...)
	for _, limit := range []int{1, 5, 23, 500} {
		t.Run(fmt.Sprint("limit ", limit), func(t *testing.T) {
			all := listAll(t, st, collector.ListFilter{Now: base, Limit: limit})
			got := pick(all, mine)
			if len(got) != len(qs) {
				t.Fatalf("pagination visited %d of my %d queries", len(got), len(qs))
			}
			for i, r := range got {
				checkQuery(t, fmt.Sprintf("row %d", i), r.Query, qs[len(qs)-1-i])
			}
		})
	}
}

func (s *suite) listStateFilter(t *testing.T) {
	st := s.store(t)
	now := base.Add(time.Hour)
	type row struct {
		q     collector.Query
		a     *collector.Acceptance
		state collector.State
	}
	mk := func(expiresIn time.Duration, answer bool, state collector.State) row {
		q := newQuery(base, time.Hour)
		q.ExpiresAt = now.Add(expiresIn)
		r := row{q: q, state: state}
		if answer {
			a := newAcceptance(q.QueryID, false)
			r.a = &a
		}
		return r
	}
	rows := []row{
		mk(time.Hour, false, collector.StateOpen),
		mk(0, false, collector.StateOpen), // expiresAt == now: not yet past it
		mk(time.Nanosecond, false, collector.StateOpen),
		mk(-time.Nanosecond, false, collector.StateExpired),
		mk(-time.Hour, false, collector.StateExpired),
		mk(time.Hour, true, collector.StateAnswered),
		mk(-time.Hour, true, collector.StateAnswered), // answered wins over expired
	}
	mine := map[string]bool{}
	for _, r := range rows {
		mustCreate(t, st, r.q)
		if r.a != nil {
			mustAccept(t, st, *r.a)
		}
		mine[r.q.QueryID] = true
	}
	for _, state := range []collector.State{collector.StateOpen, collector.StateAnswered, collector.StateExpired, ""} {
		t.Run(fmt.Sprintf("state %q", state), func(t *testing.T) {
			all := listAll(t, st, collector.ListFilter{State: state, Now: now, Limit: 2})
			for _, r := range all {
				if got := collector.StateOf(r.Query, r.Acceptance, now); state != "" && got != state {
					t.Errorf("filter %q listed %s, which is %q", state, r.Query.QueryID, got)
				}
			}
			got := pick(all, mine)
			var want []row
			for i := len(rows) - 1; i >= 0; i-- {
				if state == "" || rows[i].state == state {
					want = append(want, rows[i])
				}
			}
			if len(got) != len(want) {
				t.Fatalf("filter %q listed %d of my queries, want %d", state, len(got), len(want))
			}
			for i := range want {
				checkQuery(t, fmt.Sprintf("row %d", i), got[i].Query, want[i].q)
				checkAcceptance(t, fmt.Sprintf("row %d", i), got[i].Acceptance, want[i].a, false)
			}
		})
	}
}

func (s *suite) ping(t *testing.T) {
	st := s.store(t)
	if err := st.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := st.Ping(context.Background()); err == nil {
		t.Error("Ping after Close succeeded; /readyz would report a closed store as ready")
	}
}

func (s *suite) closeAndReopen(t *testing.T) {
	st := s.store(t)
	ctx := context.Background()
	open, answered := newQuery(base, time.Hour), newQuery(base, time.Hour)
	mustCreate(t, st, open, answered)
	a := newAcceptance(answered.QueryID, true)
	mustAccept(t, st, a)
	secretName := "reopen-" + newID()
	secret, err := st.Secret(ctx, secretName, func() ([]byte, error) { return randomBytes(32), nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	st = s.store(t)
	checkLoad(t, st, open, nil)
	checkLoad(t, st, answered, &a)
	checkLoad(t, st, *a.Continuation, nil)
	got, err := st.Secret(ctx, secretName, func() ([]byte, error) {
		t.Error("Secret generated anew after reopening")
		return randomBytes(32), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, secret) {
		t.Errorf("Secret after reopening = %x, want %x", got, secret)
	}
	// And the reopened store still refuses a second answer.
	if _, err := st.Accept(ctx, newAcceptance(answered.QueryID, false)); !errors.Is(err, collector.ErrAlreadyAccepted) {
		t.Errorf("Accept after reopening: err = %v, want ErrAlreadyAccepted", err)
	}
}
