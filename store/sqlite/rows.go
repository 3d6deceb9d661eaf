package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// queryRow is a query ready to insert: times converted (and checked) in the caller's goroutine, so the writer
// does no more than it must.
type queryRow struct {
	q                collector.Query
	created, expires int64
}

func newQueryRow(q collector.Query) (queryRow, error) {
	c, err := nanos(q.CreatedAt)
	if err != nil {
		return queryRow{}, err
	}
	e, err := nanos(q.ExpiresAt)
	if err != nil {
		return queryRow{}, err
	}
	q.CreatedAt, q.ExpiresAt = fromNanos(c), fromNanos(e)
	return queryRow{q: q, created: c, expires: e}, nil
}

// insert runs stmt (writeStmts.insertQuery) in tx.
func (r *queryRow) insert(ctx context.Context, tx *sql.Tx, stmt *sql.Stmt) error {
	_, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, r.q.QueryID, r.q.Request, r.q.CapabilityHash, r.created, r.expires)
	if isConstraint(err, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY) {
		return fmt.Errorf("%w: %s", collector.ErrDuplicateQuery, r.q.QueryID)
	}
	return err
}

const (
	queryCols      = `q.query_id, q.request, q.capability_hash, q.created_at, q.expires_at`
	acceptanceCols = `a.query_id, a.response_id, a.response, a.content_hash, a.receipt, a.accepted_at`
	contCols       = `c.query_id, c.request, c.capability_hash, c.created_at, c.expires_at`

	// loadSQL is LoadQuery's single read: the query, its acceptance and the acceptance's continuation.
	loadSQL = `SELECT ` + queryCols + `, ` + acceptanceCols + `, ` + contCols + `
		FROM queries q
		LEFT JOIN acceptances a ON a.query_id = q.query_id
		LEFT JOIN queries c ON c.query_id = a.continuation_query_id
		WHERE q.query_id = ?`
)

// nullQuery scans a query from columns that a LEFT JOIN may have left NULL.
type nullQuery struct {
	id               sql.NullString
	request, hash    []byte
	created, expires sql.NullInt64
}

func (n *nullQuery) dest() []any {
	return []any{&n.id, &n.request, &n.hash, &n.created, &n.expires}
}

func (n *nullQuery) get() *collector.Query {
	if !n.id.Valid {
		return nil
	}
	return &collector.Query{
		QueryID: n.id.String, Request: n.request, CapabilityHash: n.hash,
		CreatedAt: fromNanos(n.created.Int64), ExpiresAt: fromNanos(n.expires.Int64),
	}
}

// nullAcceptance scans an acceptance from columns that a LEFT JOIN may have left NULL.
type nullAcceptance struct {
	queryID, responseID            sql.NullString
	response, contentHash, receipt []byte
	acceptedAt                     sql.NullInt64
}

func (n *nullAcceptance) dest() []any {
	return []any{&n.queryID, &n.responseID, &n.response, &n.contentHash, &n.receipt, &n.acceptedAt}
}

func (n *nullAcceptance) get(cont *collector.Query) *collector.Acceptance {
	if !n.queryID.Valid {
		return nil
	}
	return &collector.Acceptance{
		QueryID: n.queryID.String, ResponseID: n.responseID.String,
		Response: n.response, ContentHash: n.contentHash, Receipt: n.receipt,
		AcceptedAt: fromNanos(n.acceptedAt.Int64), Continuation: cont,
	}
}

// loadAcceptance reads a query's acceptance, continuation included, inside the writer's transaction: it is what
// Accept returns with ErrAlreadyAccepted.
func loadAcceptance(ctx context.Context, tx *sql.Tx, queryID string) (*collector.Acceptance, error) {
	var a nullAcceptance
	var c nullQuery
	err := tx.QueryRowContext(ctx, `SELECT `+acceptanceCols+`, `+contCols+`
		FROM acceptances a LEFT JOIN queries c ON c.query_id = a.continuation_query_id
		WHERE a.query_id = ?`, queryID).Scan(append(a.dest(), c.dest()...)...)
	if err != nil {
		return nil, err
	}
	return a.get(c.get()), nil
}

// LoadQuery implements collector.Store with one statement on a read connection.
func (s *Store) LoadQuery(ctx context.Context, queryID string) (collector.Query, *collector.Acceptance, error) {
	if s.isClosed() {
		return collector.Query{}, nil, ErrClosed
	}
	var q, c nullQuery
	var a nullAcceptance
	err := s.load.QueryRowContext(ctx, queryID).Scan(append(append(q.dest(), a.dest()...), c.dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return collector.Query{}, nil, collector.ErrNotFound
	}
	if err != nil {
		return collector.Query{}, nil, err
	}
	return *q.get(), a.get(c.get()), nil
}

// ListQueries implements collector.Store. It walks the queries table's primary key backwards from f.After, so a
// page costs its own rows (plus those the state filter skips), however deep it is.
func (s *Store) ListQueries(ctx context.Context, f collector.ListFilter) ([]collector.QueryWithAcceptance, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	if f.Limit < 1 || f.Limit > collector.MaxListLimit {
		return nil, fmt.Errorf("sqlite store: list limit %d outside 1–%d", f.Limit, collector.MaxListLimit)
	}
	var where []string
	var args []any
	if f.After != "" {
		where, args = append(where, "q.query_id < ?"), append(args, f.After)
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
			where, args = append(where, "a.query_id IS NULL AND q.expires_at >= ?"), append(args, now)
		case collector.StateExpired:
			where, args = append(where, "a.query_id IS NULL AND q.expires_at < ?"), append(args, now)
		default:
			return nil, fmt.Errorf("sqlite store: unknown state %q", f.State)
		}
	}
	query := `SELECT ` + queryCols + `, ` + acceptanceCols + `
		FROM queries q LEFT JOIN acceptances a ON a.query_id = q.query_id`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	query += ` ORDER BY q.query_id DESC LIMIT ?`
	rows, err := s.rdb.QueryContext(ctx, query, append(args, f.Limit)...)
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
