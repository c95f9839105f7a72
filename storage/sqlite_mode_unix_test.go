//go:build unix

package storage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenKeepsFilesPrivate checks the modes of the database, its log and
// its index under a umask that would leave them readable by everyone.
func TestOpenKeepsFilesPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	ctx := context.Background()
	modes := func(t *testing.T, path string) {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", filepath.Base(p), err)
			}
			if got := fi.Mode().Perm(); got != 0o600 {
				t.Errorf("%s has mode %v, want -rw-------", filepath.Base(p), got)
			}
		}
	}
	t.Run("a new database", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "learn.db")
		s, err := OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Secret(ctx, "cookie-hash-key", 64); err != nil {
			t.Fatal(err)
		}
		modes(t, path)
	})
	t.Run("a database made readable by others", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "learn.db")
		s, err := OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			if err := os.WriteFile(p, nil, 0o644); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
			if err := os.Chmod(p, 0o644); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		if err := os.Remove(path + "-wal"); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(path + "-shm"); err != nil {
			t.Fatal(err)
		}
		s, err = OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		modes(t, path)
	})
	t.Run("a folder that does not exist", func(t *testing.T) {
		_, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "missing", "learn.db"))
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open in a missing folder = %v, want an error naming it", err)
		}
	})
}
