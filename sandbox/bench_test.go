package sandbox

import (
	"context"
	"testing"
	"time"
)

// benchEngine opens an engine as a worker does: no CloseOnContextDone, no
// pool.
func benchEngine(b *testing.B, closeOnDone bool) *engine {
	b.Helper()
	cfg := testConfig(b)
	e, err := openEngine(context.Background(), engineConfig{
		WasmPath:           cfg.WasmPath,
		CacheDir:           cfg.CacheDir,
		MemoryLimitPages:   uint32(cfg.MemoryLimitBytes / wasmPageSize),
		CloseOnContextDone: closeOnDone,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.close(context.Background()) })
	return e
}

// BenchmarkGradeCold is one whole grading of report-a-failure on a fresh
// interpreter: start, harness warm-up, nine cases, exit. Its CPU time is
// what bounds throughput.
func BenchmarkGradeCold(b *testing.B) {
	for _, v := range []struct {
		name  string
		close bool
	}{{"worker", false}, {"closeOnContextDone", true}} {
		b.Run(v.name, func(b *testing.B) {
			e := benchEngine(b, v.close)
			stdins := make([]string, len(reportAFailureCases))
			for i, c := range reportAFailureCases {
				stdins[i] = c.Stdin
			}
			nonce := newNonce()
			req := execRequest{Stdin: buildStdin(nonce, DefaultMaxOutputBytes, reportAFailureSolution, stdins), Timeout: 10 * time.Second, StdoutCap: 1 << 20, StderrCap: 1 << 10}
			b.ResetTimer()
			for b.Loop() {
				var out []byte
				end, settled := e.exec(req, nil, func(p []byte) { out = append(out, p...) })
				if settled != nil {
					<-settled
				}
				tr := parseFrames(out, nonce, len(stdins))
				rep := judge(reportAFailureCases, tr, end, CompareTrimmedLines, DefaultConfig().limits())
				if !rep.Passed {
					b.Fatalf("not passed: %v", verdicts(rep))
				}
			}
		})
	}
}

// BenchmarkSandboxGrade grades report-a-failure through the public API,
// from as many goroutines as GOMAXPROCS, with the default warm pool: its
// ns/op is the inverse of sustained throughput.
func BenchmarkSandboxGrade(b *testing.B) {
	for _, variant := range variants {
		b.Run(variant, func(b *testing.B) {
			s := sharedSandbox(b, variant)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					rep, err := s.Grade(context.Background(), reportAFailureSolution, reportAFailureCases, CompareTrimmedLines)
					if err != nil || !rep.Passed {
						b.Errorf("%v %v", verdicts(rep), err)
						return
					}
				}
			})
		})
	}
}
