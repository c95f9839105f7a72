package storage

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"learn/progress/storetest"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "learn.db")
	s, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// TestConformance runs the progress.Store suite against SQLite files.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		s, _ := openTemp(t)
		return s
	})
}

func TestOpenAppliesMigrationsOnce(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	var n int
	if err := s2.db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	migrations, err := loadMigrations("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if n != len(migrations) {
		t.Errorf("schema_migrations has %d rows, want %d", n, len(migrations))
	}
	var mode string
	if err := s2.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
	var fk int
	if err := s2.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d (%v), want 1", fk, err)
	}
}

// TestTrimmedTimesRewritten checks migration 0004 on rows written in the
// old trimmed form: afterwards they compare as times.
func TestTrimmedTimesRewritten(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.db.ExecContext(ctx, "DELETE FROM schema_migrations WHERE version = 4"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO learners (id, created_at) VALUES ('l1', '2026-11-29T10:00:00Z')"); err != nil {
		t.Fatal(err)
	}
	for key, due := range map[string]string{"whole": "2026-11-29T10:00:00Z", "fraction": "2026-11-29T10:00:00.1Z", "nanos": "2026-11-29T10:00:00.123456789Z"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO review_cards (learner_id, item_key, lesson_slug, widget_id, item_id,
			state, step, stability, difficulty, due, last_review, reps, lapses, created_at)
			VALUES ('l1', ?, 'a', 'w', ?, 0, 0, 0, 0, ?, NULL, 0, 0, ?)`, key, key, due, due); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s2, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rows, err := s2.db.QueryContext(ctx, "SELECT item_key, due FROM review_cards ORDER BY due")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := []string{"whole=2026-11-29T10:00:00.000000000Z", "fraction=2026-11-29T10:00:00.100000000Z", "nanos=2026-11-29T10:00:00.123456789Z"}
	var got []string
	for rows.Next() {
		var k, d string
		if err := rows.Scan(&k, &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, k+"="+d)
	}
	if len(got) != len(want) {
		t.Fatalf("rows = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %s, want %s", i, got[i], want[i])
		}
	}
	l, err := s2.FindLearner(ctx, "l1")
	if err != nil || !l.CreatedAt.Equal(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("FindLearner after the rewrite = %+v (%v)", l, err)
	}
}

func TestSecretIsStable(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	a, err := s.Secret(ctx, "cookie", 32)
	if err != nil || len(a) != 32 {
		t.Fatalf("Secret = %d bytes (%v)", len(a), err)
	}
	s.Close()
	s2, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	b, err := s2.Secret(ctx, "cookie", 32)
	if err != nil || string(a) != string(b) {
		t.Errorf("secret changed across a restart")
	}
}
