package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/postgres"
	"github.com/agentqueryprotocol/aqp-go/store/storetest"
)

// serverURL is the server the tests create their databases on.
func serverURL() string {
	if u := os.Getenv("AQP_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// freshDatabase creates a uniquely named database for this test or benchmark, drops it when it ends, and returns
// its connection string. Without a server it skips, unless CI is set: there a missing server is a broken setup,
// not a reason to pass.
func freshDatabase(tb testing.TB) string {
	tb.Helper()
	server := serverURL()
	shown := server
	if u, err := url.Parse(server); err == nil && u.Scheme != "" {
		shown = u.Redacted()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		msg := "PostgreSQL is not reachable at " + shown + " (set AQP_TEST_POSTGRES_URL to use another server): " + err.Error()
		if os.Getenv("CI") == "" {
			tb.Skip(msg)
		}
		tb.Fatal(msg)
	}
	defer admin.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	name := "aqp_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("CREATE DATABASE %s: %v", name, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin, err := pgx.Connect(ctx, server)
		if err != nil {
			tb.Errorf("dropping %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("DROP DATABASE %s: %v", name, err)
		}
	})
	if u, err := url.Parse(server); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + name
		return u.String()
	}
	return strings.TrimSpace(server) + " dbname=" + name // key=value form: the last dbname wins
}

func open(tb testing.TB, connString string) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), connString)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return s
}

func TestStore(t *testing.T) {
	db := freshDatabase(t)
	storetest.Run(t, func(t *testing.T) collector.Store { return open(t, db) })
}

// TestConcurrentOpen opens one new database from several goroutines at once, as collector processes starting
// together would: the advisory lock lets one migrate while the others wait, and each migration applies once.
func TestConcurrentOpen(t *testing.T) {
	db := freshDatabase(t)
	const n = 8
	errs := make([]error, n)
	stores := make([]*postgres.Store, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = postgres.Open(context.Background(), db) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var rows, versions int
	if err := conn.QueryRow(context.Background(),
		`SELECT count(*), count(DISTINCT version) FROM schema_migrations`).Scan(&rows, &versions); err != nil {
		t.Fatal(err)
	}
	if rows != versions || rows == 0 {
		t.Errorf("schema_migrations has %d rows for %d versions, want one row per version", rows, versions)
	}
}

// BenchmarkAccept runs storetest.BenchAccept on a fresh database. AQP_BENCH_POOL_MAX_CONNS sets the pool size
// (pgxpool's default is max(4, NumCPU)), to see how far more connections carry the server's own group commit.
func BenchmarkAccept(b *testing.B) {
	db := freshDatabase(b)
	if n := os.Getenv("AQP_BENCH_POOL_MAX_CONNS"); n != "" {
		if strings.Contains(db, "://") {
			db += map[bool]string{true: "&", false: "?"}[strings.Contains(db, "?")] + "pool_max_conns=" + n
		} else {
			db += " pool_max_conns=" + n
		}
	}
	s := open(b, db)
	defer s.Close()
	storetest.BenchAccept(b, s)
}
