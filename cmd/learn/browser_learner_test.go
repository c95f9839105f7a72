package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"learn/lessons"
	"learn/quiz"
)

// The widths every page must fit: a small phone, a common phone, a tablet
// and a laptop.
var testWidths = []int64{320, 390, 768, 1280}

// send runs one protocol command that answers nothing.
func send[P any](cmd cdp.Command[P, cdp.Empty], params P) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, cmd, params)
		return chromedp.Void{}, err
	}
}

// theme switches prefers-color-scheme.
func theme(name string) chromedp.Action[chromedp.Void] {
	return send(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: name}},
	})
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("browser: evaluate %s: %v", expr, err)
	}
	return v
}

// checkWidths fails the test when the page is wider than the window at
// any of the test widths. The page is laid out again at each width; it is
// not reloaded, so what the learner opened stays open.
func checkWidths(t *testing.T, b *browser, page string) {
	t.Helper()
	for _, w := range testWidths {
		b.do(t, chromedp.EmulateViewport(w, 900))
		got := settledWidths(t, b)
		if got[0] > got[1] {
			culprit := eval[string](t, b, `(() => {
				const w = document.documentElement.clientWidth;
				let worst = null;
				const clipped = (el) => {
					for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
						if (getComputedStyle(p).overflowX !== "visible") return true;
					}
					return false;
				};
				for (const el of document.querySelectorAll("body *")) {
					const r = el.getBoundingClientRect();
					if (r.right > w + 1 && !clipped(el) && (!worst || r.width < worst.getBoundingClientRect().width)) worst = el;
				}
				if (worst) return worst.tagName + "." + worst.className + " " + (worst.textContent || "").slice(0, 80);
				// No element sticks out: a long word of text may.
				const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
				for (let n; (n = texts.nextNode()); ) {
					const range = document.createRange();
					range.selectNodeContents(n);
					if (range.getBoundingClientRect().right > w + 1 && !clipped(n.parentElement)) {
						return "text in " + n.parentElement.tagName + "." + n.parentElement.className + ": " + n.textContent.slice(0, 80);
					}
				}
				return "";
			})()`)
			b.screenshot(t, fmt.Sprintf("too-wide-%s-%d", strings.NewReplacer("/", "_", "#", "_").Replace(page), w))
			t.Errorf("%s at %d px is %d px wide; the widest narrow element: %s", page, w, got[0], culprit)
		}
	}
	b.do(t, chromedp.EmulateViewport(1280, 900))
}

