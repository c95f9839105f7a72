package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"learn/lessons"
	"learn/quiz"
)

// firstOf returns the first block of lesson l whose value has type T.
func firstOf[T any](t *testing.T, l *lessons.Lesson) T {
	t.Helper()
	for _, seg := range l.Segments {
		if seg.Widget == nil {
			continue
		}
		if v, ok := seg.Widget.Value.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatalf("lesson %s has no %T block", l.Slug, zero)
	return zero
}

// axeHere runs axe-core on the page as it stands, in the light and dark
// themes, and reports serious and critical violations.
func axeHere(t *testing.T, b *browser, script, what string) {
	t.Helper()
	for _, th := range []string{"light", "dark"} {
		b.do(t, theme(th), chromedp.Evaluate[chromedp.Void](script))
		violations, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]axeViolation](
			`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("axe: %v", err)
		}
		for _, v := range violations {
			if v.Impact == "serious" || v.Impact == "critical" {
				var where []string
				for _, n := range v.Nodes {
					where = append(where, strings.Join(n.Target, " "))
				}
				t.Errorf("%s in the %s theme: %s (%s): %s — %s", what, th, v.ID, v.Impact, v.Help, strings.Join(where, "; "))
			}
		}
	}
	b.do(t, theme("light"))
}

// quizHeight is the height in px of the quiz block at the window's width.
func quizHeight(t *testing.T, b *browser, qscope string, width int64) int {
	t.Helper()
	// Animation frames do not run with scripts off: a fixed pause lets the
	// page lay out at the new width.
	b.do(t, chromedp.EmulateViewport(width, 900), chromedp.Sleep(300*time.Millisecond))
	return eval[int](t, b, `Math.round(document.querySelector('`+qscope+`').getBoundingClientRect().height)`)
}

// TestBrowserFeedbackTeaches checks feedback that teaches, with scripts on
// (in place) and off (a plain post): a wrong classify item says why the
// category chosen does not fit; a tool not right yet names the hints that
// are off, each with its cue, and gives no value or explanation away;
// every hint row carries a cue and the block its thinking prompt.
func TestBrowserFeedbackTeaches(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	classify := firstOf[*quiz.Classify](t, lesson)
	annotate := firstOf[*quiz.Annotate](t, lesson)
	script, err := os.ReadFile(filepath.Join("..", "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing: %v", err)
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	for _, scripts := range []bool{true, false} {
		name := map[bool]string{true: "scripts on", false: "scripts off"}[scripts]
		t.Run(name, func(t *testing.T) {
			b := newBrowser(t)
			b.do(t, send(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !scripts}),
				chromedp.EmulateViewport(1280, 900),
				chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))

			// Classify: the first item wrong, the rest right.
			cscope := fmt.Sprintf(`[data-testid="widget-%s"]`, classify.ID)
			var clicks []string
			wrongLabel, whyNot := "", ""
			for i, it := range classify.Items {
				answer := it.Answer
				if i == 0 {
					for _, c := range classify.Categories {
						if c.ID != it.Answer {
							answer, wrongLabel, whyNot = c.ID, c.Label, it.WhyNot[c.ID]
							break
						}
					}
				}
				clicks = append(clicks, inputSel(cscope, "item."+it.ID, answer))
			}
			b.do(t, clickAll(clicks)...)
			b.do(t, clickSteady(cscope+` button[type="submit"]`), chromedp.WaitVisible(chromedp.CSS(cscope+` [data-testid="why-not"]`)))
			if got, want := b.text(t, cscope+` [data-testid="why-not"]`), "Why not “"+wrongLabel+"”: "+whyNot; got != want {
				t.Errorf("the wrong item says %q, want %q", got, want)
			}
			if got := b.text(t, cscope+` [data-testid="outcome"]`); !strings.Contains(got, "Look again at item 1.") {
				t.Errorf("classify outcome = %q, want it to name item 1", got)
			}
			if text := b.text(t, cscope); strings.Contains(text, classify.Items[0].Explanation) || strings.Contains(text, "think again about this one") {
				t.Error("the wrong item shows its explanation, or only the old bare message")
			}

			// Annotate: every tool right but one hint of the first.
			ascope := fmt.Sprintf(`[data-testid="widget-%s"]`, annotate.ID)
			if got := b.text(t, ascope+` [data-testid="think"]`); !strings.Contains(got, annotate.Think) {
				t.Errorf("the thinking prompt is %q, want %q", got, annotate.Think)
			}
			rows := eval[int](t, b, `document.querySelectorAll('`+ascope+` fieldset.hint').length`)
			cues := eval[int](t, b, `document.querySelectorAll('`+ascope+` fieldset.hint legend [data-testid="hint-cue"]').length`)
			if rows == 0 || cues != rows {
				t.Errorf("%d of %d hint rows carry a cue", cues, rows)
			}
			first := annotate.Tools[0]
			off := quiz.OpenWorldHint
			clicks = nil
			for _, tool := range annotate.Tools {
				for _, h := range quiz.AllHints() {
					k := tool.Hints.Get(h)
					if k == nil || k.Value == nil {
						continue
					}
					v := *k.Value
					if tool.Name == first.Name && h == off {
						v = !v
					}
					clicks = append(clicks, inputSel(ascope, "hint."+tool.Name+"."+string(h), fmt.Sprint(v)))
				}
			}
			b.do(t, clickAll(clicks)...)
			b.do(t, clickSteady(ascope+` button[type="submit"]`), chromedp.WaitVisible(chromedp.CSS(ascope+` [data-testid="feedback"]`)))
			if got, want := b.text(t, ascope+` [data-testid="outcome"]`), "Still off: openWorldHint of "+first.Name+"."; !strings.Contains(got, want) {
				t.Errorf("annotate outcome = %q, want it to say %q", got, want)
			}
			row := b.text(t, ascope+` .tool-card [data-testid="feedback"] li[data-hint="openWorldHint"]`)
			if !strings.Contains(row, "Not right yet.") || !strings.Contains(row, "Ask yourself: "+first.CueFor(off)) {
				t.Errorf("the off hint's row says %q, want it named with its cue", row)
			}
			card := b.text(t, ascope+` .tool-card`)
			for _, h := range quiz.AllHints() {
				if k := first.Hints.Get(h); k != nil && strings.Contains(card, k.Explanation) {
					t.Errorf("the tool not right yet shows the explanation of %s", h)
				}
			}
			for _, bad := range []string{"Set;", "should be", "expected value"} {
				if strings.Contains(card, bad) {
					t.Errorf("the tool's feedback says %q: %s", bad, card)
				}
			}
			if scripts {
				axeHere(t, b, string(script), "the checked classify and annotate blocks")
				shot(t, b, "feedback-annotate", ascope+` .tool-card [data-testid="feedback"]`)
			}
		})
	}
}

// TestBrowserQuizRetryAndWait follows a learner who fails the lesson quiz,
// with scripts on and off: an incomplete submit stays on the lesson (in
// place, or at an address that reloads to the lesson, never a 405); a
// failed attempt is shown once, read-only, short enough to read (its
// height at 1280 and 390 px is logged); "Try again" loads the next
// attempt; after quiz.QuizFailsBeforeWait failures in a row the retry is a
// disabled button saying when the next attempt opens, and the lesson page
// says so too and offers no submit, with axe-core clean in both themes.
func TestBrowserQuizRetryAndWait(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	q, _ := lesson.Quiz()
	qscope := fmt.Sprintf(`[data-testid="widget-%s"]`, q.ID)
	script, err := os.ReadFile(filepath.Join("..", "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing: %v", err)
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	lessonURL := base + "/lessons/" + lesson.Slug
	for _, scripts := range []bool{true, false} {
		name := map[bool]string{true: "scripts on", false: "scripts off"}[scripts]
		t.Run(name, func(t *testing.T) {
			b := newBrowser(t)
			b.do(t, send(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !scripts}),
				chromedp.EmulateViewport(1280, 900),
				chromedp.Navigate(lessonURL), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))

			// An incomplete submit.
			if scripts {
				b.do(t, chromedp.Evaluate[chromedp.Void](`window.samePage = true`))
			}
			b.do(t, clickSteady(qscope+` button[type="submit"]`), chromedp.WaitVisible(chromedp.CSS(qscope+` [data-testid="outcome"] p`)))
			if out := b.text(t, qscope+` [data-testid="outcome"]`); !strings.Contains(out, "not answered") {
				t.Errorf("blank quiz outcome = %q, want the unanswered questions named", out)
			}
			if scripts {
				if loc := eval[string](t, b, `location.href`); loc != lessonURL || !eval[bool](t, b, `window.samePage === true`) {
					t.Errorf("an incomplete submit left the page: now at %q", loc)
				}
			} else {
				// The refused post's page is at the form's address; asking
				// for it again (a reload without the post) opens the lesson.
				b.do(t, chromedp.Navigate(eval[string](t, b, `location.href`)), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
				if got := b.text(t, "#lesson-title"); got != lesson.Title {
					t.Errorf("the form's address, asked for again, shows %q, want the lesson", got)
				}
			}

			for n := 1; n <= quiz.QuizFailsBeforeWait; n++ {
				b.do(t, clickAll(b.quizAnswers(t, qscope, q, false))...)
				b.do(t, clickSteady(qscope+` button[type="submit"]`), chromedp.WaitVisible(chromedp.CSS(qscope+` [data-testid="feedback"]`)))
				if inputs := eval[int](t, b, `document.querySelectorAll('`+qscope+` input[type="radio"], `+qscope+` input[type="checkbox"]').length`); inputs != 0 {
					t.Errorf("attempt %d: the failed quiz still has %d choices to click", n, inputs)
				}
				if n == 1 {
					h1280, h390 := quizHeight(t, b, qscope, 1280), quizHeight(t, b, qscope, 390)
					t.Logf("the failed quiz is %d px high at 1280 px and %d px at 390 px", h1280, h390)
					if h1280 > 3000 {
						t.Errorf("the failed quiz is %d px high at 1280 px, want under 3000", h1280)
					}
					if scripts {
						checkWidths(t, b, "failed quiz")
						shot(t, b, "quiz-failed", qscope+` [data-testid="outcome"]`)
					}
				}
				if n < quiz.QuizFailsBeforeWait {
					// The retry loads the next attempt.
					b.do(t, clickSteady(qscope+` a[data-testid="quiz-retry"]`), chromedp.WaitVisible(chromedp.CSS(qscope+` button[type="submit"]`)))
					if got := eval[string](t, b, `document.querySelector('`+qscope+` input[name="attempt"]').value`); got != fmt.Sprint(n+1) {
						t.Errorf("after retry %d the quiz is attempt %s, want %d", n, got, n+1)
					}
					continue
				}
				// The third failure in a row: a wait, said on the retry.
				retry := b.text(t, qscope+` button[data-testid="quiz-retry"]`)
				disabled := eval[bool](t, b, `document.querySelector('`+qscope+` button[data-testid="quiz-retry"]').disabled`)
				if !strings.HasPrefix(retry, "Try again at ") || !strings.Contains(retry, "(in 10 min)") || !disabled {
					t.Errorf("after %d failures the retry says %q (disabled %t), want a disabled \"Try again at HH:MM (in 10 min)\"", n, retry, disabled)
				}
				if eval[int](t, b, `document.querySelectorAll('`+qscope+` a[data-testid="quiz-retry"]').length`) != 0 {
					t.Error("a retry link is offered during the wait")
				}
			}
			// The lesson page, opened during the wait.
			b.do(t, chromedp.Navigate(lessonURL), chromedp.WaitVisible(chromedp.CSS(qscope+` [data-testid="quiz-wait"]`)))
			wait := b.text(t, qscope+` [data-testid="quiz-wait"]`)
			if !strings.Contains(wait, "the next attempt opens at ") || !strings.Contains(wait, "in 10 min") {
				t.Errorf("the waiting quiz says %q", wait)
			}
			if n := eval[int](t, b, `document.querySelectorAll('`+qscope+` button[type="submit"], `+qscope+` [data-question]').length`); n != 0 {
				t.Errorf("the waiting quiz offers %d questions or submit buttons", n)
			}
			if scripts {
				axeHere(t, b, string(script), "the waiting quiz")
				shot(t, b, "quiz-waiting", qscope+` [data-testid="quiz-wait"]`)
				// Once the wait is over the page script offers the next
				// attempt without a reload: here the page's clock runs 11
				// minutes ahead, so the wait is over as the page opens.
				b.do(t, chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
					_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
						Source: `{ const now = Date.now; Date.now = () => now() + 11 * 60 * 1000; }`})
					return chromedp.Void{}, err
				}), chromedp.Navigate(lessonURL), chromedp.WaitVisible(chromedp.CSS(qscope+` a[data-testid="quiz-retry"]`)))
				href := eval[string](t, b, `document.querySelector('`+qscope+` a[data-testid="quiz-retry"]').getAttribute("href")`)
				if !strings.HasPrefix(href, "/lessons/"+lesson.Slug+"?try=") {
					t.Errorf("after the wait the retry links to %q", href)
				}
			}
		})
	}
}

// TestBrowserSmallFixes checks the small things a new learner tripped
// over: the home tagline does not repeat the introduction, the footer has
// no space before its full stop, a public thread's ask form says everyone
// sees the question and its part list names each part once, /guide fits
// 390 px (and the other test widths), and /progress tables fill their
// boxes at 1280 and 390 px.
func TestBrowserSmallFixes(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="course-intro"]`)))
	tagline, intro := b.text(t, `[data-testid="course-tagline"]`), b.text(t, `[data-testid="course-intro"]`)
	firstWords := func(s string) string {
		w := strings.Fields(strings.ToLower(s))
		return strings.Join(w[:min(4, len(w))], " ")
	}
	if firstWords(tagline) == firstWords(intro) || strings.Contains(intro, strings.TrimSuffix(tagline, ".")) {
		t.Errorf("the tagline %q repeats the introduction %q", tagline, intro)
	}
	if footer := b.text(t, `[data-testid="footer-course"]`); strings.Contains(footer, " .") {
		t.Errorf("the footer has a space before a full stop: %q", footer)
	}

	// A learner in no class asks in public.
	b.do(t, chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS(`[data-testid="name-form"]`)),
		fill(`[data-testid="name"]`, "Sam Plover"), clickSteady(`[data-testid="name-submit"]`),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="ask-form"]`)))
	if hint := b.text(t, `[data-testid="ask-form"] .qa-hint`); strings.Contains(hint, "your class") || !strings.Contains(hint, "Everyone who opens this lesson") {
		t.Errorf("the public ask form says %q", hint)
	}
	parts := eval[[]string](t, b, `[...document.querySelectorAll('#qa-part option')].map(o => o.textContent.trim())`)
	seen := map[string]bool{}
	for _, p := range parts {
		if seen[p] {
			t.Errorf("the part list names %q twice: %q", p, parts)
		}
		seen[p] = true
	}

	b.do(t, chromedp.Navigate(base+"/guide"), chromedp.WaitVisible(chromedp.CSS("main")))
	checkWidths(t, b, "/guide")

	b.do(t, chromedp.Navigate(base+"/progress"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-scores"]`)))
	for _, w := range []int64{1280, 390} {
		b.do(t, chromedp.EmulateViewport(w, 900))
		settledWidths(t, b)
		gaps := eval[[]int](t, b, `[...document.querySelectorAll('.table-scroll')].map(box => Math.round(box.clientWidth - box.querySelector('table').getBoundingClientRect().width))`)
		for i, gap := range gaps {
			if gap > 1 {
				t.Errorf("at %d px the table in box %d is %d px narrower than its box", w, i+1, gap)
			}
		}
	}
}
