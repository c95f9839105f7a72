package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"learn/quiz"
)

// decodeBody undoes a Content-Encoding the server wrote.
func decodeBody(t *testing.T, coding string, body []byte) string {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return string(body)
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("gzip header: %v", err)
		}
		zr.Multistream(false)
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		t.Fatalf("unknown Content-Encoding %q", coding)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s body: %v", coding, err)
	}
	return string(plain)
}

// benchLesson is the lesson bench/page/run measures.
const benchLesson = "two-ways-to-fail"

var nonceRe = regexp.MustCompile(`[A-Za-z0-9+/]{22}==`)

// TestCompressedLessonPageMatchesFullPage checks that a compressed lesson
// page, once decoded, is byte for byte the page drawn whole, for every
// lesson and coding, and that gzip pages are under a quarter of the size.
func TestCompressedLessonPageMatchesFullPage(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	c.post(widgetAction(lesson.Slug, w.ID), rightAnswers(w), "")
	cookies := c.http.Jar.Cookies(mustParse(t, ts.URL))
	for _, l := range s.course().Lessons {
		// Opened first: a first opening moves the header's "Continue" to
		// the lesson, so the whole page is drawn as every later view is.
		c.get("/lessons/" + l.Slug)
		req := httptest.NewRequest(http.MethodGet, "/lessons/"+l.Slug, nil)
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		rec := httptest.NewRecorder()
		s.handle(func(w http.ResponseWriter, r *http.Request) error {
			return s.renderLesson(w, r, l, lessonOverrides{})
		}).ServeHTTP(rec, req)
		whole := nonceRe.ReplaceAllString(rec.Body.String(), "NONCE")
		for _, tt := range []struct{ accept, want string }{
			{"gzip", "gzip"},
			{"gzip, deflate, br, zstd", "gzip"}, // lesson pages are precompressed gzip
			{"br", "br"},
			{"br;q=1, gzip;q=0", "br"},
			{"", ""},
			{"identity", ""},
			{"gzip;q=0", ""},
		} {
			t.Run(l.Slug+"/"+tt.accept, func(t *testing.T) {
				req := httptest.NewRequest(http.MethodGet, "/lessons/"+l.Slug, nil)
				for _, ck := range cookies {
					req.AddCookie(ck)
				}
				if tt.accept != "" {
					req.Header.Set("Accept-Encoding", tt.accept)
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					t.Fatalf("status %d", rec.Code)
				}
				got := rec.Header().Get("Content-Encoding")
				if got != tt.want {
					t.Fatalf("Content-Encoding = %q, want %q", got, tt.want)
				}
				if !strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Accept-Encoding") {
					t.Errorf("Vary = %q, want Accept-Encoding", rec.Header().Values("Vary"))
				}
				raw := rec.Body.Bytes()
				page := decodeBody(t, got, raw)
				if served := nonceRe.ReplaceAllString(page, "NONCE"); served != whole {
					i := 0
					for i < len(served) && i < len(whole) && served[i] == whole[i] {
						i++
					}
					t.Fatalf("the decoded page differs from the whole page at byte %d:\nserved: %.200q\nwhole:  %.200q", i, served[i:], whole[i:])
				}
				// The benchmarked lesson under a quarter; every lesson under 30 %.
				if limit := 0.30; got != "" {
					if l.Slug == benchLesson {
						limit = 0.25
					}
					if ratio := float64(len(raw)) / float64(len(page)); ratio >= limit {
						t.Errorf("%s page is %d bytes of %d (%.3f), want under %.2f", got, len(raw), len(page), ratio, limit)
					}
				}
				if cl := rec.Header().Get("Content-Length"); got == "gzip" && cl != "" && cl != strconv.Itoa(len(raw)) {
					t.Errorf("Content-Length = %s, body %d", cl, len(raw))
				}
			})
		}
	}
}

// TestStyleNonceDoesNotChangeCompressedLength checks the BREACH guard of
// the lesson page: the style nonce, fresh per answer, is stored
// uncompressed, so the compressed length is the same whatever its value.
func TestStyleNonceDoesNotChangeCompressedLength(t *testing.T) {
	s := newTestServer(t)
	var slug string
	for _, l := range s.course().Lessons {
		if len(l.Exercises()) > 0 {
			slug = l.Slug
			break
		}
	}
	if slug == "" {
		t.Skip("no lesson with an exercise, so no style nonce")
	}
	first := httptest.NewRecorder()
	s.ServeHTTP(first, httptest.NewRequest(http.MethodGet, "/", nil))
	cookie := first.Result().Cookies()[0]
	lengths, nonces := map[int]int{}, map[string]bool{}
	for range 40 {
		req := httptest.NewRequest(http.MethodGet, "/lessons/"+slug, nil)
		req.AddCookie(cookie)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("not gzipped: %q", rec.Header().Get("Content-Encoding"))
		}
		lengths[rec.Body.Len()]++
		page := decodeBody(t, "gzip", rec.Body.Bytes())
		n := regexp.MustCompile(`name="learn-style-nonce" content="([^"]+)"`).FindStringSubmatch(page)
		if n == nil {
			t.Fatal("the page has no style nonce")
		}
		nonces[n[1]] = true
	}
	if len(nonces) < 40 {
		t.Errorf("%d nonces in 40 answers, want a fresh one each", len(nonces))
	}
	if len(lengths) != 1 {
		t.Errorf("compressed lengths vary with the nonce: %v", lengths)
	}
}

