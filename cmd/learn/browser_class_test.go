package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"learn/lessons"
)

// fill types v into the field matched by sel.
func fill(sel, v string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(chromedp.CSS(sel), v)
}

// TestBrowserClassroom is the classroom as a teacher and two learners
// would use it: the teacher (added with "learn teacher add") signs in,
// makes a class and assigns two lessons; two learners join with the code;
// one passes a quiz and solves an exercise, the other fails the quiz once;
// the dashboard shows both, their states, first-try scores and the stuck
// question; the second learner continues on a third browser with their
// secret words; the export downloads and parses. Screenshots of the
// dashboard at 1280 and 390 pixels are saved (LEARN_SCREENSHOTS keeps
// them).
func TestBrowserClassroom(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	first := course.Lessons[0]
	q, ok := first.Quiz()
	if !ok {
		t.Fatalf("lesson %s has no quiz", first.Slug)
	}
	ex, exLesson, ok := course.Exercise("report-a-failure")
	if !ok {
		t.Fatal("the course has no report-a-failure exercise")
	}
	db := filepath.Join(t.TempDir(), "learn.db")
	base, _ := startServer(t, db)
	var out, errOut bytes.Buffer
	if err := runTeacher(context.Background(), []string{"add", "teacher@school.example", "--name", "Room 12", "--db", db},
		strings.NewReader("a classroom password\n"), &out, &errOut); err != nil {
		t.Fatalf("learn teacher add: %v\n%s", err, errOut.String())
	}
	waitReady(t, base)

	// The teacher signs in, makes a class and assigns two lessons.
	teacher := newBrowser(t)
	teacher.do(t, chromedp.Navigate(base+"/signin"), chromedp.WaitVisible(chromedp.CSS(`#signin-email`)),
		fill(`#signin-email`, "teacher@school.example"), fill(`#signin-password`, "a classroom password"),
		chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`#class-name`)),
		fill(`#class-name`, "Year 9 blue"), chromedp.Click(chromedp.CSS(`form[action="/classes"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
	code := teacher.text(t, `[data-testid="join-code"]`)
	if len(code) != 6 {
		t.Fatalf("join code = %q, want six characters", code)
	}
	classURL, err := chromedp.Run(teacher.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	second := exLesson
	if second == first {
		second = course.Lessons[1]
	}
	teacher.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="lesson"][value=%q]`, first.Slug))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="lesson"][value=%q]`, second.Slug))), chromedp.Click(chromedp.CSS(`form[action$="/assignments"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="assignments"]`)))
	if got := teacher.text(t, `[data-testid="assignments"]`); !strings.Contains(got, first.Title) || !strings.Contains(got, second.Title) {
		t.Errorf("assignments = %q, want %q and %q", got, first.Title, second.Title)
	}

	join := func(b *browser, name string) string {
		b.do(t, chromedp.Navigate(base+"/join"), chromedp.WaitVisible(chromedp.CSS(`#join-code`)),
			fill(`#join-code`, strings.ToLower(code)), fill(`#join-name`, name),
			chromedp.Click(chromedp.CSS(`form[action="/join"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="secret-words"]`)))
		return b.text(t, `[data-testid="secret-words"]`)
	}
	scope := fmt.Sprintf(`[data-testid="widget-%s"]`, q.ID)

	// The first learner passes the quiz and solves the exercise.
	fox := newBrowser(t)
	join(fox, "Blue Fox")
	fox.do(t, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="assigned"]`)))
	if got := fox.text(t, `[data-testid="assigned"]`); !strings.Contains(got, first.Title) || !strings.Contains(got, "Room 12") {
		t.Errorf("the learner's home shows %q, want the assignment by Room 12", got)
	}
	fox.do(t, chromedp.Navigate(base+"/lessons/"+first.Slug), chromedp.WaitVisible(chromedp.CSS(scope)))
	fox.do(t, clickAll(fox.quizClicks(t, scope, q))...)
	fox.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="outcome"] p`)))
	if got := fox.text(t, scope+` [data-testid="outcome"]`); !strings.HasPrefix(got, "Passed") {
		t.Fatalf("the right answers did not pass: %q", got)
	}
	exScope := fmt.Sprintf(`[data-testid="exercise-%s"]`, ex.ID)
	fox.do(t, chromedp.Navigate(base+"/lessons/"+exLesson.Slug), chromedp.WaitVisible(chromedp.CSS(exScope+` [data-testid="editor"]`)),
		setCode(exScope+` textarea[name="code"]`, ex.Solution), clickSteady(exScope+` [data-testid="submit"]`),
		chromedp.WaitVisible(chromedp.CSS(exScope+` [data-testid="summary"]`)))
	if got := fox.text(t, exScope+` [data-testid="summary"]`); !strings.Contains(got, "Solved.") {
		t.Fatalf("the reference solution: %q", got)
	}

	// The second learner fails the quiz once.
	owl := newBrowser(t)
	secret := join(owl, "Green Owl")
	owl.do(t, chromedp.Navigate(base+"/lessons/"+first.Slug), chromedp.WaitVisible(chromedp.CSS(scope)))
	owl.do(t, clickAll(owl.quizAnswers(t, scope, q, false))...)
	owl.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="outcome"] p`)))
	if got := owl.text(t, scope+` [data-testid="outcome"]`); strings.HasPrefix(got, "Passed") {
		t.Fatalf("the wrong answers passed: %q", got)
	}
	owl.do(t, chromedp.Navigate(base+"/progress"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="xp-total"]`)))
	owlXP := owl.text(t, `[data-testid="xp-total"]`)

	// The teacher's page, open all along, refreshes itself: both learners
	// appear without a reload.
	teacher.do(t, chromedp.WaitVisible(chromedp.CSS(`tr[data-name="Green Owl"]`)))
	// The dashboard shows both learners, their states and scores, and
	// where the class is stuck.
	teacher.do(t, chromedp.Navigate(classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="roster"]`)))
	cell := func(name string) string {
		return teacher.text(t, fmt.Sprintf(`tr[data-name=%q] td[data-lesson=%q]`, name, first.Slug))
	}
	total := len(q.Questions)
	if got := cell("Blue Fox"); !strings.Contains(got, "quiz passed") || !strings.Contains(got, fmt.Sprintf("first try %d of %d", total, total)) {
		t.Errorf("Blue Fox's cell = %q, want quiz passed, first try %d of %d", got, total, total)
	}
	if got := cell("Green Owl"); strings.Contains(got, "quiz passed") || !strings.Contains(got, fmt.Sprintf("first try 0 of %d", total)) {
		t.Errorf("Green Owl's cell = %q, want not passed, first try 0 of %d", got, total)
	}
	exCell := teacher.text(t, fmt.Sprintf(`tr[data-name="Blue Fox"] td[data-lesson=%q]`, exLesson.Slug))
	if !strings.Contains(exCell, "exercises solved") {
		t.Errorf("Blue Fox's exercise lesson cell = %q, want an exercise solved", exCell)
	}
	stuck := teacher.text(t, `[data-testid="stuck-items"]`)
	promptSeen := false
	for i := range q.Questions {
		for v := range q.Questions[i].VariantCount() {
			if p := q.Questions[i].VariantAt(v).Prompt; p != "" && strings.Contains(stuck, p) {
				promptSeen = true
			}
		}
	}
	// A question's versions count together, with a line for each.
	if !promptSeen || !strings.Contains(stuck, "%") || !strings.Contains(stuck, "Most chosen wrong answer") {
		t.Errorf("where the class is stuck = %q, want the quiz's questions with their miss rates and wrong answers", stuck)
	}
	for _, w := range []int64{1280, 390} {
		teacher.do(t, chromedp.EmulateViewport(w, 900), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="roster"]`)))
		wide, err := chromedp.Run(teacher.ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`))
		if err != nil || wide {
			culprits, _ := chromedp.Run(teacher.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("body *")]
				.filter(e => !e.closest(".table-scroll") && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
				.slice(0, 5).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`))
			t.Errorf("at %d px the dashboard is wider than the window (%v): %v", w, err, culprits)
		}
		teacher.screenshot(t, fmt.Sprintf("dashboard-%d", w))
		// The first screenful too: what a teacher sees at a glance.
		if png, err := chromedp.Run(teacher.ctx, chromedp.CaptureScreenshot()); err == nil {
			if dir := os.Getenv("LEARN_SCREENSHOTS"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("dashboard-%d-top.png", w)), png, 0o644); err != nil {
					t.Error(err)
				}
			}
		}
	}

	// Blue Fox's page: attempts and the latest code, highlighted.
	teacher.do(t, chromedp.EmulateViewport(1280, 900), chromedp.Click(chromedp.CSS(`tr[data-name="Blue Fox"] th a`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="attempts"]`)))
	if got := teacher.text(t, `.code-view`); !strings.Contains(got, strings.TrimSpace(strings.SplitN(ex.Solution, "\n", 2)[0])) {
		t.Errorf("Blue Fox's latest code = %q, want the solution", got)
	}
	teacher.screenshot(t, "learner-page")
	fox.do(t, chromedp.Navigate(base+"/classes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="assigned"]`)))
	fox.screenshot(t, "learner-classes")

	// The second learner continues on a third browser with their words.
	tablet := newBrowser(t)
	tablet.do(t, chromedp.Navigate(base+"/join/signin"), chromedp.WaitVisible(chromedp.CSS(`#ls-code`)),
		fill(`#ls-code`, code), fill(`#ls-name`, "green owl"), fill(`#ls-secret`, secret),
		chromedp.Click(chromedp.CSS(`form[action="/join/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
	if got := tablet.text(t, `[data-testid="xp-total"]`); got != owlXP {
		t.Errorf("XP on the third browser = %s, want Green Owl's %s", got, owlXP)
	}

	// The export downloads and parses.
	records := exportCSV(t, teacher, classURL)
	rows := map[string]bool{}
	for _, r := range records[1:] {
		rows[r[0]+"/"+r[1]+"/"+r[2]] = true
	}
	if len(records) != 1+2*len(course.Lessons) || !rows["Blue Fox/"+first.Title+"/quiz passed"] || !rows["Green Owl/"+first.Title+"/opened"] {
		t.Errorf("export rows = %v, want both learners on every lesson", rows)
	}
	// The word sheet prints one card per learner, without the site's
	// header, to a PDF.
	teacher.do(t, chromedp.Navigate(classURL+"/sheet"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="word-cards"]`)),
		chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return chromedp.Void{}, err
		}))
	printed, err := chromedp.Run(teacher.ctx, chromedp.Evaluate[[]int](`[
		[...document.querySelectorAll('[data-testid="word-card"]')].filter(c => c.getBoundingClientRect().height > 0).length,
		getComputedStyle(document.querySelector(".site-header")).display === "none" ? 1 : 0]`))
	if err != nil || len(printed) != 2 || printed[0] != 2 || printed[1] != 1 {
		t.Errorf("in print the sheet shows %v cards and header hidden (want [2 1]): %v", printed, err)
	}
	pdf, err := chromedp.Run(teacher.ctx, chromedp.Action[[]byte](func(ctx context.Context, _ *chromedp.Target) ([]byte, error) {
		res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{})
		return res.Data, err
	}))
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) || len(pdf) < 2000 {
		t.Errorf("printing the word sheet to PDF gave %d bytes (%v)", len(pdf), err)
	}
	teacher.do(t, chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
		return chromedp.Void{}, err
	}), chromedp.Navigate(classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="roster"]`)))

	// Removing a learner asks in a dialog first; cancel keeps them, confirm
	// removes them and says so, and the removal can be undone in place.
	teacher.do(t, chromedp.Click(chromedp.CSS(`tr[data-name="Green Owl"] th a`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="attempts"]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/remove"] button`)), chromedp.WaitVisible(chromedp.CSS(`dialog.confirm-dialog[open]`)))
	if got := teacher.text(t, `dialog.confirm-dialog p`); !strings.Contains(got, "undo this for 7 days") {
		t.Errorf("the removal dialog says %q", got)
	}
	teacher.do(t, chromedp.Click(chromedp.CSS(`dialog.confirm-dialog button:not(.danger)`)), chromedp.WaitNotPresent(chromedp.CSS(`dialog.confirm-dialog`)))
	if focused, err := chromedp.Run(teacher.ctx, chromedp.Evaluate[bool](`document.activeElement === document.querySelector('form[action$="/remove"] button')`)); err != nil || !focused {
		t.Errorf("after cancelling the dialog the focus is not back on the Remove button (%v)", err)
	}
	if loc, _ := chromedp.Run(teacher.ctx, chromedp.Location()); !strings.Contains(loc, "/learners/") {
		t.Errorf("cancelling the dialog left the learner's page for %s", loc)
	}
	teacher.do(t, chromedp.Click(chromedp.CSS(`form[action$="/remove"] button`)), chromedp.WaitVisible(chromedp.CSS(`dialog.confirm-dialog[open]`)),
		chromedp.Click(chromedp.CSS(`dialog.confirm-dialog button.danger`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="done-note"]`)))
	if got := teacher.text(t, `[data-testid="done-note"]`); !strings.Contains(got, "Green Owl was removed") {
		t.Errorf("after the removal the dashboard says %q", got)
	}
	teacher.do(t, chromedp.Click(chromedp.CSS(`[data-testid="removed"] button`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-name="Green Owl"]`)))
	if got := teacher.text(t, `[data-testid="done-note"]`); !strings.Contains(got, "back in the class") {
		t.Errorf("after the undo the dashboard says %q", got)
	}
	for _, b := range []*browser{teacher, fox, owl, tablet} {
		if errs := b.consoleErrors(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	}
}

// exportCSV downloads the class's export as the teacher's browser would
// (the dashboard's Export CSV link) and reads it with encoding/csv.
func exportCSV(t *testing.T, b *browser, classURL string) [][]string {
	t.Helper()
	b.do(t, chromedp.Navigate(classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="export"]`)))
	body, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](
		`fetch(document.querySelector('[data-testid="export"]').href, {credentials: "same-origin"}).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(records) == 0 {
		t.Fatalf("the export does not parse: %v\n%s", err, body)
	}
	return records
}
