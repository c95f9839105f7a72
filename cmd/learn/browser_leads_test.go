package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"learn/lessons"
	"learn/quiz"
)

// TestBrowserLeadTheWay takes the first lesson with the page's scripts off
// at 390 px: no "Continue" for a new visitor; a failed submission opens the
// hints, taken one at a time by form posts that land on the new hint; the
// pass offers "Compare with the reference solution"; the lesson ends with
// its sources and, once completed, "Next lesson: TITLE", which leads on;
// the header then offers "Continue" into lesson 2, and /progress links its
// unfinished parts. Nothing is wider than the window. With scripts on, a
// hint shows in place, without a reload. axe-core checks the pages in that
// state in both themes.
func TestBrowserLeadTheWay(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	first, second := course.Lessons[0], course.Lessons[1]
	ex := first.Exercises()[0]
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	count := func(sel string) int {
		return eval[int](t, b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	}
	narrow := func(where string) {
		t.Helper()
		// Read from here: settledWidths waits on animation frames, which
		// need the page's scripts.
		if w := eval[[]int](t, b, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
			b.screenshot(t, "too-wide-"+where)
			t.Errorf("%s at 390 px is %d px wide in a %d px window", where, w[0], w[1])
		}
	}
	b.do(t, send(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}),
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if n := count(`[data-testid="continue-home"], [data-testid="continue-header"]`); n != 0 {
		t.Errorf("a new visitor is offered Continue (%d links)", n)
	}
	scope := fmt.Sprintf(`[data-testid="exercise-%s"]`, ex.ID)
	b.do(t, chromedp.Navigate(base+"/lessons/"+first.Slug), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="hints-later"]`)))
	if n := count(`[data-testid="sources"] a[href^="https://modelcontextprotocol.io/specification/"]`); n == 0 {
		t.Error("the lesson lists no specification page among its sources")
	}
	if n := count(`[data-testid="reference-solution"], [data-testid="show-hint"]`); n != 0 {
		t.Error("before any try, the panel offers a hint or the reference solution")
	}
	// The starter is in the textarea: submitting it fails.
	b.do(t, clickSteady(scope+` [data-testid="submit"]`), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"]`)),
		clickSteady(scope+` [data-testid="show-hint"]`), chromedp.WaitVisible(chromedp.CSS(`#x-`+ex.ID+`-hint-1`)))
	if loc := eval[string](t, b, `location.hash`); loc != "#x-"+ex.ID+"-hint-1" {
		t.Errorf("after taking hint 1 the address ends %q, want the hint", loc)
	}
	b.do(t, clickSteady(scope+` [data-testid="show-hint"]`), chromedp.WaitVisible(chromedp.CSS(`#x-`+ex.ID+`-hint-2`)))
	if got, want := b.text(t, `#x-`+ex.ID+`-hint-2`), strings.TrimSpace(ex.Hints[1]); !strings.Contains(got, strings.Split(want, "`")[0]) {
		t.Errorf("hint 2 reads %q, want %q", got, want)
	}
	narrow("hints")
	b.screenshot(t, "lead-hints-390")
	b.do(t, chromedp.SetValue(chromedp.CSS(scope+` textarea[name="code"]`), ex.Solution),
		clickSteady(scope+` [data-testid="submit"]`), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="reference-solution"]`)),
		chromedp.Click(chromedp.CSS(scope+` [data-testid="reference-solution"] summary`)),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="reference-solution"] .code-view`)))
	if got := b.text(t, scope+` [data-testid="summary"]`); !strings.Contains(got, "Solved.") {
		t.Errorf("the reference solution did not solve it: %q", got)
	}
	narrow("reference solution")
	b.screenshot(t, "lead-solution-390")
	// Every other part, by plain posts; the quiz last completes the lesson.
	for _, seg := range first.Segments {
		w := seg.Widget
		if w == nil || w.Exercise != nil {
			continue
		}
		wscope := fmt.Sprintf(`[data-testid="widget-%s"]`, w.ID)
		clicks := widgetClicks(wscope, w)
		if q, ok := w.Value.(*quiz.Quiz); ok {
			clicks = b.quizClicks(t, wscope, q)
		}
		b.do(t, clickAll(clicks)...)
		b.do(t, chromedp.Click(chromedp.CSS(wscope+` button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(wscope+` [data-testid="outcome"] p`)))
	}
	next := `[data-testid="next-lesson"]`
	b.do(t, chromedp.WaitVisible(chromedp.CSS(next)))
	if got, want := b.text(t, next), "Next lesson: "+second.Title; got != want {
		t.Errorf("the completed lesson ends with %q, want %q", got, want)
	}
	narrow("lesson finished")
	b.do(t, clickSteady(next))
	b.waitTrue(t, "lesson 2", `location.pathname === "/lessons/`+second.Slug+`" && document.readyState === "complete"`)
	if got := b.text(t, "#lesson-title"); got != second.Title {
		t.Errorf("Next lesson led to %q, want %q", got, second.Title)
	}
	if got := b.text(t, `[data-testid="continue-header"]`); !strings.HasPrefix(got, "Continue: "+second.Title+" — ") {
		t.Errorf("on lesson 2 the header offers %q", got)
	}
	narrow("header with Continue")
	b.do(t, chromedp.Navigate(base+"/progress"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="todo-`+second.Slug+`"] [data-testid="unfinished-parts"] a`)))
	if n := count(`[data-testid="todo-` + first.Slug + `"]`); n != 0 {
		t.Error("/progress lists unfinished parts of lesson 1, which is all done")
	}
	narrow("progress")
	b.do(t, clickSteady(`[data-testid="todo-`+second.Slug+`"] [data-testid="unfinished-parts"] a`))
	b.waitTrue(t, "lesson 2 from /progress", `location.pathname === "/lessons/`+second.Slug+`" && document.readyState === "complete"`)
	if got := b.text(t, "#lesson-title"); got != second.Title {
		t.Errorf("the unfinished part's link led to %q", got)
	}

	// Scripts on: a hint in place.
	ex2 := second.Exercises()[0]
	scope2 := fmt.Sprintf(`[data-testid="exercise-%s"]`, ex2.ID)
	b.do(t, send(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false}),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/lessons/"+second.Slug), chromedp.WaitVisible(chromedp.CSS(scope2+` [data-testid="editor"]`)))
	b.submitUntilGraded(t, scope2)
	b.do(t, chromedp.Evaluate[chromedp.Void](`window.learnSamePage = true`),
		clickSteady(scope2+` [data-testid="show-hint"]`), chromedp.WaitVisible(chromedp.CSS(`#x-`+ex2.ID+`-hint-1`)))
	if !eval[bool](t, b, `window.learnSamePage === true && document.activeElement.id === "x-`+ex2.ID+`-hint-1"`) {
		t.Error("with scripts on, the hint did not show in place with focus on it")
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing: %v", err)
	}
	check(t, b, base, string(script), []string{"/", "/lessons/" + first.Slug, "/lessons/" + second.Slug, "/progress"})
}
