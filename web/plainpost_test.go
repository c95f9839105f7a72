package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"learn/quiz"
)

// TestPlainPostRedirectsToResult posts a widget and the quiz as a browser
// without JavaScript does: each answer is a 303 to the lesson at the
// result, the result shows once, and a revisit shows the last result as a
// status with the learner's answers kept.
func TestPlainPostRedirectsToResult(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	noFollow := *c.http
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	post := func(action string, form url.Values) *http.Response {
		t.Helper()
		resp, err := noFollow.PostForm(ts.URL+action, form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	resp := post(widgetAction(lesson.Slug, w.ID), wrongAnswers(w))
	wantLoc := "/lessons/" + lesson.Slug + "#w-" + w.ID + "-result"
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != wantLoc {
		t.Fatalf("plain post = %d to %q, want 303 to %q", resp.StatusCode, resp.Header.Get("Location"), wantLoc)
	}
	status, page := c.get("/lessons/" + lesson.Slug)
	if status != 200 || !strings.Contains(page, `id="w-`+w.ID+`-result"`) || !strings.Contains(page, "0 of ") || !strings.Contains(page, `data-testid="feedback"`) {
		t.Fatalf("the lesson after the redirect = %d, want the check's feedback at w-%s-result:\n%.1500s", status, w.ID, page)
	}
	// Once: a reload shows the last result as a status, the answers kept,
	// and no feedback.
	_, again := c.get("/lessons/" + lesson.Slug)
	if strings.Contains(again, `data-testid="feedback"`) || !strings.Contains(again, `data-testid="part-status"`) || !strings.Contains(again, "Last checked") {
		t.Errorf("a reload still shows the feedback, or no status:\n%.1500s", again)
	}
	wrong := wrongAnswers(w)
	for field, vals := range wrong {
		if field == "tz" {
			continue
		}
		if !strings.Contains(again, `name="`+field+`" value="`+vals[0]+`" checked`) {
			t.Errorf("the revisited widget does not keep the answer %s=%s", field, vals[0])
		}
	}
	// The quiz: a failed plain post, then the page at the result.
	_, qw := firstWidget(t, s, quiz.KindQuiz)
	resp = post(widgetAction(lesson.Slug, qw.ID), wrongAnswers(qw))
	if resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(resp.Header.Get("Location"), "#w-"+qw.ID+"-result") {
		t.Fatalf("plain quiz post = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, page = c.get("/lessons/" + lesson.Slug)
	if !strings.Contains(page, "needed to pass") || !strings.Contains(page, `data-testid="quiz-retry"`) {
		t.Errorf("the lesson after a failed quiz post lacks the result and the retry link")
	}
	_, again = c.get("/lessons/" + lesson.Slug)
	if !strings.Contains(again, "Not passed yet: first try 0 of ") {
		t.Errorf("a revisit after a failed quiz lacks its status:\n%.3000s", statusLines(again))
	}
	// An incomplete post is refused in place (422), not redirected.
	resp = post(widgetAction(lesson.Slug, qw.ID), url.Values{})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("incomplete plain post = %d, want 422", resp.StatusCode)
	}
	// A result kept for another visitor never shows here.
	other := newClient(t, ts.URL)
	if _, page := other.get("/lessons/" + lesson.Slug); strings.Contains(page, `data-testid="part-status"`) {
		t.Error("another visitor sees this learner's status")
	}
}

// statusLines returns the page's part-status paragraphs, for messages.
func statusLines(page string) string {
	var out []string
	for _, part := range strings.Split(page, `data-testid="part-status"`)[1:] {
		out = append(out, part[:min(200, len(part))])
	}
	return strings.Join(out, "\n")
}
