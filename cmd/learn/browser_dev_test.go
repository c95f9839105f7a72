package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// startDevServer serves the course folder dir like "learn serve --dev
// --lessons dir".
func startDevServer(t *testing.T, dir string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan string, 1)
	done := make(chan error, 1)
	cfg := serveConfig{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "learn.db"), lessons: dir, dev: true,
		logLevel: slog.LevelWarn, sandbox: testSandboxConfig(t), runsPerMinute: 600}
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), listening) }()
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

// waitTrue evaluates a JavaScript predicate until it holds, across page
// reloads (an evaluation that fails while the page reloads is retried). It
// fails the test after a generous limit meant only to stop a hung test.
func (b *browser) waitTrue(t *testing.T, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(browserStepLimit)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s (last error: %v)\nconsole errors: %q\nscreenshot: %s", what, err, b.consoleErrors(), b.screenshot(t, "dev-failure"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// edit rewrites a file with old replaced by new.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserDevReload opens a lesson of a course served with --dev, then
// only edits files on disk: the page follows every saved change by itself.
func TestBrowserDevReload(t *testing.T) {
	dir := t.TempDir()
	if err := newCourse(dir, "Reading HTTP status codes", io.Discard); err != nil {
		t.Fatal(err)
	}
	lesson := filepath.Join(dir, "01-first-lesson.md")
	base := startDevServer(t, dir)
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(base+"/lessons/a-first-lesson"), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
	if got := b.text(t, "#lesson-title"); got != "A first lesson" {
		t.Fatalf("title = %q", got)
	}
	// Wait until the page follows the stream, then scroll down.
	b.waitTrue(t, "the dev script to subscribe", `document.documentElement.dataset.devEvents === "following"`)
	b.do(t, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 600)`))

	// A saved change reloads the open page, at the same place.
	edit(t, lesson, "title: A first lesson", "title: A lesson edited on disk")
	b.waitTrue(t, "the new title without navigating", `document.querySelector("#lesson-title")?.textContent === "A lesson edited on disk"`)
	b.waitTrue(t, "the scroll position kept", `Math.abs(window.scrollY - 600) < 50`)

	// A broken edit shows every problem with its file and line, over the
	// last good version.
	edit(t, lesson, "slug: a-first-lesson", "slug: Not A Slug")
	b.waitTrue(t, "the problems overlay", `document.querySelector('[data-testid="dev-overlay"]') !== null`)
	overlay := b.text(t, `[data-testid="dev-overlay"]`)
	if !strings.Contains(overlay, `01-first-lesson.md:3: slug "Not A Slug" is not valid`) {
		t.Errorf("overlay = %q, want the file, line and message", overlay)
	}
	if got := b.text(t, "#lesson-title"); got != "A lesson edited on disk" {
		t.Errorf("under the overlay the page shows %q, want the last good version", got)
	}
	// Another page opened while the folder is broken says so too.
	b.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	b.waitTrue(t, "the overlay on a page opened while broken", `document.querySelector('[data-testid="dev-overlay"]') !== null`)
	if got := b.text(t, `[data-testid="course-title"]`); got != "Reading HTTP status codes" {
		t.Errorf("home title = %q, want the course.yaml title", got)
	}

	// Fixing it takes the overlay away.
	edit(t, lesson, "slug: Not A Slug", "slug: a-first-lesson")
	b.waitTrue(t, "the overlay to go", `document.readyState === "complete" && document.querySelector('[data-testid="dev-overlay"]') === null && document.querySelector('[data-testid="lesson-list"]') !== null`)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
