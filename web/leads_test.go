package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// tagRe finds markup, to read a page as text.
var tagRe = regexp.MustCompile(`<[^>]*>`)

// pageText is what a body says, markup aside: a page's text, or for JSON
// every string in it read the same way, so a program drawn as highlighted
// spans, escaped in HTML or inside a JSON string is found all the same.
func pageText(body string) string {
	var v any
	if json.Unmarshal([]byte(body), &v) == nil {
		var b strings.Builder
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				b.WriteString(pageText(x) + "\n")
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(v)
		return b.String()
	}
	return html.UnescapeString(tagRe.ReplaceAllString(body, ""))
}

// publicText is everything the course shows anyone: every lesson's text
// and code examples, every exercise's starter, prompt, samples and hints,
// and the authors' guide, whose examples are exercise blocks in full.
func publicText(t *testing.T, course *lessons.Course) string {
	var public []string
	for _, lesson := range course.Lessons {
		for _, seg := range lesson.Segments {
			public = append(public, html.UnescapeString(tagRe.ReplaceAllString(string(seg.HTML), "")))
		}
		for _, e := range lesson.Examples {
			public = append(public, e.Code)
		}
		for _, ex := range lesson.Exercises() {
			public = append(public, ex.Starter, ex.Prompt, html.UnescapeString(tagRe.ReplaceAllString(string(ex.PromptHTML), "")))
			public = append(public, ex.Hints...)
			for _, c := range ex.Samples {
				public = append(public, c.Stdin, c.Expected)
			}
		}
	}
	guide := lessons.GuideFiles()
	names, err := fs.Glob(guide, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(guide, n)
		if err != nil {
			t.Fatal(err)
		}
		public = append(public, string(b))
	}
	return strings.Join(public, "\n")
}

// telltales are the lines of code that show it: lines of at least 16
// characters found in no public text and in none of known (the programs of
// other exercises, which may share a line such as an import).
func telltales(code, public string, known ...string) []string {
	all := public + "\n" + strings.Join(known, "\n")
	var out []string
	for l := range strings.SplitSeq(code, "\n") {
		if l = strings.TrimSpace(l); len(l) >= 16 && !strings.Contains(all, l) {
			out = append(out, l)
		}
	}
	return out
}

