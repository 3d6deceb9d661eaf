package harness

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// ErrStoreDown is what a FailingStore returns once told to fail.
var ErrStoreDown = errors.New("harness: store is down")

// FailingStore wraps a Store and, once Fail(true) is called, fails every call — how scenarios reach the
// `unavailable` receipt. Slow makes every Accept take longer, as a durable commit over a network does: how race
// scenarios keep an acceptance in flight while its copies arrive.
type FailingStore struct {
	collector.Store
	failing atomic.Bool
	commit  atomic.Int64 // nanoseconds every Accept waits before committing
}

// Fail turns failing on or off.
func (s *FailingStore) Fail(on bool) { s.failing.Store(on) }

// Slow makes every later Accept wait d before it commits (0: no wait).
func (s *FailingStore) Slow(d time.Duration) { s.commit.Store(int64(d)) }

func (s *FailingStore) err() error {
	if s.failing.Load() {
		return ErrStoreDown
	}
	return nil
}

// CreateQueries implements collector.Store.
func (s *FailingStore) CreateQueries(ctx context.Context, qs ...collector.Query) error {
	if err := s.err(); err != nil {
		return err
	}
	return s.Store.CreateQueries(ctx, qs...)
}

// LoadQuery implements collector.Store.
func (s *FailingStore) LoadQuery(ctx context.Context, id string) (collector.Query, *collector.Acceptance, error) {
	if err := s.err(); err != nil {
		return collector.Query{}, nil, err
	}
	return s.Store.LoadQuery(ctx, id)
}

// Accept implements collector.Store.
func (s *FailingStore) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	if err := s.err(); err != nil {
		return nil, err
	}
	if d := time.Duration(s.commit.Load()); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.Store.Accept(ctx, a)
}

// ListQueries implements collector.Store.
func (s *FailingStore) ListQueries(ctx context.Context, f collector.ListFilter) ([]collector.QueryWithAcceptance, error) {
	if err := s.err(); err != nil {
		return nil, err
	}
	return s.Store.ListQueries(ctx, f)
}

// Secret implements collector.Store.
func (s *FailingStore) Secret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error) {
	if err := s.err(); err != nil {
		return nil, err
	}
	return s.Store.Secret(ctx, name, gen)
}

// Ping implements collector.Store.
func (s *FailingStore) Ping(ctx context.Context) error {
	if err := s.err(); err != nil {
		return err
	}
	return s.Store.Ping(ctx)
}
