package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/sandbox"
)

// startServer runs the real server on a free port with the given database
// file and returns its base URL. The server stops when the test ends or
// when stop is called.
func startServer(t *testing.T, db string) (base string, stop func()) {
	t.Helper()
	return startServerWith(t, db, nil)
}

// startServerWith is startServer with the configuration changed by change
// (nil for none).
func startServerWith(t *testing.T, db string, change func(*serveConfig)) (base string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan string, 1)
	done := make(chan error, 1)
	cfg := serveConfig{addr: "127.0.0.1:0", db: db, logLevel: slog.LevelWarn, sandbox: testSandboxConfig(t), runsPerMinute: 600}
	if change != nil {
		change(&cfg)
	}
	logs := serverLog(t)
	go func() { done <- serve(ctx, cfg, logs, listening) }()
	select {
	case addr := <-listening:
		base = "http://" + addr
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v", err)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("server did not start within 30 s")
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server stopped with an error: %v", err)
		}
	}
	t.Cleanup(stop)
	return base, stop
}

// serverLog returns a logger for a test's server that keeps the server's
// log (info and above) and prints it if the test fails, so that a failure
// in CI says what the server saw.
func serverLog(t *testing.T) *slog.Logger {
	t.Helper()
	var mu sync.Mutex
	var buf bytes.Buffer
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		out := buf.Bytes()
		if len(out) > 64<<10 {
			out = out[len(out)-64<<10:]
		}
		t.Logf("the server's log (last 64 KiB):\n%s", out)
	})
	return slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// writerFunc is a function as an io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func newClient(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 10 * time.Second}
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", url, err)
	}
	return resp, string(body)
}

