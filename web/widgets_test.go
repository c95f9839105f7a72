package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"learn/lessons"
	"learn/quiz"
)

// client is a browser-like HTTP client with a cookie jar.
type client struct {
	t    *testing.T
	base string
	http *http.Client
}

func newClient(t *testing.T, base string) *client {
	jar, _ := cookiejar.New(nil)
	c := &client{t: t, base: base, http: &http.Client{Jar: jar}}
	c.get("/") // a first visit issues the learner cookie
	return c
}

func (c *client) get(path string) (int, string) {
	c.t.Helper()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		c.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c *client) post(path string, form url.Values, accept string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// firstWidget returns the first widget of a kind in the built-in course.
func firstWidget(t *testing.T, s *Server, kind string) (*lessons.Lesson, *lessons.Widget) {
	t.Helper()
	for _, l := range s.course().Lessons {
		for _, seg := range l.Segments {
			if seg.Widget != nil && seg.Widget.Kind == kind {
				return l, seg.Widget
			}
		}
	}
	t.Fatalf("the built-in course has no %s widget", kind)
	return nil, nil
}

// rightAnswers fills a form that gets every item of w right.
func rightAnswers(w *lessons.Widget) url.Values {
	f := url.Values{"tz": {"Europe/Berlin"}}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			f.Set("item."+it.ID, it.Answer)
		}
	case *quiz.Annotate:
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				if k := tool.Hints.Get(h); k != nil && k.Value != nil {
					f.Set("hint."+tool.Name+"."+string(h), map[bool]string{true: "true", false: "false"}[*k.Value])
				} else {
					f.Set("hint."+tool.Name+"."+string(h), "true")
				}
			}
		}
	case *quiz.Quiz:
		for _, q := range x.Questions {
			field := "q." + q.ID
			switch q.Kind {
			case quiz.QuestionClassify:
				f.Set(field, q.Answer)
			case quiz.QuestionAnnotate:
				for _, h := range quiz.AllHints() {
					v := true
					if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
						v = *k.Value
					}
					f.Set(field+"."+string(h), quiz.HintChoice(h, v))
				}
			default:
				for _, o := range q.Options {
					if o.Correct {
						f.Add(field, o.ID)
					}
				}
			}
		}
	}
	return f
}

// explanations lists every explanation a widget holds.
func explanations(w *lessons.Widget) []string {
	var out []string
	add := func(s string) {
		if len(s) > 15 {
			out = append(out, s)
		}
	}
	addTool := func(t *quiz.Tool) {
		for _, h := range quiz.AllHints() {
			if k := t.Hints.Get(h); k != nil {
				add(k.Explanation)
			}
		}
	}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			add(it.Explanation)
		}
	case *quiz.Annotate:
		for i := range x.Tools {
			addTool(&x.Tools[i])
		}
	case *quiz.Quiz:
		for _, q := range x.Questions {
			add(q.Explanation)
			for _, o := range q.Options {
				add(o.Explanation)
			}
			if q.Tool != nil {
				addTool(q.Tool)
			}
		}
	}
	return out
}

// htmlText undoes the escaping templ applies, so explanations can be found.
func htmlText(s string) string {
	return strings.NewReplacer("&#39;", "'", "&#34;", `"`, "&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s)
}

func TestPagesCarryNoKeys(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	checked := 0
	for _, l := range s.course().Lessons {
		status, body := c.get("/lessons/" + l.Slug)
		if status != 200 {
			t.Fatalf("GET %s = %d", l.Slug, status)
		}
		body = htmlText(body)
		for _, seg := range l.Segments {
			if seg.Widget == nil {
				continue
			}
			if ex := seg.Widget.Exercise; ex != nil {
				if !strings.Contains(body, `data-testid="exercise-`+ex.ID+`"`) {
					t.Errorf("%s: exercise %s is not on the page", l.Slug, ex.ID)
				}
				for _, h := range ex.Hidden {
					checked++
					if strings.Contains(body, h.Stdin) || strings.Contains(body, h.Expected) {
						t.Errorf("%s: the page shows hidden case %q", l.Slug, h.Name)
					}
				}
				if strings.Contains(body, strings.TrimSpace(ex.Solution)) {
					t.Errorf("%s: the page shows the reference solution of %s", l.Slug, ex.ID)
				}
				continue
			}
			if !strings.Contains(body, `data-testid="widget-`+seg.Widget.ID+`"`) {
				t.Errorf("%s: widget %s is not on the page", l.Slug, seg.Widget.ID)
			}
			for _, e := range explanations(seg.Widget) {
				checked++
				if strings.Contains(body, e) {
					t.Errorf("%s: the page shows the explanation %q before any answer", l.Slug, e)
				}
			}
		}
		if strings.Contains(body, "correct answer") || strings.Contains(body, "verdict") {
			t.Errorf("%s: the page carries feedback before any answer", l.Slug)
		}
	}
	if checked == 0 {
		t.Fatal("no explanation was checked: the course has no widgets")
	}
}

func TestClassifyFormPost(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	action := widgetAction(lesson.Slug, w.ID)
	items := w.Value.(*quiz.Classify).Items

	// All wrong: feedback with explanations, no XP, every item queued for review.
	wrong := url.Values{}
	status, body := c.post(action, wrong, "")
	if status != 200 || !strings.Contains(body, "0 of ") || !strings.Contains(htmlText(body), items[0].Explanation) {
		t.Fatalf("wrong post = %d; want the lesson page with explanations:\n%.2000s", status, body)
	}
	if !strings.Contains(body, `data-testid="xp-total">0<`) {
		t.Error("XP changed after an all-wrong check")
	}
	if !strings.Contains(body, `data-testid="reviews-due">`) {
		t.Error("missed items did not show up as due reviews in the header")
	}

	// All right: the widget's XP, once.
	for i, wantXP := range []string{">5<", ">5<"} {
		status, body = c.post(action, rightAnswers(w), "")
		if status != 200 || !strings.Contains(body, `data-testid="xp-total"`+wantXP) {
			t.Errorf("right post %d: status %d, want XP %s", i+1, status, wantXP)
		}
	}
	if !strings.Contains(body, `data-testid="streak">1 day<`) {
		t.Error("the header does not show a one-day streak after today's checks")
	}
}

func TestQuizJSONAndConcurrentPasses(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindQuiz)
	action := widgetAction(lesson.Slug, w.ID)
	q := w.Value.(*quiz.Quiz)

	var fail checkResponse
	status, body := c.post(action, url.Values{}, "application/json")
	if status != 200 || json.Unmarshal([]byte(body), &fail) != nil {
		t.Fatalf("failing quiz JSON = %d %s", status, body)
	}
	if fail.Passed || fail.Awarded != 0 || fail.Learner.XP != 0 || !strings.Contains(htmlText(fail.HTML), q.Questions[0].Options[0].Explanation) {
		t.Errorf("failing quiz: %+v", fail)
	}

	const posts = 50
	form := rightAnswers(w)
	var wg sync.WaitGroup
	var mu sync.Mutex
	awarded := 0
	for range posts {
		wg.Go(func() {
			status, body := c.post(action, form, "application/json")
			var r checkResponse
			if status != 200 || json.Unmarshal([]byte(body), &r) != nil || !r.Passed {
				t.Errorf("passing post = %d %.300s", status, body)
				return
			}
			mu.Lock()
			awarded += r.Awarded
			mu.Unlock()
		})
	}
	wg.Wait()
	if awarded != q.XPValue() {
		t.Errorf("%d identical passing posts awarded %d XP in all, want %d once", posts, awarded, q.XPValue())
	}
	_, home := c.get("/")
	if !strings.Contains(home, `data-testid="lesson-`+lesson.Slug+`"`) || !strings.Contains(home, ">completed<") {
		t.Error("passing the quiz did not complete the lesson")
	}
	_, progress := c.get("/progress")
	if !strings.Contains(progress, `data-testid="xp-chart"`) || !strings.Contains(progress, "of "+itoa(len(q.Questions))) {
		t.Errorf("the progress page lacks the XP chart or the quiz score")
	}
}

func TestReviewFlow(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	items := w.Value.(*quiz.Classify).Items
	// Miss only the first item.
	form := rightAnswers(w)
	form.Del("item." + items[0].ID)
	c.post(widgetAction(lesson.Slug, w.ID), form, "")

	status, body := c.get("/review")
	if status != 200 || !strings.Contains(body, "1 due now") || !strings.Contains(htmlText(body), items[0].Text) {
		t.Fatalf("review page = %d:\n%.1500s", status, body)
	}
	key := quiz.ReviewItemKey(lesson.Slug, w.ID, items[0].ID)
	m := regexp.MustCompile(`name="version" value="(\d+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the review form carries no version")
	}
	answer := url.Values{"item": {key}, "version": {m[1]}, "q." + items[0].ID: {items[0].Answer}}
	for i, want := range []string{"Right. Next review in", "already counted"} {
		status, body = c.post("/review", answer, "")
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("answer %d = %d, want %q:\n%.1500s", i+1, status, want, body)
		}
	}
	if !strings.Contains(body, "0 due now") || !strings.Contains(body, `data-testid="review-empty"`) {
		t.Error("after answering the only due item, the page does not say nothing is due")
	}
	status, _ = c.post("/review", url.Values{"item": {"no/such/item"}}, "")
	if status != http.StatusNotFound {
		t.Errorf("answering an item not in the queue = %d, want 404", status)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
