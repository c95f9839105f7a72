package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// snapshotWasm is the asyncify-instrumented interpreter for the tests:
// LEARN_SNAPSHOT_WASM, else what `make snapshot` builds. Without it the
// test is skipped, except under CI, where the set-up builds it.
func snapshotWasm(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("LEARN_SNAPSHOT_WASM"); p != "" {
		return p
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, DefaultSnapshotWasmPath)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the instrumented interpreter is missing (%v): make snapshot builds it", err)
		}
		t.Skipf("the instrumented interpreter is missing (%v): run make snapshot", err)
	}
	return p
}

func TestSnapshotGrades(t *testing.T) {
	cfg := testConfig(t)
	cfg.SnapshotWasm = snapshotWasm(t)
	cfg.InProcess = true
	cfg.PoolSize, cfg.MCPPoolSize = 0, 0
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := s.Warm(ctx, func(m string) { t.Log(m) }); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		start := time.Now()
		rep, err := s.Grade(ctx, reportAFailureSolution, reportAFailureCases, CompareTrimmedLines)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("graded in %v", time.Since(start))
		for _, c := range rep.Cases {
			if c.Verdict != VerdictPassed {
				t.Errorf("%s: %s %s", c.Name, c.Verdict, c.Message)
			}
		}
	}
}
