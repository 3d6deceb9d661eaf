package collector

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

func TestRequestCacheBounds(t *testing.T) {
	c := newRequestCache(3, 100)
	doc := func(n int) *core.Document { return &core.Document{Raw: []byte(strings.Repeat("x", n))} }
	for i := 0; i < 10; i++ {
		c.put(fmt.Sprint(i), doc(10))
		if len(c.m) > 3 || c.bytes > 100 {
			t.Fatalf("after %d puts: %d entries, %d bytes", i+1, len(c.m), c.bytes)
		}
	}
	c.put("big", doc(90))
	if c.get("big") == nil || c.bytes > 100 {
		t.Fatalf("a 90-byte entry: %d entries, %d bytes", len(c.m), c.bytes)
	}
	c.put("huge", doc(101))
	if c.get("huge") != nil {
		t.Fatal("an entry larger than the whole cache was kept")
	}
	total := 0
	for _, d := range c.m {
		total += len(d.Raw)
	}
	if total != c.bytes {
		t.Fatalf("byte count %d, entries hold %d", c.bytes, total)
	}
}

// TestIssuedQueriesLeaveWithTheirRequests: the issued-query entries never outlive their requests' entries, so the
// bound on requests bounds them too, and a query that is forgotten is read from the store again.
func TestIssuedQueriesLeaveWithTheirRequests(t *testing.T) {
	c := newRequestCache(3, 1000)
	for i := 0; i < 10; i++ {
		id := fmt.Sprint(i)
		c.putIssued(Query{QueryID: id}, &core.Document{Raw: []byte("{}")})
		if q, ok := c.query(id); !ok || q.QueryID != id {
			t.Fatalf("query %s just issued is not known", id)
		}
		if len(c.issued) > len(c.m) || len(c.m) > 3 {
			t.Fatalf("after %d: %d issued, %d requests", i+1, len(c.issued), len(c.m))
		}
		for k := range c.issued {
			if c.m[k] == nil {
				t.Fatalf("issued %s outlived its request", k)
			}
		}
	}
	c.put("other", &core.Document{Raw: []byte("{}")})
	if _, ok := c.query("other"); ok {
		t.Fatal("a request read from the store was taken for a query this collector issued")
	}
}
