// Package storage keeps everything the learn server remembers, in SQLite or
// PostgreSQL, with every query written once: DB holds each method of the
// core's store interfaces over database/sql, and an engine (sqlite.go,
// postgres.go) sets only what differs between the two: how to open, the
// placeholders, how an instant is stored, how errors are classified, the
// migration lock and how to back up.
//
// Queries are written with ? placeholders (or ?N to reuse an argument);
// PostgreSQL gets them rewritten to $N once per query text. They use the
// SQL both engines speak: ON CONFLICT upserts, RETURNING, CASE rather than
// max(a, b) or GREATEST, and CAST(? AS BIGINT) where PostgreSQL could not
// guess an argument's type.
//
// Schema changes are numbered SQL files per engine, embedded from
// migrations/sqlite and migrations/postgres (their DDL and triggers
// differ), applied once each, in order, inside a transaction, and recorded
// in schema_migrations.
package storage

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"learn/progress"
)

//go:embed migrations
var migrationFiles embed.FS

// ErrNotFound is progress.ErrNotFound: a looked-up row does not exist.
var ErrNotFound = progress.ErrNotFound

// ErrConflict is progress.ErrConflict: a write broke a uniqueness rule.
var ErrConflict = progress.ErrConflict

// ErrInvalidText marks text the database refused to store: PostgreSQL
// refuses invalid UTF-8 and NUL bytes, which SQLite stores.
var ErrInvalidText = errors.New("storage: the text is not valid UTF-8 or holds a NUL byte")

// A DB is every part of the core's store; the rate limiter is part of the
// contract, checked here rather than found at run time.
var (
	_ progress.Store       = (*DB)(nil)
	_ progress.RateLimiter = (*DB)(nil)
	_ progress.SecretStore = (*DB)(nil)
)

// errKind is what an engine says an error is.
type errKind int

const (
	errOther  errKind = iota
	errUnique         // a unique or primary key refused a row
	errText           // text the engine cannot store
	errRetry          // a serialisation failure or deadlock: run the transaction again
)

// engine is what differs between SQLite and PostgreSQL.
type engine struct {
	name string
	// numbered rewrites ? placeholders to $N.
	numbered bool
	// encodeTime is how an instant is stored.
	encodeTime func(time.Time) any
	// classify says what an error of the driver is.
	classify func(error) errKind
	// migrationsDDL creates the bookkeeping table; lockSQL, when set, is
	// run first in each migration's transaction so that servers starting
	// together migrate once.
	migrationsDDL, lockSQL string
	// forUpdate is appended to a read that a transaction then writes
	// ("" where the write lock is taken by BEGIN).
	forUpdate string
	// backup writes a copy of the database to dest.
	backup func(ctx context.Context, db *DB, dest string) error
	// owned is set where one server owns the database (a SQLite file):
	// what this process did not write has not changed.
	owned bool
}

// DB is an open database of either engine. It is safe for concurrent use.
type DB struct {
	q
	db *sql.DB
	// stmts holds the statements of the queries on a page view, prepared
	// on first use by their text (see prepared).
	stmts sync.Map // string -> *sql.Stmt
	// rateTakes counts TakeRate calls, to purge full buckets now and then.
	rateTakes atomic.Uint64
	// generation is the page generation last read, with the count of
	// writes it was read after (PageGeneration).
	generation atomic.Pointer[generationRead]
}

// generationRead is a page generation read after writes statements.
type generationRead struct {
	writes, value uint64
}

// q runs queries on a pool or a transaction, in the engine's dialect.
type q struct {
	c interface {
		ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
		QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
		QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	}
	e     *engine
	texts *sync.Map // query as written -> query for the engine
	// writes counts the statements of this process that may have written
	// (see DB.PageGeneration): every exec and every statement that is not
	// a SELECT, counted when it is done; a transaction's, once it ended
	// (tx is set inside one), so a reader never counts a write it cannot
	// see yet.
	writes *atomic.Uint64
	tx     bool
}

// wrote counts a statement that may have written, outside a transaction.
func (q q) wrote() {
	if !q.tx {
		q.writes.Add(1)
	}
}