// TestReferenceSolutionOnlyAfterPass requests every page a learner can
// reach (the course home, every lesson, the progress and review pages, the
// guide, every exercise's form answer with and without JavaScript, the JSON
// API, a hint) with every built-in exercise tried and failed, and finds no
// line of any reference solution, nor of any listed wrong or other
// solution. Then it solves one exercise with another right program: that
// exercise's reference solution appears in the answer and on its lesson
// page, behind its disclosure, and nowhere else; no other exercise's does,
// and the wrong and other solutions still never do.
func TestReferenceSolutionOnlyAfterPass(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	course := s.course()

	type secret struct {
		what  string
		lines []string
	}
	var solutions, graders []secret
	var bodies []string
	public := publicText(t, course)
	programs := map[string][]string{} // exercise id → its solution and grader solutions
	for _, lesson := range course.Lessons {
		for _, ex := range lesson.Exercises() {
			programs[ex.ID] = append(programs[ex.ID], ex.Solution)
			for _, g := range append(append([]lessons.GraderSolution(nil), ex.WrongSolutions...), ex.OtherSolutions...) {
				programs[ex.ID] = append(programs[ex.ID], g.Code)
			}
		}
	}
	othersOf := func(id string, extra ...string) []string {
		out := extra
		for other, codes := range programs {
			if other != id {
				out = append(out, codes...)
			}
		}
		return out
	}
	for _, lesson := range course.Lessons {
		for _, ex := range lesson.Exercises() {
			ref := secret{"the reference solution of " + ex.ID, telltales(ex.Solution, public, othersOf(ex.ID)...)}
			if len(ref.lines) == 0 {
				t.Fatalf("%s: no line of its reference solution tells it apart; the test could not see it leak", ex.ID)
			}
			solutions = append(solutions, ref)
			for i, g := range append(append([]lessons.GraderSolution(nil), ex.WrongSolutions...), ex.OtherSolutions...) {
				if lines := telltales(g.Code, public, othersOf(ex.ID, ex.Solution)...); len(lines) > 0 {
					graders = append(graders, secret{fmt.Sprintf("%s grader solution %d (%s)", ex.ID, i+1, g.Note), lines})
				}
			}
			// Tried and failed: hints open, and every answer a try gets.
			code := url.Values{"code": {ex.Starter}, "mode": {"submit"}}
			_, body := c.post("/lessons/"+lesson.Slug+"/exercises/"+ex.ID, code, "application/json")
			bodies = append(bodies, body)
			code.Set("mode", "run")
			_, body = c.post("/lessons/"+lesson.Slug+"/exercises/"+ex.ID, code, "") // plain: 303, then the lesson
			bodies = append(bodies, body)
			apiBody, _ := json.Marshal(map[string]string{"code": ex.Starter})
			_, _, body = apiPost(t, c.http, ts.URL+"/api/exercises/"+ex.ID+"/submit", string(apiBody))
			bodies = append(bodies, body)
			_, body = c.post("/lessons/"+lesson.Slug+"/exercises/"+ex.ID+"/hints", url.Values{"hint": {"1"}}, "application/json")
			if !strings.Contains(body, `"shown":1`) {
				t.Errorf("%s: the first hint after a failed submission: %.300s", ex.ID, body)
			}
			bodies = append(bodies, body)
		}
	}
	pages := []string{"/", "/progress", "/review", "/guide", "/notices", "/classes", "/me"}
	for _, lesson := range course.Lessons {
		pages = append(pages, "/lessons/"+lesson.Slug)
	}
	get := func() []string {
		out := append([]string(nil), bodies...)
		for _, p := range pages {
			_, body := c.get(p)
			out = append(out, body)
		}
		return out
	}
	find := func(bodies []string, sec secret) bool {
		for _, b := range bodies {
			text := pageText(b)
			for _, l := range sec.lines {
				if i := strings.Index(text, l); i >= 0 {
					t.Logf("%s: %q in …%s…", sec.what, l, text[max(0, i-200):min(len(text), i+len(l)+100)])
					return true
				}
			}
		}
		return false
	}
	before := get()
	for _, sec := range append(append([]secret(nil), solutions...), graders...) {
		if find(before, sec) {
			t.Errorf("before any pass, a page shows %s", sec.what)
		}
	}
	for _, b := range before {
		if strings.Contains(b, `data-testid="reference-solution"`) {
			t.Fatal("before any pass, a page has a reference-solution disclosure")
		}
	}

	// Solve report-a-failure with another right program.
	lesson, _ := course.Lesson("two-ways-to-fail")
	ex := lesson.Exercises()[0]
	if len(ex.OtherSolutions) == 0 {
		t.Fatal("report-a-failure has no other right solution to pass with")
	}
	other := ex.OtherSolutions[0].Code
	mine := secret{"the reference solution of report-a-failure", telltales(ex.Solution, public, othersOf(ex.ID, other)...)}
	if len(mine.lines) == 0 {
		t.Fatal("no line of report-a-failure's reference solution differs from its other right solution")
	}
	_, answer := c.post("/lessons/"+lesson.Slug+"/exercises/"+ex.ID, url.Values{"code": {other}, "mode": {"submit"}}, "application/json")
	if !strings.Contains(answer, `"passed":true`) {
		t.Fatalf("the other right solution did not pass: %.500s", answer)
	}
	if !find([]string{answer}, mine) || !strings.Contains(answer, "Compare with the reference solution") {
		t.Errorf("the passing answer does not offer the reference solution: %.500s", answer)
	}
	_, page := c.get("/lessons/" + lesson.Slug)
	if !find([]string{page}, mine) || strings.Count(page, `data-testid="reference-solution"`) != 1 {
		t.Error("after the pass, the lesson page does not show the reference solution once")
	}
	after := get()
	for _, sec := range solutions {
		if sec.what == mine.what {
			continue
		}
		if find(after, sec) {
			t.Errorf("after solving report-a-failure, a page shows %s", sec.what)
		}
	}
	for _, p := range pages {
		if p == "/lessons/"+lesson.Slug {
			continue
		}
		if _, body := c.get(p); find([]string{body}, mine) {
			t.Errorf("%s shows report-a-failure's reference solution; only its lesson may", p)
		}
	}
	for _, sec := range graders {
		if strings.HasPrefix(sec.what, ex.ID+" ") && find([]string{other}, sec) {
			continue // the learner's own code, in their editor
		}
		if find(after, sec) {
			t.Errorf("after a pass, a page shows %s", sec.what)
		}
	}
}

