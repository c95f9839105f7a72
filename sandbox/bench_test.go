package sandbox

import (
	"context"
	"testing"
	"time"
)

// benchEngine opens an engine as a worker does: no CloseOnContextDone, no
// pool; with snapshot, it starts interpreters from images.
func benchEngine(b *testing.B, closeOnDone, snapshot bool) *engine {
	b.Helper()
	cfg := testConfig(b)
	ecfg := engineConfig{
		WasmPath:           cfg.WasmPath,
		CacheDir:           cfg.CacheDir,
		MemoryLimitPages:   uint32(cfg.MemoryLimitBytes / wasmPageSize),
		CloseOnContextDone: closeOnDone,
	}
	if snapshot {
		ecfg.SnapshotWasm = snapshotWasm(b)
	}
	e, err := openEngine(context.Background(), ecfg)
	if err != nil {
		b.Fatal(err)
	}
	if snapshot && e.snap == nil {
		b.Fatalf("no snapshot start: %v", e.snapErr)
	}
	b.Cleanup(func() { _ = e.close(context.Background()) })
	return e
}

// BenchmarkGradeCold is one whole grading of report-a-failure on a fresh
// interpreter: start (fresh, or from the snapshot image), harness
// warm-up, nine cases, exit. Its CPU time (cpu-ms/op, this process's) is
// what bounds throughput.
func BenchmarkGradeCold(b *testing.B) {
	for _, v := range []struct {
		name            string
		close, snapshot bool
	}{{"worker", false, false}, {"closeOnContextDone", true, false}, {"snapshot", false, true}, {"snapshot-closeOnContextDone", true, true}} {
		b.Run(v.name, func(b *testing.B) {
			e := benchEngine(b, v.close, v.snapshot)
			stdins := make([]string, len(reportAFailureCases))
			for i, c := range reportAFailureCases {
				stdins[i] = c.Stdin
			}
			nonce := newNonce()
			first, later := buildStdin(nonce, DefaultMaxOutputBytes, reportAFailureSolution, stdins)
			req := execRequest{Stdin: first, Later: later, Nonce: nonce, Cases: len(stdins), Timeout: 10 * time.Second, StdoutCap: 1 << 20, StderrCap: 1 << 10}
			cpu := selfCPU()
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
			b.ReportMetric(float64((selfCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
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

// BenchmarkWriteFlood runs a guest that calls os.write(1, b'x') 300,000
// times (300 KB, under the raw-output cap), in worker mode, and reports the
// CPU time this process (the supervisor, where the server lives; workers
// are children and not counted) spent per run and per second of the run:
// the cost of carrying a guest's writes.
func BenchmarkWriteFlood(b *testing.B) {
	cfg := testConfig(b)
	cfg.Timeout = 20 * time.Second
	cfg.PoolSize, cfg.MCPPoolSize = 1, 0
	cfg.MaxConcurrent = 1
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close(context.Background()) })
	if err := s.Warm(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	code := "import os\nfor _ in range(300000):\n    os.write(1, b'x')\n"
	var cpu, wall time.Duration
	for b.Loop() {
		before, t0 := selfCPU(), time.Now()
		res, err := s.Run(context.Background(), code, "")
		cpu += selfCPU() - before
		wall += time.Since(t0)
		if err != nil || res.ExitCode != 0 || len(res.Stdout) < 60000 {
			b.Fatalf("Run = exit %d, limit %q, %d bytes, %v", res.ExitCode, res.Limit, len(res.Stdout), err)
		}
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "host-cpu-s/run")
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "host-cpu-s/run-s")
}
