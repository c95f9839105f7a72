// Package postgres opens the learn server's PostgreSQL database, shared by
// every server of a deployment. Its queries, shared with SQLite, live in
// package storage; a Store is a storage.DB on PostgreSQL.
package postgres

import (
	"context"

	"learn/storage"
)

// Store is an open PostgreSQL database.
type Store = storage.DB

// WriteVersions is a Store's write counter (storage.WriteVersions).
type WriteVersions = storage.WriteVersions

// DefaultMaxConns is the pool size when the URL names none.
const DefaultMaxConns = storage.DefaultMaxConns

// Open connects to the database at url and applies any migrations that
// have not run yet (storage.OpenPostgres).
func Open(ctx context.Context, url string) (*Store, error) {
	return storage.OpenPostgres(ctx, url)
}

// IsURL reports whether a --db value names a PostgreSQL database rather
// than a SQLite file.
func IsURL(db string) bool { return storage.IsURL(db) }

// Redacted returns a postgres:// URL without its password, for logs.
func Redacted(dbURL string) string { return storage.Redacted(dbURL) }
