package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
)

// Group commit. With synchronous=FULL every COMMIT waits for an fsync, so committing each Accept on its own caps
// accepted responses per second at the disk's fsync rate. Instead one writer goroutine owns the only write
// connection; callers queue their writes, and the writer takes whatever is queued (up to maxBatch, never waiting
// for more), applies each inside its own SAVEPOINT of one transaction, commits once, and only then answers every
// caller. A write that fails (say, the query is answered already) rolls back its savepoint alone and only its
// caller hears of it.

// Request states: a request is claimed by the writer just before it is applied, or cancelled by its caller while it
// is still queued, never both, so a caller whose context ends in time gets ctx.Err() and its write is never applied.
const (
	pending int32 = iota
	claimed
	cancelled
)

// writeFunc applies one caller's write inside the writer's transaction. Its error is that caller's alone: the
// writer rolls back to the savepoint taken before calling it. A result may accompany an error
// (collector.ErrAlreadyAccepted comes with the stored acceptance).
type writeFunc func(ctx context.Context, tx *sql.Tx) (any, error)

type request struct {
	ctx   context.Context
	state atomic.Int32
	apply writeFunc
	done  chan result // buffered: the writer never blocks on a caller that has gone
}

type result struct {
	val any
	err error
}

// write queues apply for the writer and waits until its transaction has committed (or failed).
func (s *Store) write(ctx context.Context, apply writeFunc) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := &request{ctx: ctx, apply: apply, done: make(chan result, 1)}
	// The read lock keeps Close from closing s.reqs while a send is in flight.
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil, ErrClosed
	}
	select {
	case s.reqs <- r:
		s.mu.RUnlock()
	case <-ctx.Done():
		s.mu.RUnlock()
		return nil, ctx.Err()
	}
	select {
	case res := <-r.done:
		return res.val, res.err
	case <-ctx.Done():
		if r.state.CompareAndSwap(pending, cancelled) {
			return nil, ctx.Err() // the writer will skip it
		}
		res := <-r.done // applied already: its outcome is what happened, so wait for the commit
		return res.val, res.err
	}
}

// run is the writer goroutine. It exits when Close has closed s.reqs and every queued request is answered.
func (s *Store) run() {
	defer close(s.stopped)
	batch := make([]*request, 0, s.maxBatch)
	for r := range s.reqs {
		batch = append(batch[:0], r)
	collect:
		for len(batch) < s.maxBatch {
			select {
			case r, ok := <-s.reqs:
				if !ok {
					break collect
				}
				batch = append(batch, r)
			default:
				break collect
			}
		}
		s.commit(batch)
		clear(batch) // drop references so finished requests can be collected
	}
}

// commit applies batch in one transaction and answers each request.
func (s *Store) commit(batch []*request) {
	// Not a caller's context: once a request is claimed, its outcome must not depend on its caller giving up.
	ctx := context.Background()
	tx, err := s.wdb.BeginTx(ctx, nil) // BEGIN IMMEDIATE: waits up to busy_timeout for other processes' writers
	if err != nil {
		failPending(batch, err)
		return
	}
	type applied struct {
		r   *request
		res result
	}
	done := make([]applied, 0, len(batch))
	fatal := func(i int, err error) {
		_ = tx.Rollback()
		for _, d := range done {
			d.r.done <- result{err: err}
		}
		batch[i].done <- result{err: err}
		failPending(batch[i+1:], err)
	}
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil && r.state.CompareAndSwap(pending, cancelled) {
			r.done <- result{err: err} // its caller is giving up and has not noticed yet
			continue
		}
		if !r.state.CompareAndSwap(pending, claimed) {
			continue // its caller gave up while it was queued
		}
		if _, err := tx.StmtContext(ctx, s.ws.savepoint).ExecContext(ctx); err != nil {
			fatal(i, err)
			return
		}
		val, err := r.apply(ctx, tx)
		if err != nil {
			// Some errors (disk full, I/O) end the whole transaction; then ROLLBACK TO fails and so does the batch.
			if _, rbErr := tx.StmtContext(ctx, s.ws.rollbackTo).ExecContext(ctx); rbErr != nil {
				fatal(i, rbErr)
				return
			}
		}
		if _, err := tx.StmtContext(ctx, s.ws.release).ExecContext(ctx); err != nil {
			fatal(i, err)
			return
		}
		done = append(done, applied{r, result{val, err}})
	}
	if len(done) == 0 {
		_ = tx.Rollback()
		return
	}
	if err := tx.Commit(); err != nil {
		_ = tx.Rollback()
		for _, d := range done {
			d.r.done <- result{err: err}
		}
		return
	}
	s.commits.Add(1)
	s.writes.Add(uint64(len(done)))
	for _, d := range done {
		d.r.done <- d.res
	}
}

// writeStmts are the writer's statements, prepared once on its connection: parsing SQL anew for every write
// cost a fifth of the writer's time, and the writer is the one thread every write goes through.
type writeStmts struct {
	savepoint, rollbackTo, release *sql.Stmt
	insertQuery, insertAcceptance  *sql.Stmt
}

func (w *writeStmts) prepare(ctx context.Context, db *sql.DB) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&w.savepoint, `SAVEPOINT w`},
		{&w.rollbackTo, `ROLLBACK TO w`},
		{&w.release, `RELEASE w`},
		{&w.insertQuery, `INSERT INTO queries (query_id, request, capability_hash, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`},
		{&w.insertAcceptance, `INSERT INTO acceptances
			(query_id, response_id, response, content_hash, receipt, accepted_at, continuation_query_id)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (query_id) DO NOTHING`},
	} {
		var err error
		if *p.stmt, err = db.PrepareContext(ctx, p.sql); err != nil {
			return err
		}
	}
	return nil
}

func (w *writeStmts) close() error {
	var errs []error
	for _, st := range []*sql.Stmt{w.savepoint, w.rollbackTo, w.release, w.insertQuery, w.insertAcceptance} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// failPending answers with err every request in rs that its caller has not given up on.
func failPending(rs []*request, err error) {
	for _, r := range rs {
		if r.state.CompareAndSwap(pending, claimed) {
			r.done <- result{err: err}
		}
	}
}
