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
