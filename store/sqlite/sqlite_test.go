package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/sqlite"
	"github.com/agentqueryprotocol/aqp-go/store/storetest"
)

func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "collector.db")
	storetest.Run(t, func(t *testing.T) collector.Store { return open(t, path) })
}

func BenchmarkAccept(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "bench.db"))
	defer s.Close()
	before := s.Stats()
	storetest.BenchAccept(b, s)
	b.StopTimer()
	after := s.Stats()
	if n := after.Commits - before.Commits; n > 0 {
		b.ReportMetric(float64(after.Writes-before.Writes)/float64(n), "writes/commit")
	}
}
