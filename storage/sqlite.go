package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite keeps the database in one file, opened with WAL, foreign keys and
// a busy timeout set in the DSN so every pooled connection gets them, and
// BEGIN IMMEDIATE so that a transaction holds the write lock from its
// start. Instants are RFC 3339 text in UTC with nine fraction digits
// (textTime), which sorts as text.
var sqliteEngine = engine{
	name:          "sqlite",
	encodeTime:    func(t time.Time) any { return t.UTC().Format(textTime) },
	classify:      sqliteClassify,
	migrationsDDL: "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
	backup:        sqliteBackup,
	owned:         true,
}

func sqliteClassify(err error) errKind {
	var e *sqlite.Error
	if errors.As(err, &e) && (e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY) {
		return errUnique
	}
	return errOther
}

// OpenSQLite opens (creating if needed) the SQLite file at path and applies
// any migrations that have not run yet.
//
// The database holds the cookie signing key, so only its owner may read
// it: a new file is created with mode 0600, and the file, its write-ahead
// log and shared-memory index lose any group and other permission bits,
// whatever the umask (see fileMode).
func OpenSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("storage: open: empty database path")
	}
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	v := url.Values{}
	v.Add("_pragma", "foreign_keys(1)")
	v.Add("_pragma", "journal_mode(WAL)")
	v.Add("_pragma", "busy_timeout(10000)")
	v.Add("_pragma", "synchronous(NORMAL)")
	v.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+v.Encode())
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	s := newDB(db, &sqliteEngine)
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	// SQLite creates the log and the index with the database's mode; set
	// them anyway, for files made before the database was private.
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := makePrivate(p); err != nil {
			s.Close()
			return nil, fmt.Errorf("storage: open %s: %w", path, err)
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

// makePrivate clears the group and other bits of path, if it exists.
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

// sqliteBackup writes a consistent copy of the database to dest, a file
// that must not exist yet, created with mode 0600 like the database. It is
// safe while the server serves: the copy is what one read transaction sees
// (VACUUM INTO, which also compacts it), and writers go on meanwhile under
// WAL. On failure no partial copy is left behind. Restoring is copying the
// file back while no server runs on it (see the README).
func sqliteBackup(ctx context.Context, s *DB, dest string) error {
	if dest == "" {
		return errors.New("storage: backup: empty destination path")
	}
	if _, err := os.Stat(dest); err == nil {
		return fmt.Errorf("storage: backup to %s: the file exists; choose a new name or remove it first", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: backup to %s: %w", dest, err)
	}
	// VACUUM INTO accepts an empty file, so the copy is private from the
	// start.
	if err := createPrivate(dest); err != nil {
		return fmt.Errorf("storage: backup to %s: %w", dest, err)
	}
	if _, err := s.exec(ctx, "VACUUM INTO ?", dest); err != nil {
		os.Remove(dest)
		return fmt.Errorf("storage: backup to %s: %w", dest, err)
	}
	return nil
}
