package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"learn/lessons"
	"learn/quiz"
)

// widgetClicks returns the clicks that answer a classify or annotate widget
// right.
func widgetClicks(scope string, w *lessons.Widget) []string {
	var sels []string
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			sels = append(sels, inputSel(scope, "item."+it.ID, it.Answer))
		}
	case *quiz.Annotate:
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				if k := tool.Hints.Get(h); k != nil && k.Value != nil {
					sels = append(sels, inputSel(scope, "hint."+tool.Name+"."+string(h), fmt.Sprint(*k.Value)))
				}
			}
		}
	}
	return sels
}

// TestBrowserWholeCourse goes through the course as a new learner would:
// every lesson in order, every widget answered, every quiz passed, every
// exercise first submitted as it starts (which fails), helped by its first
// hint, then solved with its reference solution typed into the editor,
// which the panel then offers to compare with. Each completed lesson ends
// with "Next lesson", which leads on; every other lesson is reached from
// the home page's "Continue" instead. It saves a screenshot of each lesson
// (set LEARN_SCREENSHOTS to keep them).
func TestBrowserWholeCourse(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if n := eval[int](t, b, `document.querySelectorAll('[data-testid="continue-home"]').length`); n != 0 {
		t.Error("a new visitor is offered Continue")
	}
	wantXP := 0
	for i, lesson := range course.Lessons {
		switch {
		case i == 0:
			b.do(t, chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
		case i%2 == 1:
			// The previous lesson's "Next lesson".
			b.do(t, clickSteady(`[data-testid="next-lesson"]`), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
		default:
			// From the home page: the lesson just finished is done, so
			// Continue leads to the next one.
			b.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="continue-home"] a`)))
			if got := b.text(t, `[data-testid="continue-home"] a`); !strings.HasPrefix(got, "Continue: "+lesson.Title+" — ") {
				t.Errorf("after lesson %d the home page offers %q, want lesson %q", i, got, lesson.Title)
			}
			b.do(t, clickSteady(`[data-testid="continue-home"] a`), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
		}
		// A click leaves the old page up while the next one loads.
		b.waitTrue(t, "lesson "+lesson.Slug, `location.pathname === "/lessons/`+lesson.Slug+`" && document.readyState === "complete"`)
		b.do(t, chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
		if got := b.text(t, "#lesson-title"); got != lesson.Title {
			t.Fatalf("lesson %d: the way on led to %q, want %q", i+1, got, lesson.Title)
		}
		for _, seg := range lesson.Segments {
			w := seg.Widget
			if w == nil {
				continue
			}
			switch {
			case w.Exercise != nil:
				scope := fmt.Sprintf(`[data-testid="exercise-%s"]`, w.ID)
				b.do(t, chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)))
				// The starter fails, which opens the hints; take the first.
				b.submitUntilGraded(t, scope)
				b.do(t, clickSteady(scope+` [data-testid="show-hint"]`), chromedp.WaitVisible(chromedp.CSS(`#x-`+w.ID+`-hint-1`)))
				b.do(t, setCode(scope+` textarea[name="code"]`, w.Exercise.Solution))
				b.submitUntilGraded(t, scope)
				if got := b.text(t, scope+` [data-testid="summary"]`); !strings.Contains(got, "Solved.") {
					t.Errorf("%s: exercise %s with its reference solution: %q", lesson.Slug, w.ID, got)
				}
				if n := eval[int](t, b, `document.querySelectorAll('`+scope+` [data-testid="reference-solution"]').length`); n != 1 {
					t.Errorf("%s: once solved, exercise %s offers no reference solution to compare with", lesson.Slug, w.ID)
				}
				wantXP += w.Exercise.XPValue()
			case w.Kind == quiz.KindQuiz:
				scope := fmt.Sprintf(`[data-testid="widget-%s"]`, w.ID)
				q := w.Value.(*quiz.Quiz)
				b.do(t, clickAll(b.quizClicks(t, scope, q))...)
				b.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)),
					chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="outcome"] p`)))
				if got := b.text(t, scope+` [data-testid="outcome"]`); !strings.HasPrefix(got, "Passed") {
					t.Errorf("%s: quiz answered right: %q", lesson.Slug, got)
				}
				wantXP += q.XPValue()
			default:
				scope := fmt.Sprintf(`[data-testid="widget-%s"]`, w.ID)
				b.do(t, clickAll(widgetClicks(scope, w))...)
				b.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)),
					chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="outcome"] p`)))
				if got := b.text(t, scope+` [data-testid="outcome"]`); !strings.Contains(got, "+") {
					t.Errorf("%s: widget %s answered right earned nothing: %q", lesson.Slug, w.ID, got)
				}
				wantXP += quiz.WidgetXP
			}
		}
		if i+1 < len(course.Lessons) {
			// Shown in place by the check that completed the lesson.
			b.do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid="next-lesson"]`)))
			if got, want := b.text(t, `[data-testid="next-lesson"]`), "Next lesson: "+course.Lessons[i+1].Title; got != want {
				t.Errorf("%s ends with %q, want %q", lesson.Slug, got, want)
			}
		} else {
			b.do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid="course-finished"]`)))
		}
		wide, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`))
		if err != nil || wide {
			t.Errorf("%s: with every result shown, the page is wider than the window (%v)", lesson.Slug, err)
		}
		b.screenshot(t, fmt.Sprintf("lesson-%d-%s", i+1, lesson.Slug))
	}
	b.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	for _, lesson := range course.Lessons {
		if got := b.text(t, fmt.Sprintf(`[data-testid="lesson-%s"] [data-testid="lesson-state"]`, lesson.Slug)); got != "completed" {
			t.Errorf("%s is %q on the course home, want completed", lesson.Slug, got)
		}
	}
	if got := b.text(t, `[data-testid="xp-total"]`); got != fmt.Sprint(wantXP) {
		t.Errorf("XP after the whole course = %s, want %d (hints change no XP)", got, wantXP)
	}
	if got := b.text(t, `[data-testid="continue-home"] a`); !strings.HasPrefix(got, "Course done") {
		t.Errorf("with every part done, the home page offers %q", got)
	}
	b.screenshot(t, "home-completed")
	b.do(t, chromedp.Navigate(base+"/progress"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="xp-chart"]`)))
	b.screenshot(t, "progress")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// submitUntilGraded presses Submit in the exercise panel in scope and waits
