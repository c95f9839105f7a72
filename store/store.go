// Package store keeps everything the learn server remembers in one SQLite
// file: learners, lesson progress, the XP ledger and server settings.
//
// Every SQL statement of the project lives here. The database is opened with
// WAL, foreign keys and a busy timeout set in the DSN, so every pooled
// connection gets them. Schema changes are numbered SQL files embedded from
// migrations/ and applied once each, in order, inside a transaction, when the
// store opens; applied versions are recorded in schema_migrations.
//
// Times are stored as RFC 3339 text in UTC with nine fraction digits, which
// sorts correctly as text.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"learn/progress"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// ErrNotFound is returned (wrapped) when a looked-up row does not exist; it
// is progress.ErrNotFound, so callers of the interface can match it.
var ErrNotFound = progress.ErrNotFound

// The store is one backend of the application core.
var _ progress.Store = (*Store)(nil)

// timeLayout is how instants are written to the database: UTC with nine
// fraction digits always, so that text order is time order (RFC 3339's
// trimmed fractions are not: "05Z" sorts after "05.1Z"). Reading accepts
// any RFC 3339 form.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db *sql.DB
	// Statements on every page view, prepared once: parsing the SQL cost
	// as much as running it.
	totalXP *sql.Stmt
	// stmts holds the statements of other queries on a page view,
	// prepared on first use by their text (see prepared).
	stmts sync.Map // string -> *sql.Stmt
	// rateTakes counts TakeRate calls, to purge full buckets now and then.
	rateTakes atomic.Uint64
}

// Open opens (creating if needed) the SQLite file at path and applies any
// migrations that have not run yet.
//
// The database holds the cookie signing key, so only its owner may read
// it: a new file is created with mode 0600, and the file, its write-ahead
// log and shared-memory index lose any group and other permission bits,
// whatever the umask (see fileMode).
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: open: empty database path")
	}
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := s.prepare(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// SQLite creates the log and the index with the database's mode; set
	// them anyway, for files made before the database was private.
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := makePrivate(p); err != nil {
			s.Close()
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	return s, nil
}

// fileMode is the mode of a new database file: read and write for its
// owner only.
const fileMode fs.FileMode = 0o600

// createPrivate creates path with fileMode when it does not exist, so that
// SQLite opens a file that was never readable by others.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	// Exactly fileMode, even under a umask that took the owner's bits.
	if err := os.Chmod(path, fileMode); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	return nil
}

// makePrivate clears the group and other bits of path, if it exists (the
// umask may have left none to clear, or SQLite made it earlier).
func makePrivate(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	if mode := fi.Mode().Perm(); mode&0o077 != 0 {
		if err := os.Chmod(path, mode&^0o077); err != nil {
			return fmt.Errorf("make %s private: %w", path, err)
		}
	}
	return nil
}

// prepare readies the statements of the hot path.
func (s *Store) prepare(ctx context.Context) error {
	var err error
	if s.totalXP, err = s.db.PrepareContext(ctx,
		"SELECT coalesce(sum(amount), 0) FROM xp_awards WHERE learner_id = ?"); err != nil {
		return fmt.Errorf("prepare total xp: %w", err)
	}
	return nil
}

// prepared returns the statement for query, preparing it the first time:
// for the queries a lesson page runs on every view, where parsing the SQL
// cost more than running it. The queries named this way are few and fixed
// (an IN list's length varies only with the number of a learner's
// classes), so the map stays small.
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// Close closes the database.
func (s *Store) Close() error {
	if s.totalXP != nil {
		s.totalXP.Close()
	}
	s.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Ping reports whether the database answers a trivial query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("store: ping: %w", err)
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

// migrate applies every embedded migration newer than the database's version.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	migrations, err := loadMigrations()
	if err != nil {
		return err
	}
	for _, m := range migrations {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE version = ?", m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
				m.version, m.name, time.Now().UTC().Format(timeLayout))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	return nil
}

// inTx runs fn in a write transaction and commits it if fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse stored time %q: %w", s, err)
	}
	return t, nil
}
