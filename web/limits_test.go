package web

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"learn/quiz"
	"learn/sandbox"
)

// dbSize is the bytes of a SQLite database with its write-ahead log.
func dbSize(t *testing.T, path string) int64 {
	t.Helper()
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// checkpoint copies a SQLite database's write-ahead log into the file and
// truncates the log, through a connection of its own.
func checkpoint(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatalf("checkpoint %s: %v", path, err)
	}
}

// junkForm is a form of about size bytes: base's fields, then fields that
// name nothing a widget offers.
func junkForm(base url.Values, size int) string {
	f := url.Values{}
	for k, v := range base {
		f[k] = v
	}
	for i := 0; len(f.Encode()) < size-600; i++ {
		f.Set("item.x"+strconv.Itoa(i), strings.Repeat("A", 500))
	}
	return f.Encode()
}

func postForm(t *testing.T, c *http.Client, u, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = strings.NewReader("").WriteTo(&b)
	buf := make([]byte, 64<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, resp.Header, b.String()
}

func TestGradedPostLimits(t *testing.T) {
	t.Run("every form of the course fits well under the cap", func(t *testing.T) {
		s := newTestServer(t)
		largest := 0
		for _, l := range s.course().Lessons {
			for _, seg := range l.Segments {
				w := seg.Widget
				if w == nil || w.Exercise != nil {
					continue
				}
				f := rightAnswers(w)
				f.Set("attempt", "999999")
				if q, ok := w.Value.(*quiz.Quiz); ok {
					ids := make([]string, len(q.Questions))
					for i, qq := range q.Questions {
						ids[i] = qq.ID
					}
					f.Set("order", strings.Join(ids, ","))
				}
				largest = max(largest, len(f.Encode()))
			}
		}
		if largest == 0 || largest > DefaultMaxFormBytes/4 {
			t.Errorf("the largest form is %d bytes; want some, under a quarter of the %d-byte cap", largest, DefaultMaxFormBytes)
		}
	})

	t.Run("huge posts are refused and do not grow the database", func(t *testing.T) {
		dbPath := ""
		s := newTestServer(t, func(c *testSetup) {
			c.Limits.AnswersPerMinute, c.Limits.AnswersPerMinutePerAddress = -1, -1
			dbPath = c.DBPath
		})
		ts := httptest.NewServer(s)
		defer ts.Close()
		c := newClient(t, ts.URL)
		lesson, w := firstWidget(t, s, quiz.KindClassify)
		action := ts.URL + widgetAction(lesson.Slug, w.ID)
		if status, _, _ := postForm(t, c.http, action, rightAnswers(w).Encode()); status != 200 {
			t.Fatalf("a right check = %d", status)
		}
		// Each post is a transaction of a few pages in the write-ahead log
		// whatever its size, so the baseline is as many posts of the same
		// answers without the padding.
		const posts = 30
		growth := func(body string) int64 {
			// Start from an empty log: its file keeps its largest size, so
			// where an earlier checkpoint left it would decide the figure.
			checkpoint(t, dbPath)
			before := dbSize(t, dbPath)
			for i := range posts {
				if status, _, page := postForm(t, c.http, action, body); status != 200 {
					t.Fatalf("post %d of a %d-byte form under the cap = %d %.200s", i+1, len(body), status, page)
				}
			}
			return dbSize(t, dbPath) - before
		}
		small := rightAnswers(w).Encode()
		under := junkForm(rightAnswers(w), DefaultMaxFormBytes)
		if len(under) > DefaultMaxFormBytes {
			t.Fatalf("junk form of %d bytes is over the cap", len(under))
		}
		baseline := growth(small)
		grown := growth(under)
		if grown > baseline+posts*2<<10 {
			t.Errorf("%d posts of %d bytes grew the database by %d bytes, %d of %d bytes by %d: over 2 KiB a post more",
				posts, len(under), grown, posts, len(small), baseline)
		}
		t.Logf("%d posts grew the database and its log by %d bytes with %d-byte forms, by %d with %d-byte forms", posts, grown, len(under), baseline, len(small))
		before := dbSize(t, dbPath)

		for _, size := range []int{DefaultMaxFormBytes + 1024, 1 << 20} {
			body := junkForm(rightAnswers(w), size)
			status, _, page := postForm(t, c.http, action, body)
			if status != http.StatusRequestEntityTooLarge || !strings.Contains(page, "larger than the") {
				t.Errorf("a %d-byte form = %d, want 413 saying it is too large: %.200s", len(body), status, page)
			}
			// Sent without a length, the cap still holds.
			req, _ := http.NewRequest(http.MethodPost, action, struct{ *strings.Reader }{strings.NewReader(body)})
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := c.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("a chunked %d-byte form = %d, want 413", len(body), resp.StatusCode)
			}
		}
		status, _, _ := postForm(t, c.http, ts.URL+"/review", junkForm(url.Values{"item": {"x"}}, DefaultMaxFormBytes*2))
		if status != http.StatusRequestEntityTooLarge {
			t.Errorf("a review answer over the cap = %d, want 413", status)
		}
		if grown := dbSize(t, dbPath) - before; grown > 0 {
			t.Errorf("refused posts grew the database by %d bytes", grown)
		}
	})

	t.Run("graded posts are rate limited per learner and per address", func(t *testing.T) {
		s := newTestServer(t, func(c *testSetup) { c.Limits.AnswersPerMinute, c.Limits.AnswersPerMinutePerAddress = 4, 8 })
		ts := httptest.NewServer(s)
		defer ts.Close()
		lesson, w := firstWidget(t, s, quiz.KindClassify)
		action := ts.URL + widgetAction(lesson.Slug, w.ID)
		form := rightAnswers(w).Encode()
		var statuses []int
		c := newClient(t, ts.URL)
		for range 3 {
			status, h, body := postForm(t, c.http, action, form)
			statuses = append(statuses, status)
			if status == http.StatusTooManyRequests {
				if ra, err := strconv.Atoi(h.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
					t.Errorf("Retry-After = %q, want 1–60 seconds", h.Get("Retry-After"))
				}
				if !strings.Contains(body, "faster than 4 a minute") {
					t.Errorf("the 429 does not say the limit: %.300s", body)
				}
			}
		}
		if statuses[0] != 200 || statuses[1] != 200 || statuses[2] != http.StatusTooManyRequests {
			t.Errorf("one learner's posts = %v, want 200, 200, 429", statuses)
		}
		// Fresh cookies from one address share its limit: 8 a minute, 4 at once.
		statuses = nil
		for range 4 {
			status, _, body := postForm(t, newClient(t, ts.URL).http, action, form)
			statuses = append(statuses, status)
			if status == http.StatusTooManyRequests && !strings.Contains(body, "one address may send 8 a minute") {
				t.Errorf("the address's 429 does not say its limit: %.300s", body)
			}
		}
		if statuses[0] != 200 || statuses[1] != 200 || statuses[2] != 429 || statuses[3] != 429 {
			t.Errorf("posts from new learners at one address = %v, want 200, 200, then 429 (two spent above)", statuses)
		}
		// Pages are not limited.
		if status, _ := c.get("/lessons/" + lesson.Slug); status != 200 {
			t.Errorf("a lesson page = %d after the limit", status)
		}
	})
}