// for its result. A busy sandbox answers with a problem instead (503 with
// Retry-After), and a learner presses Submit again: so does this, a few
// times, and fails with the problem shown if it never grades. A panel that
// shows neither within browserStepLimit fails with what it does show.
func (b *browser) submitUntilGraded(t *testing.T, scope string) {
	t.Helper()
	var problem string
	for try := range 5 {
		b.do(t, clickSteady(scope+` [data-testid="submit"]`))
		state := b.waitPanel(t, scope)
		if state.Graded {
			return
		}
		problem = state.Problem
		t.Logf("submit %d of %s answered a problem, trying again: %s", try+1, scope, problem)
		time.Sleep(2 * time.Second)
	}
	t.Fatalf("%s was never graded; the panel says: %s", scope, problem)
}

// panelState is what an exercise panel's results area shows.
type panelState struct {
	Graded  bool   `json:"graded"`
	Problem string `json:"problem"`
	Text    string `json:"text"`
	Busy    bool   `json:"busy"`
}

// waitPanel waits until the exercise panel in scope shows a result or a
// problem, and fails with the panel's text if it shows neither in time.
func (b *browser) waitPanel(t *testing.T, scope string) panelState {
	t.Helper()
	js := `(() => {
		const panel = document.querySelector('` + scope + `');
		if (!panel) return {text: "no panel"};
		const results = panel.querySelector('[data-testid="results"]');
		const problem = panel.querySelector('[data-testid="problem"]');
		return {
			graded: panel.querySelector('[data-testid="summary"]') !== null,
			problem: problem ? problem.textContent.trim() : "",
			text: results ? results.textContent.trim() : "no results area",
			busy: panel.querySelector('[aria-busy="true"]') !== null,
		};
	})()`
	deadline := time.Now().Add(browserStepLimit)
	var last panelState
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		st, err := chromedp.Run(ctx, chromedp.Evaluate[panelState](js))
		cancel()
		if err == nil {
			last = st
			if st.Graded || st.Problem != "" {
				return st
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	shot := b.screenshot(t, "failure")
	t.Fatalf("%s showed no result within %v; its results area says %q (busy %v)\nscreenshot: %s", scope, browserStepLimit, last.Text, last.Busy, shot)
	return last
}
