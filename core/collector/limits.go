package collector

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is a token bucket: PerSecond sustained, Burst at once. The collector keeps two kinds, both per
// process: one per query, spent only by submissions that carry the query's capability (so that nobody without it
// can spend the genuine respondent's budget), and one per client, spent by submissions that fail before a
// capability is proven (so that floods of wrong capabilities, unknown queries and malformed bodies are refused
// cheaply, before they cost a validation).
type RateLimit struct {
	// PerSecond is the sustained rate.
	PerSecond float64
	// Burst is how many are allowed at once.
	Burst int
	// Disabled turns the limit off.
	Disabled bool
}

// DefaultRateLimit allows 10 submissions per second per query, 20 at once.
var DefaultRateLimit = RateLimit{PerSecond: 10, Burst: 20}

// DefaultFailureLimit allows a client 5 failed submissions per second, 50 at once, before its submissions are
// refused with rate_limited without being validated.
var DefaultFailureLimit = RateLimit{PerSecond: 5, Burst: 50}

// maxLimiters bounds the buckets a limiter keeps; past it the oldest generation is dropped.
const maxLimiters = 100_000

// limiter keeps one token bucket per key (a queryId or a client address), in two generations so that memory
// stays bounded however many keys pass through.
type limiter struct {
	cfg      RateLimit
	mu       sync.Mutex
	cur, old map[string]*rate.Limiter
}

// newLimiter makes a limiter; the zero RateLimit means def.
func newLimiter(cfg, def RateLimit) *limiter {
	if cfg.PerSecond == 0 && cfg.Burst == 0 && !cfg.Disabled {
		cfg = def
	}
	return &limiter{cfg: cfg, cur: map[string]*rate.Limiter{}, old: map[string]*rate.Limiter{}}
}

func (l *limiter) bucket(key string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.cur[key]
	if !ok {
		if lim, ok = l.old[key]; !ok {
			lim = rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst)
		}
		if len(l.cur) >= maxLimiters/2 {
			l.old, l.cur = l.cur, map[string]*rate.Limiter{}
		}
		l.cur[key] = lim
	}
	return lim
}

// allow spends a token for key, reporting whether there was one.
func (l *limiter) allow(key string, now time.Time) bool {
	if l.cfg.Disabled || key == "" {
		return true
	}
	return l.bucket(key).AllowN(now, 1)
}

// take spends a token for key like allow and, when it did, returns a function that gives the token back (to a
// submission whose store call failed, which should not have spent it).
func (l *limiter) take(key string, now time.Time) (ok bool, giveBack func()) {
	if l.cfg.Disabled || key == "" {
		return true, func() {}
	}
	r := l.bucket(key).ReserveN(now, 1)
	if !r.OK() || r.DelayFrom(now) > 0 {
		r.CancelAt(now)
		return false, nil
	}
	return true, func() { r.CancelAt(now) }
}

// exhausted reports, without spending, whether key has no token left.
func (l *limiter) exhausted(key string, now time.Time) bool {
	if l.cfg.Disabled || key == "" {
		return false
	}
	return l.bucket(key).TokensAt(now) < 1
}

// retryAfter is the whole seconds until a token is back (at least 1).
func (l *limiter) retryAfter() int {
	if l.cfg.PerSecond <= 0 {
		return 60
	}
	s := int(1/l.cfg.PerSecond + 0.999)
	if s < 1 {
		s = 1
	}
	return s
}

// gate bounds how many submissions are decoded and validated at once. Decoding an adversary's body is the one
// step whose memory grows with the body before anything is known about its sender; bounding it bounds the
// collector's memory under a flood however many connections are open, while the rest of a submission (store
// reads and writes) is not held back.
type gate chan struct{}

func newGate(n int) gate { return make(gate, n) }

// enter waits for a slot until ctx ends.
func (g gate) enter(ctx context.Context) error {
	select {
	case g <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g gate) leave() { <-g }

// timedStore bounds every call of a Store by a timeout, so that a frozen database turns into retryable
// `unavailable` receipts within the bound instead of requests that hang for as long as the freeze lasts. A call
// that times out may still complete in the store (a commit whose reply was lost); the Store contract already makes
// a retry of the same acceptance answer ErrAlreadyAccepted, so nothing is accepted twice.
type timedStore struct {
	Store
	timeout time.Duration
}

func (s timedStore) CreateQueries(ctx context.Context, qs ...Query) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.Store.CreateQueries(ctx, qs...)
}

func (s timedStore) LoadQuery(ctx context.Context, queryID string) (Query, *Acceptance, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.Store.LoadQuery(ctx, queryID)
}

func (s timedStore) Accept(ctx context.Context, a Acceptance) (*Acceptance, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.Store.Accept(ctx, a)
}

func (s timedStore) ListQueries(ctx context.Context, f ListFilter) ([]QueryWithAcceptance, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.Store.ListQueries(ctx, f)
}

func (s timedStore) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.Store.Secret(ctx, name, generate)
}

func (s timedStore) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.Store.Ping(ctx)
}
