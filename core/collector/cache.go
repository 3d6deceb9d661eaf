package collector

import (
	"sync"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// requestCache keeps parsed stored requests so that a submission does not decode its query's request and
// recompile its jsonSchema again, and, for the queries this collector issued, the query as stored, so that their
// first submission need not read it back. Queries and their requests never change once issued, so entries never go
// stale; the cache is bounded by entries and by the bytes of the requests it holds, and forgets arbitrary entries
// when full.
type requestCache struct {
	mu                   sync.RWMutex
	maxEntries, maxBytes int
	bytes                int
	m                    map[string]*core.Document
	issued               map[string]*Query // the queries put with put's q; the same keys as m or fewer
}

func newRequestCache(maxEntries, maxBytes int) *requestCache {
	return &requestCache{maxEntries: maxEntries, maxBytes: maxBytes, m: make(map[string]*core.Document), issued: make(map[string]*Query)}
}

func (c *requestCache) get(id string) *core.Document {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[id]
}

// query returns the query id names when this collector issued it and the cache still holds it.
func (c *requestCache) query(id string) (Query, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	q, ok := c.issued[id]
	if !ok {
		return Query{}, false
	}
	return *q, true
}

// putIssued keeps a query this collector has just stored, with its parsed request.
func (c *requestCache) putIssued(q Query, d *core.Document) {
	c.put(q.QueryID, d)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[q.QueryID] == d {
		c.issued[q.QueryID] = &q
	}
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
		delete(c.issued, k)
		c.bytes -= len(old.Raw)
	}
	c.m[id] = d
	c.bytes += len(d.Raw)
}
