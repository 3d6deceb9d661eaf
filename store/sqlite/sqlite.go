// Package sqlite is a collector.Store in one SQLite file, for a collector that runs as a single node (or a few
// processes on one machine) without a database server.
//
// Every accepted response is durable before Accept returns: the file is in WAL mode with synchronous=FULL, so each
// commit is fsynced. To still accept thousands of responses per second, writes are group-committed (see writer.go):
// one writer goroutine commits all concurrently pending writes in one transaction and one fsync. Reads go to a
// separate pool of read-only connections, which WAL lets run alongside the writer.
//
// It uses modernc.org/sqlite, a pure-Go SQLite, so the collector builds without cgo.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// ErrClosed is returned by every method called after Close, so a request racing shutdown fails cleanly instead of
// touching a closed database.
var ErrClosed = errors.New("sqlite store: closed")

// Store is a collector.Store in a SQLite file. Open one with Open; it is safe for concurrent use, and several
// Stores (in one process or several) may share a file: SQLite's write lock and the schema's constraints decide
// every race.
type Store struct {
	wdb      *sql.DB   // one connection, used only by the writer goroutine (and by Open before it starts)
	rdb      *sql.DB   // read-only connections
	load     *sql.Stmt // LoadQuery's, on rdb
	ws       writeStmts
	maxBatch int

	mu      sync.RWMutex // guards closed and the closing of reqs
	closed  bool
	reqs    chan *request
	stopped chan struct{} // closed when the writer has answered everything and exited

	closeOnce sync.Once
	closeErr  error

	commits, writes atomic.Uint64
}

var _ collector.Store = (*Store)(nil)

// Option adjusts Open.
type Option func(*config)

type config struct {
	busyTimeout time.Duration
	maxBatch    int
	readConns   int
}

// WithBusyTimeout sets how long a connection waits for another process's lock before failing with SQLITE_BUSY
// (default 5s). It matters only when several processes share the file.
func WithBusyTimeout(d time.Duration) Option { return func(c *config) { c.busyTimeout = d } }

// WithMaxBatch caps how many pending writes one transaction commits (default 256): more amortises the fsync
// further but makes every caller in the batch wait for the whole batch.
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = max(1, n) } }

// WithReadConns sets the size of the read-only connection pool (default 2×GOMAXPROCS, at least 4).
func WithReadConns(n int) Option { return func(c *config) { c.readConns = max(1, n) } }

// Open opens the SQLite database at path, creating the file (mode 0600: it holds the collector's secrets) and any
// missing parent directories (0700), and brings its schema up to date. Cancelling ctx aborts opening only.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := config{busyTimeout: 5 * time.Second, maxBatch: 256, readConns: max(4, 2*runtime.GOMAXPROCS(0))}
	for _, o := range opts {
		o(&cfg)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	f.Close()

	busy := strconv.FormatInt(cfg.busyTimeout.Milliseconds(), 10)
	// The pragmas live in the DSN, so a connection database/sql reopens after an error gets them too.
	wdb, err := sql.Open("sqlite", dsn(abs, url.Values{
		"_busy_timeout": {busy},
		"_journal_mode": {"WAL"},
		"_synchronous":  {"FULL"},
		"_foreign_keys": {"1"},
		"_txlock":       {"immediate"}, // take the write lock at BEGIN, so reads in a write transaction are current
	}))
	if err != nil {
		return nil, err
	}
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxLifetime(0)
	wdb.SetConnMaxIdleTime(0)
	s := &Store{wdb: wdb, maxBatch: cfg.maxBatch}
	if err := s.init(ctx, abs, busy, cfg); err != nil {
		wdb.Close()
		if s.rdb != nil {
			s.rdb.Close()
		}
		return nil, fmt.Errorf("sqlite store %s: %w", abs, err)
	}
	s.reqs = make(chan *request, 4*cfg.maxBatch)
	s.stopped = make(chan struct{})
	go s.run()
	return s, nil
}

func (s *Store) init(ctx context.Context, abs, busy string, cfg config) error {
	// A pragma SQLite cannot honour is ignored silently (WAL on a file system without shared memory, say), and
	// the durability promise rests on these, so check them.
	for _, p := range []struct{ pragma, want string }{
		{"journal_mode", "wal"}, {"synchronous", "2"}, {"foreign_keys", "1"},
	} {
		var got string
		if err := s.wdb.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(&got); err != nil {
			return err
		}
		if !strings.EqualFold(got, p.want) {
			return fmt.Errorf("PRAGMA %s is %q, want %q", p.pragma, got, p.want)
		}
	}
	if err := migrate(ctx, s.wdb); err != nil {
		return err
	}
	rdb, err := sql.Open("sqlite", dsn(abs, url.Values{"_busy_timeout": {busy}, "_query_only": {"1"}}))
	if err != nil {
		return err
	}
	s.rdb = rdb
	rdb.SetMaxOpenConns(cfg.readConns)
	rdb.SetMaxIdleConns(cfg.readConns)
	if s.load, err = rdb.PrepareContext(ctx, loadSQL); err != nil {
		return err
	}
	return s.ws.prepare(ctx, s.wdb)
}

