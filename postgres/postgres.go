// Package postgres is the PostgreSQL backend of progress.Store, for
// deployments that run several learn servers behind one load balancer: every
// server shares one database, so awards stay once-only (the unique key of
// xp_awards), cookie keys and settings are the same everywhere, and a
// write on one server is seen by the others' caches (WriteVersions).
//
// It uses pgx v5's own pool (pgxpool) rather than database/sql: COPY (used
// by Import) is pgx-only, PostgreSQL's errors and types come through
// without a layer of conversion on every query, and the pool's size and
// health checks are set from the URL (pool_max_conns and friends).
//
// The schema lives in migrations/*.sql, numbered and applied once each in a
// transaction that is recorded in schema_migrations; servers starting
// together take an advisory lock so that only one of them migrates. Every
// instant is stored as nanoseconds since the Unix epoch (BIGINT), because
// timestamptz keeps only microseconds and the Store contract keeps
// nanoseconds; instants outside the years 1678 to 2262 cannot be stored.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"learn/progress"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// ErrNotFound is returned (wrapped) when a looked-up row does not exist; it
// is progress.ErrNotFound, so callers of the interface can match it.
var ErrNotFound = progress.ErrNotFound

// The store is one backend of the application core.
var _ progress.Store = (*Store)(nil)

// DefaultMaxConns is the pool size when the URL names none
// (pool_max_conns): enough for a replica's page views and gradings at
// once, few enough that several replicas stay under PostgreSQL's default of
// 100 connections.
const DefaultMaxConns = 16

// migrationLock is the advisory lock key held while migrating, so that
// servers started together apply each migration once.
const migrationLock = 7_215_220_117

// Store is an open PostgreSQL database. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	// rateTakes counts TakeRate calls, to purge full buckets now and then.
	rateTakes atomic.Uint64
}

// IsURL reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Open connects to the database at url (postgres://user@host/db?...), checks
// that it answers and applies any migrations that have not run yet. The
// pool holds DefaultMaxConns connections unless url sets pool_max_conns.
// Errors never repeat the password of url.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's parse errors already hide the password.
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	where := redact(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open %s: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open %s: %w (is the server running, and may this user connect?)", where, err)
	}
	s := &Store{pool: pool}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open %s: %w", where, err)
	}
	return s, nil
}

// redact names the database of cfg without its password.
func redact(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("database %q on %s:%d as %q", c.Database, c.Host, c.Port, c.User)
}

// Close closes every connection of the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Ping reports whether the database answers a trivial query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.pool.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var out []migration
	for _, e := range entries {
		prefix, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(prefix)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %q: name must look like 0001_what.sql", e.Name())
		}
		body, err := fs.ReadFile(migrationFiles, "migrations/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share version %d", out[i-1].name, out[i].name, out[i].version)
		}
	}
	return out, nil
}

// migrate applies every embedded migration newer than the database's
// version, each in its own transaction under the migration lock.
func (s *Store) migrate(ctx context.Context) error {
	migrations, err := loadMigrations()
	if err != nil {
		return err
	}
	for _, m := range migrations {
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRow(ctx, "SELECT count(*) FROM schema_migrations WHERE version = $1", m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
				m.version, m.name, ns(time.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	return nil
}

// inTx runs fn in a read-committed transaction and commits it if fn
// returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback(ctx)
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// ns is how an instant is stored: nanoseconds since the Unix epoch.
func ns(t time.Time) int64 { return t.UnixNano() }

// nullNS stores the zero time as NULL.
func nullNS(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	v := ns(t)
	return &v
}

// fromNS reads a stored instant back, in UTC.
func fromNS(v int64) time.Time { return time.Unix(0, v).UTC() }

// fromNullNS reads a nullable instant; NULL is the zero time.
func fromNullNS(v *int64) time.Time {
	if v == nil {
		return time.Time{}
	}
	return fromNS(*v)
}

// notFound wraps ErrNotFound when err is pgx's "no rows".
func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// Redacted returns a postgres:// URL with its password replaced by "xxxxx",
// for logs; anything that does not parse comes back as "(unreadable URL)".
func Redacted(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "(unreadable URL)"
	}
	return u.Redacted()
}
