package collector

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// requestCache keeps parsed stored requests so that a submission does not decode its query's request and
// recompile its jsonSchema again. Requests never change once issued, so entries never go stale; the cache is
// bounded by entries and by the bytes of the requests it holds, and forgets arbitrary entries when full.
type requestCache struct {
	mu                   sync.RWMutex
	maxEntries, maxBytes int
	bytes                int
	m                    map[string]*core.Document
}

func newRequestCache(maxEntries, maxBytes int) *requestCache {
	return &requestCache{maxEntries: maxEntries, maxBytes: maxBytes, m: make(map[string]*core.Document)}
}

func (c *requestCache) get(id string) *core.Document {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[id]
}

func (c *requestCache) put(id string, d *core.Document) {
	if len(d.Raw) > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; ok {
		return
	}
	for k, old := range c.m {
		if len(c.m) < c.maxEntries && c.bytes+len(d.Raw) <= c.maxBytes {
			break
		}
		delete(c.m, k)
		c.bytes -= len(old.Raw)
	}
	c.m[id] = d
	c.bytes += len(d.Raw)
}

// RateLimit bounds how fast submissions for one query are decided: a respondent retrying in a tight loop gets
// `rate_limited` (retryable) instead of load. It is per process, which is enough for protecting a process.
type RateLimit struct {
	// PerSecond is the sustained rate per query.
	PerSecond float64
	// Burst is how many submissions for one query are allowed at once.
	Burst int
	// Disabled turns rate limiting off.
	Disabled bool
}

// DefaultRateLimit allows 10 submissions per second per query, 20 at once.
var DefaultRateLimit = RateLimit{PerSecond: 10, Burst: 20}

// maxLimiters bounds the per-query limiters kept; past it the oldest generation is dropped.
const maxLimiters = 100_000

type limiter struct {
	cfg      RateLimit
	mu       sync.Mutex
	cur, old map[string]*rate.Limiter
}

func newLimiter(cfg RateLimit) *limiter {
	if cfg.PerSecond == 0 && cfg.Burst == 0 && !cfg.Disabled {
		cfg = DefaultRateLimit
	}
	return &limiter{cfg: cfg, cur: map[string]*rate.Limiter{}, old: map[string]*rate.Limiter{}}
}

func (l *limiter) allow(queryID string, now time.Time) bool {
	if l.cfg.Disabled {
		return true
	}
	l.mu.Lock()
	lim, ok := l.cur[queryID]
	if !ok {
		if lim, ok = l.old[queryID]; !ok {
			lim = rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst)
		}
		if len(l.cur) >= maxLimiters/2 {
			l.old, l.cur = l.cur, map[string]*rate.Limiter{}
		}
		l.cur[queryID] = lim
	}
	l.mu.Unlock()
	return lim.AllowN(now, 1)
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
