// Package postgres is a collector.Store in PostgreSQL, for collectors that run as several processes or need the
// database's own replication and backups.
//
// Every race is decided by the database: an acceptance's primary key makes a query's first committed answer the
// only one, whichever process sent it, and a committed transaction is what Accept waits for. It uses
// github.com/jackc/pgx/v5 with a connection pool (pool settings such as pool_max_conns go in the connection
// string).
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// ErrClosed is returned by every method called after Close, so a request racing shutdown fails with a clear error.
var ErrClosed = errors.New("postgres store: closed")

// Store is a collector.Store in a PostgreSQL database. Open one with Open; it is safe for concurrent use, and any
// number of Stores, in any number of processes, may share the database.
type Store struct {
	pool      *pgxpool.Pool
	closed    atomic.Bool
	closeOnce sync.Once
}

var _ collector.Store = (*Store)(nil)

// Open connects to the database connString names (a postgres:// URL or key=value string, as pgx accepts) and
// brings its schema up to date; several processes may Open the same new database at once.
func Open(ctx context.Context, connString string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %w", err)
	}
	if !strings.Contains(connString, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres store: %w", err)
	}
	return &Store{pool: pool}, nil
}

// DefaultMaxConns is the pool's size unless the connection string sets pool_max_conns. pgx's own default (four,
// or the number of CPUs) caps the acceptances committing at once at that number, and with them how many commits
// PostgreSQL can flush with one WAL write: an acceptance spends most of its time waiting for its commit's fsync,
// not using its connection's CPU. Sixteen is pgbench's reference client count on a small server; a deployment
// running many collector processes against one server sets pool_max_conns so their sum stays under
// max_connections.
const DefaultMaxConns = 16

// PostgreSQL error codes the store turns into collector errors.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

