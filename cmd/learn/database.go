package main

import (
	"context"
	"log/slog"

	"learn/lti"
	"learn/postgres"
	"learn/progress"
	"learn/store"
)

// database is an open backend: every part of progress.Store, the cookie
// keys kept in the database (progress.SecretStore), the LTI platforms,
// keys and links (lti.Store, progress.LTIStore), the outbox of LMS scores
// (lti.ScoreStore), and closing.
type database interface {
	progress.Store
	progress.SecretStore
	progress.LTIStore
	lti.Store
	lti.ScoreStore
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
		return st
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