// TestHintsOnDemand takes an exercise's hints without JavaScript: none
// before a failed run, then one at a time by form post (a 303 back to the
// lesson at the hint), a doubled post showing nothing more, a skipped one
// refused; the page script's JSON answer draws the help block.
func TestHintsOnDemand(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t) })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, _ := s.course().Lesson("two-ways-to-fail")
	ex := lesson.Exercises()[0]
	noRedirect := &http.Client{Jar: c.http.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	hint := func(n string, accept string) (int, string, string) {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/lessons/"+lesson.Slug+"/exercises/"+ex.ID+"/hints", strings.NewReader(url.Values{"hint": {n}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			k, err := resp.Body.Read(buf)
			b.Write(buf[:k])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, resp.Header.Get("Location"), b.String()
	}
	hintText := func(i int) string { return pageText(string(ex.HintsHTML[i])) }

	_, page := c.get("/lessons/" + lesson.Slug)
	if strings.Contains(page, `data-testid="show-hint"`) || !strings.Contains(page, `data-testid="hints-later"`) {
		t.Error("before any run, the panel offers a hint, or does not say hints open after a failed run")
	}
	if status, _, _ := hint("1", ""); status != http.StatusUnprocessableEntity {
		t.Errorf("a hint before any run = %d, want 422", status)
	}
	c.post("/lessons/"+lesson.Slug+"/exercises/"+ex.ID, url.Values{"code": {ex.Starter}, "mode": {"run"}}, "")
	_, page = c.get("/lessons/" + lesson.Slug)
	if !strings.Contains(page, "Stuck? Show a hint (1 of 3)") || strings.Contains(pageText(page), hintText(0)) {
		t.Fatal("after a failed run the panel does not offer the first hint, or shows it already")
	}
	steps := []struct {
		name, n, accept string
		status          int
		location        string
	}{
		{"the first hint", "1", "", http.StatusSeeOther, "/lessons/two-ways-to-fail#x-report-a-failure-hint-1"},
		{"the first again", "1", "", http.StatusSeeOther, "/lessons/two-ways-to-fail#x-report-a-failure-hint-1"},
		{"the third, skipping one", "3", "", http.StatusUnprocessableEntity, ""},
		{"a hint that is not there", "4", "", http.StatusUnprocessableEntity, ""},
		{"no number", "x", "", http.StatusBadRequest, ""},
		{"the second, in place", "2", "application/json", http.StatusOK, ""},
	}
	for _, st := range steps {
		status, location, body := hint(st.n, st.accept)
		if status != st.status || location != st.location {
			t.Errorf("%s: %d %q, want %d %q\n%.300s", st.name, status, location, st.status, st.location, body)
		}
		if st.accept != "" && (!strings.Contains(pageText(body), hintText(1)) || !strings.Contains(body, "Show the next hint (3 of 3)")) {
			t.Errorf("%s: the JSON answer lacks the second hint or the button for the third: %.400s", st.name, body)
		}
	}
	_, page = c.get("/lessons/" + lesson.Slug)
	text := pageText(page)
	if !strings.Contains(text, hintText(0)) || !strings.Contains(text, hintText(1)) || strings.Contains(text, hintText(2)) {
		t.Error("the lesson does not show exactly the first two hints")
	}
	if !strings.Contains(page, `id="x-report-a-failure-hint-2"`) || !strings.Contains(text, "2 of 3 shown; hints do not change the XP") {
		t.Error("the second hint has no anchor, or the count and the XP rule are missing")
	}
}

