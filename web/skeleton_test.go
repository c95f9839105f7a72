package web

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"learn/quiz"
)

// TestSkeletonMatchesFullPage checks that a lesson page filled into its
// skeleton is byte for byte the page drawn whole, for a returning learner
// with XP, a streak, due reviews and saved code; and so is the page served
// again from the kept bytes, plain and gzip (decoded).
func TestSkeletonMatchesFullPage(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	c.post(widgetAction(lesson.Slug, w.ID), rightAnswers(w), "")                    // XP, streak
	c.post(widgetAction(lesson.Slug, w.ID), map[string][]string{"tz": {"UTC"}}, "") // reviews due
	nonce := regexp.MustCompile(`[A-Za-z0-9+/]{22}==`)
	for _, l := range s.course().Lessons {
		t.Run(l.Slug, func(t *testing.T) {
			_, served := c.get("/lessons/" + l.Slug)
			req := httptest.NewRequest(http.MethodGet, "/lessons/"+l.Slug, nil)
			for _, ck := range c.http.Jar.Cookies(mustParse(t, ts.URL)) {
				req.AddCookie(ck)
			}
			rec := httptest.NewRecorder()
			s.handle(func(w http.ResponseWriter, r *http.Request) error {
				return s.renderLesson(w, r, l, lessonOverrides{})
			}).ServeHTTP(rec, req)
			whole := nonce.ReplaceAllString(rec.Body.String(), "NONCE")
			_, kept := c.get("/lessons/" + l.Slug)
			gz := condGet(t, c.http, ts.URL+"/lessons/"+l.Slug, "", "gzip")
			if gz.header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("the gzip page came as %q", gz.header.Get("Content-Encoding"))
			}
			for _, p := range []struct{ name, page string }{{"skeleton", served}, {"kept", kept}, {"kept gzip", gz.body}} {
				got := nonce.ReplaceAllString(p.page, "NONCE")
				if got == whole {
					continue
				}
				i := 0
				for i < len(got) && i < len(whole) && got[i] == whole[i] {
					i++
				}
				t.Fatalf("the %s page differs from the whole page at byte %d:\n%s: %.200q\nwhole:    %.200q", p.name, i, p.name, got[i:], whole[i:])
			}
		})
	}
}