func pgCode(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// CreateQueries implements collector.Store with one INSERT of all the queries, so it is atomic without a
// transaction of its own and costs one round trip however many queries there are.
func (s *Store) CreateQueries(ctx context.Context, qs ...collector.Query) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if len(qs) == 0 {
		return ctx.Err()
	}
	ids := make([]string, len(qs))
	requests, hashes := make([][]byte, len(qs)), make([][]byte, len(qs))
	created, expires := make([]int64, len(qs)), make([]int64, len(qs))
	for i, q := range qs {
		var err error
		if created[i], err = nanos(q.CreatedAt); err != nil {
			return err
		}
		if expires[i], err = nanos(q.ExpiresAt); err != nil {
			return err
		}
		ids[i], requests[i], hashes[i] = q.QueryID, q.Request, q.CapabilityHash
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO queries (query_id, request, capability_hash, created_at, expires_at)
		SELECT * FROM unnest($1::text[], $2::bytea[], $3::bytea[], $4::bigint[], $5::bigint[])`,
		ids, requests, hashes, created, expires)
	if pgCode(err) == uniqueViolation {
		return fmt.Errorf("%w: %v", collector.ErrDuplicateQuery, err)
	}
	return err
}

const (
	queryCols      = `q.query_id, q.request, q.capability_hash, q.created_at, q.expires_at`
	acceptanceCols = `a.query_id, a.response_id, a.response, a.content_hash, a.receipt, a.accepted_at`
	contCols       = `c.query_id, c.request, c.capability_hash, c.created_at, c.expires_at`
)

// acceptSQL is Accept's one statement, and so one transaction. The acceptance is inserted with ON CONFLICT DO
// NOTHING: of racing statements, the first to insert wins, and the others wait on its row until it commits, then
// insert nothing. The continuation is inserted from the acceptance's RETURNING rows, so it exists exactly when the
// acceptance was inserted: a loser's continuation is never created, and a retried Accept whose continuation exists
// already is told the query is answered, not that its continuation is a duplicate. (The continuation's foreign key
// is deferred to commit, when both rows exist.) One statement is one round trip, where BEGIN, two INSERTs and
// COMMIT would be four; it more than doubles accepted responses per second.
const acceptSQL = `WITH acc AS (
		INSERT INTO acceptances
			(query_id, response_id, response, content_hash, receipt, accepted_at, continuation_query_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (query_id) DO NOTHING
		RETURNING 1
	), cont AS (
		INSERT INTO queries (query_id, request, capability_hash, created_at, expires_at)
		SELECT $7, $8::bytea, $9::bytea, $10::bigint, $11::bigint FROM acc WHERE $7::text IS NOT NULL
	)
	SELECT count(*) FROM acc`

// Accept implements collector.Store (see acceptSQL). When the query is answered already, it reads the stored
// acceptance in a second statement, which sees the winner: ON CONFLICT waited for its commit.
func (s *Store) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	acceptedAt, err := nanos(a.AcceptedAt)
	if err != nil {
		return nil, err
	}
	a.AcceptedAt = fromNanos(acceptedAt)
	var (
		contID                   *string
		contRequest, contHash    []byte
		contCreated, contExpires int64
	)
	if c := a.Continuation; c != nil {
		if contCreated, err = nanos(c.CreatedAt); err != nil {
			return nil, err
		}
		if contExpires, err = nanos(c.ExpiresAt); err != nil {
			return nil, err
		}
		cc := *c
		cc.CreatedAt, cc.ExpiresAt = fromNanos(contCreated), fromNanos(contExpires)
		a.Continuation = &cc
		contID, contRequest, contHash = &cc.QueryID, cc.Request, cc.CapabilityHash
	}

	var inserted int
	err = s.pool.QueryRow(ctx, acceptSQL,
		a.QueryID, a.ResponseID, a.Response, a.ContentHash, a.Receipt, acceptedAt, contID,
		contRequest, contHash, contCreated, contExpires).Scan(&inserted)
	switch {
	case pgCode(err) == foreignKeyViolation:
		return nil, collector.ErrNotFound
	case pgCode(err) == uniqueViolation: // only the continuation can be a duplicate
		return nil, fmt.Errorf("%w: continuation %s", collector.ErrDuplicateQuery, *contID)
	case err != nil:
		return nil, err
	case inserted == 1:
		return &a, nil
	}
	prev, err := scanAcceptance(s.pool.QueryRow(ctx, `SELECT `+acceptanceCols+`, `+contCols+`
		FROM acceptances a LEFT JOIN queries c ON c.query_id = a.continuation_query_id
		WHERE a.query_id = $1`, a.QueryID))
	if err != nil {
		return nil, err
	}
	return prev, collector.ErrAlreadyAccepted
}

func scanAcceptance(row pgx.Row) (*collector.Acceptance, error) {
	var a nullAcceptance
	var c nullQuery
	if err := row.Scan(append(a.dest(), c.dest()...)...); err != nil {
		return nil, err
	}
	return a.get(c.get()), nil
}

// LoadQuery implements collector.Store with one statement.
func (s *Store) LoadQuery(ctx context.Context, queryID string) (collector.Query, *collector.Acceptance, error) {
	if s.closed.Load() {
		return collector.Query{}, nil, ErrClosed
	}
	var q, c nullQuery
	var a nullAcceptance
	err := s.pool.QueryRow(ctx, `SELECT `+queryCols+`, `+acceptanceCols+`, `+contCols+`
		FROM queries q
		LEFT JOIN acceptances a ON a.query_id = q.query_id
		LEFT JOIN queries c ON c.query_id = a.continuation_query_id
		WHERE q.query_id = $1`, queryID).Scan(append(append(q.dest(), a.dest()...), c.dest()...)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return collector.Query{}, nil, collector.ErrNotFound
	}
	if err != nil {
		return collector.Query{}, nil, err
	}
	return *q.get(), a.get(c.get()), nil
}

// ListQueries implements collector.Store. It walks the queries primary key backwards from f.After, so a page
// costs its own rows (plus those the state filter skips), however deep it is.
func (s *Store) ListQueries(ctx context.Context, f collector.ListFilter) ([]collector.QueryWithAcceptance, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if f.Limit < 1 || f.Limit > collector.MaxListLimit {
		return nil, fmt.Errorf("postgres store: list limit %d outside 1–%d", f.Limit, collector.MaxListLimit)
	}
	var where []string
	var args []any
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	if f.After != "" {
		where = append(where, "q.query_id < "+arg(f.After))
	}
	if f.State != "" {
		now, err := nanos(f.Now)
		if err != nil {
			return nil, err
		}
		switch f.State {
		case collector.StateAnswered:
			where = append(where, "a.query_id IS NOT NULL")
		case collector.StateOpen:
			where = append(where, "a.query_id IS NULL AND q.expires_at >= "+arg(now))
		case collector.StateExpired:
			where = append(where, "a.query_id IS NULL AND q.expires_at < "+arg(now))
		default:
			return nil, fmt.Errorf("postgres store: unknown state %q", f.State)
		}
	}
	sql := `SELECT ` + queryCols + `, ` + acceptanceCols + `
		FROM queries q LEFT JOIN acceptances a ON a.query_id = q.query_id`
	if len(where) > 0 {
		sql += ` WHERE ` + strings.Join(where, " AND ")
	}
	sql += ` ORDER BY q.query_id DESC LIMIT ` + arg(f.Limit)
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]collector.QueryWithAcceptance, 0, f.Limit)
	for rows.Next() {
		var q nullQuery
		var a nullAcceptance
		if err := rows.Scan(append(q.dest(), a.dest()...)...); err != nil {
			return nil, err
		}
		out = append(out, collector.QueryWithAcceptance{Query: *q.get(), Acceptance: a.get(nil)})
	}
	return out, rows.Err()
}

// Secret implements collector.Store: read, and only if absent generate, insert unless another process just did,
// and read again, so every racer returns the one stored value.
func (s *Store) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	const read = `SELECT value FROM secrets WHERE name = $1`
	var v []byte
	err := s.pool.QueryRow(ctx, read, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, err
	}
	fresh, err := generate()
	if err != nil {
		return nil, err
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
		name, fresh); err != nil {
		return nil, err
	}
	if err := s.pool.QueryRow(ctx, read, name).Scan(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Ping implements collector.Store: it reads the schema version, so it fails on a database that is reachable but
// not this store's.
func (s *Store) Ping(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	var v int
	return s.pool.QueryRow(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v)
}

// Close implements collector.Store: it waits for calls in progress to give their connections back, then closes
// the pool; calls made after Close get ErrClosed. Closing twice is harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.pool.Close()
	})
	return nil
}

// nullQuery scans a query from columns that a LEFT JOIN may have left NULL.
type nullQuery struct {
	id               *string
	request, hash    []byte
	created, expires *int64
}

func (n *nullQuery) dest() []any {
	return []any{&n.id, &n.request, &n.hash, &n.created, &n.expires}
}

func (n *nullQuery) get() *collector.Query {
	if n.id == nil {
		return nil
	}
	return &collector.Query{
		QueryID: *n.id, Request: n.request, CapabilityHash: n.hash,
		CreatedAt: fromNanos(*n.created), ExpiresAt: fromNanos(*n.expires),
	}
}

// nullAcceptance scans an acceptance from columns that a LEFT JOIN may have left NULL.
type nullAcceptance struct {
	queryID, responseID            *string
	response, contentHash, receipt []byte
	acceptedAt                     *int64
}

func (n *nullAcceptance) dest() []any {
	return []any{&n.queryID, &n.responseID, &n.response, &n.contentHash, &n.receipt, &n.acceptedAt}
}

func (n *nullAcceptance) get(cont *collector.Query) *collector.Acceptance {
	if n.queryID == nil {
		return nil
	}
	return &collector.Acceptance{
		QueryID: *n.queryID, ResponseID: *n.responseID,
		Response: n.response, ContentHash: n.contentHash, Receipt: n.receipt,
		AcceptedAt: fromNanos(*n.acceptedAt), Continuation: cont,
	}
}

// nanos is t as unix nanoseconds, or an error when t is outside the years 1678–2262 that an int64 can hold, which
// would otherwise come back as another instant.
func nanos(t time.Time) (int64, error) {
	n := t.UnixNano()
	if !time.Unix(0, n).Equal(t) {
		return 0, fmt.Errorf("postgres store: time %s cannot be stored", t)
	}
	return n, nil
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }
