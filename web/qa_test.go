package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/static"
	"learn/store"
)

// clock is a settable time for the core, so edit windows and rate limits
// are tested without waiting.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// qaWorld is a real server on a temp database with a settable clock, a
// teacher with two classes, two learners in the first class, one in the
// second and one in none.
type qaWorld struct {
	*classWorld
	clock              *clock
	teacher            *browser
	ann, ben, cat, out *browser
	class1, class2     string
}

const qaLesson = "two-ways-to-fail"

func newQAWorld(t *testing.T) *qaWorld {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	css, err := lessons.HighlightCSS()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := static.New(map[string][]byte{"highlight.css": css})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Now().UTC()}
	app, err := progress.New(progress.Config{Course: course, Store: st, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{App: app, Assets: assets, CookieKey: make([]byte, 64)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	w := &qaWorld{classWorld: &classWorld{t: t, base: ts.URL, st: st, app: app}, clock: c}
	w.addTeacher("teacher@school.example", false)
	w.teacher = w.browser()
	w.teacher.signIn("teacher@school.example")
	w.class1 = w.teacher.createClass("Room 1")
	w.class2 = w.teacher.createClass("Room 2")
	w.ann, w.ben, w.cat, w.out = w.browser(), w.browser(), w.browser(), w.browser()
	w.ann.join(w.teacher.joinCode(w.class1), "Ann")
	w.ben.join(w.teacher.joinCode(w.class1), "Ben")
	w.cat.join(w.teacher.joinCode(w.class2), "Cat")
	return w
}

var threadRe = regexp.MustCompile(`<article class="qa-thread" id="q-(\d+)"`)
var answerRe = regexp.MustCompile(`<li class="qa-answer[^"]*" id="p-(\d+)"`)

// ask posts a question and returns its id.
func (b *browser) ask(slug, part, body string) string {
	b.t.Helper()
	a := b.post("/lessons/"+slug+"/questions", url.Values{"body": {body}, "part": {part}})
	m := regexp.MustCompile(`#q-(\d+)$`).FindStringSubmatch(a.location)
	if a.status != http.StatusSeeOther || m == nil {
		b.t.Fatalf("ask = %d %q, want 303 to the thread:\n%s", a.status, a.location, a.body)
	}
	return m[1]
}

// answerQ posts an answer and returns its id (the newest answer shown).
func (b *browser) answerQ(q, body string) string {
	b.t.Helper()
	a := b.post("/questions/"+q+"/answers", url.Values{"body": {body}})
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "#q-"+q) {
		b.t.Fatalf("answer = %d %q:\n%s", a.status, a.location, a.body)
	}
	page := b.get("/lessons/" + qaLesson).body
	var last string
	for _, m := range answerRe.FindAllStringSubmatch(page, -1) {
		if m[1] > last || len(m[1]) > len(last) {
			last = m[1]
		}
	}
	if last == "" {
		b.t.Fatal("the answer is not on the page")
	}
	return last
}

// qaSectionOf returns the questions section of a page.
func qaSectionOf(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `data-testid="qa"`)
	j := strings.Index(page, `<nav class="pager"`)
	if i < 0 || j < i {
		t.Fatalf("no questions section on the page")
	}
	return page[i:j]
}

func TestQAPostsAreSafe(t *testing.T) {
	w := newQAWorld(t)
	cases := []struct {
		name, body string
		// banned must not appear in the section; want must.
		banned []string
		want   []string
	}{
		{"script tag", "look <script>alert('x1')</script> here", []string{"<script>alert", "alert('x1')</script>"}, []string{"look"}},
		{"img onerror", `<img src=x onerror="alert('x2')"> and **bold**`, []string{"<img", "onerror"}, []string{"<strong>bold</strong>"}},
		{"javascript link", "[click](javascript:alert('x3')) and <javascript:alert('x4')>", []string{`href="javascript:`, "javascript:alert('x4')\""}, []string{"click"}},
		{"plain link", "see https://modelcontextprotocol.io/specification for more", nil, []string{`href="https://modelcontextprotocol.io/specification" rel="nofollow ugc noopener"`}},
		{"markdown link", "[spec](https://example.com/spec)", nil, []string{`<a href="https://example.com/spec" rel="nofollow ugc noopener">spec</a>`}},
		{"code block", "```python\nraise ValueError('no')\n```", nil, []string{`class="hl-`, "ValueError"}},
		{"attribute smuggling", "<a href=\"https://x.example\" onclick=\"alert('x5')\">x</a> <style>body{display:none}</style>", []string{"onclick", "<style"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w.clock.add(time.Minute) // a fresh allowance of posts
			q := w.ann.ask(qaLesson, "", tc.body)
			section := qaSectionOf(t, w.ben.get("/lessons/"+qaLesson).body)
			start := strings.Index(section, `id="q-`+q+`"`)
			if start < 0 {
				t.Fatalf("thread %s is not shown to a classmate", q)
			}
			thread := section[start:]
			if end := strings.Index(thread[1:], `<article class="qa-thread"`); end >= 0 {
				thread = thread[:end+1]
			}
			for _, b := range tc.banned {
				if strings.Contains(thread, b) {
					t.Errorf("the thread contains %q:\n%s", b, thread)
				}
			}
			for _, s := range tc.want {
				if !strings.Contains(thread, s) {
					t.Errorf("the thread lacks %q:\n%s", s, thread)
				}
			}
			for _, a := range regexp.MustCompile(`<a [^>]*>`).FindAllString(thread, -1) {
				if strings.Contains(a, `href="http`) && !strings.Contains(a, `rel="nofollow ugc noopener"`) && !strings.Contains(a, "/posts/") {
					t.Errorf("a link without rel=\"nofollow ugc noopener\": %s", a)
				}
			}
		})
	}

	t.Run("1 MB body is refused", func(t *testing.T) {
		a := w.ann.post("/lessons/"+qaLesson+"/questions", url.Values{"body": {strings.Repeat("a", 1<<20)}})
		if a.status != http.StatusRequestEntityTooLarge {
			t.Errorf("1 MB post = %d, want 413", a.status)
		}
	})
	t.Run("over the post limit is refused with the text kept", func(t *testing.T) {
		w.clock.add(time.Minute)
		long := strings.Repeat("word ", progress.MaxPostLen/5+10)
		a := w.ann.post("/lessons/"+qaLesson+"/questions", url.Values{"body": {long}})
		if a.status != http.StatusRequestEntityTooLarge {
			t.Fatalf("a long post = %d, want 413", a.status)
		}
		if !strings.Contains(a.body, "the limit is 4000") || !strings.Contains(a.body, strings.TrimSpace(long)[:400]) {
			t.Errorf("the page neither says the limit nor keeps the text")
		}
	})
	t.Run("blank is refused", func(t *testing.T) {
		a := w.ann.post("/lessons/"+qaLesson+"/questions", url.Values{"body": {"   \n "}})
		if a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, "the post is empty") {
			t.Errorf("a blank post = %d", a.status)
		}
	})
}

func TestQAPermissions(t *testing.T) {
	w := newQAWorld(t)
	q := w.ann.ask(qaLesson, "widget:which-channel", "Why is a missing tool name a protocol error?")
	ansBen := w.ben.answerQ(q, "Because no tool can be found to run.")

	check := func(who *browser, name, path string, form url.Values, want int) {
		t.Helper()
		if a := who.post(path, form); a.status != want {
			t.Errorf("%s: POST %s = %d, want %d", name, path, a.status, want)
		}
	}
	// A learner cannot edit, delete or accept on another learner's post.
	check(w.ben, "Ben edits Ann's question", "/posts/"+q+"/edit", url.Values{"body": {"changed"}}, http.StatusForbidden)
	check(w.ben, "Ben deletes Ann's question", "/posts/"+q+"/delete", nil, http.StatusForbidden)
	check(w.ann, "Ann edits Ben's answer", "/posts/"+ansBen+"/edit", url.Values{"body": {"changed"}}, http.StatusForbidden)
	check(w.ann, "Ann deletes Ben's answer", "/posts/"+ansBen+"/delete", nil, http.StatusForbidden)
	check(w.ben, "Ben accepts his own answer on Ann's question", "/posts/"+ansBen+"/accept", nil, http.StatusForbidden)
	check(w.ben, "Ben hides Ann's question", "/posts/"+q+"/hide", url.Values{"reason": {"no"}}, http.StatusForbidden)
	// A learner of another class, and one in no class, see nothing of it.
	for _, o := range []struct {
		name string
		b    *browser
	}{{"Cat (other class)", w.cat}, {"a learner in no class", w.out}} {
		section := qaSectionOf(t, o.b.get("/lessons/"+qaLesson).body)
		if threadRe.MatchString(section) || strings.Contains(section, "missing tool name") {
			t.Errorf("%s sees the class's thread", o.name)
		}
		check(o.b, o.name+" answers", "/questions/"+q+"/answers", url.Values{"body": {"hi"}}, http.StatusNotFound)
		check(o.b, o.name+" accepts", "/posts/"+ansBen+"/accept", nil, http.StatusNotFound)
		check(o.b, o.name+" reports", "/posts/"+q+"/report", nil, http.StatusNotFound)
		check(o.b, o.name+" marks helpful", "/posts/"+ansBen+"/helpful", nil, http.StatusNotFound)
	}
	// The other class's teacher view shows nothing of class 1 either.
	if strings.Contains(w.teacher.get(w.class2).body, "missing tool name") {
		t.Error("the other class's dashboard lists class 1's question")
	}
	section := qaSectionOf(t, w.ann.get("/lessons/"+qaLesson).body)
	if !strings.Contains(section, "Why is a missing tool name a protocol error?") || !strings.Contains(section, "no tool can be found") {
		t.Errorf("the posts changed after refused edits:\n%s", section)
	}
	// The asker accepts; the teacher may too; the question ties to its part.
	check(w.ann, "Ann accepts Ben's answer", "/posts/"+ansBen+"/accept", nil, http.StatusSeeOther)
	section = qaSectionOf(t, w.ben.get("/lessons/"+qaLesson).body)
	if !strings.Contains(section, `data-testid="accepted"`) || !strings.Contains(section, `href="#w-which-channel"`) {
		t.Errorf("the accepted mark or the part link is missing:\n%s", section)
	}
	// Editing one's own post works for 15 minutes, then not.
	check(w.ann, "Ann edits her question", "/posts/"+q+"/edit", url.Values{"body": {"Why is a **missing** tool name a protocol error?"}}, http.StatusSeeOther)
	if !strings.Contains(w.ann.get("/lessons/"+qaLesson).body, "<strong>missing</strong>") {
		t.Error("the edit does not show")
	}
	w.clock.add(progress.EditWindow + time.Minute)
	check(w.ann, "Ann edits after the window", "/posts/"+q+"/edit", url.Values{"body": {"late"}}, http.StatusUnprocessableEntity)
	// Deleting one's own answer takes it off the page.
	check(w.ben, "Ben deletes his answer", "/posts/"+ansBen+"/delete", nil, http.StatusSeeOther)
	if strings.Contains(w.ann.get("/lessons/"+qaLesson).body, "no tool can be found") {
		t.Error("a deleted answer still shows")
	}
}

