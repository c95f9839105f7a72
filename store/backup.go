package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Backup writes a consistent copy of the database to dest, a file that
// must not exist yet, created with mode 0600 like the database. It is safe
// while the server serves: the copy is what one read transaction sees
// (SQLite's VACUUM INTO, which also compacts it), and writers go on
// meanwhile under WAL. On failure no partial copy is left behind.
//
// Restoring is copying the file back while no server runs on it (see the
// README); the copy has no write-ahead log of its own.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if dest == "" {
		return errors.New("store: backup: empty destination path")
	}
	if _, err := os.Stat(dest); err == nil {
		return fmt.Errorf("store: backup to %s: the file exists; choose a new name or remove it first", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: backup to %s: %w", dest, err)
	}
	// VACUUM INTO accepts an empty file, so the copy is private from the
	// start.
	if err := createPrivate(dest); err != nil {
		return fmt.Errorf("store: backup to %s: %w", dest, err)
	}
	// SQLite-only: VACUUM INTO (3.27+); PostgreSQL has pg_dump instead.
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		os.Remove(dest)
		return fmt.Errorf("store: backup to %s: %w", dest, err)
	}
	return nil
}