// TestTeacherSeesHintsTaken shows a learner's hints on their teacher's
// page of them.
func TestTeacherSeesHintsTaken(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("teacher@school.example", false)
	teacher := w.browser()
	teacher.signIn("teacher@school.example")
	class := teacher.createClass("Period 2")
	learner := w.browser()
	learner.join(teacher.joinCode(class), "Robin")
	m := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
	if m == nil {
		t.Fatal("no learner link on the class page")
	}
	id := m[1][strings.LastIndex(m[1], "/")+1:]
	if page := teacher.get(m[1]).body; !strings.Contains(page, "0 of 3 hints taken.") {
		t.Errorf("before any hint, the learner page does not say 0 of 3 hints taken")
	}
	if _, err := w.st.RevealHints(context.Background(), id, "report-a-failure", 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	if page := teacher.get(m[1]).body; !strings.Contains(page, "2 of 3 hints taken.") {
		t.Errorf("the learner page does not say 2 of 3 hints taken")
	}
}

// TestContinueAndNextLesson follows a learner without JavaScript: a new
// visitor is offered no "Continue"; opening a lesson offers its first part
// in the header and on the home page; a completed lesson ends with "Next
// lesson: TITLE" and the JSON answer of the check that completed it draws
// that box; /progress links every unfinished part.
func TestContinueAndNextLesson(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	course := s.course()
	first, second := course.Lessons[0], course.Lessons[1]
	if _, home := c.get("/"); strings.Contains(home, `data-testid="continue-home"`) || strings.Contains(home, `data-testid="continue-header"`) {
		t.Error("a new visitor is offered Continue")
	}
	c.get("/lessons/" + first.Slug)
	var firstPart *lessons.Widget
	for _, seg := range first.Segments {
		if seg.Widget != nil {
			firstPart = seg.Widget
			break
		}
	}
	title, anchor := partTitle(firstPart)
	want := html.EscapeString("Continue: " + first.Title + " — " + title)
	_, home := c.get("/")
	if !strings.Contains(home, `data-testid="continue-home"`) || !strings.Contains(home, want) || !strings.Contains(home, `href="/lessons/`+first.Slug+`#`+anchor+`"`) {
		t.Errorf("after opening lesson 1, the home page does not offer %q", want)
	}
	if !strings.Contains(home, `data-testid="continue-header"`) {
		t.Error("the header offers no Continue")
	}
	_, progressPage := c.get("/progress")
	if !strings.Contains(progressPage, `href="/lessons/`+first.Slug+`#`+anchor+`"`) {
		t.Error("/progress does not link lesson 1's first unfinished part")
	}
	// Every try-it block right, then the quiz passed in place.
	for _, seg := range first.Segments {
		w := seg.Widget
		if w == nil || w.Exercise != nil || w.Kind == quiz.KindQuiz {
			continue
		}
		c.post(widgetAction(first.Slug, w.ID), rightAnswers(w), "")
	}
	if _, page := c.get("/lessons/" + first.Slug); strings.Contains(page, `data-testid="next-lesson"`) {
		t.Error("Next lesson shows before the lesson is completed")
	}
	var q *lessons.Widget
	for _, seg := range first.Segments {
		if seg.Widget != nil && seg.Widget.Kind == quiz.KindQuiz {
			q = seg.Widget
		}
	}
	_, answer := c.post(widgetAction(first.Slug, q.ID), rightAnswers(q), "application/json")
	var out checkResponse
	if err := json.Unmarshal([]byte(answer), &out); err != nil || !out.Passed {
		t.Fatalf("the quiz answered right: %v %.300s", err, answer)
	}
	wantNext := "Next lesson: " + html.EscapeString(second.Title)
	if !strings.Contains(out.Finished, wantNext) || !strings.Contains(out.Finished, `href="/lessons/`+second.Slug+`"`) {
		t.Errorf("the check that completed the lesson draws no %q: %q", wantNext, out.Finished)
	}
	if _, page := c.get("/lessons/" + first.Slug); !strings.Contains(page, wantNext) {
		t.Errorf("the completed lesson does not end with %q", wantNext)
	}
	// Lesson 1's exercise is left: Continue leads there until the learner
	// works in another lesson.
	_, home = c.get("/")
	if !strings.Contains(home, html.EscapeString("Continue: "+first.Title+" — Practice: "+first.Exercises()[0].Title)) {
		t.Error("with lesson 1's exercise unsolved, Continue does not lead to it")
	}
	if _, page := c.get("/lessons/" + second.Slug); strings.Contains(page, `data-testid="lesson-finished"`) {
		t.Error("lesson 2, not completed, shows the finished box")
	}
	title, _ = partTitle(second.Segments[firstWidgetIndex(second)].Widget)
	if _, home = c.get("/"); !strings.Contains(home, html.EscapeString("Continue: "+second.Title+" — "+title)) {
		t.Error("after opening lesson 2, Continue does not lead to its first part")
	}
}

// firstWidgetIndex is the index of the lesson's first interactive part.
func firstWidgetIndex(l *lessons.Lesson) int {
	for i, seg := range l.Segments {
		if seg.Widget != nil {
			return i
		}
	}
	return -1
}
