package sqlite_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/sqlite"
)

var idSeq struct {
	sync.Mutex
	n int
}

func newQuery() collector.Query {
	idSeq.Lock()
	idSeq.n++
	n := idSeq.n
	idSeq.Unlock()
	now := time.Now().UTC().Truncate(time.Millisecond)
	return collector.Query{
		QueryID:        fmt.Sprintf("01900000-0000-7000-8000-%012d", n),
		Request:        []byte(`{}`),
		CapabilityHash: []byte(rand.Text()),
		CreatedAt:      now,
		ExpiresAt:      now.Add(time.Hour),
	}
}

func newAcceptance(queryID string) collector.Acceptance {
	return collector.Acceptance{
		QueryID: queryID, ResponseID: rand.Text(), Response: []byte(rand.Text()), ContentHash: []byte(rand.Text()),
		Receipt: []byte(rand.Text()), AcceptedAt: time.Now().UTC().Truncate(time.Millisecond),
	}
}

// lockFile takes SQLite's write lock on path from a connection of its own, standing in for another process that
// is writing; the returned func releases it.
func lockFile(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			tx.Rollback()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// TestDurableWithoutClose shows an accepted response is in the file when Accept returns: a second Store opened on
// the file while the first is still open (as another process, or this one after a crash, would) sees it.
func TestDurableWithoutClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "collector.db")
	s1 := open(t, path)
	defer s1.Close()
	q := newQuery()
	if err := s1.CreateQueries(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	a := newAcceptance(q.QueryID)
	if _, err := s1.Accept(context.Background(), a); err != nil {
		t.Fatal(err)
	}

	s2 := open(t, path)
	defer s2.Close()
	_, got, err := s2.LoadQuery(context.Background(), q.QueryID)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.ResponseID != a.ResponseID || string(got.Receipt) != string(a.Receipt) {
		t.Fatalf("second store sees acceptance %+v, want response %s", got, a.ResponseID)
	}
}

// TestGroupCommit queues many writes while another connection holds the write lock, so they all wait for the same
// transaction, and checks that they share few commits while each caller still gets its own outcome: a refused
// write in the batch rolls back only itself.
func TestGroupCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "collector.db")
	s, err := sqlite.Open(context.Background(), path, sqlite.WithBusyTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	answered := newQuery()
	var fresh []collector.Query
	for range 40 {
		fresh = append(fresh, newQuery())
	}
	if err := s.CreateQueries(ctx, append([]collector.Query{answered}, fresh...)...); err != nil {
		t.Fatal(err)
	}
	first := newAcceptance(answered.QueryID)
	if _, err := s.Accept(ctx, first); err != nil {
		t.Fatal(err)
	}

	type call struct {
		a    collector.Acceptance
		want error
	}
	var calls []call
	for i, q := range fresh {
		calls = append(calls, call{newAcceptance(q.QueryID), nil})
		if i%4 == 0 {
			calls = append(calls, call{newAcceptance(answered.QueryID), collector.ErrAlreadyAccepted})
		}
		if i%8 == 0 {
			calls = append(calls, call{newAcceptance(newQuery().QueryID), collector.ErrNotFound})
		}
	}

	release := lockFile(t, path)
	before := s.Stats()
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { _, errs[i] = s.Accept(ctx, c.a) })
	}
	time.Sleep(300 * time.Millisecond) // let every call queue up behind the lock
	release()
	wg.Wait()

	for i, c := range calls {
		if !errors.Is(errs[i], c.want) || (c.want == nil && errs[i] != nil) {
			t.Errorf("call %d (query %s): err = %v, want %v", i, c.a.QueryID, errs[i], c.want)
		}
	}
	for _, q := range fresh {
		if _, a, err := s.LoadQuery(ctx, q.QueryID); err != nil || a == nil {
			t.Errorf("query %s: acceptance %v, err %v; want accepted", q.QueryID, a, err)
		}
	}
	st := s.Stats()
	commits, writes := st.Commits-before.Commits, st.Writes-before.Writes
	t.Logf("%d writes in %d commits", writes, commits)
	if writes != uint64(len(calls)) || commits > 3 {
		t.Errorf("%d writes in %d commits; want %d writes in at most 3", writes, commits, len(calls))
	}
}

// TestCancelWhileQueued shows a caller that gives up while its write waits for the writer gets ctx.Err() at once,
// and its write is never applied.
func TestCancelWhileQueued(t *testing.T) {
	path := filepath.Join(t.TempDir(), "collector.db")
	s, err := sqlite.Open(context.Background(), path, sqlite.WithBusyTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := newQuery()
	if err := s.CreateQueries(context.Background(), q); err != nil {
		t.Fatal(err)
	}

	release := lockFile(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s.Accept(ctx, newAcceptance(q.QueryID))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Accept: err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Accept returned after %s, want soon after its deadline", d)
	}
	release()

	// A later write is committed after the abandoned one would have been; the query must still be open.
	if err := s.CreateQueries(context.Background(), newQuery()); err != nil {
		t.Fatal(err)
	}
	if _, a, err := s.LoadQuery(context.Background(), q.QueryID); err != nil || a != nil {
		t.Fatalf("LoadQuery: acceptance %+v, err %v; want the abandoned Accept not applied", a, err)
	}
	a := newAcceptance(q.QueryID)
	if _, err := s.Accept(context.Background(), a); err != nil {
		t.Fatalf("Accept after the abandoned one: %v", err)
	}
}

// TestCloseDrains races Close with many Accepts: each either succeeds, and is then in the file, or fails with
// ErrClosed and is not.
func TestCloseDrains(t *testing.T) {
	for _, tc := range []struct {
		name    string
		waitFor int // Accepts to finish before closing
	}{{"at once", 0}, {"mid-stream", 50}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "collector.db")
			s := open(t, path)
			var qs []collector.Query
			for range 200 {
				qs = append(qs, newQuery())
			}
			if err := s.CreateQueries(context.Background(), qs...); err != nil {
				t.Fatal(err)
			}
			errs := make([]error, len(qs))
			finished := make(chan struct{}, len(qs))
			var wg sync.WaitGroup
			for i, q := range qs {
				wg.Go(func() {
					_, errs[i] = s.Accept(context.Background(), newAcceptance(q.QueryID))
					finished <- struct{}{}
				})
			}
			for range tc.waitFor {
				<-finished
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			wg.Wait()

			s = open(t, path)
			defer s.Close()
			var ok, closed int
			for i, q := range qs {
				_, a, err := s.LoadQuery(context.Background(), q.QueryID)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case errs[i] == nil && a != nil:
					ok++
				case errors.Is(errs[i], sqlite.ErrClosed) && a == nil:
					closed++
				default:
					t.Errorf("query %d: Accept err = %v, but acceptance stored = %t", i, errs[i], a != nil)
				}
			}
			t.Logf("%d accepted before Close, %d refused after", ok, closed)
		})
	}
}

func TestOpenCreatesPrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a?b#c", "collector.db")
	s := open(t, path)
	defer s.Close()
	if err := s.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("database file mode %o, want 600", m)
	}
}
