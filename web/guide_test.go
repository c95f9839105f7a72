package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"learn/lessons"
)

func TestGuidePage(t *testing.T) {
	s := newTestServer(t)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/guide", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /guide = %d", rec.Code)
	}
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(lessons.InfoFields(), lessons.FrontMatterFields()...) {
		if doc.Find(".fields th code").FilterFunction(func(_ int, s *goquery.Selection) bool { return s.Text() == f.Name }).Length() == 0 {
			t.Errorf("the guide's tables lack the field %s", f.Name)
		}
	}
	guide, err := lessons.Guide()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range guide.Lessons {
		ex := doc.Find(`[data-testid="example-` + l.Slug + `"]`)
		if ex.Length() != 1 {
			t.Errorf("no example section for %s", l.File)
			continue
		}
		for _, seg := range l.Segments {
			if w := seg.Widget; w != nil {
				if src := ex.Find(".guide-source code").Text(); src != w.Source {
					t.Errorf("%s: source shown = %q, want the file's block %q", l.File, src, w.Source)
				}
				live := ex.Find(`[data-testid="guide-live"] fieldset[disabled]`)
				if live.Find(`[data-testid="widget-`+w.ID+`"], [data-testid="exercise-`+w.ID+`"]`).Length() != 1 {
					t.Errorf("%s: the live example %s is not drawn inside a disabled fieldset", l.File, w.ID)
				}
			}
		}
	}
	faq := doc.Find(`[data-testid="example-faq"]`)
	if src := faq.Find(".guide-source code").Text(); !strings.HasPrefix(src, "```faq\n- question:") {
		t.Errorf("the faq example's source = %q, want the faq block as written", src)
	}
	if n := faq.Find(`[data-testid="guide-live"] details.qa-faq-entry summary`).Length(); n == 0 {
		t.Error("the faq example shows no entry as a learner sees it")
	}
	doc.Find("form").Each(func(_ int, f *goquery.Selection) {
		if action, _ := f.Attr("action"); !strings.HasPrefix(action, "/guide") {
			t.Errorf("a guide form posts to %q, want only /guide", action)
		}
		if f.ParentsFiltered("fieldset[disabled]").Length() == 0 {
			t.Errorf("a guide form is not disabled")
		}
	})
	if doc.Find(`a[href="/guide"]`).Length() == 0 {
		t.Error("the footer does not link the guide")
	}
	// A post to the guide changes nothing: it is not a route.
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/guide", strings.NewReader("mode=submit")))
	if rec.Code != http.StatusNotFound && rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /guide = %d, want 404 or 405", rec.Code)
	}
}
