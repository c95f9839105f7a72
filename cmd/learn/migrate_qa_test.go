package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"learn/postgres"
	"learn/postgres/pgtest"
	"learn/progress"
	"learn/store"
)

// TestMigrateDBKeepsQA moves a public thread from SQLite to PostgreSQL: the
// question, its answer, a helpful mark, a report, a notice and a public
// name arrive, and a post created afterwards takes the next id.
func TestMigrateDBKeepsQA(t *testing.T) {
	ctx := context.Background()
	cluster := pgtest.Start(t)
	from := filepath.Join(t.TempDir(), "learn.db")
	st, err := store.Open(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	const asker, answerer = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
	for _, l := range []string{asker, answerer} {
		if err := st.SetPublicName(ctx, l, "Name "+l[:4], "name "+l[:4], now); err != nil {
			t.Fatal(err)
		}
	}
	q, err := st.CreatePost(ctx, progress.Post{LessonSlug: "a", AuthorID: asker, AuthorName: "Name 0123", Body: "why?", HTML: "<p>why?</p>", CreatedAt: now}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.CreatePost(ctx, progress.Post{LessonSlug: "a", QuestionID: q.ID, AuthorID: answerer, AuthorName: "Name fedc", Body: "because", HTML: "<p>because</p>", CreatedAt: now.Add(time.Minute)},
		&progress.Notice{LearnerID: asker, Kind: progress.NoticeAnswer, QuestionID: q.ID, ActorName: "Name fedc", CreatedAt: now.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.MarkHelpful(ctx, a.ID, asker, now.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ReportPost(ctx, q.ID, answerer, "rude", now.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	st.Close()

	to := cluster.NewDatabase(t)
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"migrate-db", "--from", from, "--to", to}, &stdout, &stderr); code != 0 {
		t.Fatalf("migrate-db exited %d: %s", code, &stderr)
	}
	pg, err := postgres.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	posts, err := pg.LessonPosts(ctx, progress.PostQuery{LessonSlug: "a", Public: true, Viewer: asker})
	if err != nil || len(posts) != 2 || posts[0].ID != q.ID || posts[1].ID != a.ID || posts[1].Helpful != 1 || !posts[1].MarkedHelpful ||
		posts[0].Reports != 1 || !posts[0].CreatedAt.Equal(now) {
		t.Errorf("posts on PostgreSQL = %+v (%v)", posts, err)
	}
	if ns, err := pg.Notices(ctx, asker, 10); err != nil || len(ns) != 1 || ns[0].PostID != a.ID || ns[0].LessonSlug != "a" {
		t.Errorf("notices on PostgreSQL = %+v (%v)", ns, err)
	}
	if name, err := pg.PublicName(ctx, answerer); err != nil || name != "Name fedc" {
		t.Errorf("public name on PostgreSQL = %q (%v)", name, err)
	}
	p, err := pg.CreatePost(ctx, progress.Post{LessonSlug: "a", AuthorID: asker, AuthorName: "Name 0123", Body: "more", HTML: "<p>more</p>", CreatedAt: now.Add(time.Hour)}, nil)
	if err != nil || p.ID <= a.ID {
		t.Errorf("a post created after the copy = %d (%v), want an id past %d", p.ID, err, a.ID)
	}
}
