package store

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "learn.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func TestOpenAppliesMigrationsOnce(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	var n int
	if err := s2.db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	migrations, err := loadMigrations()
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

func TestFindLearnerNotFound(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.FindLearner(context.Background(), "nobody")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestProgress(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.EnsureLearner(ctx, "l1", t0); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		do       func() error
		slug     string
		opened   time.Time
		complete bool
	}{
		{"first open", func() error { return s.MarkLessonOpened(ctx, "l1", "a", t0) }, "a", t0, false},
		{"second open keeps first time", func() error { return s.MarkLessonOpened(ctx, "l1", "a", t0.Add(time.Hour)) }, "a", t0, false},
		{"complete", func() error { return s.MarkLessonCompleted(ctx, "l1", "a", t0.Add(2*time.Hour)) }, "a", t0, true},
		{"complete without open", func() error { return s.MarkLessonCompleted(ctx, "l1", "b", t0) }, "b", t0, true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
			got, err := s.ProgressByLesson(ctx, "l1")
			if err != nil {
				t.Fatal(err)
			}
			p, ok := got[st.slug]
			if !ok {
				t.Fatalf("no progress for %q", st.slug)
			}
			if !p.OpenedAt.Equal(st.opened) || p.Completed() != st.complete {
				t.Errorf("progress = %+v, want opened %v completed %v", p, st.opened, st.complete)
			}
		})
	}
}

func TestProgressNeedsLearner(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.MarkLessonOpened(context.Background(), "ghost", "a", t0); err == nil {
		t.Fatal("opening a lesson for a learner who does not exist succeeded; the foreign key should refuse it")
	}
}

func TestAwardXPOncePerKey(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.EnsureLearner(ctx, "l1", t0); err != nil {
		t.Fatal(err)
	}
	a := Award{Key: "quiz:a", Amount: 50, Reason: "Passed the quiz"}
	const posts = 50
	var wg sync.WaitGroup
	granted := make(chan bool, posts)
	errs := make(chan error, posts)
	for range posts {
		wg.Go(func() {
			ok, err := s.AwardXP(ctx, "l1", a, t0)
			if err != nil {
				errs <- err
			}
			granted <- ok
		})
	}
	wg.Wait()
	close(granted)
	close(errs)
	for err := range errs {
		t.Fatalf("AwardXP: %v", err)
	}
	n := 0
	for ok := range granted {
		if ok {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d of %d identical awards were granted, want exactly 1", n, posts)
	}
	if _, err := s.AwardXP(ctx, "l1", Award{Key: "widget:x", Amount: 5, Reason: "Sorted them all"}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	total, err := s.TotalXP(ctx, "l1")
	if err != nil || total != 55 {
		t.Errorf("TotalXP = %d (%v), want 55", total, err)
	}
	hist, err := s.XPHistory(ctx, "l1")
	if err != nil || len(hist) != 2 || hist[0].Key != "quiz:a" {
		t.Errorf("XPHistory = %+v (%v), want quiz:a then widget:x", hist, err)
	}
}

func TestAwardXPRejectsBadAward(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.EnsureLearner(ctx, "l1", t0); err != nil {
		t.Fatal(err)
	}
	for _, a := range []Award{{Key: "", Amount: 5}, {Key: "k", Amount: 0}, {Key: "k", Amount: -3}} {
		if _, err := s.AwardXP(ctx, "l1", a, t0); err == nil {
			t.Errorf("AwardXP(%+v) succeeded, want an error", a)
		}
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
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	b, err := s2.Secret(ctx, "cookie", 32)
	if err != nil || string(a) != string(b) {
		t.Errorf("secret changed across a restart")
	}
}