// mayWrite reports whether query may write: anything but a SELECT.
func mayWrite(query string) bool {
	head := strings.TrimLeft(query, " \t\r\n(")
	return len(head) < 6 || !strings.EqualFold(head[:6], "SELECT")
}

func newDB(db *sql.DB, e *engine) *DB {
	s := &DB{db: db}
	s.q = q{c: db, e: e, texts: &sync.Map{}, writes: &atomic.Uint64{}}
	return s
}

// sql returns the query in the engine's placeholders.
func (q q) sql(query string) string {
	if !q.e.numbered {
		return query
	}
	if v, ok := q.texts.Load(query); ok {
		return v.(string)
	}
	out := numberPlaceholders(query)
	q.texts.Store(query, out)
	return out
}

// numberPlaceholders turns ? into $1, $2… and ?N into $N, outside quoted
// text.
func numberPlaceholders(query string) string {
	var b strings.Builder
	n, quoted := 0, false
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			quoted = !quoted
		case c == '?' && !quoted:
			if i+1 < len(query) && query[i+1] >= '0' && query[i+1] <= '9' {
				c = '$'
				break
			}
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// wrap classifies err for the core: ErrConflict or ErrInvalidText joined
// to the driver's error (no row is ErrNotFound: see row.Scan).
func (q q) wrap(err error) error {
	if err == nil {
		return nil
	}
	switch q.e.classify(err) {
	case errUnique:
		return fmt.Errorf("%w: %w", ErrConflict, err)
	case errText:
		return fmt.Errorf("%w: %w", ErrInvalidText, err)
	}
	return err
}

func (q q) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := q.c.ExecContext(ctx, q.sql(query), args...)
	q.wrote()
	return res, q.wrap(err)
}

// rows runs query; one that may write is counted when its rows are read
// (a RETURNING statement writes as it is stepped), here once they begin.
func (q q) rows(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := q.c.QueryContext(ctx, q.sql(query), args...)
	if mayWrite(query) {
		q.wrote()
	}
	return rows, q.wrap(err)
}

func (q q) row(ctx context.Context, query string, args ...any) row {
	return row{r: q.c.QueryRowContext(ctx, q.sql(query), args...), q: q, write: mayWrite(query)}
}

// errNoRow is what row.Scan returns for no row: sql.ErrNoRows and
// ErrNotFound at once. It is never changed.
var errNoRow = fmt.Errorf("%w: %w", ErrNotFound, sql.ErrNoRows)

// row is one result row whose Scan classifies errors like exec.
type row struct {
	r   *sql.Row
	err error // of preparing the statement
	q   q
	// write is set for a statement that may write, counted once scanned.
	write bool
}

// Scan copies the row's columns into dest; no row is sql.ErrNoRows and
// ErrNotFound at once.
func (r row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	err := r.r.Scan(dest...)
	if r.write {
		r.q.wrote()
	}
	if err == sql.ErrNoRows {
		return errNoRow
	}
	return r.q.wrap(err)
}

// t is how an instant is stored by the engine.
func (q q) t(t time.Time) any { return q.e.encodeTime(t) }

// nt stores the zero time as NULL.
func (q q) nt(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return q.e.encodeTime(t)
}

// scanner is a row or rows.
type scanner interface{ Scan(dest ...any) error }

// each runs query and hands every row to scan.
func (q q) each(ctx context.Context, what string, scan func(scanner) error, query string, args ...any) error {
	rows, err := q.c.QueryContext(ctx, q.sql(query), args...)
	err = scanAll(what, rows, q.wrap(err), scan)
	if mayWrite(query) {
		q.wrote()
	}
	return err
}

// preparedEach is each for a prepared query (see prepared).
func (s *DB) preparedEach(ctx context.Context, what string, scan func(scanner) error, query string, args ...any) error {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return fmt.Errorf("storage: %s: %w", what, err)
	}
	rows, err := st.QueryContext(ctx, args...)
	err = scanAll(what, rows, s.wrap(err), scan)
	if mayWrite(query) {
		s.wrote()
	}
	return err
}

