package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's Chromium, which .ci/run and "make test" install;
// LEARN_CHROMIUM overrides it.
func chromiumPath() string {
	if p := os.Getenv("LEARN_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// browser is one headless Chromium tab that records console errors.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// newBrowser starts headless Chromium for the test. It fails, not skips,
// when Chromium is missing: the test command installs it.
func newBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	path := chromiumPath()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("Chromium not found at %s (run \"make test\", which installs Debian's chromium, or set LEARN_CHROMIUM): %v", path, err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
	)
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = "exception: " + e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				msg = "console.error"
				for _, a := range e.Args {
					msg += " " + string(a.Value) + a.Description
				}
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				msg = "log: " + e.Entry.Text + " " + e.Entry.URL
			}
		}
		if msg != "" {
			b.mu.Lock()
			b.errors = append(b.errors, msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Call(ctx, log.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	})); err != nil {
		t.Logf("enable browser log: %v", err)
	}
	return b
}

// browserStepLimit bounds one browser step. It only stops a stuck test: on
// a busy machine (the test runner builds and tests packages side by side
// on two cores) grading a submission in the sandbox can take tens of
// seconds, and no step's speed is what a test checks.
const browserStepLimit = 90 * time.Second

// do runs steps with a time limit.
func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		shot := b.screenshot(t, "failure")
		t.Fatalf("browser: %v\nconsole errors: %q\nscreenshot: %s", err, b.consoleErrors(), shot)
	}
}

// clickSteady clicks the element matching sel once it has stopped moving.
// A mouse click lands where the element was when the click was computed:
// an editor that has just been given a long program measures its lines
// over the next frames and moves everything under it, and a click then
// lands beside the button. A learner looks before clicking; this waits
// until the element's box is the same for three reads 50 ms apart. The
// reads are evaluated from here, not polled by page script, so they work
// with the page's scripts turned off.
func clickSteady(sel string) chromedp.Action[chromedp.Void] {
	js, _ := json.Marshal(sel)
	box := chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return "";
		const r = el.getBoundingClientRect();
		return [r.x, r.y, r.width, r.height].join(",");
	})()`, js))
	steady := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		last, same := "", 0
		for same < 3 {
			b, err := box(ctx, tg)
			if err != nil {
				return fmt.Errorf("box of %s: %w", sel, err)
			}
			if b != "" && b == last {
				same++
			} else {
				last, same = b, 0
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		return nil
	})
	return chromedp.Steps(
		chromedp.ScrollIntoView(chromedp.CSS(sel)),
		steady,
		chromedp.Click(chromedp.CSS(sel)),
	)
}

// text returns the visible text of the first element matching sel.
func (b *browser) text(t *testing.T, sel string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("browser: text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// screenshot saves a full-page PNG under the test's temp dir and returns
// its path.
func (b *browser) screenshot(t *testing.T, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("LEARN_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// consoleErrors returns the console errors seen so far.
func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

func TestBrowserOpenLesson(t *testing.T) {
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	b := newBrowser(t)

	b.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if got := b.text(t, `[data-testid="lesson-two-ways-to-fail"] [data-testid="lesson-state"]`); got != "not started" {
		t.Fatalf("state before opening = %q, want not started", got)
	}
	b.do(t,
		chromedp.Click(chromedp.CSS(`a[href="/lessons/two-ways-to-fail"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#lesson-title`)),
	)
	if got := b.text(t, "#lesson-title"); got != "Two ways a tool call fails" {
		t.Errorf("lesson title = %q", got)
	}
	if got := b.text(t, `[data-testid="takeaways"] h2`); got != "Key takeaways" {
		t.Errorf("takeaways heading = %q", got)
	}
	shot := b.screenshot(t, "lesson-two-ways-to-fail")
	if st, err := os.Stat(shot); err != nil || st.Size() < 10_000 {
		t.Errorf("screenshot %s is missing or nearly empty (%v)", shot, err)
	}
	b.do(t, chromedp.Navigate(base+"/"), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if got := b.text(t, `[data-testid="lesson-two-ways-to-fail"] [data-testid="lesson-state"]`); got != "opened" {
		t.Errorf("state after opening and reloading home = %q, want opened", got)
	}
	b.screenshot(t, "home")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("the pages logged console errors:\n%s", strings.Join(errs, "\n"))
	}
}
