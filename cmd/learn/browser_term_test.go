package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"learn/internal/qrtest"
	"learn/lessons"
)

// termLearner is a learner of the term test on a plain HTTP client: what
// they did, to check the dashboard and the export against.
type termLearner struct {
	name, secret string
	c            *http.Client
	passed       bool // passed the first lesson's quiz
	failed       bool // failed it once
	solved       bool // solved the first lesson's exercise
}

var (
	secretWordsRe = regexp.MustCompile(`data-testid="secret-words">([a-z ]+)<`)
	joinErrorRe   = regexp.MustCompile(`data-testid="join-error">([^<]+)<`)
)

// join joins the class with code over HTTP, as a new learner, and keeps
// their secret words.
func (l *termLearner) join(t *testing.T, base, code string) {
	t.Helper()
	get(t, l.c, base+"/")
	resp, err := l.c.PostForm(base+"/join", url.Values{"code": {code}, "name": {l.name}})
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	m := secretWordsRe.FindStringSubmatch(body.String())
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("%s joining with %s = %d, no secret words:\n%.400s", l.name, code, resp.StatusCode, body.String())
	}
	l.secret = m[1]
}

// xp reads the learner's XP from their progress page.
func (l *termLearner) xp(t *testing.T, base string) int {
	t.Helper()
	_, body := get(t, l.c, base+"/progress")
	xp, ok := pageXP(body)
	if !ok {
		t.Fatalf("%s's progress page shows no XP", l.name)
	}
	return xp
}