func scanAll(what string, rows *sql.Rows, err error, scan func(scanner) error) error {
	if err != nil {
		return fmt.Errorf("storage: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("storage: %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: %s: %w", what, err)
	}
	return nil
}

// prepared returns the statement for query, preparing it the first time:
// for the queries a lesson page runs on every view, where parsing the SQL
// cost more than running it. The queries named this way are few and fixed
// (an IN list's length varies only with the number of a learner's
// classes), so the map stays small.
func (s *DB) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, s.sql(query))
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// preparedRow runs a prepared query (see prepared) that returns one row.
func (s *DB) preparedRow(ctx context.Context, query string, args ...any) row {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return row{err: err}
	}
	return row{r: st.QueryRowContext(ctx, args...), q: s.q, write: mayWrite(query)}
}

// Close closes the database.
func (s *DB) Close() error {
	s.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: close: %w", err)
	}
	return nil
}

// Ping reports whether the database answers a trivial query.
func (s *DB) Ping(ctx context.Context) error {
	var one int
	if err := s.row(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("storage: ping: %w", err)
	}
	return nil
}

// Backup writes a consistent copy of the database to dest (see the
// engine's backup).
func (s *DB) Backup(ctx context.Context, dest string) error { return s.e.backup(ctx, s, dest) }

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations(engine string) ([]migration, error) {
	dir := "migrations/" + engine
	entries, err := fs.ReadDir(migrationFiles, dir)
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
		body, err := fs.ReadFile(migrationFiles, dir+"/"+e.Name())
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
// version, each in its own transaction (under the engine's lock).
func (s *DB) migrate(ctx context.Context) error {
	migrations, err := loadMigrations(s.e.name)
	if err != nil {
		return err
	}
	for _, m := range migrations {
		err := s.inTx(ctx, func(tx q) error {
			if s.e.lockSQL != "" {
				if _, err := tx.exec(ctx, s.e.lockSQL); err != nil {
					return err
				}
			}
			if _, err := tx.exec(ctx, s.e.migrationsDDL); err != nil {
				return err
			}
			var n int
			if err := tx.row(ctx, "SELECT count(*) FROM schema_migrations WHERE version = ?", m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			// The file's text runs as it is: it may hold ? or $ of its own.
			if _, err := tx.c.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.exec(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
				m.version, m.name, tx.t(time.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	return nil
}

// retries bounds how often inTx runs a transaction the engine refused to
// serialise.
const retries = 5

// inTx runs fn in a write transaction and commits it if fn returns nil.
// A serialisation failure or deadlock runs it again, a few times.
func (s *DB) inTx(ctx context.Context, fn func(tx q) error) error {
	var err error
	for range retries {
		if err = s.tryTx(ctx, fn); err == nil || s.e.classify(err) != errRetry {
			return err
		}
	}
	return err
}

func (s *DB) tryTx(ctx context.Context, fn func(tx q) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// Counted once the transaction ended, whichever way.
	defer s.writes.Add(1)
	if err := fn(q{c: tx, e: s.e, texts: s.texts, writes: s.writes, tx: true}); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", s.wrap(err))
	}
	return nil
}

// textTime is how instants are written as text (settings, SQLite
// columns): UTC with nine fraction digits always, so that text order is
// time order (RFC 3339's trimmed fractions are not: "05Z" sorts after
// "05.1Z"). Reading accepts any RFC 3339 form.
const textTime = "2006-01-02T15:04:05.000000000Z07:00"

// parseTime reads an instant stored as text (SQLite, and the retirement
// times of secrets): RFC 3339, in UTC.
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse stored time %q: %w", s, err)
	}
	return t.UTC(), nil
}

// instant scans a stored instant of either engine into *t: text
// (SQLite) or nanoseconds since the Unix epoch (PostgreSQL, whose driver
// hands BIGINT over as int64); NULL is the zero time.
type instant struct{ t *time.Time }

// at scans into t.
func at(t *time.Time) instant { return instant{t} }

// Scan implements sql.Scanner.
func (i instant) Scan(src any) error {
	var err error
	switch v := src.(type) {
	case nil:
		*i.t = time.Time{}
	case int64:
		*i.t = time.Unix(0, v).UTC()
	case string:
		*i.t, err = parseTime(v)
	case []byte:
		*i.t, err = parseTime(string(v))
	default:
		err = fmt.Errorf("stored time %v is of type %T", src, src)
	}
	return err
}

// notFoundOr wraps err with context, or returns nil.
func notFoundOr(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
