package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"learn/postgres"
	"learn/postgres/pgtest"
	"learn/progress"
	"learn/quiz"
	"learn/store"
)

// fillSQLite writes some of everything a learner leaves behind into a
// SQLite file, through the store's own methods.
func fillSQLite(t *testing.T, path string, learners []string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 123456789, time.UTC)
	for i, id := range learners {
		at := t0.Add(time.Duration(i) * time.Minute)
		if _, err := st.EnsureLearner(ctx, id, at); err != nil {
			t.Fatal(err)
		}
		if err := st.SetTimeZone(ctx, id, "Europe/Paris"); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkLessonOpened(ctx, id, "a", at); err != nil {
			t.Fatal(err)
		}
		missed := quiz.MissedCard(at)
		if _, err := st.RecordAttempt(ctx, progress.Attempt{LearnerID: id, LessonSlug: "a", WidgetID: "quiz", Kind: "quiz",
			Score: 5, Total: 6, Passed: true, Answers: `{"q1":["x"]}`, At: at},
			progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a:quiz", Amount: 50, Reason: "Passed"}, CompleteLesson: true,
				Missed: []progress.ReviewCard{{Key: "a/quiz/q1", LessonSlug: "a", WidgetID: "quiz", ItemID: "q1", Card: missed}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.RecordSubmission(ctx, progress.Submission{LearnerID: id, ExerciseID: "ex", Mode: "submit",
			Code: "print('" + id + "')", Passed: true, Report: "{}", At: at.Add(time.Second)},
			&progress.Award{Key: "exercise:ex", Amount: 20, Reason: "Solved"}); err != nil {
			t.Fatal(err)
		}
		before, err := st.FindReview(ctx, id, "a/quiz/q1")
		if err != nil {
			t.Fatal(err)
		}
		after := before
		after.Card = quiz.Schedule(before.Card, quiz.RatingFor(true), at.Add(time.Hour))
		if _, _, err := st.AnswerReview(ctx, progress.ReviewAnswer{Before: before, After: after,
			Attempt: progress.Attempt{LearnerID: id, LessonSlug: "a", WidgetID: "quiz", Kind: "review", Score: 1, Total: 1, Passed: true, Answers: "{}", At: at.Add(time.Hour)},
			Award:   &progress.Award{Key: "review:a/quiz/q1:0", Amount: 2, Reason: "Review"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Secret(ctx, "cookie-hash-key", 64); err != nil {
		t.Fatal(err)
	}
}

// learnerView is everything the Store interface tells of one learner.
type learnerView struct {
	Learner   progress.Learner
	Progress  map[string]progress.LessonProgress
	XP        int
	History   []progress.XPEntry
	Quizzes   map[string]progress.QuizScore
	Counts    map[string]int
	Activity  []time.Time
	Codes     map[string]string
	Exercises map[string]progress.ExerciseState
	Reviews   []progress.ReviewCard
}

func viewOf(t *testing.T, s progress.Store, id string) learnerView {
	t.Helper()
	ctx := context.Background()
	var v learnerView
	var err error
	check := func(e error) {
		if e != nil {
			t.Fatal(e)
		}
	}
	v.Learner, err = s.FindLearner(ctx, id)
	check(err)
	v.Progress, err = s.ProgressByLesson(ctx, id)
	check(err)
	v.XP, err = s.TotalXP(ctx, id)
	check(err)
	v.History, err = s.XPHistory(ctx, id)
	check(err)
	v.Quizzes, err = s.QuizScores(ctx, id)
	check(err)
	v.Counts, err = s.AttemptCounts(ctx, id)
	check(err)
	v.Activity, err = s.ActivityTimes(ctx, id)
	check(err)
	v.Codes, err = s.LatestCodes(ctx, id)
	check(err)
	v.Exercises, err = s.ExerciseStates(ctx, id)
	check(err)
	v.Reviews, err = s.DueReviews(ctx, id, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), 100)
	check(err)
	return v
}

func TestMigrateDB(t *testing.T) {
	cluster := pgtest.Start(t)
	ctx := context.Background()
	learners := []string{"0123456789abcdef0123456789abcde0", "0123456789abcdef0123456789abcde1", "0123456789abcdef0123456789abcde2"}
	from := filepath.Join(t.TempDir(), "learn.db")
	fillSQLite(t, from, learners)
	to := cluster.NewDatabase(t)

	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"migrate-db", "--from", from, "--to", to}, &stdout, &stderr); code != 0 {
		t.Fatalf("migrate-db exited %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	for _, want := range []string{"learners", "xp_awards", "submissions", "every table's count matches"} {
		if !strings.Contains(out, want) {
			t.Errorf("migrate-db output lacks %q:\n%s", want, out)
		}
	}

	src, err := store.Open(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := postgres.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		n, err := src.CountRows(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^\s*` + table + `\s+` + strconv.FormatInt(n, 10) + `\s*$`).MatchString(out) {
			t.Errorf("the output does not report table %s with %d rows:\n%s", table, n, out)
		}
	}
	for _, id := range learners {
		if diff := cmp.Diff(viewOf(t, src, id), viewOf(t, dst, id)); diff != "" {
			t.Errorf("learner %s differs after the copy (-sqlite +postgres):\n%s", id, diff)
		}
	}
	a, _ := src.Secret(ctx, "cookie-hash-key", 64)
	b, _ := dst.Secret(ctx, "cookie-hash-key", 64)
	if !bytes.Equal(a, b) {
		t.Error("the cookie key was not carried over: every learner would lose their progress")
	}

	refusals := []struct {
		name string
		args []string
		want string
	}{
		{"a non-empty target", []string{"--from", from, "--to", to}, "not empty"},
		{"a missing source", []string{"--from", filepath.Join(t.TempDir(), "typo.db"), "--to", to}, "no such file"},
		{"a target that is not a URL", []string{"--from", from, "--to", "other.db"}, "not a PostgreSQL URL"},
		{"no target", []string{"--from", from}, "both --from"},
	}
	for _, tc := range refusals {
		t.Run("refuses "+tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(ctx, append([]string{"migrate-db"}, tc.args...), &stdout, &stderr)
			if code == 0 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("migrate-db %v = exit %d, stderr %q; want a failure mentioning %q", tc.args, code, &stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(from), "typo.db")); err == nil {
		t.Error("a missing --from file was created")
	}
	if xp, _ := dst.TotalXP(ctx, learners[0]); xp != 72 {
		t.Errorf("after the refused second copy, XP = %d, want 72 (copied once)", xp)
	}
}

// TestMigrateDBKeepsLearners moves a server from SQLite to PostgreSQL: a
// learner's cookie from before still shows their XP afterwards.
func TestMigrateDBKeepsLearners(t *testing.T) {
	cluster := pgtest.Start(t)
	from := filepath.Join(t.TempDir(), "learn.db")
	base, stop := startServer(t, from)
	c := newClient(t)
	lesson := loopLessons(t)[0]
	_, page := get(t, c, base+"/lessons/"+lesson.slug)
	form, err := quizForm(page, lesson.quiz)
	if err != nil {
		t.Fatal(err)
	}
	status, r, err := postJSON(c, base+"/lessons/"+lesson.slug+"/widgets/"+lesson.quiz.ID, form)
	if err != nil || status != http.StatusOK || r.Awarded == 0 {
		t.Fatalf("quiz post: %d awarded %d (%v)", status, r.Awarded, err)
	}
	stop()

	to := cluster.NewDatabase(t)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"migrate-db", "--from", from, "--to", to}, &stdout, &stderr); code != 0 {
		t.Fatalf("migrate-db exited %d: %s", code, &stderr)
	}
	base2 := startServerOn(t, to)
	for _, ck := range c.Jar.Cookies(mustURL(t, base)) {
		c.Jar.SetCookies(mustURL(t, base2), []*http.Cookie{ck})
	}
	_, body := get(t, c, base2+"/")
	if xp, _ := pageXP(body); xp != r.Learner.XP {
		t.Errorf("on PostgreSQL the learner shows XP %d, want the %d earned on SQLite", xp, r.Learner.XP)
	}
	if !lessonState(body, lesson.slug, "completed") {
		t.Errorf("the lesson completed on SQLite is not completed on PostgreSQL")
	}
}

// TestMigrateDBNamesRefusedText copies a SQLite file made before text was
// checked at the edge, holding a name in invalid UTF-8: migrate-db stops
// in its one transaction and names the table, the row and the column, and
// the target stays empty.
func TestMigrateDBNamesRefusedText(t *testing.T) {
	cluster := pgtest.Start(t)
	ctx := context.Background()
	from := filepath.Join(t.TempDir(), "learn.db")
	fillSQLite(t, from, []string{"0123456789abcdef0123456789abcde0"})
	st, err := store.Open(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetTimeZone(ctx, "0123456789abcdef0123456789abcde0", "Europe/\xffParis"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	to := cluster.NewDatabase(t)
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"migrate-db", "--from", from, "--to", to}, &stdout, &stderr)
	msg := stderr.String()
	for _, want := range []string{"table learners", "row 1", "0123456789abcdef0123456789abcde0", "column time_zone", "not valid UTF-8"} {
		if code == 0 || !strings.Contains(msg, want) {
			t.Errorf("migrate-db = exit %d, stderr %q; want it to name %q", code, msg, want)
		}
	}
	dst, err := postgres.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if _, err := dst.FindLearner(ctx, "0123456789abcdef0123456789abcde0"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("after the refusal the target holds the learner (%v): the copy was not one transaction", err)
	}
}