// TestBrowserClassTerm runs a class for a term as its two teachers would:
// the owner (in Chromium) makes the class, assigns two lessons with a due
// date and adds a co-teacher, who signs in (in Chromium) and sees it as
// co-taught; 12 learners join over HTTP and pass, fail or solve; mid-term
// the co-teacher turns joining off and the owner makes a new code, which
// refuses the old one; two learners continue on second devices (Chromium)
// with the class code, name and words, and find their XP; the owner gives
// an extension, the co-teacher resets a failed quiz, a removal is undone;
// the word sheet prints to PDF with one card per learner; the projector's
// QR code decodes to the join address with the new code; and the export,
// read back with encoding/csv, agrees with what every learner did.
func TestBrowserClassTerm(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	first, second := course.Lessons[0], course.Lessons[1]
	q, ok := first.Quiz()
	if !ok {
		t.Fatalf("lesson %s has no quiz", first.Slug)
	}
	ex, exLesson, ok := course.Exercise("report-a-failure")
	if !ok || exLesson != first {
		t.Fatal("the first lesson has no report-a-failure exercise")
	}
	db := t.TempDir() + "/learn.db"
	base, _ := startServer(t, db)
	for _, tc := range []struct{ email, name string }{{"room12@school.example", "Room 12"}, {"room14@school.example", "Room 14"}} {
		var out, errOut bytes.Buffer
		if err := runTeacher(context.Background(), []string{"add", tc.email, "--name", tc.name, "--db", db},
			strings.NewReader("a classroom password\n"), &out, &errOut); err != nil {
			t.Fatalf("learn teacher add %s: %v\n%s", tc.email, err, errOut.String())
		}
	}
	waitReady(t, base)
	signIn := func(b *browser, email string) {
		b.do(t, chromedp.Navigate(base+"/signin"), chromedp.WaitVisible(chromedp.CSS(`#signin-email`)),
			fill(`#signin-email`, email), fill(`#signin-password`, "a classroom password"),
			chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="class-list"], #class-name`)))
	}

	// The owner makes the class, assigns two lessons due in two weeks and
	// adds the co-teacher.
	owner := newBrowser(t)
	signIn(owner, "room12@school.example")
	owner.do(t, fill(`#class-name`, "Year 10 green"), chromedp.Click(chromedp.CSS(`form[action="/classes"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
	code := owner.text(t, `[data-testid="join-code"]`)
	classURL, err := chromedp.Run(owner.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	due := time.Now().UTC().AddDate(0, 0, 14).Format("2006-01-02")
	later := time.Now().UTC().AddDate(0, 0, 21).Format("2006-01-02")
	owner.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="lesson"][value=%q]`, first.Slug))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="lesson"][value=%q]`, second.Slug))),
		chromedp.SetValue(chromedp.CSS(`#assign-due`), due),
		chromedp.Click(chromedp.CSS(`form[action$="/assignments"] button`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="assignments"]`)))
	owner.do(t, fill(`#co-email`, "Room14@school.example"), chromedp.Click(chromedp.CSS(`form[action$="/teachers"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="done-note"]`)))
	if got := owner.text(t, `[data-testid="done-note"]`); !strings.Contains(got, "Room 14") {
		t.Errorf("after adding the co-teacher the dashboard says %q", got)
	}
	if got := owner.text(t, `#teachers`); !strings.Contains(got, "Room 14 (room14@school.example), co-teacher") {
		t.Errorf("the teachers section reads %q", got)
	}

	// The co-teacher finds the class among theirs, marked, and may not
	// delete it or change its teachers.
	co := newBrowser(t)
	signIn(co, "room14@school.example")
	if got := co.text(t, `[data-testid="class-list"]`); !strings.Contains(got, "Year 10 green") || !strings.Contains(got, "co-teaching") {
		t.Errorf("the co-teacher's classes read %q", got)
	}
	co.do(t, chromedp.Click(chromedp.CSS(`[data-testid="class-list"] a`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
	if got := co.text(t, `#teachers`); !strings.Contains(got, "You co-teach this class") {
		t.Errorf("the co-teacher's teachers section reads %q", got)
	}
	if n, err := chromedp.Run(co.ctx, chromedp.Evaluate[int](`document.querySelectorAll('form[action$="/teachers"], form[action$="/delete"]:not([action*="/assignments/"])').length`)); err != nil || n != 0 {
		t.Errorf("the co-teacher's dashboard offers %d owner-only forms (%v)", n, err)
	}

	// Twelve learners join and work: six pass the quiz, three fail it
	// once, one solves the exercise, two only join.
	names := []string{"Amber Fox", "Blue Jay", "Cedar Owl", "Dune Hare", "Elm Wren", "Fern Vole",
		"Gold Finch", "Hazel Mole", "Iris Moth", "Jade Newt", "Kelp Seal", "Lark Pike"}
	learners := make([]*termLearner, len(names))
	for i, name := range names {
		l := &termLearner{name: name, c: newClient(t)}
		l.c.Timeout = 2 * time.Minute
		l.join(t, base, code)
		learners[i] = l
	}
	quizURL := base + "/lessons/" + first.Slug + "/widgets/" + q.ID
	for i, l := range learners[:9] {
		_, pageBody := get(t, l.c, base+"/lessons/"+first.Slug)
		form, err := quizFormAnswering(pageBody, q, i < 6)
		if err != nil {
			t.Fatal(err)
		}
		status, r, err := postJSON(l.c, quizURL, form)
		if err != nil || status != http.StatusOK || r.Passed != (i < 6) {
			t.Fatalf("%s's quiz = %d passed %v (%v)", l.name, status, r.Passed, err)
		}
		l.passed, l.failed = i < 6, i >= 6
	}
	solver := learners[9]
	body, _ := json.Marshal(map[string]string{"code": ex.Solution})
	resp, err := solver.c.Post(base+"/api/exercises/"+ex.ID+"/submit", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s's submission = %d", solver.name, resp.StatusCode)
	}
	solver.solved = true

	// Mid-term the co-teacher turns joining off and the owner makes a new
	// code; the old code admits nobody.
	co.do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/settings"] input[name="code"][value="off"] + button`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-testid="join-code"]`)))
	owner.do(t, chromedp.Navigate(classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="roster"]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/settings"] input[name="code"][value="new"] + button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
	newCode := owner.text(t, `[data-testid="join-code"]`)
	if newCode == code || len(newCode) != 6 {
		t.Fatalf("the new join code is %q (the old %q)", newCode, code)
	}
	latecomer := newClient(t)
	get(t, latecomer, base+"/")
	resp, err = latecomer.PostForm(base+"/join", url.Values{"code": {code}, "name": {"Late Comer"}})
	if err != nil {
		t.Fatal(err)
	}
	var refused bytes.Buffer
	refused.ReadFrom(resp.Body)
	resp.Body.Close()
	if m := joinErrorRe.FindStringSubmatch(refused.String()); resp.StatusCode == http.StatusOK || m == nil || !strings.Contains(m[1], "No class takes this code") {
		t.Errorf("joining with the old code = %d %v, want it refused", resp.StatusCode, m)
	}
	classCode := owner.text(t, `[data-testid="class-code"]`)

	// Two learners continue on second devices with the class code, their
	// name and words, and find their XP there.
	for _, l := range []*termLearner{learners[0], learners[6]} {
		want := l.xp(t, base)
		dev := newBrowser(t)
		dev.do(t, chromedp.Navigate(base+"/join/signin"), chromedp.WaitVisible(chromedp.CSS(`#ls-code`)),
			fill(`#ls-code`, strings.ToLower(classCode)), fill(`#ls-name`, strings.ToUpper(l.name)), fill(`#ls-secret`, l.secret),
			chromedp.Click(chromedp.CSS(`form[action="/join/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lesson-list"]`)))
		if got := dev.text(t, `[data-testid="xp-total"]`); got != strconv.Itoa(want) {
			t.Errorf("%s's second device shows XP %s, want %d", l.name, got, want)
		}
		if errs := dev.consoleErrors(); len(errs) > 0 {
			t.Errorf("console errors on %s's second device:\n%s", l.name, strings.Join(errs, "\n"))
		}
	}

	learnerPage := func(b *browser, name string) {
		b.do(t, chromedp.Navigate(classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="roster"]`)),
			chromedp.Click(chromedp.CSS(fmt.Sprintf(`tr[data-name=%q] th a`, name))), chromedp.WaitVisible(chromedp.CSS(`[data-testid="learner-xp"]`)))
	}
	confirmDialog := []chromedp.Action[chromedp.Void]{chromedp.WaitVisible(chromedp.CSS(`dialog.confirm-dialog[open]`)),
		chromedp.Click(chromedp.CSS(`dialog.confirm-dialog button.danger`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="done-note"]`))}

	// The owner gives Hazel Mole a later date for the first lesson.
	extended := learners[7]
	learnerPage(owner, extended.name)
	owner.do(t, chromedp.SetValue(chromedp.CSS("#ext-"+first.Slug), later),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`form[action$="/extensions/%s"] button`, first.Slug))),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="extension"]`)))
	if got := owner.text(t, `[data-testid="extension"]`); !strings.Contains(got, later) || !strings.Contains(got, due) {
		t.Errorf("the extension reads %q, want %s and the class's %s", got, later, due)
	}

	// The co-teacher resets Gold Finch's failed quiz, which then passes.
	reset := learners[6]
	learnerPage(co, reset.name)
	co.do(t, append([]chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS(fmt.Sprintf(`form[action$="/quiz/%s/reset"] button`, first.Slug)))}, confirmDialog...)...)
	if got := co.text(t, `[data-testid="resets"]`); !strings.Contains(got, "Quiz of "+first.Title+" reset") {
		t.Errorf("after the reset the learner's page lists %q", got)
	}
	_, pageBody := get(t, reset.c, base+"/lessons/"+first.Slug)
	form, err := quizForm(pageBody, q)
	if err != nil {
		t.Fatal(err)
	}
	if status, r, err := postJSON(reset.c, quizURL, form); err != nil || status != http.StatusOK || !r.Passed {
		t.Fatalf("%s's quiz after the reset = %d passed %v (%v)", reset.name, status, r.Passed, err)
	}
	reset.passed, reset.failed = true, false

	// The owner removes Lark Pike, then undoes it.
	removed := learners[11]
	learnerPage(owner, removed.name)
	owner.do(t, append([]chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS(`form[action$="/remove"] button`))}, confirmDialog...)...)
	owner.do(t, chromedp.Click(chromedp.CSS(`[data-testid="removed"] button`)), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`tr[data-name=%q]`, removed.name))))
	if got := owner.text(t, `[data-testid="done-note"]`); !strings.Contains(got, "back in the class") {
		t.Errorf("after the undo the dashboard says %q", got)
	}

	// The word sheet prints to PDF, one card per learner with their words.
	owner.do(t, chromedp.Navigate(classURL+"/sheet"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="word-cards"]`)),
		chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return chromedp.Void{}, err
		}))
	cards, err := chromedp.Run(owner.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-testid="word-card"]')]
		.filter(c => c.getBoundingClientRect().height > 0).map(c => c.innerText.replace(/\s+/g, " "))`))
	if err != nil || len(cards) != len(learners) {
		t.Errorf("the printed sheet shows %d cards (%v), want %d", len(cards), err, len(learners))
	}
	for _, l := range learners {
		if !slices.ContainsFunc(cards, func(c string) bool { return strings.Contains(c, l.name) && strings.Contains(c, l.secret) }) {
			t.Errorf("no printed card has %s with their words %q", l.name, l.secret)
		}
	}
	pdf, err := chromedp.Run(owner.ctx, chromedp.Action[[]byte](func(ctx context.Context, _ *chromedp.Target) ([]byte, error) {
		res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{})
		return res.Data, err
	}))
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) || len(regexp.MustCompile(`/Type\s*/Page\b`).FindAll(pdf, -1)) == 0 {
		t.Errorf("printing the word sheet to PDF gave %d bytes with no page (%v)", len(pdf), err)
	}
	owner.do(t, chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
		return chromedp.Void{}, err
	}))

	// The projector's QR code, read back as a phone would, opens the join
	// page with the new code.
	owner.do(t, chromedp.Navigate(classURL+"/projector"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="projector-code"]`)))
	svg, err := chromedp.Run(owner.ctx, chromedp.Evaluate[string](`document.querySelector(".projector-qr svg").outerHTML`))
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrtest.DecodeSVG(svg); err != nil || text != base+"/join?code="+newCode {
		t.Errorf("the projector's QR code reads %q (%v), want %s/join?code=%s", text, err, base, newCode)
	}

	// The export agrees with what every learner did.
	records := exportCSV(t, owner, classURL)
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	rows := map[string][]string{} // "name/lesson" → record
	for _, r := range records[1:] {
		rows[r[col["name"]]+"/"+r[col["lesson"]]] = r
	}
	if len(records) != 1+len(learners)*len(course.Lessons) {
		t.Errorf("the export has %d rows, want %d learners × %d lessons", len(records)-1, len(learners), len(course.Lessons))
	}
	total := strconv.Itoa(len(q.Questions))
	for _, l := range learners {
		r, ok := rows[l.name+"/"+first.Title]
		if !ok {
			t.Errorf("the export has no row for %s on %s", l.name, first.Title)
			continue
		}
		cell := func(name string) string { return r[col[name]] }
		if got := cell("total_xp"); got != strconv.Itoa(l.xp(t, base)) {
			t.Errorf("%s: total_xp %s, their own page shows %d", l.name, got, l.xp(t, base))
		}
		switch {
		case l.passed && l == reset:
			if cell("state") != "quiz passed" || cell("first_try_score") != "0" || cell("best_score") != total || cell("quiz_attempts") != "2" {
				t.Errorf("%s (failed, reset, passed): %v", l.name, r)
			}
		case l.passed:
			if cell("state") != "quiz passed" || cell("first_try_score") != total || cell("quiz_attempts") != "1" || cell("lesson_xp") == "0" {
				t.Errorf("%s (passed): %v", l.name, r)
			}
		case l.failed:
			if cell("state") == "quiz passed" || cell("first_try_score") != "0" || cell("quiz_attempts") != "1" {
				t.Errorf("%s (failed once): %v", l.name, r)
			}
		case l.solved:
			if cell("exercises_solved") != "1" || cell("lesson_xp") != strconv.Itoa(ex.XPValue()) {
				t.Errorf("%s (solved the exercise): %v", l.name, r)
			}
		default:
			if cell("quiz_attempts") != "0" || cell("lesson_xp") != "0" || cell("exercises_solved") != "0" {
				t.Errorf("%s (only joined): %v", l.name, r)
			}
		}
		wantDue := due
		if l == extended {
			wantDue = later
		}
		if cell("due") != wantDue || cell("late") != "false" {
			t.Errorf("%s: due %q late %q, want %s and not late", l.name, cell("due"), cell("late"), wantDue)
		}
		if r2 := rows[l.name+"/"+second.Title]; r2 == nil || r2[col["due"]] != due {
			t.Errorf("%s: the second lesson's row %v, want due %s", l.name, r2, due)
		}
	}
	for _, b := range []*browser{owner, co} {
		if errs := b.consoleErrors(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	}
}
