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
// with XP, a streak, due reviews and saved code.
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
			whole := rec.Body.String()
			served, whole = nonce.ReplaceAllString(served, "NONCE"), nonce.ReplaceAllString(whole, "NONCE")
			if served != whole {
				i := 0
				for i < len(served) && i < len(whole) && served[i] == whole[i] {
					i++
				}
				t.Fatalf("the skeleton page differs from the whole page at byte %d:\nskeleton: %.200q\nwhole:    %.200q", i, served[i:], whole[i:])
			}
		})
	}
}
