package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestQueuedRunsAlwaysGetAnAnswer fills a one-slot sandbox with endless
// loops: every request gets an answer, 200 for the runs that got the slot
// and 503 with Retry-After for those that waited past --run-queue-wait, and the
// write timeout outlasts the longest wait.
func TestQueuedRunsAlwaysGetAnAnswer(t *testing.T) {
	sb := testSandboxConfig(t)
	sb.MaxConcurrent, sb.QueueSize, sb.PoolSize, sb.Timeout, sb.MaxQueueWait = 1, 16, 0, 2*time.Second, 1500*time.Millisecond
	cfg := serveConfig{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "learn.db"), sandbox: sb, runsPerMinute: 600}
	if wt := writeTimeout(sb); wt <= sb.MaxQueueWait+sb.Timeout+30*time.Second {
		t.Errorf("write timeout %v does not outlast a wait of %v, a cold start and a %v run", wt, sb.MaxQueueWait, sb.Timeout)
	}
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
	for i := 0; ; i++ {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if i > 600 {
			t.Fatal("the sandbox was not ready within a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}

	const runs = 5
	type answer struct {
		status int
		retry  string
		body   string
	}
	answers := make(chan answer, runs)
	var wg sync.WaitGroup
	for range runs {
		c := newClient(t)
		c.Timeout = time.Minute
		get(t, c, base+"/")
		wg.Go(func() {
			resp, err := c.Post(base+"/api/exercises/report-a-failure/run", "application/json", strings.NewReader(`{"code": "while True: pass"}`))
			if err != nil {
				t.Errorf("a queued run got no answer: %v", err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers <- answer{resp.StatusCode, resp.Header.Get("Retry-After"), string(b)}
		})
	}
	wg.Wait()
	close(answers)
	busy := 0
	for a := range answers {
		switch a.status {
		case http.StatusOK:
		case http.StatusServiceUnavailable:
			busy++
			if a.retry == "" || !strings.Contains(a.body, "try again") {
				t.Errorf("a 503 without Retry-After or advice: %q %s", a.retry, a.body)
			}
		default:
			t.Errorf("a queued run = %d %s, want 200 or 503", a.status, a.body)
		}
	}
	if busy == 0 {
		t.Errorf("%d endless loops on one slot with a %v wait all ran: none waited past --run-queue-wait", runs, sb.MaxQueueWait)
	}
}
