package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// migrations is the schema's history: migrations[i] takes the database from version i to version i+1. Entries are
// append-only; a released one is never edited, because databases already at its version would not run it again.
var migrations = []string{
	// 1: queries, their one acceptance each, and the collector's secrets. Times are INTEGER unix nanoseconds UTC,
	// so they round-trip exactly; query_id is the UUIDv7 whose text order is issue order (listings sort on it).
	`CREATE TABLE queries (
		query_id        TEXT    NOT NULL PRIMARY KEY,
		request         BLOB    NOT NULL,
		capability_hash BLOB    NOT NULL,
		created_at      INTEGER NOT NULL,
		expires_at      INTEGER NOT NULL
	) STRICT;
	CREATE TABLE acceptances (
		query_id              TEXT    NOT NULL PRIMARY KEY REFERENCES queries (query_id),
		response_id           TEXT    NOT NULL,
		response              BLOB    NOT NULL,
		content_hash          BLOB    NOT NULL,
		receipt               BLOB    NOT NULL,
		accepted_at           INTEGER NOT NULL,
		continuation_query_id TEXT    REFERENCES queries (query_id)
	) STRICT;
	CREATE TABLE secrets (
		name  TEXT NOT NULL PRIMARY KEY,
		value BLOB NOT NULL
	) STRICT;`,
}

// migrate brings db's schema up to date. It runs in one BEGIN IMMEDIATE transaction, which takes SQLite's write
// lock first, so two processes opening the same new file apply each migration once, and a failed migration leaves
// the schema as it was.
func migrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the DSN sets _txlock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER NOT NULL PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return err
	}
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return err
	}
	if current > len(migrations) {
		return fmt.Errorf("database schema is at version %d, newer than this build's %d: refusing to use it", current, len(migrations))
	}
	for v := current + 1; v <= len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v-1]); err != nil {
			return fmt.Errorf("migration %d: %w", v, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
			v, time.Now().UnixNano()); err != nil {
			return fmt.Errorf("migration %d: %w", v, err)
		}
	}
	return tx.Commit()
}
