package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"learn/lessons"
)

func TestMetricsListener(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	ex, _, ok := course.Exercise("report-a-failure")
	if !ok {
		t.Fatal("the course has no report-a-failure exercise")
	}
	metricsAddr := freeAddr(t)
	cfg := serveConfig{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "learn.db"), sandbox: testSandboxConfig(t),
		runsPerMinute: 600, metricsAddr: metricsAddr}
	ctx, cancel := context.WithCancel(context.Background())
	listening, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), listening) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	base := "http://" + <-listening
	c := newClient(t)
	c.Timeout = time.Minute
	get(t, c, base+"/")
	body, _ := json.Marshal(map[string]string{"code": ex.Solution})
	resp, err := c.Post(base+"/api/exercises/report-a-failure/submit", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("submit = %d", resp.StatusCode)
	}
	if resp, _ := get(t, c, base+"/metrics"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the app's own listener serves /metrics: %d", resp.StatusCode)
	}
	resp, text := get(t, http.DefaultClient, "http://"+metricsAddr+"/metrics")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`learn_http_requests_total{method="GET",route="GET /{$}",status="200"} 1`,
		`learn_http_requests_total{method="POST",route="POST /api/exercises/{id}/submit",status="200"} 1`,
		`learn_http_requests_total{method="GET",route="unrouted",status="404"} 1`,
		`learn_http_request_duration_seconds_bucket{route="GET /{$}",le="+Inf"} 1`,
		`learn_grading_duration_seconds_count{call="grade",outcome="graded"} 1`,
		`learn_grading_verdicts_total{verdict="passed"} ` + itoaMetric(len(ex.Samples)+len(ex.Hidden)),
		`learn_awards_total{kind="exercise"} 1`,
		`learn_awarded_xp_total{kind="exercise"} ` + itoaMetric(ex.XPValue()),
		`learn_grading_in_flight 0`,
		`learn_grading_queue_wait_seconds_count{call="grade"} 1`,
		`learn_sandbox_events_total{event="runs"}`,
		`learn_sandbox_in_flight 0`,
		`learn_sandbox_configured{size="slots"}`,
		`process_resident_memory_bytes`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func itoaMetric(n int) string { b, _ := json.Marshal(n); return string(b) }
