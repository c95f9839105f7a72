package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"learn/lessons"
)

// assetLesson is a lesson with an image and a download of its folder.
const assetLesson = "---\ntitle: Files\nslug: files\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\n" +
	"![A red box](box.svg) and [the notes](notes/notes.txt).\n\n" +
	"```classify\nid: k\nprompt: Which?\ncategories:\n  - id: a\n    label: A\n    why_not: Not this.\n  - id: b\n    label: B\n    why_not: Not that.\n" +
	"items:\n  - id: one\n    text: One\n    answer: a\n    explanation: Because.\n```\n\n## Key takeaways\n- x\n"

const assetSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10" fill="red"/></svg>`

// TestCourseFiles checks that a lesson's image and download are served
// at the hashed addresses its page links, with their types, a year's
// immutable caching, a policy that lets nothing in them run, and a
// download as an attachment; other addresses are 404.
func TestCourseFiles(t *testing.T) {
	s := newTestServer(t)
	course, err := lessons.Load(fstest.MapFS{
		"course.yaml": {Data: []byte("title: Files\n")}, "01-files.md": {Data: []byte(assetLesson)},
		"box.svg": {Data: []byte(assetSVG)}, "notes/notes.txt": {Data: []byte("Read me.\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetCourse(course); err != nil {
		t.Fatal(err)
	}
	page := httptest.NewRecorder()
	s.ServeHTTP(page, httptest.NewRequest(http.MethodGet, "/lessons/files", nil))
	if page.Code != http.StatusOK {
		t.Fatalf("lesson page: %d", page.Code)
	}
	if csp := page.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self'") {
		t.Errorf("the page's policy %q does not allow images of this origin", csp)
	}
	img := regexp.MustCompile(`<img src="(/course-files/[0-9a-f]{16}/box\.svg)" alt="A red box">`).FindStringSubmatch(page.Body.String())
	dl := regexp.MustCompile(`<a href="(/course-files/[0-9a-f]{16}/notes\.txt)" download="notes.txt">the notes</a>`).FindStringSubmatch(page.Body.String())
	if img == nil || dl == nil {
		t.Fatalf("the page does not link the image and the download at hashed addresses:\n%s", page.Body.String())
	}
	tests := []struct {
		name, path, typ, disposition, body string
	}{
		{"image", img[1], "image/svg+xml", "", assetSVG},
		{"download", dl[1], "text/plain; charset=utf-8", "attachment; filename=notes.txt", "Read me.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			h := rec.Header()
			body, _ := io.ReadAll(rec.Body)
			if rec.Code != http.StatusOK || string(body) != tt.body {
				t.Fatalf("GET %s: %d %q", tt.path, rec.Code, body)
			}
			for k, want := range map[string]string{
				"Content-Type": tt.typ, "Cache-Control": "public, max-age=31536000, immutable",
				"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
				"X-Content-Type-Options":  "nosniff", "Content-Disposition": tt.disposition,
			} {
				if got := h.Get(k); got != want {
					t.Errorf("%s: %q, want %q", k, got, want)
				}
			}
			again := httptest.NewRequest(http.MethodGet, tt.path, nil)
			again.Header.Set("If-None-Match", h.Get("ETag"))
			rec = httptest.NewRecorder()
			s.ServeHTTP(rec, again)
			if rec.Code != http.StatusNotModified {
				t.Errorf("revalidation: %d, want 304", rec.Code)
			}
		})
	}
	for _, p := range []string{"/course-files/0000000000000000/box.svg", strings.Replace(img[1], "box.svg", "other.svg", 1), "/course-files/box.svg"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, rec.Code)
		}
	}
}

// TestBuiltInDiagrams checks that the built-in course's diagrams are
// served and shown with alt text.
func TestBuiltInDiagrams(t *testing.T) {
	s := newTestServer(t)
	for _, slug := range []string{"two-ways-to-fail", "tool-annotations"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/lessons/"+slug, nil))
		m := regexp.MustCompile(`<img src="(/course-files/[0-9a-f]{16}/[a-z-]+\.svg)" alt="([^"]{80,})">`).FindStringSubmatch(rec.Body.String())
		if m == nil {
			t.Errorf("%s shows no diagram with alt text", slug)
			continue
		}
		img := httptest.NewRecorder()
		s.ServeHTTP(img, httptest.NewRequest(http.MethodGet, m[1], nil))
		if img.Code != http.StatusOK || img.Header().Get("Content-Type") != "image/svg+xml" || !strings.Contains(img.Body.String(), "prefers-color-scheme: dark") {
			t.Errorf("%s: %d %s, want an SVG with a dark theme", m[1], img.Code, img.Header().Get("Content-Type"))
		}
	}
}