// TestSecretWordsAreNeverCompressed checks that the pages showing secret
// words (the join answer, a learner's page for their teacher) are sent
// uncompressed however the browser asks, while other pages are compressed.
func TestSecretWordsAreNeverCompressed(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	code := teacher.joinCode(class)
	learner := w.browser()
	learner.join(code, "Red Kite")

	raw := func(b *browser, method, path string, form url.Values) *http.Response {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, b.base+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Accept-Encoding", "gzip, br")
		resp, err := b.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := raw(learner, http.MethodPost, "/join", url.Values{"code": {code}, "name": {"Red Kite"}}); resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("join answer = %d, Content-Encoding %q; want 200 uncompressed", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	} else if b, _ := io.ReadAll(resp.Body); !secretRe.Match(b) {
		t.Errorf("the join answer shows no secret words")
	}
	classPage := raw(teacher, http.MethodGet, class, nil)
	if classPage.Header.Get("Content-Encoding") == "" {
		t.Fatalf("the class page is not compressed")
	}
	page := decodeBody(t, classPage.Header.Get("Content-Encoding"), must(io.ReadAll(classPage.Body)))
	m := regexp.MustCompile(`href="(` + regexp.QuoteMeta(class) + `/learners/[^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no learner link on the class page")
	}
	lp := raw(teacher, http.MethodGet, m[1], nil)
	if lp.StatusCode != http.StatusOK || lp.Header.Get("Content-Encoding") != "" {
		t.Errorf("learner page = %d, Content-Encoding %q; want 200 uncompressed", lp.StatusCode, lp.Header.Get("Content-Encoding"))
	}
	if b, _ := io.ReadAll(lp.Body); !bytes.Contains(b, []byte(`data-testid="learner-secret"`)) {
		t.Errorf("the learner page shows no secret words")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestCompressWriter checks which answers the middleware compresses.
func TestCompressWriter(t *testing.T) {
	big := strings.Repeat(`{"a":"some text to compress"},`, 100)
	for _, tt := range []struct {
		name     string
		accept   string
		method   string
		handler  http.HandlerFunc
		want     string
		wantVary bool
	}{
		{name: "large JSON, gzip", accept: "gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			_ = writeJSON(w, http.StatusOK, []string{big})
		}, want: "gzip", wantVary: true},
		{name: "large JSON, brotli preferred", accept: "gzip, br", handler: func(w http.ResponseWriter, r *http.Request) {
			_ = writeJSON(w, http.StatusUnprocessableEntity, []string{big})
		}, want: "br", wantVary: true},
		{name: "gzip preferred by q", accept: "gzip;q=1, br;q=0.5", handler: func(w http.ResponseWriter, r *http.Request) {
			_ = writeJSON(w, http.StatusOK, []string{big})
		}, want: "gzip", wantVary: true},
		{name: "tiny JSON", accept: "gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			_ = writeJSON(w, http.StatusOK, apiError{Error: "no"})
		}, want: "", wantVary: true},
		{name: "not asked", accept: "", handler: func(w http.ResponseWriter, r *http.Request) {
			_ = writeJSON(w, http.StatusOK, []string{big})
		}, want: "", wantVary: true},
		{name: "HEAD", accept: "gzip", method: http.MethodHead, handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", "5000")
		}, want: "", wantVary: true},
		{name: "event stream", accept: "gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: "+big+"\n\n")
			w.(http.Flusher).Flush()
		}, want: "", wantVary: false},
		{name: "already compressed", accept: "gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/css")
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = io.WriteString(w, big)
		}, want: "gzip", wantVary: false},
		{name: "304", accept: "gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotModified)
		}, want: "", wantVary: true},
		{name: "secret", accept: "gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			plainBody(w)
			_ = writeJSON(w, http.StatusOK, []string{big})
		}, want: "", wantVary: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &Server{}
			method := tt.method
			if method == "" {
				method = http.MethodGet
			}
			req := httptest.NewRequest(method, "/x", nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			s.compress(tt.handler).ServeHTTP(rec, req)
			got := rec.Header().Get("Content-Encoding")
			if got != tt.want {
				t.Fatalf("Content-Encoding = %q, want %q", got, tt.want)
			}
			if vary := strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Accept-Encoding"); vary != tt.wantVary {
				t.Errorf("Vary: Accept-Encoding = %v, want %v", vary, tt.wantVary)
			}
			if tt.want != "" && tt.name != "already compressed" {
				if body := decodeBody(t, got, rec.Body.Bytes()); !strings.Contains(body, "some text to compress") {
					t.Errorf("decoded body %.80q", body)
				}
				if rec.Header().Get("Content-Length") != "" {
					t.Errorf("a compressed answer keeps the plain Content-Length")
				}
			}
		})
	}
}
