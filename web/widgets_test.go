package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

// rightAnswers fills a form that gets every item of w right; a quiz is
// answered as its first-visit draw (attempt 0) shows it.
func rightAnswers(w *lessons.Widget) url.Values { return answersFor(w, true) }

// wrongAnswers fills a form that answers every item of w, all wrong.
func wrongAnswers(w *lessons.Widget) url.Values { return answersFor(w, false) }

func answersFor(w *lessons.Widget, right bool) url.Values {
	f := url.Values{"tz": {"Europe/Berlin"}}
	pickCategory := func(cats []quiz.Category, answer string) string {
		if right {
			return answer
		}
		for _, c := range cats {
			if c.ID != answer {
				return c.ID
			}
		}
		return answer
	}
	hintValue := func(t *quiz.Tool, h quiz.Hint) bool {
		v := true
		if k := t.Hints.Get(h); k != nil && k.Value != nil {
			v = *k.Value
		}
		if !right && t.Matters(h) {
			v = !v
		}
		return v
	}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			f.Set("item."+it.ID, pickCategory(x.Categories, it.Answer))
		}
	case *quiz.Annotate:
		for i := range x.Tools {
			tool := &x.Tools[i]
			for _, h := range quiz.AllHints() {
				f.Set("hint."+tool.Name+"."+string(h), strconv.FormatBool(hintValue(tool, h)))
			}
		}
	case *quiz.Quiz:
		f.Set("attempt", "0")
		d := quiz.DrawFor(x, "", 1)
		for i := range x.Questions {
			q := x.Drawn(d, i)
			field := "q." + x.Questions[i].ID
			switch q.Kind {
			case quiz.QuestionClassify:
				f.Set(field, pickCategory(q.Categories, q.Answer))
			case quiz.QuestionAnnotate:
				for _, h := range quiz.AllHints() {
					f.Set(field+"."+string(h), quiz.HintChoice(h, hintValue(q.Tool, h)))
				}
			default:
				for _, o := range q.Options {
					if o.Correct == right {
						f.Add(field, o.ID)
						if !right {
							break
						}
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

// whyNots lists every why-not text a widget holds: shown only to a
// learner who chose that category.
func whyNots(w *lessons.Widget) []string {
	var out []string
	add := func(cats []quiz.Category, m map[string]string) {
		for _, c := range cats {
			if c.WhyNot != "" {
				out = append(out, c.WhyNot)
			}
		}
		for _, v := range m {
			out = append(out, v)
		}
	}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			add(x.Categories, it.WhyNot)
		}
	case *quiz.Quiz:
		for i := range x.Questions {
			for v := range x.Questions[i].VariantCount() {
				q := x.Questions[i].VariantAt(v)
				add(q.Categories, q.WhyNot)
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
			for _, e := range whyNots(seg.Widget) {
				checked++
				if strings.Contains(body, e) {
					t.Errorf("%s: the page shows why a category does not fit, %q, before any answer", l.Slug, e)
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

	// A blank post is refused, naming what is unanswered and revealing nothing.
	status, body := c.post(action, url.Values{}, "")
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "not answered") || strings.Contains(htmlText(body), items[0].Explanation) {
		t.Fatalf("blank post = %d; want 422 naming the unanswered items and no explanation:\n%.2000s", status, body)
	}
	// All wrong: which items are wrong, no key, no XP, every item queued for review.
	status, body = c.post(action, wrongAnswers(w), "")
	if status != 200 || !strings.Contains(body, "0 of ") || strings.Contains(htmlText(body), items[0].Explanation) {
		t.Fatalf("wrong post = %d; want the lesson page with verdicts and no explanation of a wrong item:\n%.2000s", status, body)
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
	s := newTestServer(t, func(c *testSetup) { c.Limits.AnswersPerMinute = 600 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindQuiz)
	action := widgetAction(lesson.Slug, w.ID)
	q := w.Value.(*quiz.Quiz)

	var fail checkResponse
	status, body := c.post(action, wrongAnswers(w), "application/json")
	if status != 200 || json.Unmarshal([]byte(body), &fail) != nil {
		t.Fatalf("failing quiz JSON = %d %s", status, body)
	}
	if fail.Passed || fail.Awarded != 0 || fail.Learner.XP != 0 || strings.Contains(fail.HTML, "correct answer") {
		t.Errorf("failing quiz shows a right key or passed: %+v", fail)
	}
	// The explanation of each chosen (wrong) option shows; no other does.
	d := quiz.DrawFor(q, "", 1)
	chosen := wrongAnswers(w)
	for i := range q.Questions {
		qn := q.Drawn(d, i)
		for _, o := range qn.Options {
			isChosen := slices.Contains(chosen["q."+q.Questions[i].ID], o.ID)
			if shown := strings.Contains(htmlText(fail.HTML), o.Explanation); shown != isChosen && len(o.Explanation) > 15 {
				t.Errorf("question %s option %s (chosen %v): explanation shown = %v", qn.ID, o.ID, isChosen, shown)
			}
		}
	}

	// The open attempt is the server's: 50 identical passing posts of it
	// at once are graded once, the others refused as over.
	const posts = 50
	_, page := c.get("/lessons/" + lesson.Slug)
	form := openAttemptAnswers(t, page, q, true)
	var wg sync.WaitGroup
	var mu sync.Mutex
	awarded, graded := 0, 0
	for range posts {
		wg.Go(func() {
			status, body := c.post(action, form, "application/json")
			var r checkResponse
			if status == http.StatusGone {
				return
			}
			if status != 200 || json.Unmarshal([]byte(body), &r) != nil || !r.Passed {
				t.Errorf("passing post = %d %.300s", status, body)
				return
			}
			mu.Lock()
			awarded += r.Awarded
			graded++
			mu.Unlock()
		})
	}
	wg.Wait()
	if want := quiz.QuizPassXP(q.XPValue(), 1); graded != 1 || awarded != want {
		t.Errorf("%d identical passing posts: %d graded, %d XP in all; want 1 graded and %d XP (one failure before)", posts, graded, awarded, want)
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
	form.Set("item."+items[0].ID, wrongAnswers(w).Get("item."+items[0].ID))
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

// quizPrompts returns the question prompts a lesson page shows, in order.
func quizPrompts(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<legend>([^<]*)</legend>`).FindAllStringSubmatch(body, -1) {
		out = append(out, htmlText(m[1]))
	}
	return out
}

func TestQuizRefusesIncompleteAndRetriesAnew(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindQuiz)
	q := w.Value.(*quiz.Quiz)
	action := widgetAction(lesson.Slug, w.ID)
	noExplanation := func(name, body string) {
		t.Helper()
		for _, e := range explanations(w) {
			if strings.Contains(htmlText(body), e) {
				t.Errorf("%s: the response shows the explanation %q", name, e)
			}
		}
		if strings.Contains(body, "correct answer") {
			t.Errorf("%s: the response marks a correct answer", name)
		}
	}

	half := rightAnswers(w)
	for i, qn := range q.Questions {
		if i%2 == 1 {
			for field := range half {
				if field == "q."+qn.ID || strings.HasPrefix(field, "q."+qn.ID+".") {
					half.Del(field)
				}
			}
		}
	}
	for name, form := range map[string]url.Values{"blank": {"attempt": {"0"}}, "half-filled": half} {
		for _, accept := range []string{"", "application/json"} {
			status, body := c.post(action, form, accept)
			if status != http.StatusUnprocessableEntity || !strings.Contains(body, "not answered") {
				t.Errorf("%s post (accept %q) = %d, want 422 naming the unanswered questions:\n%.500s", name, accept, status, body)
			}
			noExplanation(name, body)
		}
	}
	if _, home := c.get("/"); strings.Contains(home, ">completed<") {
		t.Error("a refused quiz post completed the lesson")
	}

	// A retry asks other versions of the questions.
	_, page := c.get("/lessons/" + lesson.Slug)
	before := quizPrompts(page)
	m := regexp.MustCompile(`name="attempt" value="(\d+)"`).FindStringSubmatch(page)
	if m == nil || m[1] != "1" {
		t.Fatalf("a returning learner's first quiz shows attempt %v, want 1", m)
	}
	// Answer the attempt the page showed, all wrong: pick the first option of
	// each drawn question that is not correct.
	d := quiz.DrawFor(q, learnerIDOf(t, c, ts.URL), 1)
	wrong := url.Values{"attempt": {"1"}}
	for i := range q.Questions {
		qn := q.Drawn(d, i)
		field := "q." + q.Questions[i].ID
		switch qn.Kind {
		case quiz.QuestionClassify:
			for _, cat := range qn.Categories {
				if cat.ID != qn.Answer {
					wrong.Set(field, cat.ID)
					break
				}
			}
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				wrong.Set(field+"."+string(h), "true")
			}
		default:
			for _, o := range qn.Options {
				if !o.Correct {
					wrong.Set(field, o.ID)
					break
				}
			}
		}
	}
	status, body := c.post(action, wrong, "")
	if status != 200 || strings.Contains(body, "Passed:") {
		t.Fatalf("failing attempt = %d:\n%.500s", status, body)
	}
	_, page = c.get("/lessons/" + lesson.Slug)
	after := quizPrompts(page)
	if len(after) != len(before) || slices.Equal(after, before) {
		t.Errorf("the retry shows the same questions:\nbefore %q\nafter  %q", before, after)
	}
	if !strings.Contains(page, `name="attempt" value="2"`) {
		t.Error("the retry is not attempt 2")
	}
}

// learnerIDOf reads the learner id out of the client's cookie, the way the
// server does, so a test can recompute what the learner's attempts draw.
func learnerIDOf(t *testing.T, c *client, base string) string {
	t.Helper()
	for _, ck := range c.http.Jar.Cookies(mustParse(t, base)) {
		if ck.Name == learnerCookie {
			id, _, ok := newIdentity(make([]byte, 64)).decode(ck.Value, time.Now())
			if !ok {
				t.Fatal("the learner cookie does not verify")
			}
			return id
		}
	}
	t.Fatal("the client has no learner cookie")
	return ""
}

// openAttemptAnswers answers the quiz attempt a lesson page shows, right
// or wrong, reading its number and the versions drawn from the page.
func openAttemptAnswers(t *testing.T, page string, x *quiz.Quiz, right bool) url.Values {
	t.Helper()
	m := regexp.MustCompile(`name="attempt" value="(\d+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page shows no quiz attempt")
	}
	f := url.Values{"tz": {"Europe/Berlin"}, "attempt": {m[1]}}
	for _, v := range regexp.MustCompile(`data-question="([^"]+)" data-variant="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		q, ok := x.QuestionByID(v[2])
		if !ok {
			t.Fatalf("the page shows a version %q the quiz lacks", v[2])
		}
		field := "q." + v[1]
		switch q.Kind {
		case quiz.QuestionClassify:
			for _, c := range q.Categories {
				if (c.ID == q.Answer) == right {
					f.Set(field, c.ID)
					break
				}
			}
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
					val := *k.Value
					if !right && q.Tool.Matters(h) {
						val = !val
					}
					f.Set(field+"."+string(h), quiz.HintChoice(h, val))
				}
			}
		default:
			for _, o := range q.Options {
				if o.Correct == right {
					f.Add(field, o.ID)
					if !right {
						break
					}
				}
			}
		}
	}
	return f
}
