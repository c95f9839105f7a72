// Package store opens the learn server's SQLite database, one file a
// server owns. Its queries, shared with PostgreSQL, live in package
// storage; a Store is a storage.DB on SQLite.
package store

import (
	"context"

	"learn/progress"
	"learn/storage"
)

// Store is an open SQLite database.
type Store = storage.DB

// ErrNotFound is progress.ErrNotFound, for callers that import store only.
var ErrNotFound = progress.ErrNotFound

// Open opens (creating if needed, with mode 0600) the SQLite file at path
// and applies any migrations that have not run yet (storage.OpenSQLite).
func Open(ctx context.Context, path string) (*Store, error) {
	return storage.OpenSQLite(ctx, path)
}