func TestServePages(t *testing.T) {
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	c := newClient(t)

	tests := []struct {
		name   string
		path   string
		status int
		want   []string
	}{
		{"home lists lessons in order", "/", 200, []string{
			"<title>Course · MCP tool errors and annotations</title>", `data-testid="lesson-two-ways-to-fail"`, "1. Two ways a tool call fails", "not started",
		}},
		{"lesson page", "/lessons/two-ways-to-fail", 200, []string{
			"<h1 id=\"lesson-title\">Two ways a tool call fails</h1>",
			`data-testid="objectives"`, `data-testid="takeaways"`,
			"<table>", "<th>",
			`<pre tabindex="0" class="hl-chroma"><code>`, `<span class="hl-nt">&#34;jsonrpc&#34;</span>`,
			`rel="next"`, `href="#main"`, `<main id="main"`,
		}},
		{"annotations lesson", "/lessons/tool-annotations", 200, []string{"readOnlyHint", "<table>", `rel="prev"`}},
		{"unknown lesson", "/lessons/no-such-lesson", 404, []string{"Page not found", "There is no lesson called &#34;no-such-lesson&#34;"}},
		{"unknown page", "/nowhere", 404, []string{"Page not found", "Back to the course"}},
		{"healthz", "/healthz", 200, []string{"ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, c, base+tt.path)
			if resp.StatusCode != tt.status {
				t.Fatalf("GET %s = %d, want %d\n%s", tt.path, resp.StatusCode, tt.status, body)
			}
			for _, want := range tt.want {
				if !strings.Contains(body, want) {
					t.Errorf("GET %s: body lacks %q", tt.path, want)
				}
			}
			h := resp.Header
			csp := h.Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("Content-Security-Policy = %q", csp)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
				t.Errorf("security headers missing: %v", h)
			}
			if strings.Contains(body, "<script>") || strings.Contains(body, " style=") {
				t.Errorf("GET %s has inline script or style", tt.path)
			}
		})
	}

	t.Run("readyz once the sandbox is warm", func(t *testing.T) {
		deadline := time.Now().Add(90 * time.Second)
		for {
			resp, body := get(t, c, base+"/readyz")
			if resp.StatusCode == 200 && strings.Contains(body, "ready") {
				return
			}
			if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "sandbox") || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("readyz while warming = %d %q, want 503 naming the sandbox with Retry-After", resp.StatusCode, body)
			}
			if time.Now().After(deadline) {
				t.Fatalf("the sandbox was not ready within 90 s: %s", body)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})

	t.Run("hashed static url with long cache", func(t *testing.T) {
		_, body := get(t, c, base+"/")
		m := regexp.MustCompile(`href="(/static/app\.[0-9a-f]{12}\.css)"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("home page links no hashed app.css")
		}
		resp, css := get(t, c, base+m[1])
		if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.Contains(css, "prefers-color-scheme") {
			t.Errorf("GET %s = %d, Cache-Control %q", m[1], resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		resp, _ = get(t, c, base+"/static/app.css")
		if resp.StatusCode != 404 {
			t.Errorf("unhashed asset answered %d, want 404", resp.StatusCode)
		}
	})

	t.Run("learner cookie", func(t *testing.T) {
		resp, _ := get(t, newClient(t), base+"/")
		var found bool
		for _, ck := range resp.Cookies() {
			if ck.Name == "learn_learner" {
				found = true
				if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure {
					t.Errorf("cookie attributes = %+v, want HttpOnly, SameSite=Lax, not Secure over plain HTTP", ck)
				}
			}
		}
		if !found {
			t.Error("no learner cookie set")
		}
	})

	t.Run("body limit", func(t *testing.T) {
		resp, err := c.Post(base+"/", "text/plain", strings.NewReader(strings.Repeat("x", 2<<20)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("2 MiB post = %d, want 413", resp.StatusCode)
		}
	})

	t.Run("cross-origin post refused", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, base+"/", strings.NewReader("a=1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site post = %d, want 403", resp.StatusCode)
		}
	})
}

// TestServeColdCacheSnapshot starts the server as a first start on a new
// machine does, with the snapshot start on (the default) and an empty
// compiled-code cache: /readyz answers 200 once the sandbox is warm (with
// the fresh start: the images come after), a submission grades right
// then, and again once every interpreter starts from an image.
func TestServeColdCacheSnapshot(t *testing.T) {
	cfg := serveConfig{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "learn.db"), logLevel: slog.LevelInfo,
		sandbox: testSandboxConfig(t), runsPerMinute: 600}
	if _, err := os.Stat(filepath.Join("..", "..", sandbox.DefaultSnapshotWasmPath)); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the snapshot start's module is missing (%v): make snapshot builds it", err)
		}
		t.Skipf("the snapshot start's module is missing (%v): run make snapshot", err)
	}
	cfg.sandbox.CacheDir = t.TempDir()
	var mu sync.Mutex
	var logs bytes.Buffer
	logText := func() string {
		mu.Lock()
		defer mu.Unlock()
		return logs.String()
	}
	log := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, cancel := context.WithCancel(context.Background())
	listening, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- serve(ctx, cfg, log, listening) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		if t.Failed() {
			t.Logf("the server's log:\n%s", logText())
		}
	}()
	base := "http://" + <-listening
	c := newClient(t)
	c.Timeout = time.Minute
	for deadline := time.Now().Add(5 * time.Minute); ; {
		resp, body := get(t, c, base+"/readyz")
		if resp.StatusCode == 200 {
			break
		}
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("/readyz = %d %q", resp.StatusCode, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	ex, _ := courseExercise(t, "report-a-failure")
	submit := func(when string) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"code": ex.Solution})
		resp, err := c.Post(base+"/api/exercises/report-a-failure/submit", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			Passed bool `json:"passed"`
		}
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || json.Unmarshal(raw, &r) != nil || !r.Passed {
			t.Fatalf("submit %s = %d %s, want passed", when, resp.StatusCode, raw)
		}
	}
	submit("once ready")
	for deadline := time.Now().Add(5 * time.Minute); !strings.Contains(logText(), "interpreters start from snapshot images"); {
		if strings.Contains(logText(), "the snapshot start is off") || time.Now().After(deadline) {
			t.Fatal("the interpreters do not start from snapshot images")
		}
		time.Sleep(200 * time.Millisecond)
	}
	for i := range 3 {
		submit(fmt.Sprintf("from an image (%d)", i+1))
	}
}

func TestProgressSurvivesRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	base, stop := startServer(t, db)
	c := newClient(t)
	get(t, c, base+"/")                         // first visit: cookie issued
	get(t, c, base+"/lessons/tool-annotations") // returning visit: recorded
	if _, body := get(t, c, base+"/"); !lessonState(body, "tool-annotations", "opened") {
		t.Fatal("lesson not marked opened before the restart")
	}
	stop()

	base2, _ := startServer(t, db)
	// The cookie jar is keyed by host, and the new server has a new port:
	// carry the same cookie over by hand.
	c2 := newClient(t)
	for _, ck := range c.Jar.Cookies(mustURL(t, base)) {
		c2.Jar.SetCookies(mustURL(t, base2), []*http.Cookie{ck})
	}
	_, body := get(t, c2, base2+"/")
	if !lessonState(body, "tool-annotations", "opened") {
		t.Error("after a restart with the same cookie and database, the lesson is no longer marked opened")
	}
	if !lessonState(body, "two-ways-to-fail", "not started") {
		t.Error("a lesson never opened shows as started")
	}
}

// lessonState reports whether the home page shows the lesson in this state.
func lessonState(home, slug, state string) bool {
	i := strings.Index(home, `data-testid="lesson-`+slug+`"`)
	if i < 0 {
		return false
	}
	card := home[i:]
	if j := strings.Index(card, "</li>"); j >= 0 {
		card = card[:j]
	}
	return strings.Contains(card, `data-testid="lesson-state">`+state+"<")
}