// dsn makes a file: URI, so any path (with '?' or '#' in it, say) reaches SQLite intact.
func dsn(path string, params url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: params.Encode()}
	return u.String()
}

// CreateQueries implements collector.Store.
func (s *Store) CreateQueries(ctx context.Context, qs ...collector.Query) error {
	if len(qs) == 0 {
		return ctx.Err()
	}
	rows := make([]queryRow, len(qs))
	for i, q := range qs {
		var err error
		if rows[i], err = newQueryRow(q); err != nil {
			return err
		}
	}
	_, err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (any, error) {
		for _, r := range rows {
			if err := r.insert(ctx, tx, s.ws.insertQuery); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	return err
}

// Accept implements collector.Store. It is group-committed: it returns once the transaction carrying it has been
// committed and fsynced.
func (s *Store) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	acceptedAt, err := nanos(a.AcceptedAt)
	if err != nil {
		return nil, err
	}
	var cont *queryRow
	if a.Continuation != nil {
		r, err := newQueryRow(*a.Continuation)
		if err != nil {
			return nil, err
		}
		cont = &r
		a.Continuation = &r.q
	}
	a.AcceptedAt = fromNanos(acceptedAt)
	v, err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (any, error) {
		if cont != nil {
			// The continuation first: the acceptance row references it. If the acceptance is refused below, the
			// savepoint rollback takes the continuation with it.
			if err := cont.insert(ctx, tx, s.ws.insertQuery); err != nil {
				if errors.Is(err, collector.ErrDuplicateQuery) {
					// A retried Accept carries a continuation that exists already; answered is the better news.
					if prev, lerr := loadAcceptance(ctx, tx, a.QueryID); lerr == nil && prev != nil {
						return prev, collector.ErrAlreadyAccepted
					}
				}
				return nil, err
			}
		}
		var contID any
		if cont != nil {
			contID = cont.q.QueryID
		}
		res, err := tx.StmtContext(ctx, s.ws.insertAcceptance).ExecContext(ctx,
			a.QueryID, a.ResponseID, a.Response, a.ContentHash, a.Receipt, acceptedAt, contID)
		if err != nil {
			if isConstraint(err, sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY) {
				return nil, collector.ErrNotFound
			}
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 0 { // the primary key already holds this query's acceptance
			prev, err := loadAcceptance(ctx, tx, a.QueryID)
			if err != nil {
				return nil, err
			}
			return prev, collector.ErrAlreadyAccepted
		}
		return &a, nil
	})
	acc, _ := v.(*collector.Acceptance)
	return acc, err
}

// Secret implements collector.Store. The value is looked up on a read connection first, so only the first use
// writes.
func (s *Store) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	var v []byte
	err := s.rdb.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	fresh, err := generate()
	if err != nil {
		return nil, err
	}
	stored, err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (any, error) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
			name, fresh); err != nil {
			return nil, err
		}
		var v []byte
		err := tx.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
		return v, err
	})
	if err != nil {
		return nil, err
	}
	return stored.([]byte), nil
}

// Ping implements collector.Store: it reads from the database on a read connection.
func (s *Store) Ping(ctx context.Context) error {
	if s.isClosed() {
		return ErrClosed
	}
	var one int
	return s.rdb.QueryRowContext(ctx, `SELECT 1 FROM schema_migrations LIMIT 1`).Scan(&one)
}

// Close implements collector.Store: writes already queued are committed and answered first, later ones get
// ErrClosed. Closing twice is harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		close(s.reqs)
		s.mu.Unlock()
		<-s.stopped
		s.closeErr = errors.Join(s.ws.close(), s.load.Close(), s.rdb.Close(), s.wdb.Close())
	})
	return s.closeErr
}

func (s *Store) isClosed() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.closed
}

// Stats counts the writer's work since Open. Writes/Commits is the group-commit factor, how many calls shared
// each fsync on average: worth exporting as a metric when tuning a collector's throughput.
type Stats struct {
	Commits uint64 // transactions committed
	Writes  uint64 // CreateQueries, Accept and Secret calls those transactions carried
}

// Stats reports the writer's counts so far.
func (s *Store) Stats() Stats {
	return Stats{Commits: s.commits.Load(), Writes: s.writes.Load()}
}

func isConstraint(err error, code int) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code() == code
}

// nanos is t as unix nanoseconds, or an error when t is outside the years 1678–2262 that an int64 can hold, which
// would otherwise come back as another instant.
func nanos(t time.Time) (int64, error) {
	n := t.UnixNano()
	if !time.Unix(0, n).Equal(t) {
		return 0, fmt.Errorf("sqlite store: time %s cannot be stored", t)
	}
	return n, nil
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }
