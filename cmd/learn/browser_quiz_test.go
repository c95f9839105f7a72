package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"learn/lessons"
	"learn/quiz"
)

// clickAll clicks each input matching the selectors, in order.
func clickAll(selectors []string) []chromedp.Action[chromedp.Void] {
	var steps []chromedp.Action[chromedp.Void]
	for i, sel := range selectors {
		if i == 0 {
			// Once the first is still, the page around it has settled
			// (an editor above may still be measuring its lines).
			steps = append(steps, clickSteady(sel))
			continue
		}
		steps = append(steps, chromedp.Click(chromedp.CSS(sel)))
	}
	return steps
}

func inputSel(scope, name, value string) string {
	return fmt.Sprintf(`%s input[name=%q][value=%q]`, scope, name, value)
}

// quizClicks returns the clicks that answer the quiz in scope right, as
// the page drew it: each question's slot and version come from its
// data-question and data-variant attributes.
func (b *browser) quizClicks(t *testing.T, scope string, q *quiz.Quiz) []string {
	return b.quizAnswers(t, scope, q, true)
}

// quizAnswers returns the clicks that answer every question of the quiz in
// scope, right or (with right false) wrong.
func (b *browser) quizAnswers(t *testing.T, scope string, q *quiz.Quiz, right bool) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
	defer cancel()
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('`+scope+` [data-variant]')].map(e => e.dataset.question + " " + e.dataset.variant)`))
	if err != nil || len(shown) != len(q.Questions) {
		t.Fatalf("browser: the quiz shows %d questions (%v), want %d", len(shown), err, len(q.Questions))
	}
	var sels []string
	for _, sv := range shown {
		slot, variant, _ := strings.Cut(sv, " ")
		qn, ok := q.QuestionByID(variant)
		if !ok {
			t.Fatalf("the page shows question %q, which the quiz does not have", variant)
		}
		field := "q." + slot
		switch qn.Kind {
		case quiz.QuestionClassify:
			answer := qn.Answer
			for _, c := range qn.Categories {
				if !right && c.ID != qn.Answer {
					answer = c.ID
					break
				}
			}
			sels = append(sels, inputSel(scope, field, answer))
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				k := qn.Tool.Hints.Get(h)
				if k == nil || k.Value == nil {
					continue
				}
				v := *k.Value
				if !right && qn.Tool.Matters(h) {
					v = !v
				}
				sels = append(sels, inputSel(scope, field+"."+string(h), quiz.HintChoice(h, v)))
			}
		default:
			for _, o := range qn.Options {
				if o.Correct == right {
					sels = append(sels, inputSel(scope, field, o.ID))
					if !right {
						break
					}
				}
			}
		}
	}
	return sels
}

func TestBrowserQuizLoop(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	q, ok := lesson.Quiz()
	if !ok {
		t.Fatalf("lesson %s has no quiz", lesson.Slug)
	}
	var classify *quiz.Classify
	for _, seg := range lesson.Segments {
		if seg.Widget == nil || classify != nil {
			continue
		}
		if c, ok := seg.Widget.Value.(*quiz.Classify); ok {
			classify = c
		}
	}
	if classify == nil {
		t.Fatalf("lesson %s has no classify widget", lesson.Slug)
	}

	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(base+"/"), chromedp.Navigate(base+"/lessons/"+lesson.Slug),
		chromedp.WaitVisible(chromedp.CSS("#lesson-title")))

	// Classify: answer all but the first item right, so one item goes to review.
	cscope := fmt.Sprintf(`[data-testid="widget-%s"]`, classify.ID)
	var clicks []string
	for i, it := range classify.Items {
		answer := it.Answer
		if i == 0 {
			for _, c := range classify.Categories {
				if c.ID != it.Answer {
					answer = c.ID
					break
				}
			}
		}
		clicks = append(clicks, inputSel(cscope, "item."+it.ID, answer))
	}
	b.do(t, clickAll(clicks)...)
	b.do(t, chromedp.Click(chromedp.CSS(cscope+` button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(cscope+` [data-testid="feedback"]`)))
	want := fmt.Sprintf("%d of %d right. Look again at item 1.", len(classify.Items)-1, len(classify.Items))
	if got := b.text(t, cscope+` [data-testid="outcome"]`); got != want {
		t.Errorf("classify outcome = %q, want %q", got, want)
	}
	if text := b.text(t, cscope); strings.Contains(text, classify.Items[0].Explanation) || !strings.Contains(text, classify.Items[1].Explanation) {
		t.Error("after a check, a wrong item must not show its explanation (it would give the key away) and a right one must")
	}
	b.screenshot(t, "classify-checked")

	// A blank quiz is refused, naming what is unanswered.
	qscope := fmt.Sprintf(`[data-testid="widget-%s"]`, q.ID)
	b.do(t, chromedp.Click(chromedp.CSS(qscope+` button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(qscope+` [data-testid="outcome"] p`)))
	if out := b.text(t, qscope+` [data-testid="outcome"]`); !strings.Contains(out, "not answered") {
		t.Errorf("blank quiz outcome = %q, want the unanswered questions named", out)
	}
	// A failing quiz: which questions were wrong, no key, no XP, and a retry.
	b.do(t, clickAll(b.quizAnswers(t, qscope, q, false))...)
	b.do(t, chromedp.Click(chromedp.CSS(qscope+` button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(qscope+` [data-testid="feedback"]`)))
	if out := b.text(t, qscope+` [data-testid="outcome"]`); !strings.Contains(out, "needed to pass") {
		t.Errorf("failing quiz outcome = %q", out)
	}
	if strings.Contains(b.text(t, qscope), "correct answer") {
		t.Error("the failed quiz marks the correct answers")
	}
	if xp := b.text(t, `[data-testid="xp-total"]`); xp != "0" {
		t.Errorf("XP after a failed quiz = %s, want 0", xp)
	}
	streakBefore := b.text(t, `[data-testid="streak"]`)
	b.screenshot(t, "quiz-failed")

	// A passing retry, with other versions of the questions: XP and streak
	// in the header change in place.
	b.do(t, chromedp.Click(chromedp.CSS(qscope+` [data-testid="quiz-retry"]`)),
		chromedp.WaitVisible(chromedp.CSS(qscope+` button[type="submit"]`)))
	b.do(t, clickAll(b.quizClicks(t, qscope, q))...)
	b.do(t, chromedp.Click(chromedp.CSS(qscope+` button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(qscope+` .outcome-pass`)))
	// One failed attempt before the pass: a fifth less (quiz.QuizPassXP).
	if xp := b.text(t, `[data-testid="xp-total"]`); xp != fmt.Sprint(quiz.QuizPassXP(q.XPValue(), 1)) {
		t.Errorf("XP after passing = %s, want %d", xp, quiz.QuizPassXP(q.XPValue(), 1))
	}
	if got := b.text(t, `[data-testid="streak"]`); got != "1 day" {
		t.Errorf("streak after passing = %q (was %q), want 1 day", got, streakBefore)
	}
	b.screenshot(t, "quiz-passed")

	// Review: the missed classify item is due; answer it right.
	b.do(t, chromedp.Navigate(base+"/review"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-item"]`)))
	if !strings.Contains(b.text(t, `[data-testid="review-item"]`), classify.Items[0].Text) {
		t.Fatalf("the due review item is not the missed one")
	}
	b.do(t, chromedp.Click(chromedp.CSS(inputSel(`[data-testid="review-item"]`, "q."+classify.Items[0].ID, classify.Items[0].Answer))),
		chromedp.Click(chromedp.CSS(`[data-testid="review-item"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-answered"]`)))
	if out := b.text(t, `[data-testid="review-answered"] [data-testid="outcome"]`); !strings.HasPrefix(out, "Right.") {
		t.Errorf("review outcome = %q", out)
	}
	b.screenshot(t, "review-answered")
	// The blank quiz was refused with 422 on purpose; the browser logs that
	// answer of the in-place script's request as a failed load.
	var errs []string
	for _, e := range b.consoleErrors() {
		if !strings.Contains(e, "status of 422") {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
