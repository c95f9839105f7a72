package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// niceOf returns the nice value of every thread of process pid.
func niceOf(t *testing.T, pid int) map[int]int {
	t.Helper()
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]int{}
	for _, task := range tasks {
		stat, err := os.ReadFile(filepath.Join(dir, task.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command's closing parenthesis: state is the
		// first (field 3), nice is field 19.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		nice, err := strconv.Atoi(fields[16])
		if err != nil {
			t.Fatalf("parse %s: %v", stat, err)
		}
		tid, _ := strconv.Atoi(task.Name())
		out[tid] = nice
	}
	return out
}

// TestWorkersRunBelowTheServer: every thread of every worker runs at the
// server's nice value plus WorkerNice, and the server's own threads keep
// theirs.
func TestWorkersRunBelowTheServer(t *testing.T) {
	for _, nice := range []int{0, 7} {
		t.Run(strconv.Itoa(nice), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.WorkerNice = nice
			cfg.PoolSize, cfg.MCPPoolSize = 1, 0
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			if err := s.Warm(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			// A run makes the worker start threads after the first ones.
			if _, err := s.Run(context.Background(), "print(sum(range(10**5)))", ""); err != nil {
				t.Fatal(err)
			}
			own := niceOf(t, os.Getpid())
			base := own[os.Getpid()]
			for _, w := range s.exec.(*procPool).workers {
				w.mu.Lock()
				pid := w.cmd.Process.Pid
				w.mu.Unlock()
				threads := niceOf(t, pid)
				if len(threads) < 2 {
					t.Fatalf("worker %d has %d threads, want a Go program's several", w.id, len(threads))
				}
				for tid, n := range threads {
					if want := min(base+nice, 19); n != want {
						t.Errorf("worker %d thread %d runs at nice %d, want %d", w.id, tid, n, want)
					}
				}
			}
			if got := niceOf(t, os.Getpid())[os.Getpid()]; got != base {
				t.Errorf("the server's nice went from %d to %d", base, got)
			}
		})
	}
}
