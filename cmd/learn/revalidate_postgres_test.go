package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"learn/postgres/pgtest"
)

// condGet sends a GET with If-None-Match through c and returns the status,
// the entity tag and the body.
func condGet(t *testing.T, c *http.Client, target, inm string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", target, err)
	}
	return resp.StatusCode, resp.Header.Get("ETag"), string(body)
}

// TestRevalidationOnPostgres runs two servers on one PostgreSQL database
// and checks a lesson page's entity tag across them: the same page has
// the same tag on both and answers 304 on either; XP the learner earns on
// one, and a question another learner asks on it, give a new page on the
// other at once, though the other had drawn the page and cached the
// learner's summary before.
func TestRevalidationOnPostgres(t *testing.T) {
	cluster := pgtest.Start(t)
	db := cluster.NewDatabase(t)
	a, b := startServerOn(t, db), startServerOn(t, db)
	lesson := loopLessons(t)[0]
	page := "/lessons/" + lesson.slug
	c := newClient(t)
	get(t, c, a+page) // the learner's cookie
	for _, ck := range c.Jar.Cookies(mustURL(t, a)) {
		c.Jar.SetCookies(mustURL(t, b), []*http.Cookie{ck})
	}
	status, tagA, body := condGet(t, c, a+page, "")
	if status != http.StatusOK || tagA == "" {
		t.Fatalf("a answers the lesson with %d, ETag %q", status, tagA)
	}
	status, tagB, _ := condGet(t, c, b+page, "")
	if status != http.StatusOK || tagB != tagA {
		t.Fatalf("b answers %d with ETag %q; a gave %q for the same page", status, tagB, tagA)
	}
	for _, base := range []string{a, b} {
		if status, _, _ := condGet(t, c, base+page, tagA); status != http.StatusNotModified {
			t.Errorf("%s answers an unchanged page with %d, want 304", base, status)
		}
	}

	form, err := quizForm(body, lesson.quiz)
	if err != nil {
		t.Fatal(err)
	}
	if status, r, err := postJSON(c, a+page+"/widgets/"+lesson.quiz.ID, form); err != nil || status != http.StatusOK || r.Awarded <= 0 {
		t.Fatalf("quiz on a: %d, awarded %d (%v)", status, r.Awarded, err)
	}
	status, earned, body := condGet(t, c, b+page, tagA)
	if xp, _ := pageXP(body); status != http.StatusOK || earned == tagA || xp <= 0 {
		t.Fatalf("after XP earned on a, b answers %d with ETag %q (was %q) and XP %d; want 200, a new tag and the XP", status, earned, tagA, xp)
	}

	other := newClient(t)
	get(t, other, a+page)
	const question = "Why does a tool error go in the result and not in a JSON-RPC error?"
	for _, post := range []struct {
		path string
		form url.Values
	}{
		{"/qa/name", url.Values{"name": {"Robin"}, "lesson": {lesson.slug}}},
		{page + "/questions", url.Values{"body": {question}}},
	} {
		resp, err := other.PostForm(a+post.path, post.form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 400 {
			t.Fatalf("POST %s on a = %d", post.path, resp.StatusCode)
		}
	}
	status, asked, body := condGet(t, c, b+page, earned)
	if status != http.StatusOK || asked == earned || !strings.Contains(body, "JSON-RPC error?") {
		t.Fatalf("after another learner asked on a, b answers %d with ETag %q (was %q); want 200 with the question", status, asked, earned)
	}
	if status, _, _ := condGet(t, c, a+page, asked); status != http.StatusNotModified {
		t.Errorf("a answers %d for the page b drew after the question, want 304 (one tag on both)", status)
	}
}
