// Package memory is an in-memory collector.Store for unit tests of the collector and its handlers.
//
// It keeps everything in maps behind one mutex, so it is fast and needs no setup, but it is neither durable nor
// shared between processes: never use it to run a collector. It honours the same contract as the SQLite and
// PostgreSQL stores (the shared suite in store/storetest proves it), so a test that passes against it exercises
// the behaviour the durable stores will show.
package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// ErrClosed is returned by every method called after Close, so a test notices a collector that keeps using its
// store after shutting it down.
var ErrClosed = errors.New("memory store: closed")

// Store is an in-memory collector.Store. Create one with New; the zero value is not usable.
type Store struct {
	d      *data
	mu     sync.Mutex // guards closed
	closed bool
}

// data is the state several Store handles may share (see Reopen).
type data struct {
	mu          sync.Mutex
	queries     map[string]collector.Query
	acceptances map[string]collector.Acceptance // by QueryID; Continuation holds only the continuation's QueryID
	secrets     map[string][]byte
}

var _ collector.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{d: &data{
		queries:     map[string]collector.Query{},
		acceptances: map[string]collector.Acceptance{},
		secrets:     map[string][]byte{},
	}}
}

// Reopen returns a new, open handle on the same data, as reopening a file or database would: it lets a test
// simulate a collector restart (Close the old handle, Reopen) or two collector processes sharing one store.
func (s *Store) Reopen() *Store { return &Store{d: s.d} }

func (s *Store) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return nil
}

// CreateQueries implements collector.Store.
func (s *Store) CreateQueries(ctx context.Context, qs ...collector.Query) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	seen := make(map[string]bool, len(qs))
	for _, q := range qs {
		if _, ok := d.queries[q.QueryID]; ok || seen[q.QueryID] {
			return fmt.Errorf("%w: %s", collector.ErrDuplicateQuery, q.QueryID)
		}
		seen[q.QueryID] = true
	}
	for _, q := range qs {
		d.queries[q.QueryID] = normQuery(q)
	}
	return nil
}

// LoadQuery implements collector.Store.
func (s *Store) LoadQuery(ctx context.Context, queryID string) (collector.Query, *collector.Acceptance, error) {
	if err := s.check(ctx); err != nil {
		return collector.Query{}, nil, err
	}
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	q, ok := d.queries[queryID]
	if !ok {
		return collector.Query{}, nil, collector.ErrNotFound
	}
	return cloneQuery(q), d.acceptance(queryID, true), nil
}

// acceptance returns a copy of the query's acceptance, or nil; d.mu must be held.
func (d *data) acceptance(queryID string, withContinuation bool) *collector.Acceptance {
	a, ok := d.acceptances[queryID]
	if !ok {
		return nil
	}
	c := a
	c.Response, c.ContentHash, c.Receipt = bytes.Clone(a.Response), bytes.Clone(a.ContentHash), bytes.Clone(a.Receipt)
	c.Continuation = nil
	if withContinuation && a.Continuation != nil {
		q := cloneQuery(d.queries[a.Continuation.QueryID])
		c.Continuation = &q
	}
	return &c
}

// Accept implements collector.Store.
func (s *Store) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.acceptances[a.QueryID]; ok {
		return d.acceptance(a.QueryID, true), collector.ErrAlreadyAccepted
	}
	if _, ok := d.queries[a.QueryID]; !ok {
		return nil, collector.ErrNotFound
	}
	if c := a.Continuation; c != nil {
		if _, ok := d.queries[c.QueryID]; ok || c.QueryID == a.QueryID {
			return nil, fmt.Errorf("%w: continuation %s", collector.ErrDuplicateQuery, c.QueryID)
		}
		d.queries[c.QueryID] = normQuery(*c)
	}
	a.AcceptedAt = a.AcceptedAt.UTC()
	stored := a
	if a.Continuation != nil {
		stored.Continuation = &collector.Query{QueryID: a.Continuation.QueryID}
	}
	d.acceptances[a.QueryID] = stored
	return d.acceptance(a.QueryID, true), nil
}

// ListQueries implements collector.Store.
func (s *Store) ListQueries(ctx context.Context, f collector.ListFilter) ([]collector.QueryWithAcceptance, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if f.Limit < 1 || f.Limit > collector.MaxListLimit {
		return nil, fmt.Errorf("memory store: list limit %d outside 1–%d", f.Limit, collector.MaxListLimit)
	}
	switch f.State {
	case "", collector.StateOpen, collector.StateAnswered, collector.StateExpired:
	default:
		return nil, fmt.Errorf("memory store: unknown state %q", f.State)
	}
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	ids := make([]string, 0, len(d.queries))
	for id := range d.queries {
		if f.After == "" || id < f.After {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return strings.Compare(b, a) })
	var out []collector.QueryWithAcceptance
	for _, id := range ids {
		q, a := d.queries[id], d.acceptance(id, false)
		if f.State != "" && collector.StateOf(q, a, f.Now) != f.State {
			continue
		}
		out = append(out, collector.QueryWithAcceptance{Query: cloneQuery(q), Acceptance: a})
		if len(out) == f.Limit {
			break
		}
	}
	return out, nil
}

// Secret implements collector.Store.
func (s *Store) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.secrets[name]; ok {
		return bytes.Clone(v), nil
	}
	v, err := generate()
	if err != nil {
		return nil, err
	}
	d.secrets[name] = bytes.Clone(v)
	return v, nil
}

// Ping implements collector.Store: it fails only after Close.
func (s *Store) Ping(ctx context.Context) error { return s.check(ctx) }

// Close implements collector.Store. It marks this handle closed; the data stays reachable through handles made by
// Reopen. Closing twice is harmless.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

func normQuery(q collector.Query) collector.Query {
	q.CreatedAt, q.ExpiresAt = q.CreatedAt.UTC(), q.ExpiresAt.UTC()
	return q
}

func cloneQuery(q collector.Query) collector.Query {
	q.Request, q.CapabilityHash = bytes.Clone(q.Request), bytes.Clone(q.CapabilityHash)
	return q
}
