package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations is the schema's history: migrations[i] takes the database from version i to version i+1. Entries are
// append-only; a released one is never edited, because databases already at its version would not run it again.
var migrations = []string{
	// 1: queries, their one acceptance each, and the collector's secrets.
	//
	// Times are bigint unix nanoseconds UTC, so they round-trip exactly whatever their precision (timestamptz
	// keeps microseconds). query_id is the UUIDv7 whose text order is issue order; COLLATE "C" makes that byte
	// order, whatever the database's default collation, because listings sort on it. The continuation's foreign
	// key is checked at commit, so Accept's one statement may insert the acceptance and the continuation it
	// names in either order.
	`CREATE TABLE queries (
		query_id        text COLLATE "C" PRIMARY KEY,
		request         bytea  NOT NULL,
		capability_hash bytea  NOT NULL,
		created_at      bigint NOT NULL,
		expires_at      bigint NOT NULL
	);
	CREATE TABLE acceptances (
		query_id              text COLLATE "C" PRIMARY KEY REFERENCES queries (query_id),
		response_id           text   NOT NULL,
		response              bytea  NOT NULL,
		content_hash          bytea  NOT NULL,
		receipt               bytea  NOT NULL,
		accepted_at           bigint NOT NULL,
		continuation_query_id text COLLATE "C" REFERENCES queries (query_id) DEFERRABLE INITIALLY DEFERRED
	);
	CREATE TABLE secrets (
		name  text PRIMARY KEY,
		value bytea NOT NULL
	);`,
}

// migrationLock is the pg_advisory_xact_lock key that serialises migrations, so collector processes starting
// together against a new database do not race to create the same tables. (The bytes spell "aqpmigr1".)
const migrationLock int64 = 0x6171706d69677231

// migrate brings the database's schema up to date in one transaction: all pending migrations apply, or none.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return err
	}
	var current int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return err
	}
	if current > len(migrations) {
		return fmt.Errorf("database schema is at version %d, newer than this build's %d: refusing to use it", current, len(migrations))
	}
	for v := current + 1; v <= len(migrations); v++ {
		if _, err := tx.Exec(ctx, migrations[v-1]); err != nil {
			return fmt.Errorf("migration %d: %w", v, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, v); err != nil {
			return fmt.Errorf("migration %d: %w", v, err)
		}
	}
	return tx.Commit(ctx)
}
