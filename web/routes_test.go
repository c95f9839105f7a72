package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"learn/progress"
)

func TestRoutingAnswers(t *testing.T) {
	s := newTestServer(t)
	for _, tt := range []struct {
		name, method, path, contentType, body string
		status                                int
		allow, want                           string
	}{
		{name: "an exercise id is not a widget", method: "POST", path: "/lessons/two-ways-to-fail/widgets/report-a-failure",
			contentType: "application/x-www-form-urlencoded", body: "x=1", status: 404, want: "has no such"},
		{name: "unknown page", method: "GET", path: "/no/such/page", status: 404, want: "Page not found"},
		{name: "unknown path, other method", method: "DELETE", path: "/no/such/page", status: 404, want: "Page not found"},
		{name: "lesson page posted", method: "POST", path: "/lessons/two-ways-to-fail", status: 405, allow: "GET, HEAD", want: "does not accept POST"},
		{name: "widget fetched", method: "GET", path: "/lessons/two-ways-to-fail/widgets/x", status: 303, want: "/lessons/two-ways-to-fail"},
		{name: "widget posted to an unknown lesson, fetched", method: "GET", path: "/lessons/no-such/widgets/x", status: 404, want: "no lesson called"},
		{name: "review deleted", method: "DELETE", path: "/review", status: 405, allow: "GET, HEAD, POST"},
		{name: "API fetched", method: "GET", path: "/api/exercises/report-a-failure/run", status: 405, allow: "POST"},
		{name: "home posted", method: "POST", path: "/", status: 405, allow: "GET, HEAD"},
		{name: "JSON API as form", method: "POST", path: "/api/exercises/report-a-failure/run",
			contentType: "application/x-www-form-urlencoded", body: "code=print(1)", status: 415, want: "Content-Type: application/json"},
		{name: "JSON API without a type", method: "POST", path: "/api/exercises/report-a-failure/run",
			body: `{"code": "print(1)"}`, status: 415, want: "application/json"},
		{name: "JSON API with trailing data", method: "POST", path: "/api/exercises/report-a-failure/run",
			contentType: "application/json", body: `{"code": "print(1)"} {"code": "print(2)"}`, status: 400, want: "more data after the JSON object"},
		{name: "JSON API with trailing garbage", method: "POST", path: "/api/exercises/report-a-failure/run",
			contentType: "application/json; charset=utf-8", body: `{"code": "print(1)"}x`, status: 400, want: "one JSON object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("%s %s = %d, want %d: %.300s", tt.method, tt.path, rec.Code, tt.status, rec.Body)
			}
			if got := rec.Header().Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
			if !strings.Contains(rec.Body.String(), tt.want) {
				t.Errorf("the answer does not say %q: %.400s", tt.want, rec.Body)
			}
		})
	}
	t.Run("a path to clean is redirected, not refused", func(t *testing.T) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/lessons//two-ways-to-fail", nil))
		if rec.Code/100 != 3 {
			t.Errorf("GET //… = %d, want a redirect", rec.Code)
		}
	})
}

func TestRetryAfterIsCapped(t *testing.T) {
	for _, tt := range []struct {
		name      string
		asked     time.Duration
		wantAfter time.Duration
	}{
		{"a short wait is kept", 3 * time.Second, 3 * time.Second},
		{"an estimate of minutes is cut", 262 * time.Second, maxRetryAfter},
		{"none stays none", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := webError(&progress.Error{Kind: progress.Unavailable, Message: "busy", RetryAfter: tt.asked})
			if e.Status != http.StatusServiceUnavailable || e.RetryAfter != tt.wantAfter {
				t.Errorf("webError = %d after %v, want 503 after %v", e.Status, e.RetryAfter, tt.wantAfter)
			}
		})
	}
}
