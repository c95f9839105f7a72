package storage

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"learn/progress"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// releaseMigrations is the last migration of each engine in the release
// before package storage: a database that release made has exactly these.
var releaseMigrations = map[string]int{"sqlite": 21, "postgres": 7}

// makeRelease builds, on db, what the release before package storage
// left behind: its migration files applied and recorded as it recorded
// them, and rows written as it wrote them (instants as text on SQLite,
// nanoseconds on PostgreSQL), without any code of this package but the
// loading of the files.
func makeRelease(t *testing.T, db *sql.DB, engine string, ts func(time.Time) any) {
	t.Helper()
	ctx := context.Background()
	ms, err := loadMigrations(engine)
	if err != nil {
		t.Fatal(err)
	}
	ph := func(query string) string {
		if engine == "postgres" {
			return numberPlaceholders(query)
		}
		return query
	}
	appliedAt := "'2026-11-01T00:00:00.000000000Z'"
	ddl := "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
	if engine == "postgres" {
		appliedAt = "1793491200000000000"
		ddl = "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
	}
	if _, err := db.ExecContext(ctx, ddl); err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, m := range ms {
		if m.version > releaseMigrations[engine] {
			continue
		}
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("release migration %s: %v", m.name, err)
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf("INSERT INTO schema_migrations VALUES (%d, '%s', %s)", m.version, m.name, appliedAt)); err != nil {
			t.Fatal(err)
		}
		applied++
	}
	if applied == len(ms) && engine == "sqlite" {
		t.Fatalf("every SQLite migration is in the release: none is left to upgrade with")
	}
	at := time.Date(2026, 11, 2, 9, 30, 0, 123456789, time.UTC)
	for _, r := range []struct {
		query string
		args  []any
	}{
		{"INSERT INTO learners (id, created_at, time_zone) VALUES (?, ?, ?)", []any{"l1", ts(at), "Europe/Paris"}},
		{"INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at, completed_at) VALUES (?, ?, ?, ?)", []any{"l1", "errors", ts(at), ts(at.Add(time.Minute))}},
		{"INSERT INTO attempts (learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			[]any{"l1", "errors", "quiz", "quiz", 5, 6, false, `{"q1":"a"}`, ts(at)}},
		{"INSERT INTO xp_awards (learner_id, award_key, amount, reason, created_at) VALUES (?, ?, ?, ?, ?)", []any{"l1", "quiz:errors", 40, "Passed", ts(at)}},
		{"INSERT INTO settings (name, value) VALUES (?, ?)", []any{"cookie-hash-key", []byte("\x01\x02\x03")}},
		{"INSERT INTO teachers (email, name, admin, password_hash, created_at) VALUES (?, ?, ?, ?, ?)", []any{"ada@example.org", "Ada", true, "hash", ts(at)}},
		{"INSERT INTO classes (teacher_id, name, join_code, time_zone, leaderboard, created_at) VALUES (1, ?, ?, ?, ?, ?)", []any{"7B", "JOIN7B", "UTC", true, ts(at)}},
		{"INSERT INTO class_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at) VALUES (1, ?, ?, ?, ?, ?, ?)",
			[]any{"l1", "Lin", "lin", "blue cat", "h", ts(at)}},
		{"INSERT INTO qa_posts (lesson_slug, class_id, author_id, author_name, body, html, created_at) VALUES (?, 1, ?, ?, ?, ?, ?)",
			[]any{"errors", "l1", "Lin", "Why?", "<p>Why?</p>", ts(at)}},
	} {
		if _, err := db.ExecContext(ctx, ph(r.query), r.args...); err != nil {
			t.Fatalf("release row %q: %v", r.query, err)
		}
	}
}

// checkUpgraded opens the release's database with this code (migrating it
// in place) and reads its rows back through the store's interfaces.
func checkUpgraded(t *testing.T, s *DB, engine string) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 11, 2, 9, 30, 0, 123456789, time.UTC)
	var n int
	if err := s.row(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if ms, _ := loadMigrations(engine); n != len(ms) {
		t.Errorf("after the upgrade %d migrations are recorded, want %d", n, len(ms))
	}
	if l, err := s.FindLearner(ctx, "l1"); err != nil || !l.CreatedAt.Equal(at) || l.TimeZone != "Europe/Paris" {
		t.Errorf("FindLearner = %+v (%v)", l, err)
	}
	if p, err := s.ProgressByLesson(ctx, "l1"); err != nil || !p["errors"].CompletedAt.Equal(at.Add(time.Minute)) {
		t.Errorf("ProgressByLesson = %+v (%v)", p, err)
	}
	if xp, err := s.TotalXP(ctx, "l1"); err != nil || xp != 40 {
		t.Errorf("TotalXP = %d (%v), want 40", xp, err)
	}
	if q, err := s.QuizScores(ctx, "l1"); err != nil || q["errors"].Best != 5 || q["errors"].Passed {
		t.Errorf("QuizScores = %+v (%v)", q, err)
	}
	if key, err := s.Secret(ctx, "cookie-hash-key", 64); err != nil || string(key) != "\x01\x02\x03" {
		t.Errorf("Secret = %x (%v), want the stored key kept", key, err)
	}
	if tc, err := s.FindTeacherByEmail(ctx, "ada@example.org"); err != nil || !tc.Admin || !tc.CreatedAt.Equal(at) {
		t.Errorf("FindTeacherByEmail = %+v (%v)", tc, err)
	}
	if c, err := s.FindClassByCode(ctx, "JOIN7B"); err != nil || c.MemberCount != 1 || !c.Leaderboard {
		t.Errorf("FindClassByCode = %+v (%v)", c, err)
	}
	if ft, err := s.ClassFirstTries(ctx, 1); err != nil || len(ft.Answers) != 1 || ft.Answers[0].Answers != `{"q1":"a"}` {
		t.Errorf("ClassFirstTries = %+v (%v), want the release's attempt", ft, err)
	}
	if posts, err := s.LessonPosts(ctx, progress.PostQuery{LessonSlug: "errors", ClassIDs: []int64{1}, Viewer: "l1"}); err != nil ||
		len(posts) != 1 || posts[0].Body != "Why?" || !posts[0].CreatedAt.Equal(at) {
		t.Errorf("LessonPosts = %+v (%v)", posts, err)
	}
	// New rows get ids past the release's.
	c, err := s.CreateClass(ctx, progress.Class{TeacherID: 1, Name: "8A", JoinCode: "JOIN8A", TimeZone: "UTC", CreatedAt: at})
	if err != nil || c.ID != 2 {
		t.Errorf("CreateClass after the upgrade = %+v (%v), want id 2", c, err)
	}
}

// TestUpgradeSQLiteRelease migrates a copy of a SQLite file made by the
// release before package storage and reads it back.
func TestUpgradeSQLiteRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "release.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	makeRelease(t, db, "sqlite", func(t time.Time) any { return t.UTC().Format(textTime) })
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatalf("open the release's file: %v", err)
	}
	defer s.Close()
	checkUpgraded(t, s, "sqlite")
}

// testUpgradePostgresRelease does the same on a PostgreSQL database.
func testUpgradePostgresRelease(t *testing.T, url string) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	makeRelease(t, db, "postgres", func(t time.Time) any { return t.UnixNano() })
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatalf("open the release's database: %v", err)
	}
	defer s.Close()
	checkUpgraded(t, s, "postgres")
}
