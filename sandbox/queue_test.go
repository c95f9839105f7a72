package sandbox

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEstimateRetryAfter(t *testing.T) {
	tests := []struct {
		name     string
		avgRun   time.Duration
		inflight int
		slots    int
		want     time.Duration
	}{
		{"nothing measured yet", 0, 10, 2, time.Second},
		{"idle", 40 * time.Millisecond, 0, 2, time.Second},
		{"full queue of fast runs", 100 * time.Millisecond, 130, 2, 7 * time.Second},
		{"one slot, two ahead", 900 * time.Millisecond, 2, 1, 3 * time.Second},
		{"rounds up", 1100 * time.Millisecond, 1, 2, 2 * time.Second},
		{"no slots is taken as one", time.Second, 1, 0, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := estimateRetryAfter(tt.avgRun, tt.inflight, tt.slots); got != tt.want {
				t.Errorf("estimateRetryAfter(%v, %d, %d) = %v, want %v", tt.avgRun, tt.inflight, tt.slots, got, tt.want)
			}
		})
	}
}

// oneSlot is a sandbox that runs one submission at a time, in process.
func oneSlot(t *testing.T, queue int, wait time.Duration, opts ...func(*Config)) *Sandbox {
	t.Helper()
	cfg := testConfig(t)
	for _, o := range opts {
		o(&cfg)
	}
	cfg.InProcess = true
	cfg.MaxConcurrent = 1
	cfg.QueueSize = queue
	cfg.MaxQueueWait = wait
	cfg.PoolSize, cfg.MCPPoolSize = 0, 0
	cfg.Timeout = 2 * time.Second
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	if err := s.Warm(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// occupy runs a program that spins to its deadline and waits until it
// holds the only slot.
func occupy(t *testing.T, s *Sandbox, wg *sync.WaitGroup) {
	t.Helper()
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = s.Run(context.Background(), "while True:\n    pass\n", "")
	}()
	for len(s.admit) < 1 {
		time.Sleep(time.Millisecond)
	}
}

func TestQueueWaitEndsWithBusy(t *testing.T) {
	s := oneSlot(t, 4, 300*time.Millisecond)
	var wg sync.WaitGroup
	occupy(t, s, &wg)
	_, err := s.Run(context.Background(), "print(1)\n", "")
	var busy *BusyError
	if !errors.As(err, &busy) || busy.RetryAfter < time.Second {
		t.Fatalf("err = %v, want a *BusyError with a Retry-After once the queue wait is over", err)
	}
	if st := s.Stats(); st.Busy != 1 {
		t.Errorf("Stats().Busy = %d, want 1", st.Busy)
	}
	wg.Wait()
}

func TestCancelledWhileQueuedNeverRuns(t *testing.T) {
	s := oneSlot(t, 4, time.Minute)
	var wg sync.WaitGroup
	occupy(t, s, &wg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Run(ctx, "print(1)\n", "")
		done <- err
	}()
	for len(s.admit) < 2 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	wg.Wait()
	st := s.Stats()
	if st.Abandoned != 1 || st.Runs != 1 {
		t.Errorf("Stats() = %+v, want 1 abandoned and only the spinning run run", st)
	}
	if st.InFlight != 0 {
		t.Errorf("InFlight = %d after everything ended", st.InFlight)
	}
}

// TestRunTimeExcludesQueueWait queues runs behind one another: the
// average Retry-After is estimated from is the run time, not the time a
// submission spent waiting as well.
func TestRunTimeExcludesQueueWait(t *testing.T) {
	s := oneSlot(t, 8, time.Minute)
	const n = 4
	var wg sync.WaitGroup
	lat := make([]time.Duration, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			res, err := s.Run(context.Background(), "import time\ntime.sleep(0.3)\n", "")
			lat[i] = time.Since(t0)
			if err != nil || res.ExitCode != 0 {
				t.Errorf("Run = %+v, %v", res, err)
			}
		}()
	}
	wg.Wait()
	longest := max(lat[0], lat[1], lat[2], lat[3])
	avg := s.Stats().AvgRun
	if avg < 300*time.Millisecond || 2*avg >= longest {
		t.Errorf("average run %v; the longest latency was %v (queue wait included): want the average near one run", avg, longest)
	}
}

// loud collects log records at WARN and above.
type loud struct {
	mu   sync.Mutex
	msgs []string
}

func (l *loud) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelWarn }
func (l *loud) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, r.Level.String()+" "+r.Message)
	return nil
}
func (l *loud) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *loud) WithGroup(string) slog.Handler      { return l }

// TestLearnerFailuresAreNotServerErrors: a program that aborts the
// interpreter and a submission turned away as busy are counted, and
// nothing is logged at WARN or above, in both ways of running.
func TestLearnerFailuresAreNotServerErrors(t *testing.T) {
	for _, inProcess := range []bool{true, false} {
		t.Run(map[bool]string{true: "inprocess", false: "workers"}[inProcess], func(t *testing.T) {
			h := &loud{}
			s := oneSlot(t, 0, time.Minute, func(c *Config) {
				c.Logger = slog.New(h)
				c.InProcess = inProcess
			})
			res, err := s.Run(context.Background(), "import os\nprint('bye')\nos.abort()\n", "")
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode == 0 || res.Message == "" {
				t.Errorf("abort: %+v, want a failed run with a message", res)
			}
			var wg sync.WaitGroup
			occupy(t, s, &wg)
			if _, err := s.Run(context.Background(), "print(1)\n", ""); !errors.Is(err, ErrBusy) {
				t.Errorf("err = %v, want ErrBusy with no queue", err)
			}
			wg.Wait()
			st := s.Stats()
			if st.Crashes != 1 || st.Busy != 1 || st.Timeouts != 1 {
				t.Errorf("Stats() = %+v, want 1 crash, 1 busy, 1 timeout", st)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.msgs) > 0 {
				t.Errorf("logged at WARN or above:\n%s", strings.Join(h.msgs, "\n"))
			}
		})
	}
}
