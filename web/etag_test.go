package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"learn/quiz"
)

// conditional is one answer to a GET with If-None-Match and Accept-Encoding.
type conditional struct {
	status int
	etag   string
	body   string
	header http.Header
}

// condGet sends a GET with the given If-None-Match and Accept-Encoding
// through hc (and its cookie jar); the body is decoded.
func condGet(t *testing.T, hc *http.Client, url, inm, accept string) conditional {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	// Set explicitly, so the client leaves the body as sent.
	if accept == "" {
		accept = "identity"
	}
	req.Header.Set("Accept-Encoding", accept)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return conditional{status: resp.StatusCode, etag: resp.Header.Get("ETag"), header: resp.Header,
		body: decodeBody(t, resp.Header.Get("Content-Encoding"), raw)}
}

// TestLessonPageRevalidates checks the lesson page's entity tag: an
// unchanged page answers 304 with no body and no CSP (the cached page
// keeps its nonce); the tag differs per coding; another learner's
// question and the learner's own XP change it.
func TestLessonPageRevalidates(t *testing.T) {
	w := newQAWorld(t)
	page := w.base + "/lessons/" + qaLesson
	first := condGet(t, w.ann.http, page, "", "")
	if first.status != http.StatusOK || first.etag == "" {
		t.Fatalf("first view = %d, ETag %q", first.status, first.etag)
	}
	if cc := first.header.Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("Cache-Control = %q", cc)
	}
	same := condGet(t, w.ann.http, page, first.etag, "")
	if same.status != http.StatusNotModified || same.body != "" || same.etag != first.etag {
		t.Fatalf("unchanged page = %d, ETag %q, %d bytes; want 304 %s, empty", same.status, same.etag, len(same.body), first.etag)
	}
	if csp := same.header.Get("Content-Security-Policy"); csp != "" {
		t.Errorf("a 304 carries a CSP %q, which would replace the cached page's nonce", csp)
	}
	gz := condGet(t, w.ann.http, page, "", "gzip")
	if gz.etag == first.etag || gz.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip answer ETag %q (identity %q), coding %q", gz.etag, first.etag, gz.header.Get("Content-Encoding"))
	}
	for _, tt := range []struct {
		name, inm, accept string
		want              int
	}{
		{"gzip tag, gzip", gz.etag, "gzip", http.StatusNotModified},
		{"weak gzip tag among others", `"nope", W/` + gz.etag, "gzip, br", http.StatusNotModified},
		{"identity tag, gzip", first.etag, "gzip", http.StatusOK},
		{"gzip tag, identity", gz.etag, "", http.StatusOK},
		{"star", "*", "", http.StatusNotModified},
		{"other tag", `"0000000000000000"`, "", http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := condGet(t, w.ann.http, page, tt.inm, tt.accept); got.status != tt.want {
				t.Errorf("If-None-Match %s with %q = %d, want %d", tt.inm, tt.accept, got.status, tt.want)
			}
		})
	}

	w.ben.ask(qaLesson, "", "Why does the booking tool answer with isError rather than a JSON-RPC error?")
	asked := condGet(t, w.ann.http, page, first.etag, "")
	if asked.status != http.StatusOK || asked.etag == first.etag || !strings.Contains(asked.body, "booking tool answer with isError") {
		t.Fatalf("after a classmate's question = %d, ETag %q (was %q); want 200 with the question", asked.status, asked.etag, first.etag)
	}
	w.ann.earn(w.app)
	earned := condGet(t, w.ann.http, page, asked.etag, "")
	if earned.status != http.StatusOK || earned.etag == asked.etag {
		t.Fatalf("after earning XP = %d, ETag %q (was %q); want 200 with a new tag", earned.status, earned.etag, asked.etag)
	}
}

