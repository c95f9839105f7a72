package web

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"

	"learn/progress"
)

// TestInputMustBeText sends text that is not text (invalid UTF-8, a NUL)
// in every kind of input the core reads: form fields of joining, naming a
// class, a Q&A name, code and a widget's time zone, a query value, and the
// JSON API's code. Each is refused at the edge with a message naming the
// field, before the core or a database sees it, and nothing is stored.
func TestInputMustBeText(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	classPath := teacher.createClass("Year 9")
	code := teacher.joinCode(classPath)
	classID, err := strconv.ParseInt(path.Base(classPath), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	learner := w.browser()
	learner.earn(w.app)
	before, err := w.app.Summary(context.Background(), progress.Actor{ID: learnerIDOf(t, &client{http: learner.http}, w.base), Role: progress.RoleLearner, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	attemptsBefore := before.Attempts["two-ways-to-fail/which-channel"]

	broken := "Red \xff Kite"
	withNUL := "Red\x00Kite"
	posts := []struct {
		name   string
		who    *browser
		path   string
		form   url.Values
		field  string
		status int
	}{
		{"join, broken UTF-8 name", learner, "/join", url.Values{"code": {code}, "name": {broken}}, "name", 422},
		{"join, NUL in name", learner, "/join", url.Values{"code": {code}, "name": {withNUL}}, "name", 422},
		{"join, broken field name", learner, "/join", url.Values{"code": {code}, "name": {"Red Kite"}, "x\xff": {"1"}}, "x\uFFFD", 422},
		{"class name", teacher, "/classes", url.Values{"name": {broken}, "tz": {"UTC"}}, "name", 422},
		{"Q&A name", learner, "/qa/name", url.Values{"name": {withNUL}, "lesson": {"two-ways-to-fail"}}, "name", 422},
		{"exercise code", learner, "/lessons/two-ways-to-fail/exercises/report-a-failure", url.Values{"mode": {"run"}, "code": {"print('\xff')"}}, "code", 422},
		{"widget time zone", learner, "/lessons/two-ways-to-fail/widgets/which-channel", url.Values{"tz": {"Europe/\x00Paris"}}, "tz", 422},
	}
	for _, p := range posts {
		t.Run(p.name, func(t *testing.T) {
			a := p.who.post(p.path, p.form)
			if a.status != p.status {
				t.Errorf("status = %d, want %d", a.status, p.status)
			}
			if want := `&#34;` + p.field + `&#34;`; !strings.Contains(a.body, want) {
				t.Errorf("the answer does not name the field %q:\n%s", p.field, a.body)
			}
		})
	}
	t.Run("query value", func(t *testing.T) {
		a := learner.get("/join?code=" + url.QueryEscape("AB\xffCD"))
		if a.status != http.StatusBadRequest || !strings.Contains(a.body, `&#34;code&#34;`) {
			t.Errorf("status %d, want 400 naming code:\n%s", a.status, a.body)
		}
	})
	t.Run("JSON code", func(t *testing.T) {
		for _, body := range []string{`{"code": "print(1)\u0000"}`, "{\"code\": \"print('\xff')\"}"} {
			req, _ := http.NewRequest(http.MethodPost, w.base+"/api/exercises/report-a-failure/run", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := learner.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("%q: status %d, want 400", body, resp.StatusCode)
			}
		}
	})

	ctx := context.Background()
	if ms, err := w.st.Members(ctx, classID); err != nil || len(ms) != 0 {
		t.Errorf("members after refused joins = %v (%v), want none", ms, err)
	}
	if n := strings.Count(teacher.get("/classes").body, `href="/classes/`); n != 1 {
		t.Errorf("%d classes listed after a refused one, want the first only", n)
	}
	id := learnerIDOf(t, &client{http: learner.http}, w.base)
	sum, err := w.app.Summary(ctx, progress.Actor{ID: id, Role: progress.RoleLearner, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sum.Codes["report-a-failure"]; ok {
		t.Error("the refused code was saved")
	}
	if n := sum.Attempts["two-ways-to-fail/which-channel"]; n != attemptsBefore {
		t.Errorf("%d attempts after a refused widget post, want %d", n, attemptsBefore)
	}
}
