package collector

import (
	"sync"

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
