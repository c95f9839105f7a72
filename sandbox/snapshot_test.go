package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
	if err := s.WaitSnapshot(ctx); err != nil {
		t.Fatalf("the snapshot start is not on: %v", err)
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

// snapshotSandbox is a sandbox with the snapshot start, in worker
// processes as a server runs it, warmed.
func snapshotSandbox(t *testing.T, inProcess bool) *Sandbox {
	t.Helper()
	cfg := testConfig(t)
	cfg.SnapshotWasm = snapshotWasm(t)
	cfg.InProcess = inProcess
	cfg.PoolSize, cfg.MCPPoolSize = 1, 1
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := s.Warm(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitSnapshot(ctx); err != nil {
		t.Fatalf("the snapshot start is not on: %v", err)
	}
	return s
}

// isolationProbe reports what an earlier run may have left, then leaves
// some of everything: a global of builtins, a module, a changed standard
// module, a file in the interpreter's own file system, the random state.
const isolationProbe = `import builtins, json, os, random, sys, time
seen = []
if hasattr(builtins, "left_mark"):
    seen.append("builtins")
if "left_module" in sys.modules:
    seen.append("module")
if hasattr(json, "left_mark"):
    seen.append("json")
if "/left/path" in sys.path:
    seen.append("sys.path")
mark = os.path.join(os.path.dirname(os.__file__), "left.txt")
try:
    with open(mark) as f:
        seen.append("file " + f.read())
except OSError:
    pass
print("seen", ",".join(seen) or "-")
print("random", random.random(), random.getrandbits(64))
print("urandom", os.urandom(16).hex())
print("clock", time.time(), time.monotonic())
builtins.left_mark = 1
sys.modules["left_module"] = type(sys)("left_module")
json.left_mark = 1
sys.path.append("/left/path")
random.seed(42)
try:
    with open(mark, "w") as f:
        f.write("x")
except OSError:
    pass
`

// TestSnapshotIsolation runs the probe several times from the same image:
// nothing one run changed reaches the next, each draws its own random
// numbers, and the clocks are the host's now, not the image's.
func TestSnapshotIsolation(t *testing.T) {
	for _, inProcess := range []bool{false, true} {
		t.Run(map[bool]string{false: "workers", true: "inprocess"}[inProcess], func(t *testing.T) {
			s := snapshotSandbox(t, inProcess)
			seenRandom := map[string]bool{}
			var lastMono float64
			for i := range 4 {
				before := float64(time.Now().UnixNano()) / 1e9
				res, err := s.Run(context.Background(), isolationProbe, "")
				if err != nil {
					t.Fatal(err)
				}
				if res.ExitCode != 0 {
					t.Fatalf("run %d: exit %d: %s", i, res.ExitCode, res.Stderr)
				}
				lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
				if len(lines) != 4 || lines[0] != "seen -" {
					t.Fatalf("run %d saw what an earlier run left: %q", i, res.Stdout)
				}
				for _, l := range lines[1:3] {
					if seenRandom[l] {
						t.Errorf("run %d drew the same numbers as an earlier run: %s", i, l)
					}
					seenRandom[l] = true
				}
				var wall, mono float64
				if _, err := fmt.Sscanf(lines[3], "clock %g %g", &wall, &mono); err != nil {
					t.Fatalf("%q: %v", lines[3], err)
				}
				if after := float64(time.Now().UnixNano()) / 1e9; wall < before-1 || wall > after+1 {
					t.Errorf("run %d: time.time() %f is not now (%f..%f)", i, wall, before, after)
				}
				if mono <= lastMono {
					t.Errorf("run %d: time.monotonic() %f went back from %f", i, mono, lastMono)
				}
				lastMono = mono
			}
		})
	}
}

// TestSnapshotMCPIsolation: changes to the teaching module and to the
// asyncio loop in one MCP run never reach the next.
func TestSnapshotMCPIsolation(t *testing.T) {
	s := snapshotSandbox(t, false)
	probe := `import asyncio, mcp, mcp.server
print("seen", getattr(mcp, "left_mark", "-"), getattr(mcp.server.MCPServer, "left_mark", "-"), getattr(asyncio, "left_mark", "-"))
mcp.left_mark = "module"
mcp.server.MCPServer.left_mark = "class"
asyncio.left_mark = "asyncio"
` + lookupOrderSolution
	for i := range 3 {
		rep, err := s.GradeMCP(context.Background(), probe, lookupOrderCalls, MCPOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(rep.Script.Stdout, "seen - - -\n") {
			t.Fatalf("run %d saw what an earlier run left: %q (stderr %q)", i, rep.Script.Stdout, rep.Script.Stderr)
		}
		if !rep.Passed {
			t.Fatalf("run %d: the solution failed: %+v", i, rep.Cases)
		}
	}
}

// TestSnapshotImageHoldsNoSecret images an interpreter, runs a submission
// from it whose hidden case prints its input, and searches the image for
// the submission's nonce and hidden input: neither may be there, and the
// image must be byte for byte what it was (the run wrote to its private
// copy only).
func TestSnapshotImageHoldsNoSecret(t *testing.T) {
	cfg := testConfig(t)
	ecfg := engineConfig{
		WasmPath:           cfg.WasmPath,
		CacheDir:           cfg.CacheDir,
		MemoryLimitPages:   uint32(cfg.MemoryLimitBytes / wasmPageSize),
		CloseOnContextDone: true,
		SnapshotWasm:       snapshotWasm(t),
	}
	ctx := context.Background()
	e, err := openEngine(ctx, ecfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close(ctx)
	if e.snap == nil {
		t.Fatalf("no snapshot start: %v", e.snapErr)
	}
	for _, im := range e.snap.images {
		var hdr [4]byte
		if _, err := im.mem.f.ReadAt(hdr[:], int64(im.data)); err != nil {
			t.Fatal(err)
		}
		used := int(uint32(hdr[0])|uint32(hdr[1])<<8|uint32(hdr[2])<<16|uint32(hdr[3])<<24) - int(im.data) - 8
		t.Logf("%s image: %d pages (%.1f MiB), stack pointer %d, unwound stack %d bytes", kindName(im.kind), im.pages, float64(im.mem.size)/(1<<20), im.sp, used)
	}
	img := e.snap.images[kindPlain]
	read := func() []byte {
		b := make([]byte, img.mem.size)
		if _, err := img.mem.f.ReadAt(b, 0); err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := read()
	nonce := newNonce()
	hidden := "hidden-" + newNonce()
	first, later := buildStdin(nonce, 1<<16, "print(input()[::-1])\n", []string{"visible", hidden})
	out, settled := e.exec(execRequest{Stdin: first, Later: later, Nonce: nonce, Cases: 2, Timeout: 30 * time.Second, StdoutCap: 1 << 20, StderrCap: 1 << 16, Kind: kindPlain},
		nil, func(p []byte) {})
	if settled != nil {
		<-settled
	}
	if out.ExitCode != 0 || out.Crash != "" {
		t.Fatalf("run: %+v", out)
	}
	after := read()
	if !bytes.Equal(before, after) {
		t.Fatal("the run changed the image")
	}
	for _, secret := range []string{nonce, hidden, reverse(hidden)} {
		if bytes.Contains(after, []byte(secret)) {
			t.Errorf("the image holds %q", secret)
		}
	}
	if bytes.Contains(after, []byte("print(input()[::-1])")) {
		t.Error("the image holds the submission's code")
	}
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// TestSnapshotFallback: an instrumented module that is missing, or is not
// instrumented, leaves the sandbox grading as without it, with the reason
// logged once.
func TestSnapshotFallback(t *testing.T) {
	plain := testConfig(t).WasmPath
	for _, c := range []struct {
		name, wasm, why string
		inProcess       bool
	}{
		{"missing, workers", filepath.Join(t.TempDir(), "none.wasm"), "no such file", false},
		{"not instrumented, in process", plain, "does not export asyncify_start_unwind", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var logs syncBuffer
			cfg := testConfig(t)
			cfg.SnapshotWasm = c.wasm
			cfg.InProcess = c.inProcess
			cfg.PoolSize, cfg.MCPPoolSize = 1, 0
			cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close(context.Background())
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := s.Warm(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if err := s.WaitSnapshot(ctx); err == nil || !strings.Contains(err.Error(), c.why) {
				t.Errorf("WaitSnapshot = %v, want why the snapshot start is off, with %q", err, c.why)
			}
			for range 2 {
				rep, err := s.Grade(ctx, reportAFailureSolution, reportAFailureCases, CompareTrimmedLines)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rep.Cases {
					if r.Verdict != VerdictPassed {
						t.Fatalf("%s: %s %s", r.Name, r.Verdict, r.Message)
					}
				}
			}
			out := logs.String()
			if n := strings.Count(out, "the snapshot start is off"); n != 1 || !strings.Contains(out, c.why) {
				t.Errorf("the log says %d times that the snapshot start is off, want once, with %q:\n%s", n, c.why, out)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for a logger used from several
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSnapshotUpgradeReplacesThePool checks that the upgrade from the
// fresh start to the snapshot start leaves no fresh instance parked: they
// hold the plain module's code and their own memory, so the upgrade
// discards them, the pool fills again from images, the plain module is
// closed, and grading goes on.
func TestSnapshotUpgradeReplacesThePool(t *testing.T) {
	cfg := testConfig(t)
	cfg.SnapshotWasm = snapshotWasm(t)
	cfg.InProcess = true
	cfg.PoolSize, cfg.MCPPoolSize = 2, 1
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := s.Warm(ctx, nil); err != nil {
		t.Fatal(err)
	}
	e := s.exec.(*inProcess).e
	// The sandbox upgrades once warm: the pool was filled fresh first.
	if err := s.WaitSnapshot(ctx); err != nil {
		t.Fatalf("the snapshot start is not on: %v", err)
	}
	for {
		e.mu.Lock()
		parked := slices.Concat(e.parked[kindPlain], e.parked[kindMCP])
		compiled := e.compiled
		e.mu.Unlock()
		if len(parked) == cfg.PoolSize+cfg.MCPPoolSize {
			for _, inst := range parked {
				if !inst.restored {
					t.Errorf("a %s instance started fresh is still parked after the upgrade", kindName(inst.kind))
				}
			}
			if compiled != nil {
				t.Error("the plain module is still open after the upgrade")
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the pool did not fill again after the upgrade: %d parked", len(parked))
		}
		time.Sleep(20 * time.Millisecond)
	}
	rep, err := s.Grade(ctx, reportAFailureSolution, reportAFailureCases, CompareTrimmedLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Cases {
		if r.Verdict != VerdictPassed {
			t.Fatalf("%s: %s %s", r.Name, r.Verdict, r.Message)
		}
	}
}