func TestRunLimitPerAddress(t *testing.T) {
	run := func(t *testing.T, c *http.Client, base string) (int, http.Header, string) {
		return apiPost(t, c, base+"/api/exercises/report-a-failure/run", `{"code": "print(1)"}`)
	}
	t.Run("dropping the cookie gains nothing", func(t *testing.T) {
		s := newTestServer(t, func(c *testSetup) {
			c.Grader = testSandbox(t)
			c.Limits.RunsPerMinute, c.Limits.RunBurst, c.Limits.RunsPerMinutePerAddress = 600, 100, 6
		})
		ts := httptest.NewServer(s)
		defer ts.Close()
		var statuses []int
		var last http.Header
		var lastBody string
		for range 4 {
			// A fresh learner each time, as a client that drops its cookie.
			status, h, body := run(t, newClient(t, ts.URL).http, ts.URL)
			statuses = append(statuses, status)
			last, lastBody = h, body
		}
		if statuses[0] != 200 || statuses[2] != 200 || statuses[3] != http.StatusTooManyRequests {
			t.Fatalf("runs from fresh cookies at one address = %v, want 3 × 200 then 429", statuses)
		}
		if last.Get("Retry-After") == "" || !strings.Contains(lastBody, "one address may run code 6 times a minute") {
			t.Errorf("the 429 lacks Retry-After or the limit: %v %s", last, lastBody)
		}
		// Without any cookie, runs count as one anonymous learner of the address.
		if status, _, _ := run(t, http.DefaultClient, ts.URL); status != http.StatusTooManyRequests {
			t.Errorf("a run without a cookie = %d, want 429 too", status)
		}
	})
	t.Run("anonymous runs of an address share one learner's limit", func(t *testing.T) {
		s := newTestServer(t, func(c *testSetup) {
			c.Grader = testSandbox(t)
			c.Limits.RunsPerMinute, c.Limits.RunBurst, c.Limits.RunsPerMinutePerAddress = 2, 2, -1
		})
		ts := httptest.NewServer(s)
		defer ts.Close()
		var statuses []int
		for range 3 {
			status, _, _ := run(t, &http.Client{}, ts.URL) // no jar: never a known cookie
			statuses = append(statuses, status)
		}
		if statuses[0] != 200 || statuses[1] != 200 || statuses[2] != http.StatusTooManyRequests {
			t.Errorf("cookieless runs = %v, want 200, 200, 429", statuses)
		}
		// A learner with a cookie at the same address still runs.
		if status, _, _ := run(t, newClient(t, ts.URL).http, ts.URL); status != 200 {
			t.Errorf("a learner with a cookie = %d, want 200", status)
		}
	})
	t.Run("the address limit can be turned off for a classroom", func(t *testing.T) {
		s := newTestServer(t, func(c *testSetup) {
			c.Grader = testSandbox(t)
			c.Limits.RunsPerMinute, c.Limits.RunBurst, c.Limits.RunsPerMinutePerAddress = 600, 100, -1
		})
		ts := httptest.NewServer(s)
		defer ts.Close()
		for i := range 8 {
			if status, _, body := run(t, newClient(t, ts.URL).http, ts.URL); status != 200 {
				t.Fatalf("run %d from a new learner = %d %s, want 200 with no address limit", i+1, status, body)
			}
		}
	})
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestOverloadIsNotLoggedAsError(t *testing.T) {
	cfg := sandbox.DefaultConfig()
	cfg.WasmPath = filepath.Join("..", sandbox.DefaultWasmPath)
	cfg.MaxConcurrent, cfg.QueueSize, cfg.PoolSize = 1, 1, 0
	cfg.Timeout = 2 * time.Second
	small, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close(context.Background())
	if err := small.Warm(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	s := newTestServer(t, func(c *testSetup) {
		c.Grader = small
		c.Limits.RunsPerMinute, c.Limits.RunBurst, c.Limits.RunsPerMinutePerAddress = 600, 100, -1
		c.Limits.AnswersPerMinute = 2
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	ts := httptest.NewServer(s)
	defer ts.Close()

	var wg sync.WaitGroup
	var busy atomic.Int32
	for range 6 {
		c := newClient(t, ts.URL)
		wg.Go(func() {
			if status, _, _ := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/run", `{"code": "while True: pass"}`); status == http.StatusServiceUnavailable {
				busy.Add(1)
			}
		})
	}
	// Rate-limited posts, and clients gone before their pages are drawn.
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	for range 4 {
		postForm(t, c.http, ts.URL+widgetAction(lesson.Slug, w.ID), rightAnswers(w).Encode())
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, path := range []string{"/no/such/page", "/lessons/" + lesson.Slug, "/lessons/no-such-lesson"} {
		s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil).WithContext(gone))
	}
	wg.Wait()
	if busy.Load() == 0 {
		t.Fatal("no run was refused with 503: the test did not overload the sandbox")
	}
	out := logs.String()
	for _, bad := range []string{"level=ERROR", "level=WARN", "context canceled"} {
		if strings.Contains(out, bad) {
			t.Errorf("the log holds %q after overload, rate limits and clients gone:\n%s", bad, out)
		}
	}
	if n := strings.Count(out, "requests not served"); n != 1 {
		t.Errorf("%d summary lines, want exactly 1 within a minute:\n%s", n, out)
	}
}
