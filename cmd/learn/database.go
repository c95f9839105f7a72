package main

import (
	"context"
	"log/slog"
	"time"

	"learn/postgres"
	"learn/progress"
	"learn/store"
)

// database is an open backend of progress.Store with what serve and
// rotate-keys need besides: the cookie keys kept in the database, and
// closing.
type database interface {
	progress.Store
	// Secret returns the named server secret, creating it with n random
	// bytes the first time.
	Secret(ctx context.Context, name string, n int) ([]byte, error)
	// PreviousSecret returns the secret RotateSecret last replaced and when;
	// ErrNotFound when name was never rotated.
	PreviousSecret(ctx context.Context, name string) ([]byte, time.Time, error)
	// RotateSecret replaces the named secret, keeping the old one as the
	// previous.
	RotateSecret(ctx context.Context, name string, n int, now time.Time) error
	Close() error
}

// openDatabase opens the backend a --db value names: a postgres:// (or
// postgresql://) URL selects PostgreSQL, anything else is a SQLite file,
// created if missing. For PostgreSQL it also returns the write counter
// that keeps the cached summaries of the servers sharing the database
// consistent; for SQLite, whose file one server owns, nil.
func openDatabase(ctx context.Context, db string, log *slog.Logger) (database, progress.Invalidator, error) {
	if !postgres.IsURL(db) {
		st, err := store.Open(ctx, db)
		if err != nil {
			return nil, nil, err
		}
		return st, nil, nil
	}
	st, err := postgres.Open(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	return st, st.WriteVersions(log.With("component", "postgres")), nil
}

// rateLimiter is what counts a server's rate limits: for PostgreSQL the
// database, so that servers sharing it share every limit; for SQLite, whose
// file one server owns, that server's memory (nil), which spares a write
// per limited request.
func rateLimiter(db string, st database) progress.RateLimiter {
	if postgres.IsURL(db) {
		if l, ok := st.(progress.RateLimiter); ok {
			return l
		}
	}
	return nil
}

// dbName is the --db value as the log may show it: without a password.
func dbName(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redacted(db)
	}
	return db
}
