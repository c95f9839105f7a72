package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"learn/grading"
	"learn/lessons"
	"learn/progress"
	"learn/static"
	"learn/store"
)

// testSetup is what a test may change before its server is built: the
// server's Config and the core's grader and clock.
type testSetup struct {
	Config
	Grader grading.Runner
	Now    func() time.Time
	// Limits are the core's run and answer rates.
	Limits progress.Limits
	// DBPath is the database file, in a temp folder unless set.
	DBPath string
	// SharedVersions counts learners' writes in the database
	// (storage.WriteVersions), as servers sharing one database do.
	SharedVersions bool
}

// newTestServer builds a server on the built-in course and a temp database.
func newTestServer(tb testing.TB, opts ...func(*testSetup)) *Server {
	tb.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		tb.Fatal(err)
	}
	css, err := lessons.HighlightCSS()
	if err != nil {
		tb.Fatal(err)
	}
	assets, err := static.New(map[string][]byte{"highlight.css": css})
	if err != nil {
		tb.Fatal(err)
	}
	setup := testSetup{Config: Config{Assets: assets, CookieKey: make([]byte, 64)}, DBPath: filepath.Join(tb.TempDir(), "learn.db")}
	for _, o := range opts {
		o(&setup)
	}
	st, err := store.Open(context.Background(), setup.DBPath)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	cfg := progress.Config{Course: course, Store: st, Grader: setup.Grader, Now: setup.Now, Limits: setup.Limits}
	if setup.SharedVersions {
		cfg.Invalidator = st.WriteVersions(nil)
	}
	app, err := progress.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	setup.App = app
	s, err := New(setup.Config)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkLessonPage measures serving one lesson page, for a new visitor
// and for a returning learner whose cookie makes the page read progress,
// plain and gzip, and a returning learner's revalidation of an unchanged
// page (304).
func BenchmarkLessonPage(b *testing.B) {
	s := newTestServer(b)
	const path = "/lessons/two-ways-to-fail"
	first := httptest.NewRecorder()
	s.ServeHTTP(first, httptest.NewRequest(http.MethodGet, "/", nil))
	cookie := first.Result().Cookies()[0]
	tagged := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.AddCookie(cookie)
	req.Header.Set("Accept-Encoding", "gzip")
	s.ServeHTTP(tagged, req)
	etag := tagged.Header().Get("ETag")
	for _, bc := range []struct {
		name   string
		cookie *http.Cookie
		accept string
		inm    string
		want   int
	}{
		{"new-visitor", nil, "", "", http.StatusOK},
		{"returning-learner", cookie, "", "", http.StatusOK},
		{"new-visitor-gzip", nil, "gzip, deflate, br", "", http.StatusOK},
		{"returning-learner-gzip", cookie, "gzip, deflate, br", "", http.StatusOK},
		{"returning-learner-304", cookie, "gzip, deflate, br", etag, http.StatusNotModified},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			cpu0 := cpuTime()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				if bc.cookie != nil {
					req.AddCookie(bc.cookie)
				}
				if bc.accept != "" {
					req.Header.Set("Accept-Encoding", bc.accept)
				}
				if bc.inm != "" {
					req.Header.Set("If-None-Match", bc.inm)
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != bc.want {
					b.Fatalf("GET %s = %d, want %d", path, rec.Code, bc.want)
				}
				size = rec.Body.Len()
			}
			b.ReportMetric(float64(size), "bytes/page")
			// CPU time, which a loaded machine inflates less than wall time
			// (the process's, so the benchmark's own requests count too).
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
		})
	}
}
