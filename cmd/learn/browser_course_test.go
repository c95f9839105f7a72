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
// exercise solved with its reference solution typed into the editor. It
// saves a screenshot of each lesson (set LEARN_SCREENSHOTS to keep them).
func TestBrowserWholeCourse(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(base+"/"))
	wantXP := 0
	for i, lesson := range course.Lessons {
		b.do(t, chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
		for _, seg := range lesson.Segments {
			w := seg.Widget
			if w == nil {
				continue
			}
			switch {
			case w.Exercise != nil:
				scope := fmt.Sprintf(`[data-testid="exercise-%s"]`, w.ID)
				b.do(t, chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)),
					setCode(scope+` textarea[name="code"]`, w.Exercise.Solution))
				b.submitUntilGraded(t, scope)
				if got := b.text(t, scope+` [data-testid="summary"]`); !strings.Contains(got, "Solved.") {
					t.Errorf("%s: exercise %s with its reference solution: %q", lesson.Slug, w.ID, got)
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
		t.Errorf("XP after the whole course = %s, want %d", got, wantXP)
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
// times, and fails with the problem shown if it never grades.
func (b *browser) submitUntilGraded(t *testing.T, scope string) {
	t.Helper()
	var problem string
	for try := range 5 {
		b.do(t, chromedp.Click(chromedp.CSS(scope+` [data-testid="submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"], `+scope+` [data-testid="problem"]`)))
		ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
		graded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+scope+` [data-testid="summary"]') !== null`))
		cancel()
		if err == nil && graded {
			return
		}
		problem = b.text(t, scope+` [data-testid="problem"]`)
		t.Logf("submit %d of %s answered a problem, trying again: %s", try+1, scope, problem)
		time.Sleep(2 * time.Second)
	}
	t.Fatalf("%s was never graded; the panel says: %s", scope, problem)
}
