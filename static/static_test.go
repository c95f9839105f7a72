package static

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

func TestHashedURLs(t *testing.T) {
	a, err := New(map[string][]byte{"gen.css": []byte("body{}")})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.css", "gen.css"} {
		t.Run(name, func(t *testing.T) {
			u := a.URL(name)
			if !regexp.MustCompile(`^/static/[a-z]+\.[0-9a-f]{12}\.css$`).MatchString(u) {
				t.Fatalf("URL(%q) = %q, want a content-hashed path", name, u)
			}
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
			if rec.Code != 200 || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Errorf("GET %s = %d, Cache-Control %q", u, rec.Code, rec.Header().Get("Cache-Control"))
			}
			if ct := rec.Header().Get("Content-Type"); ct != "text/css; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
		})
	}
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/static/app.css", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("unhashed path answered %d, want 404", rec.Code)
	}
	if _, err := New(map[string][]byte{"app.css": nil}); err == nil {
		t.Error("a generated file that shadows an embedded one was accepted")
	}
}
