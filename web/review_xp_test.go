package web

import (
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"learn/quiz"
)

// TestReviewXPOverHTTP posts the right answer to a due review item again
// and again, each time with the version the page shows, as the probe that
// once earned thousands of XP did: only the first answer earns XP.
func TestReviewXPOverHTTP(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Limits.AnswersPerMinute = 6000 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	items := w.Value.(*quiz.Classify).Items
	form := rightAnswers(w)
	form.Set("item."+items[0].ID, wrongAnswers(w).Get("item."+items[0].ID))
	c.post(widgetAction(lesson.Slug, w.ID), form, "")
	xp := func(page string) int {
		m := regexp.MustCompile(`data-testid="xp-total">(\d+)<`).FindStringSubmatch(page)
		if m == nil {
			t.Fatal("the page shows no XP total")
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	_, page := c.get("/review")
	start := xp(page)
	key := quiz.ReviewItemKey(lesson.Slug, w.ID, items[0].ID)
	version := regexp.MustCompile(`name="version" value="(\d+)"`)
	v := "0"
	if m := version.FindStringSubmatch(page); m != nil {
		v = m[1]
	}
	for i := range 40 {
		status, body := c.post("/review", url.Values{"item": {key}, "version": {v}, "q." + items[0].ID: {items[0].Answer}}, "")
		if status != 200 {
			t.Fatalf("answer %d = %d", i+1, status)
		}
		// The next post claims the newest version the server knows of.
		v = strconv.Itoa(i + 1)
		page = body
	}
	if gained := xp(page) - start; gained <= 0 || gained > 10 {
		t.Errorf("40 right answers to one due item gained %d XP, want one review's worth", gained)
	}
}
