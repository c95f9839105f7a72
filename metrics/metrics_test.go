package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"learn/progress"
	"learn/sandbox"
	"learn/store"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func TestAwardsCountedOnlyWhenGranted(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := New()
	s := m.Store(st)
	award := &progress.Award{Key: "quiz:l", Amount: 25, Reason: "quiz"}
	for range 3 { // the same award three times: granted once
		if _, err := s.RecordAttempt(context.Background(), progress.Attempt{LearnerID: "a", LessonSlug: "l", WidgetID: "q", Kind: "quiz",
			Answers: "{}", At: time.Now()}, progress.AttemptEffects{Award: award}); err != nil {
			t.Fatal(err)
		}
	}
	text := scrape(t, m)
	for _, want := range []string{`learn_awards_total{kind="quiz"} 1`, `learn_awarded_xp_total{kind="quiz"} 25`} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s:\n%s", want, grep(text, "learn_award"))
		}
	}
}

// TestStoreKeepsRateLimiter checks that the wrapped store's rate limiter is
// the database's own: a try taken through the wrapper is spent for the
// store too.
func TestStoreKeepsRateLimiter(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var l progress.RateLimiter = New().Store(st)
	rule, now := progress.PerMinute("metrics-test", 1, 1), time.Now()
	if wait, err := l.TakeRate(ctx, rule, "k", now); err != nil || wait != 0 {
		t.Fatalf("first take through the wrapper: wait %v, %v", wait, err)
	}
	if wait, err := st.TakeRate(ctx, rule, "k", now); err != nil || wait <= 0 {
		t.Errorf("the store itself did not see the wrapper's take: wait %v, %v", wait, err)
	}
}

func TestRequestAndGradingLabels(t *testing.T) {
	m := New()
	m.ObserveRequest("", "GET", 404, time.Millisecond)
	m.ObserveRequest("POST /review", "POST", 0, time.Millisecond)
	m.NotServed("busy")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{context.Background(), nil, "graded"},
		{context.Background(), &sandbox.BusyError{RetryAfter: time.Second}, "busy"},
		{context.Background(), fmt.Errorf("x: %w", sandbox.ErrCodeTooLarge), "too_large"},
		{canceled, context.Canceled, "canceled"},
		{context.Background(), errors.New("worker died"), "error"},
	} {
		if got := outcome(tt.ctx, tt.err); got != tt.want {
			t.Errorf("outcome(%v) = %q, want %q", tt.err, got, tt.want)
		}
		m.start("grade")(tt.ctx, graded{cases: []sandbox.CaseResult{{Verdict: sandbox.VerdictPassed}}, ran: time.Nanosecond}, tt.err)
	}
	text := scrape(t, m)
	for _, want := range []string{
		`learn_http_requests_total{method="GET",route="unrouted",status="404"} 1`,
		`learn_http_requests_total{method="POST",route="POST /review",status="none"} 1`,
		`learn_http_not_served_total{reason="busy"} 1`,
		`learn_grading_duration_seconds_count{call="grade",outcome="busy"} 1`,
		`learn_grading_verdicts_total{verdict="passed"} 1`, // only the graded call's cases
		`learn_grading_in_flight 0`,
		`learn_grading_queue_wait_seconds_count{call="grade"} 1`, // only the graded call waited and ran
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func grep(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