func TestQAModerationAndDashboard(t *testing.T) {
	w := newQAWorld(t)
	q := w.ann.ask(qaLesson, "", "What does isError default to?")
	rude := w.ben.answerQ(q, "Read the lesson, silly.")
	open := w.ben.ask(qaLesson, "", "Is -32602 still used?")
	if a := w.ann.post("/posts/"+rude+"/report", url.Values{"reason": {"unkind"}}); a.status != http.StatusSeeOther {
		t.Fatalf("report = %d", a.status)
	}
	dash := w.teacher.get(w.class1).body
	if !strings.Contains(dash, `data-testid="reported-posts"`) || !strings.Contains(dash, "Read the lesson, silly.") || !strings.Contains(dash, "unkind") {
		t.Errorf("the dashboard does not list the reported post")
	}
	un := dash[strings.Index(dash, `data-testid="unanswered-questions"`):]
	if !strings.Contains(un, "#q-"+open) || strings.Contains(un, "#q-"+q+`"`) {
		t.Errorf("unanswered list wrong:\n%s", un[:min(len(un), 800)])
	}
	// The teacher hides it with a reason: kept, its author sees why, the
	// class does not see it.
	if a := w.teacher.post("/posts/"+rude+"/hide", url.Values{"reason": {"Please be kind."}}); a.status != http.StatusSeeOther {
		t.Fatalf("hide = %d: %s", a.status, a.body)
	}
	if s := qaSectionOf(t, w.ben.get("/lessons/"+qaLesson).body); !strings.Contains(s, "Hidden by your teacher: Please be kind.") {
		t.Errorf("the author does not see the reason")
	}
	if s := qaSectionOf(t, w.ann.get("/lessons/"+qaLesson).body); strings.Contains(s, "silly") {
		t.Errorf("the class still sees the hidden post")
	}
	if s := qaSectionOf(t, w.teacher.get("/lessons/"+qaLesson).body); !strings.Contains(s, "silly") || !strings.Contains(s, `data-testid="restore"`) {
		t.Errorf("the teacher does not see the hidden post with a restore button")
	}
	if strings.Contains(w.teacher.get(w.class1).body, `data-testid="reported-posts"`) {
		t.Errorf("hiding did not resolve the report")
	}
	if a := w.teacher.post("/posts/"+rude+"/hide", url.Values{"reason": {""}}); a.status != http.StatusUnprocessableEntity && a.status != http.StatusSeeOther {
		t.Errorf("hide without a reason = %d", a.status)
	}
	if a := w.teacher.post("/posts/"+rude+"/restore", nil); a.status != http.StatusSeeOther {
		t.Fatalf("restore = %d", a.status)
	}
	if s := qaSectionOf(t, w.ann.get("/lessons/"+qaLesson).body); !strings.Contains(s, "silly") {
		t.Errorf("a restored post does not show")
	}
	// A teacher's answer is marked as such.
	w.teacher.answerQ(open, "Yes, for params that do not fit tools/call.")
	if s := qaSectionOf(t, w.ben.get("/lessons/"+qaLesson).body); !strings.Contains(s, `data-testid="teacher-answer"`) {
		t.Errorf("the teacher's answer is not marked")
	}
}

var badgeRe = regexp.MustCompile(`data-testid="notices-badge">(\d+)<`)

func TestQANoticesBadge(t *testing.T) {
	w := newQAWorld(t)
	q := w.ann.ask(qaLesson, "", "Can a result carry both content and isError?")
	// Ann's summary is cached now; Ben's answer must still show at once.
	if m := badgeRe.FindStringSubmatch(w.ann.get("/").body); m != nil {
		t.Fatalf("a badge before any answer: %v", m)
	}
	w.ben.answerQ(q, "Yes: the text explains the failure.")
	m := badgeRe.FindStringSubmatch(w.ann.get("/lessons/" + qaLesson).body)
	if m == nil || m[1] != "1" {
		t.Fatalf("badge after an answer = %v, want 1", m)
	}
	page := w.ann.get("/notices").body
	link := regexp.MustCompile(`href="(/notices/\d+)"`).FindStringSubmatch(page)
	if link == nil || !strings.Contains(page, "Ben answered your question") {
		t.Fatalf("the notices page lists no notice:\n%s", page)
	}
	if a := w.cat.get(link[1]); a.status != http.StatusNotFound {
		t.Errorf("another learner opens Ann's notice: %d", a.status)
	}
	a := w.ann.get(link[1])
	if a.status != http.StatusSeeOther || a.location != "/lessons/"+qaLesson+"#q-"+q {
		t.Fatalf("opening the notice = %d %q", a.status, a.location)
	}
	if m := badgeRe.FindStringSubmatch(w.ann.get("/lessons/" + qaLesson).body); m != nil {
		t.Errorf("the badge stays after reading: %v", m)
	}
}

func TestQARateLimits(t *testing.T) {
	w := newQAWorld(t)
	for i := range progress.PostsPerLearner {
		w.ann.ask(qaLesson, "", fmt.Sprintf("Question number %d about errors", i+1))
	}
	a := w.ann.post("/lessons/"+qaLesson+"/questions", url.Values{"body": {"one too many"}})
	if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") == "" {
		t.Fatalf("post past the limit = %d, Retry-After %q", a.status, a.header.Get("Retry-After"))
	}
	if !strings.Contains(a.body, "posts a minute") || !strings.Contains(a.body, "one too many") {
		t.Errorf("the 429 page does not explain the limit or lost the text")
	}
	// Another learner is not held back by Ann's limit.
	w.ben.ask(qaLesson, "", "My own question")
	// Per address: many learners behind one address share a larger limit.
	w.clock.add(time.Hour)
	limited := false
	for i := 0; i < progress.PostsPerAddress/progress.PostsPerLearner+2 && !limited; i++ {
		b := w.browser()
		b.join(w.teacher.joinCode(w.class1), fmt.Sprintf("Learner %d", i))
		for j := 0; j < progress.PostsPerLearner; j++ {
			a := b.post("/lessons/"+qaLesson+"/questions", url.Values{"body": {"same address"}})
			if a.status == http.StatusTooManyRequests {
				limited = a.header.Get("Retry-After") != ""
				break
			}
		}
	}
	if !limited {
		t.Errorf("no 429 with Retry-After past %d posts a minute from one address", progress.PostsPerAddress)
	}
}

