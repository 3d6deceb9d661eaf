package storetest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// BenchParallelism is the number of goroutines per GOMAXPROCS BenchAccept runs. A collector serves many
// submissions at once, each waiting on I/O, so the benchmark keeps many Accepts in flight, as a group-committing
// store needs to show what it does under load (b.RunParallel alone would run only GOMAXPROCS).
const BenchParallelism = 32

// BenchAccept measures Accept on st: b.N distinct queries are created beforehand (outside the timer), then
// accepted once each from BenchParallelism×GOMAXPROCS goroutines, with a 1 KiB response and a 512-byte receipt
// and no continuation. Every store's benchmark calls it, so their ns/op compare like for like.
func BenchAccept(b *testing.B, st collector.Store) {
	ctx := context.Background()
	ids := make([]string, b.N)
	batch := make([]collector.Query, 0, 500)
	for i := range ids {
		q := newQuery(time.Now().UTC().Truncate(time.Millisecond), time.Hour)
		ids[i] = q.QueryID
		if batch = append(batch, q); len(batch) == cap(batch) || i == len(ids)-1 {
			if err := st.CreateQueries(ctx, batch...); err != nil {
				b.Fatal(err)
			}
			batch = make([]collector.Query, 0, 500)
		}
	}
	var next atomic.Int64
	b.SetParallelism(BenchParallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1) - 1
			a := collector.Acceptance{
				QueryID:     ids[i],
				ResponseID:  ids[i] + "-r",
				Response:    make([]byte, 1024),
				ContentHash: make([]byte, 32),
				Receipt:     make([]byte, 512),
				AcceptedAt:  time.Now().UTC().Truncate(time.Millisecond),
			}
			if _, err := st.Accept(ctx, a); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