// settledWidths reads the page's scroll and client widths once the new
// viewport is laid out: the window's size reaches the page asynchronously,
// and on a busy machine a read right after the resize can see the page
// still laid out for the old width (a passing overflow with no element to
// blame), and the exercise editor measures itself again some frames later.
// It reads after two animation frames, and reads again, for up to three
// seconds, while the page is wider: a real overflow stays.
func settledWidths(t *testing.T, b *browser) []int {
	t.Helper()
	const read = `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>
		done([document.documentElement.scrollWidth, document.documentElement.clientWidth]))))`
	var got []int
	for range 30 {
		ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](read, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			t.Fatalf("browser: read the page's widths: %v", err)
		}
		if got = v; got[0] <= got[1] {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
	return got
}

// shot saves the visible window as a PNG named for the page, width and
// theme, in every combination of 1280 and 390 px and the light and dark
// themes; focus, when set, is scrolled into view first.
func shot(t *testing.T, b *browser, name, focus string) {
	t.Helper()
	for _, th := range []string{"light", "dark"} {
		for _, w := range []int64{1280, 390} {
			steps := []chromedp.Action[chromedp.Void]{theme(th), chromedp.EmulateViewport(w, 900)}
			if focus != "" {
				steps = append(steps, chromedp.ScrollIntoView(chromedp.CSS(focus)))
			}
			b.do(t, steps...)
			ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			cancel()
			if err != nil {
				t.Fatalf("screenshot %s: %v", name, err)
			}
			saveShot(t, fmt.Sprintf("%s-%d-%s", name, w, th), png)
		}
	}
	b.do(t, theme("light"), chromedp.EmulateViewport(1280, 900))
}

// TestBrowserLearnerComesBack goes through lesson 1 as a new learner would
// (a try-it block half wrong then right, the annotate block, the exercise
// solved, the quiz passed), leaves, and comes back: the lesson shows each
// part done with its score and date, the course home and /progress say
// completed and solved. Then it solves the MCP exercise and checks its
// transcript is short until unfolded. Every page is checked at four
// widths, and screenshots are saved (set LEARN_SCREENSHOTS to keep them).
func TestBrowserLearnerComesBack(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if got := b.text(t, `[data-testid="lesson-`+lesson.Slug+`"] .lesson-meta`); !strings.Contains(got, fmt.Sprintf("%d XP", lesson.EarnableXP())) {
		t.Errorf("the card of lesson 1 says %q, want the %d XP it can earn", got, lesson.EarnableXP())
	}
	b.do(t, chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
	shot(t, b, "lesson1-top", "")

	var q *quiz.Quiz
	var classifyID string
	for _, seg := range lesson.Segments {
		w := seg.Widget
		switch {
		case w == nil:
		case w.Exercise != nil:
			scope := fmt.Sprintf(`[data-testid="exercise-%s"]`, w.ID)
			b.do(t, chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)),
				setCode(scope+` textarea[name="code"]`, w.Exercise.Solution),
				clickSteady(scope+` [data-testid="submit"]`),
				chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"].outcome-pass`)))
		case w.Kind == quiz.KindQuiz:
			q = w.Value.(*quiz.Quiz)
		default:
			scope := fmt.Sprintf(`[data-testid="widget-%s"]`, w.ID)
			clicks := widgetClicks(scope, w)
			if c, ok := w.Value.(*quiz.Classify); ok && classifyID == "" {
				// First with one item wrong, so that review has an item.
				classifyID = w.ID
				wrong := c.Categories[0].ID
				if wrong == c.Items[0].Answer {
					wrong = c.Categories[1].ID
				}
				b.do(t, clickAll(append([]string{inputSel(scope, "item."+c.Items[0].ID, wrong)}, clicks[1:]...))...)
				b.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)),
					chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="feedback"]`)))
				shot(t, b, "lesson1-widget-checked", scope)
			}
			b.do(t, clickAll(clicks)...)
			b.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)),
				chromedp.WaitVisible(chromedp.CSS(scope+` .outcome-pass`)))
		}
	}
	if q == nil {
		t.Fatal("lesson 1 has no quiz")
	}
	qscope := `[data-testid="widget-` + q.ID + `"]`
	b.do(t, clickAll(b.quizClicks(t, qscope, q))...)
	b.do(t, chromedp.Click(chromedp.CSS(qscope+` button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(qscope+` .outcome-pass`)))
	shot(t, b, "lesson1-quiz-result", qscope+` [data-testid="outcome"]`)
	if got := b.text(t, `[data-testid="toc"] .toc-title`); !strings.Contains(got, "4 of 4 parts done") {
		t.Errorf("after every part in place, the lesson map says %q", got)
	}

	// Leave, and come back.
	b.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if got := b.text(t, `[data-testid="lesson-`+lesson.Slug+`"] [data-testid="lesson-state"]`); got != "completed" {
		t.Errorf("lesson 1 on the course home is %q after every part, want completed", got)
	}
	checkWidths(t, b, "home")
	shot(t, b, "home", "")
	b.do(t, chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
	today := time.Now().UTC().Format("2 Jan 2006")
	quizStatus := b.text(t, qscope+` [data-testid="part-status"]`)
	wantQuiz := fmt.Sprintf("Passed: first try %d of %d, best %d of %d, 1 attempt, the last on %s", len(q.Questions), len(q.Questions), len(q.Questions), len(q.Questions), today)
	if !strings.Contains(quizStatus, wantQuiz) {
		t.Errorf("the revisited quiz says %q, want %q", quizStatus, wantQuiz)
	}
	ex := lesson.Exercises()[0]
	if got := b.text(t, `[data-testid="exercise-`+ex.ID+`"] [data-testid="part-status"]`); !strings.HasPrefix(got, "✓ Solved on "+today) || !strings.Contains(got, "submission") {
		t.Errorf("the revisited exercise says %q, want it solved today with its last submission", got)
	}
	if got := b.text(t, `[data-testid="widget-`+classifyID+`"] [data-testid="part-status"]`); !strings.Contains(got, "Done: all") {
		t.Errorf("the revisited try-it block says %q, want done", got)
	}
	if got := b.text(t, `[data-testid="toc"] .toc-title`); !strings.Contains(got, "4 of 4 parts done") {
		t.Errorf("the lesson map says %q, want every part done", got)
	}
	// The passed quiz is folded behind "take it again".
	if open := eval[bool](t, b, `document.querySelector('`+qscope+` details.retake').open`); open {
		t.Error("the passed quiz's form is open on a revisit")
	}
	checkWidths(t, b, "lesson 1 revisited")
	shot(t, b, "lesson1-revisited", qscope)

	b.do(t, chromedp.Navigate(base+"/progress"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="exercise-states"]`)))
	if got := b.text(t, `[data-testid="lesson-row-`+lesson.Slug+`"] [data-testid="lesson-state"]`); got != "completed" {
		t.Errorf("/progress shows lesson 1 %q, want completed", got)
	}
	exRow := b.text(t, `[data-testid="exercise-states"] tbody`)
	if !strings.Contains(exRow, ex.Title) || !strings.Contains(exRow, "solved") {
		t.Errorf("/progress lists the exercises as %q, want %q solved", exRow, ex.Title)
	}
	if got := b.text(t, `[data-testid="completed-means"]`); !strings.Contains(got, "completed when") {
		t.Errorf("/progress does not say what completed means: %q", got)
	}
	checkWidths(t, b, "progress")
	shot(t, b, "progress", "")
	shot(t, b, "progress-tables", `[data-testid="lesson-scores"]`)

	b.do(t, chromedp.Navigate(base+"/review"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-item"]`)))
	checkWidths(t, b, "review")
	shot(t, b, "review", "")

	b.do(t, chromedp.Navigate(base+"/no/such/page"), chromedp.WaitVisible(chromedp.CSS("main h1")))
	checkWidths(t, b, "404")

	for _, l := range course.Lessons {
		b.do(t, chromedp.Navigate(base+"/lessons/"+l.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
		checkWidths(t, b, "lesson "+l.Slug)
	}

	// The MCP exercise: its transcript is short until unfolded, and the
	// model's text reads as text.
	mcpEx, mcpLesson, ok := course.Exercise("lookup-order")
	if !ok {
		t.Fatal("the course has no lookup-order exercise")
	}
	scope := `[data-testid="exercise-lookup-order"]`
	b.do(t, chromedp.Navigate(base+"/lessons/"+mcpLesson.Slug), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)),
		setCode(scope+` textarea[name="code"]`, mcpEx.Solution),
		clickSteady(scope+` [data-testid="submit"]`),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"].outcome-pass`)))
	height := eval[float64](t, b, `document.querySelector('`+scope+` [data-testid="transcript"]').getBoundingClientRect().height`)
	if height >= 1500 || height < 100 {
		t.Errorf("the folded transcript is %.0f px tall at 1280 px, want under 1,500 (and something shown)", height)
	}
	texts := eval[[]string](t, b, `[...document.querySelectorAll('`+scope+` [data-testid="transcript-host"] [data-testid="model-text"]')].map(e => e.textContent)`)
	joined := strings.Join(texts, "\n")
	if len(texts) == 0 || strings.Contains(joined, `\"`) || !strings.Contains(joined, "desk lamp") {
		t.Errorf("the model's text in the transcript = %q, want text without escapes naming the desk lamp", texts)
	}
	shot(t, b, "mcp-transcript", scope+` [data-testid="transcript"]`)
	b.do(t, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('`+scope+` [data-testid="transcript"] details').forEach(d => d.open = true)`))
	unfolded := eval[float64](t, b, `document.querySelector('`+scope+` [data-testid="transcript"]').getBoundingClientRect().height`)
	if unfolded <= height {
		t.Errorf("unfolding the transcript did not show more (%.0f px, folded %.0f px)", unfolded, height)
	}
	if got := b.text(t, scope+` [data-testid="transcript-host"]`); !strings.Contains(got, `"structuredContent"`) {
		t.Errorf("the unfolded transcript lacks the JSON: %.300q", got)
	}
	t.Logf("MCP transcript: %.0f px folded, %.0f px unfolded, at 1280 px", height, unfolded)
	checkWidths(t, b, "MCP transcript open")
	shot(t, b, "mcp-transcript-open", scope+` [data-testid="transcript-host"]`)
	// The 404 page was asked for on purpose; the browser logs its status.
	var errs []string
	for _, e := range b.consoleErrors() {
		if !strings.Contains(e, "/no/such/page") {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserWithoutJavaScript posts the quiz with scripts off: the answer
// is a redirect to the lesson at the result, and reloading that address
// gives the same lesson (200), scrolled to the result.
func TestBrowserWithoutJavaScript(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	q, _ := lesson.Quiz()
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	b := newBrowser(t)
	var mu sync.Mutex
	var docStatus []int64
	err = chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*network.EventResponseReceived); ok && e.Type == network.ResourceTypeDocument {
			mu.Lock()
			docStatus = append(docStatus, e.Response.Status)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	lastStatus := func() int64 {
		mu.Lock()
		defer mu.Unlock()
		if len(docStatus) == 0 {
			return 0
		}
		return docStatus[len(docStatus)-1]
	}
	b.do(t, send(network.Enable, network.EnableParams{}),
		send(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
	if n := eval[int](t, b, `document.querySelectorAll('[data-testid="editor"]').length`); n != 0 {
		t.Fatalf("the code editor started: scripts are not off (%d editors)", n)
	}
	if hint := b.text(t, `[data-testid="exercise-`+lesson.Exercises()[0].ID+`"] form .hint-text`); strings.Contains(hint, "Ctrl+Enter") {
		t.Errorf("the plain textarea's hint promises editor keys: %q", hint)
	}
	qscope := `[data-testid="widget-` + q.ID + `"]`
	b.do(t, clickAll(b.quizClicks(t, qscope, q))...)
	b.do(t, chromedp.Click(chromedp.CSS(qscope+` button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#w-`+q.ID+`-result .outcome-pass`)))
	want := base + "/lessons/" + lesson.Slug + "#w-" + q.ID + "-result"
	atResult := func(when string) {
		t.Helper()
		loc := eval[string](t, b, `location.href`)
		if loc != want {
			t.Errorf("%s: the address is %q, want %q", when, loc, want)
		}
		if got := b.text(t, "#lesson-title"); got != lesson.Title {
			t.Errorf("%s: the page is %q, want the lesson", when, got)
		}
		top := eval[float64](t, b, `document.getElementById("w-`+q.ID+`-result").getBoundingClientRect().top`)
		// A reload restores the scroll position, which leaves the result
		// in view though not always at the top.
		if y := eval[float64](t, b, `window.scrollY`); y < 1000 || top < -1 || top > 800 {
			t.Errorf("%s: scrolled to %.0f px with the result at %.0f px from the top, want the result in view", when, y, top)
		}
	}
	atResult("after the post")
	if s := lastStatus(); s != http.StatusOK {
		t.Errorf("the redirected page answered %d", s)
	}
	b.screenshot(t, "no-js-quiz-result")
	b.do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
	if s := lastStatus(); s != http.StatusOK {
		t.Errorf("reloading %s answered %d, want 200", want, s)
	}
	atResult("after a reload")
	if got := b.text(t, qscope+` [data-testid="part-status"]`); !strings.HasPrefix(got, "✓ Passed") {
		t.Errorf("after a reload the quiz says %q, want its passed status", got)
	}
}

// saveShot writes a PNG where browser.screenshot does: LEARN_SCREENSHOTS,
// or the test's temp dir.
func saveShot(t *testing.T, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("LEARN_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
