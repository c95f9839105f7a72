package main

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/postgres/pgtest"
)

// startServerOn runs the real server in this process on the database db
// (a file or a postgres:// URL) and returns its base URL; it stops when the
// test ends.
func startServerOn(t *testing.T, db string, adjust ...func(*serveConfig)) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan string, 1)
	done := make(chan error, 1)
	cfg := serveConfig{addr: "127.0.0.1:0", db: db, logLevel: slog.LevelWarn, sandbox: testSandboxConfig(t), runsPerMinute: 600}
	for _, f := range adjust {
		f(&cfg)
	}
	logs := serverLog(t)
	go func() { done <- serve(ctx, cfg, logs, listening) }()
	var base string
	select {
	case addr := <-listening:
		base = "http://" + addr
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server stopped with an error: %v", err)
		}
	})
	return base
}

// TestServeOnPostgres runs two servers on one PostgreSQL database, as two
// replicas behind a load balancer: a cookie from one is good on the other,
// the same passing quiz posted to both at once is awarded once, and each
// server shows the XP the other granted at once, although it had cached
// the learner's summary before.
func TestServeOnPostgres(t *testing.T) {
	cluster := pgtest.Start(t)
	db := cluster.NewDatabase(t)
	a, b := startServerOn(t, db), startServerOn(t, db)
	lesson := loopLessons(t)[0]
	c := newClient(t)
	if resp, body := get(t, c, a+"/lessons/"+lesson.slug); resp.StatusCode != http.StatusOK || !strings.Contains(body, "xp-total") {
		t.Fatalf("server a answered the lesson with %d", resp.StatusCode)
	}
	// The same cookie on b, which caches this learner's summary (0 XP).
	for _, ck := range c.Jar.Cookies(mustURL(t, a)) {
		c.Jar.SetCookies(mustURL(t, b), []*http.Cookie{ck})
	}
	_, page := get(t, c, b+"/lessons/"+lesson.slug)
	if xp, ok := pageXP(page); !ok || xp != 0 {
		t.Fatalf("b shows XP %d (found %v) before any post, want 0", xp, ok)
	}
	form, err := quizForm(page, lesson.quiz)
	if err != nil {
		t.Fatal(err)
	}

	const posts = 8
	var mu sync.Mutex
	grants, total := 0, 0
	var wg sync.WaitGroup
	for i := range posts {
		base := []string{a, b}[i%2]
		wg.Go(func() {
			status, r, err := postJSON(c, base+"/lessons/"+lesson.slug+"/widgets/"+lesson.quiz.ID, form)
			// One post grades the attempt; the others find it over (410),
			// whichever server they reach.
			if err != nil || (status != http.StatusOK && status != http.StatusGone) || (status == http.StatusOK && !r.Passed) {
				t.Errorf("quiz post to %s: %d passed=%v (%v)", base, status, r.Passed, err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if r.Awarded > 0 {
				grants++
				total = r.Awarded
			}
		})
	}
	wg.Wait()
	if grants != 1 || total <= 0 {
		t.Fatalf("%d of %d passing posts spread over two servers were awarded, want 1", grants, posts)
	}
	for _, base := range []string{a, b} {
		_, body := get(t, c, base+"/")
		if xp, _ := pageXP(body); xp != total {
			t.Errorf("%s shows XP %d after the award, want %d", base, xp, total)
		}
	}
	// b cached the learner's summary before a's write; the very next page
	// on b shows the new XP (b's cache would otherwise keep it a minute).
	_, body := get(t, c, b+"/")
	before, _ := pageXP(body)
	loop := loopLessons(t)
	lessonB := loop[1%len(loop)]
	_, page = get(t, c, a+"/lessons/"+lessonB.slug)
	if form, err = quizForm(page, lessonB.quiz); err != nil {
		t.Fatal(err)
	}
	status, r, err := postJSON(c, a+"/lessons/"+lessonB.slug+"/widgets/"+lessonB.quiz.ID, form)
	if err != nil || status != http.StatusOK || r.Learner.XP <= before {
		t.Fatalf("second quiz on a: %d, XP %d (%v), want more than %d", status, r.Learner.XP, err, before)
	}
	_, body = get(t, c, b+"/")
	if xp, _ := pageXP(body); xp != r.Learner.XP {
		t.Errorf("b shows XP %d right after a's write, want %d", xp, r.Learner.XP)
	}
}

// TestKeyCommandsOnPostgres: rotate-keys replaces the key every replica
// reads, and backup points to PostgreSQL's own tools.
func TestKeyCommandsOnPostgres(t *testing.T) {
	cluster := pgtest.Start(t)
	db := cluster.NewDatabase(t)
	ctx := context.Background()
	st, _, err := openDatabase(ctx, db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	before, err := st.Secret(ctx, cookieKeyName, 64)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := run(ctx, []string{"rotate-keys", "--db", db}, &stdout, &stderr); code != 0 {
		t.Fatalf("rotate-keys exited %d: %s", code, &stderr)
	}
	key, old, err := cookieKeys(ctx, st, defaultKeyGrace, time.Now())
	if err != nil || string(key) == string(before) || len(old) != 1 || string(old[0]) != string(before) {
		t.Errorf("after rotate-keys: new key %v, old keys %d (%v); want a new key and the old one in grace", string(key) != string(before), len(old), err)
	}
	stderr.Reset()
	if code := run(ctx, []string{"backup", "--db", db, filepath.Join(t.TempDir(), "copy.db")}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "pg_dump") {
		t.Errorf("backup of a PostgreSQL URL = exit %d, %q; want a refusal naming pg_dump", code, &stderr)
	}
}

// TestTeacherCommandOnPostgres: "learn teacher" with a postgres:// --db
// works on that database (it once made a SQLite file of that name), so a
// teacher added there signs in on every replica.
func TestTeacherCommandOnPostgres(t *testing.T) {
	cluster := pgtest.Start(t)
	db := cluster.NewDatabase(t)
	ctx := context.Background()
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	if err := runTeacher(ctx, []string{"add", "pg@school.example", "--db", db}, strings.NewReader("a long enough password\n"), &out, &errOut); err != nil {
		t.Fatalf("teacher add on PostgreSQL: %v (%s)", err, &errOut)
	}
	st, _, err := openDatabase(ctx, db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if tc, err := st.FindTeacherByEmail(ctx, "pg@school.example"); err != nil || !strings.HasPrefix(tc.PasswordHash, "$2") {
		t.Errorf("the teacher in PostgreSQL = %+v, %v", tc, err)
	}
	out.Reset()
	if err := runTeacher(ctx, []string{"list", "--db", db}, strings.NewReader(""), &out, &errOut); err != nil || !strings.Contains(out.String(), "pg@school.example") {
		t.Errorf("teacher list on PostgreSQL = %q, %v", &out, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the command made files in the working folder: %v", entries)
	}
}

// TestLimitsAcrossReplicas: two servers on one PostgreSQL count a learner's
// answers together. With 4 answers a minute (2 at once) per learner, the
// third answer is refused whichever server takes it; counted per server,
// all four would have gone through.
func TestLimitsAcrossReplicas(t *testing.T) {
	cluster := pgtest.Start(t)
	db := cluster.NewDatabase(t)
	limit := func(cfg *serveConfig) { cfg.postsPerMinute = 4 }
	a, b := startServerOn(t, db, limit), startServerOn(t, db, limit)
	lesson := loopLessons(t)[0]
	c := newClient(t)
	_, page := get(t, c, a+"/lessons/"+lesson.slug)
	for _, ck := range c.Jar.Cookies(mustURL(t, a)) {
		c.Jar.SetCookies(mustURL(t, b), []*http.Cookie{ck})
	}
	form, err := quizForm(page, lesson.quiz)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []int
	for i := range 4 {
		base := []string{a, b}[i%2]
		status, _, err := postJSON(c, base+"/lessons/"+lesson.slug+"/widgets/"+lesson.quiz.ID, form)
		if err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, status)
	}
	// The first grades the quiz attempt and the second finds it over (410):
	// both spent a try, so the third and fourth are refused on either
	// server.
	want := []int{http.StatusOK, http.StatusGone, http.StatusTooManyRequests, http.StatusTooManyRequests}
	if !slices.Equal(statuses, want) {
		t.Errorf("four answers alternating between two servers answered %v, want %v", statuses, want)
	}
}
