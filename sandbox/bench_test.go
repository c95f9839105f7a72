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