func TestQAInPlaceJSON(t *testing.T) {
	w := newQAWorld(t)
	req, _ := http.NewRequest(http.MethodPost, w.base+"/lessons/"+qaLesson+"/questions", strings.NewReader(url.Values{"body": {"Asked **in place**"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := w.ann.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var got qaResponse
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &got) != nil {
		t.Fatalf("in-place ask = %d %s", resp.StatusCode, raw)
	}
	if !strings.HasPrefix(got.Anchor, "q-") || !strings.Contains(got.HTML, "<strong>in place</strong>") || !strings.Contains(got.HTML, `id="`+got.Anchor+`"`) {
		t.Errorf("in-place answer = %+v", got)
	}
}

func TestQALearnerInNoClassChoosesAName(t *testing.T) {
	w := newQAWorld(t)
	section := qaSectionOf(t, w.out.get("/lessons/"+qaLesson).body)
	if !strings.Contains(section, `data-testid="name-form"`) || strings.Contains(section, `data-testid="ask-form"`) {
		t.Fatalf("a learner in no class gets no name form")
	}
	if a := w.out.post("/lessons/"+qaLesson+"/questions", url.Values{"body": {"hello"}}); a.status != http.StatusUnprocessableEntity {
		t.Errorf("asking with no name = %d, want 422", a.status)
	}
	if a := w.out.post("/qa/name", url.Values{"name": {"Dee"}, "lesson": {qaLesson}}); a.status != http.StatusSeeOther {
		t.Fatalf("choosing a name = %d", a.status)
	}
	q := w.out.ask(qaLesson, "", "A public question")
	// Another learner in no class sees it; learners of a class do not.
	other := w.browser()
	if !strings.Contains(qaSectionOf(t, other.get("/lessons/"+qaLesson).body), "A public question") {
		t.Error("a learner in no class does not see the public thread")
	}
	if strings.Contains(qaSectionOf(t, w.ann.get("/lessons/"+qaLesson).body), "A public question") {
		t.Error("a learner of a class sees a public thread")
	}
	if a := other.post("/qa/name", url.Values{"name": {"dee"}, "lesson": {qaLesson}}); a.status != http.StatusUnprocessableEntity {
		t.Errorf("a name another learner uses = %d, want 422", a.status)
	}
	// Public threads are moderated by admins, not by teachers.
	if a := w.teacher.post("/posts/"+q+"/hide", url.Values{"reason": {"x"}}); a.status != http.StatusNotFound {
		t.Errorf("a teacher hides a public post = %d, want 404", a.status)
	}
	w.addTeacher("admin@school.example", true)
	admin := w.browser()
	admin.signIn("admin@school.example")
	// The operators' list shows the unanswered public question, and a
	// reported one, to admins only.
	if a := other.post("/posts/"+q+"/report", url.Values{"reason": {"Spam?"}}); a.status != http.StatusSeeOther {
		t.Fatalf("reporting a public post = %d, want 303", a.status)
	}
	list := admin.get("/moderation")
	if list.status != http.StatusOK || strings.Count(list.body, "A public question") < 2 || !strings.Contains(list.body, "Spam?") {
		t.Errorf("the moderation list = %d, want the question listed as unanswered and as reported with its reason:\n%.800s", list.status, list.body)
	}
	for name, c := range map[string]*browser{"teacher": w.teacher, "learner": other} {
		if a := c.get("/moderation"); a.status != http.StatusNotFound || strings.Contains(a.body, "A public question") {
			t.Errorf("a %s opens the moderation list = %d, want 404", name, a.status)
		}
	}
	if a := admin.post("/posts/"+q+"/hide", url.Values{"reason": {"Off topic."}}); a.status != http.StatusSeeOther {
		t.Errorf("an admin hides a public post = %d, want 303", a.status)
	}
}
