package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
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

func TestGzip(t *testing.T) {
	a, err := New(map[string][]byte{"big.css": []byte(strings.Repeat("body { color: red; }\n", 200))})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, accept, wantEncoding string
	}{
		{"gzip accepted", "gzip, deflate, br", "gzip"},
		{"no header", "", ""},
		{"gzip refused", "gzip;q=0, br", ""},
		{"gzip weighted", "br;q=1.0, gzip;q=0.5", "gzip"},
		{"gzip weighted zero", "gzip;q=0.0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, a.URL("big.css"), nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, req)
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Fatalf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			body := rec.Body.Bytes()
			if tt.wantEncoding == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.HasPrefix(string(body), "body { color: red; }") || rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Errorf("body %.40q, Vary %q", body, rec.Header().Get("Vary"))
			}
		})
	}
}
