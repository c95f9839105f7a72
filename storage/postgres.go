package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL serves deployments that run several learn servers behind one
// load balancer: every server shares one database, so awards stay
// once-only (the unique key of xp_awards), cookie keys and settings are the
// same everywhere, and a write on one server is seen by the others' caches
// (WriteVersions). It is reached through pgx's database/sql driver, which
// caches each query's prepared statement per connection. Every instant is
// stored as nanoseconds since the Unix epoch (BIGINT), because timestamptz
// keeps only microseconds and the store contract keeps nanoseconds;
// instants outside the years 1678 to 2262 cannot be stored. Servers
// starting together take an advisory lock so that one of them migrates.
var postgresEngine = engine{
	name:       "postgres",
	numbered:   true,
	encodeTime: func(t time.Time) any { return t.UnixNano() },
	classify:   postgresClassify,
	migrationsDDL: `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
	lockSQL:   "SELECT pg_advisory_xact_lock(7215220117)",
	forUpdate: " FOR UPDATE",
	backup: func(context.Context, *DB, string) error {
		return errors.New("storage: backup: a PostgreSQL database is backed up with PostgreSQL's own tools (pg_dump, or the server's base backups), which copy it while the servers run")
	},
}

func postgresClassify(err error) errKind {
	var e *pgconn.PgError
	if !errors.As(err, &e) {
		return errOther
	}
	switch e.Code {
	case "23505": // unique_violation
		return errUnique
	case "40001", "40P01": // serialization_failure, deadlock_detected
		return errRetry
	case "22021", "22P05": // character_not_in_repertoire (invalid UTF-8, NUL), untranslatable_character
		return errText
	}
	return errOther
}

// DefaultMaxConns is the pool size when the URL names none
// (pool_max_conns): enough for a server's page views and gradings at once,
// few enough that several servers stay under PostgreSQL's default of 100
// connections.
const DefaultMaxConns = 16

// IsURL reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// OpenPostgres connects to the database at dbURL (postgres://user@host/db?...),
// checks that it answers and applies any migrations that have not run yet.
// The pool holds DefaultMaxConns connections unless the URL sets
// pool_max_conns. Errors never repeat the password of the URL.
func OpenPostgres(ctx context.Context, dbURL string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		// pgx's parse errors already hide the password.
		return nil, fmt.Errorf("storage: open: %w", err)
	}
	if !strings.Contains(dbURL, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	c := cfg.ConnConfig
	where := fmt.Sprintf("database %q on %s:%d as %q", c.Database, c.Host, c.Port, c.User)
	db := stdlib.OpenDB(*c)
	db.SetMaxOpenConns(int(cfg.MaxConns))
	db.SetMaxIdleConns(int(cfg.MaxConns))
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open %s: %w (is the server running, and may this user connect?)", where, err)
	}
	s := newDB(db, &postgresEngine)
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", where, err)
	}
	return s, nil
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

// bumpTimeout bounds recording one write; past it the write stands and
// other servers' cached summaries of the learner expire within a minute.
const bumpTimeout = 2 * time.Second

// WriteVersions keeps the servers sharing a PostgreSQL database honest
// about their cached summaries: it is a server's progress.Invalidator.
// Invalidate counts a learner's write in learner_versions; Version reads
// the count, so a server notices another's write on the learner's next
// page, whichever server serves it. It costs one primary-key read per
// cached page view, instead of the seven queries of loading a summary.
//
// (LISTEN/NOTIFY was tried first: a notification reaches the other servers
// a little after the writer answers, and on a busy machine the learner's
// next request sometimes arrived first and showed the XP from before.)
type WriteVersions struct {
	db  *DB
	log *slog.Logger
}

// WriteVersions returns the database's write counter; log receives its
// failures (nil discards them).
func (s *DB) WriteVersions(log *slog.Logger) *WriteVersions {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &WriteVersions{db: s, log: log}
}

// Invalidate counts a write by the learner. A failure is logged: the
// write already stands, and other servers' cached summaries of the learner
// expire within a minute.
func (v *WriteVersions) Invalidate(learnerID string) {
	ctx, cancel := context.WithTimeout(context.Background(), bumpTimeout)
	defer cancel()
	if _, err := v.db.exec(ctx, `INSERT INTO learner_versions (learner_id, version) VALUES (?, 1)
		ON CONFLICT (learner_id) DO UPDATE SET version = learner_versions.version + 1`, learnerID); err != nil {
		v.log.Warn("count a learner's write; other servers may show their summary from before for up to a minute", "err", err)
	}
}

// Version returns how many writes of the learner were counted (0 before
// the first).
func (v *WriteVersions) Version(ctx context.Context, learnerID string) (int64, error) {
	var n int64
	if err := v.db.row(ctx, "SELECT coalesce(max(version), 0) FROM learner_versions WHERE learner_id = ?", learnerID).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: learner version: %w", err)
	}
	return n, nil
}
