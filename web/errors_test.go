package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"learn/lessons"
	"learn/progress"
	"learn/static"
	"learn/store"
)

// TestDatabaseFailuresAreLoggedServerErrors breaks a real database under
// the forms that draw themselves again on a user's mistake (teacher
// sign-in, continuing with secret words, joining a class) and checks that
// each failure goes through the one error adapter: a 500 error page that
// says the server failed, never the form with a blank message, and one
// logged line per request with its status and cause. The rate limits are
// counted in a database of their own, as when servers share one: closing
// it fails sign-in in its first step (the tries), and closing the main
// database fails joining at its first query.
func TestDatabaseFailuresAreLoggedServerErrors(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	css, err := lessons.HighlightCSS()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := static.New(map[string][]byte{"highlight.css": css})
	if err != nil {
		t.Fatal(err)
	}
	limits, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "limits.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { limits.Close() })
	app, err := progress.New(progress.Config{Course: course, Store: st, Limiter: limits})
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	srv, err := New(Config{App: app, Assets: assets, CookieKey: make([]byte, 64),
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	w := &classWorld{t: t, base: ts.URL, st: st, app: app}
	w.addTeacher("room12@school.example", false)
	teacher := w.browser()
	teacher.signIn("room12@school.example")
	code := teacher.joinCode(teacher.createClass("Year 9"))
	posts := []struct {
		name, path string
		form       url.Values
		broken     *store.Store
	}{
		{"teacher sign-in", "/signin", url.Values{"email": {"room12@school.example"}, "password": {testPassword}}, limits},
		{"continue with secret words", "/join/signin", url.Values{"code": {code}, "name": {"Red Kite"}, "secret": {"one two three"}}, limits},
		{"join", "/join", url.Values{"code": {code}, "name": {"Red Kite"}}, st},
	}
	for _, p := range posts {
		t.Run(p.name, func(t *testing.T) {
			if err := p.broken.Close(); err != nil {
				t.Fatal(err)
			}
			before := strings.Count(log.String(), "request failed")
			// A browser with no cookie yet, so that only the use case
			// reads the database.
			stranger := &browser{t: t, base: ts.URL, http: &http.Client{
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
			a := stranger.post(p.path, p.form)
			if a.status != http.StatusInternalServerError {
				t.Errorf("status = %d, want 500", a.status)
			}
			if !strings.Contains(a.body, "Something went wrong on our side") || strings.Contains(a.body, `<form method="post" action="`+p.path+`"`) {
				t.Errorf("the answer is not the server-error page:\n%s", a.body)
			}
			if ra := a.header.Get("Retry-After"); ra != "" {
				t.Errorf("Retry-After %q on a server failure", ra)
			}
			got := log.String()
			if n := strings.Count(got, "request failed"); n != before+1 {
				t.Fatalf("%d new log lines for the failure, want 1:\n%s", n-before, got)
			}
			last := got[strings.LastIndex(got, "request failed"):]
			if !strings.Contains(last, "path="+p.path) || !strings.Contains(last, "status=500") || !strings.Contains(last, "closed") {
				t.Errorf("the log line does not name the path, the status and the cause: %s", last)
			}
		})
	}
}