// TestNewVisitorsShareOneTag checks that two first visits get the same tag
// (the nonce, fresh each time, is not part of it) and the same gzip bytes
// but for the nonce.
func TestNewVisitorsShareOneTag(t *testing.T) {
	s := newTestServer(t)
	var tags []string
	for range 2 {
		req := httptest.NewRequest(http.MethodGet, "/lessons/"+benchLesson, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		tags = append(tags, rec.Header().Get("ETag"))
	}
	if tags[0] == "" || tags[0] != tags[1] {
		t.Errorf("new visitors' tags = %q", tags)
	}
}

// TestTagChangesAcrossServers checks two servers on one database: they
// give the same tag for the same page, and a learner who earns XP on one
// gets a new page, not a 304, from the other. (B has no cached summary
// here; with a cached one, the shared Invalidator's version makes B
// reload it, as for any page.)
func TestTagChangesAcrossServers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	a := newTestServer(t, func(ts *testSetup) { ts.DBPath = db })
	b := newTestServer(t, func(ts *testSetup) { ts.DBPath = db })
	tsA, tsB := httptest.NewServer(a), httptest.NewServer(b)
	defer tsA.Close()
	defer tsB.Close()
	c := newClient(t, tsA.URL)
	lesson, wd := firstWidget(t, a, quiz.KindClassify)
	page := "/lessons/" + lesson.Slug
	before := condGet(t, c.http, tsA.URL+page, "", "gzip")
	if before.status != http.StatusOK || before.etag == "" {
		t.Fatalf("first view on A = %d, ETag %q", before.status, before.etag)
	}
	// Replicas give the same tag for the same page (a new visitor's).
	if na, nb := condGet(t, http.DefaultClient, tsA.URL+page, "", "gzip"), condGet(t, http.DefaultClient, tsB.URL+page, "", "gzip"); na.etag != nb.etag {
		t.Errorf("a new visitor's tag is %s on A, %s on B", na.etag, nb.etag)
	}
	c.post(widgetAction(lesson.Slug, wd.ID), rightAnswers(wd), "")
	after := condGet(t, c.http, tsB.URL+page, before.etag, "gzip")
	if after.status != http.StatusOK || after.etag == before.etag {
		t.Fatalf("after earning XP on A, B answers %d with ETag %q (was %q); want 200 and a new tag", after.status, after.etag, before.etag)
	}
}

// TestTagFollowsTheLearnerAcrossServers checks two servers on one
// database that count learners' writes in it, as replicas do: B draws the
// page and caches the learner's summary; the learner earns XP on A; B's
// next conditional request is a new page with the XP, not a 304, and an
// unchanged page then answers 304 on both.
func TestTagFollowsTheLearnerAcrossServers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	shared := func(ts *testSetup) { ts.DBPath, ts.SharedVersions = db, true }
	a, b := newTestServer(t, shared), newTestServer(t, shared)
	tsA, tsB := httptest.NewServer(a), httptest.NewServer(b)
	defer tsA.Close()
	defer tsB.Close()
	c := newClient(t, tsA.URL)
	lesson, wd := firstWidget(t, a, quiz.KindClassify)
	page := "/lessons/" + lesson.Slug
	condGet(t, c.http, tsA.URL+page, "", "gzip")
	jar := c.http.Jar
	u, _ := url.Parse(tsA.URL)
	ub, _ := url.Parse(tsB.URL)
	jar.SetCookies(ub, jar.Cookies(u))
	before := condGet(t, c.http, tsB.URL+page, "", "gzip")
	if before.status != http.StatusOK || before.etag == "" {
		t.Fatalf("first view on B = %d, ETag %q", before.status, before.etag)
	}
	if again := condGet(t, c.http, tsB.URL+page, before.etag, "gzip"); again.status != http.StatusNotModified {
		t.Fatalf("unchanged page on B = %d, want 304", again.status)
	}
	c.post(widgetAction(lesson.Slug, wd.ID), rightAnswers(wd), "")
	after := condGet(t, c.http, tsB.URL+page, before.etag, "gzip")
	if after.status != http.StatusOK || after.etag == before.etag || !strings.Contains(after.body, fmt.Sprintf(`data-testid="xp-total">%d`, quiz.WidgetXP)) {
		t.Fatalf("after earning XP on A, B answers %d with ETag %q (was %q); want 200, a new tag and %d XP", after.status, after.etag, before.etag, quiz.WidgetXP)
	}
	for _, base := range []string{tsA.URL, tsB.URL} {
		if got := condGet(t, c.http, base+page, after.etag, "gzip"); got.status != http.StatusNotModified {
			t.Errorf("%s answers the unchanged page with %d, want 304", base, got.status)
		}
	}
}

// TestShownResultIsNotRevalidated checks that the page showing a plain
// form post's result once is no-store and has no entity tag.
func TestShownResultIsNotRevalidated(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, wd := firstWidget(t, s, quiz.KindClassify)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+widgetAction(lesson.Slug, wd.ID), strings.NewReader(rightAnswers(wd).Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.http.Do(req) // follows the 303 to the lesson
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.Method != http.MethodGet || !strings.HasPrefix(resp.Request.URL.Path, "/lessons/") {
		t.Fatalf("the plain post ended at %s %s", resp.Request.Method, resp.Request.URL)
	}
	if cc, et := resp.Header.Get("Cache-Control"), resp.Header.Get("ETag"); cc != "no-store" || et != "" {
		t.Errorf("the page with the shown result: Cache-Control %q, ETag %q; want no-store and none", cc, et)
	}
	after := condGet(t, c.http, ts.URL+"/lessons/"+lesson.Slug, "", "")
	if after.etag == "" || after.header.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("the next view: Cache-Control %q, ETag %q", after.header.Get("Cache-Control"), after.etag)
	}
}
