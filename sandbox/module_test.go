package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLocateModule(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ModuleFile)
	if err := os.WriteFile(file, []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nowhere", ModuleFile)
	tests := []struct {
		name       string
		find       func() (moduleRef, error)
		want       string   // the path found, "" for an error
		wantReason []string // parts of the reason of the error
	}{
		{"path given", func() (moduleRef, error) { return locateModule(file) }, file, nil},
		{"path given is missing", func() (moduleRef, error) { return locateModule(missing) },
			"", []string{"python.wasm not found at " + missing, "make setup", "make build", "--python-wasm"}},
		{"path given is a folder", func() (moduleRef, error) { return locateModule(dir) },
			"", []string{dir + " is not a file", "make setup"}},
		{"first candidate that exists", func() (moduleRef, error) { return findModule([]string{missing, dir, file}) }, file, nil},
		{"no candidate exists", func() (moduleRef, error) { return findModule([]string{missing, dir}) },
			"", []string{"python.wasm not found", "looked at " + missing + ", " + dir, "make setup"}},
		{"the repository's module, from any working directory", func() (moduleRef, error) {
			t.Chdir(t.TempDir())
			return locateModule("")
		}, testConfig(t).WasmPath, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.find()
			if tt.want != "" {
				if err != nil || got.Path != tt.want || got.BuiltIn {
					t.Fatalf("got %+v, %v; want %s", got, err, tt.want)
				}
				return
			}
			var u *UnavailableError
			if !errors.Is(err, ErrUnavailable) || !errors.As(err, &u) {
				t.Fatalf("got %+v, %v; want an *UnavailableError", got, err)
			}
			for _, part := range tt.wantReason {
				if !strings.Contains(u.Reason, part) {
					t.Errorf("reason %q does not say %q", u.Reason, part)
				}
			}
		})
	}
}

// TestLocateSnapshot checks how Config.SnapshotWasm finds the
// instrumented interpreter: off, a file given, and found beside the
// interpreter or in the repository only when its key file says it was
// built from that interpreter.
func TestLocateSnapshot(t *testing.T) {
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plainBytes := "\x00asm plain"
	sum := sha256.Sum256([]byte(plainBytes))
	key := hex.EncodeToString(sum[:]) + " binaryen 108-1 --asyncify"
	// A folder with the interpreter and, beside it, an instrumented module
	// with the right key; one with a stale key; one with no key.
	good, stale, nokey := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{good, stale, nokey} {
		write(filepath.Join(d, ModuleFile), plainBytes)
		write(filepath.Join(d, SnapshotModuleFile), "\x00asm instrumented")
	}
	write(filepath.Join(good, SnapshotModuleFile+".key"), key)
	write(filepath.Join(stale, SnapshotModuleFile+".key"), strings.Repeat("0", 64)+" binaryen 108-1")
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, plain string
		want              string   // the path found, "" for an error
		wantErr           []string // parts of the error
	}{
		{"off", NoSnapshot, filepath.Join(good, ModuleFile), "", []string{"off"}},
		{"a file given is used as it is", filepath.Join(stale, SnapshotModuleFile), filepath.Join(good, ModuleFile), filepath.Join(stale, SnapshotModuleFile), nil},
		{"found beside the interpreter", "", filepath.Join(good, ModuleFile), filepath.Join(good, SnapshotModuleFile), nil},
		{"built from another interpreter", "", filepath.Join(stale, ModuleFile), "", []string{"built from another python.wasm", "make snapshot"}},
		{"no key file", "", filepath.Join(nokey, ModuleFile), "", []string{"no key file", "make snapshot"}},
		{"the repository's, for its interpreter, from any working directory", "", filepath.Join(root, DefaultWasmPath), filepath.Join(root, DefaultSnapshotWasmPath), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == filepath.Join(root, DefaultSnapshotWasmPath) {
				if _, err := os.Stat(tt.want); err != nil {
					t.Skipf("make snapshot has not run: %v", err)
				}
				t.Chdir(t.TempDir())
			}
			got, err := locateSnapshot(tt.path, moduleRef{Path: tt.plain})
			if tt.want != "" {
				if err != nil || got.Path != tt.want || got.BuiltIn {
					t.Fatalf("got %+v, %v; want %s", got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %+v, want an error", got)
			}
			for _, part := range tt.wantErr {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not say %q", err, part)
				}
			}
		})
	}
}

// TestUnavailable checks that a missing or broken interpreter is reported
// with its fix by Warm and ReadyErr, and that every kind of run returns
// ErrUnavailable at once instead of waiting.
func TestUnavailable(t *testing.T) {
	dir := t.TempDir()
	notWasm := filepath.Join(dir, "python.wasm")
	if err := os.WriteFile(notWasm, []byte("print('not a module')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		path      string
		inProcess bool
		// knownAtNew: a missing file is known before Warm.
		knownAtNew bool
		reason     []string
	}{
		{"missing file, workers", filepath.Join(dir, "missing.wasm"), false, true, []string{"not found at", "make setup"}},
		{"missing file, in process", filepath.Join(dir, "missing.wasm"), true, true, []string{"not found at", "make setup"}},
		{"not a module, workers", notWasm, false, false, []string{"cannot load the interpreter from " + notWasm, "make setup"}},
		{"not a module, in process", notWasm, true, false, []string{"cannot load the interpreter from " + notWasm, "make setup"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.WasmPath = tt.path
			cfg.InProcess = tt.inProcess
			cfg.MaxConcurrent = 1
			s, err := New(cfg)
			if err != nil {
				t.Fatalf("New: %v; a missing interpreter must not stop New", err)
			}
			defer s.Close(context.Background())
			before := s.ReadyErr()
			if tt.knownAtNew != errors.Is(before, ErrUnavailable) || !tt.knownAtNew && !errors.Is(before, ErrWarmingUp) {
				t.Errorf("ReadyErr before Warm = %v", before)
			}
			warmErr := s.Warm(context.Background(), nil)
			var u *UnavailableError
			if !errors.As(warmErr, &u) {
				t.Fatalf("Warm = %v, want an *UnavailableError", warmErr)
			}
			for _, part := range tt.reason {
				if !strings.Contains(u.Reason, part) {
					t.Errorf("reason %q does not say %q", u.Reason, part)
				}
			}
			if got := s.ReadyErr(); got == nil || got.Error() != warmErr.Error() {
				t.Errorf("ReadyErr after Warm = %v, want %v", got, warmErr)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			runs := map[string]func() error{
				"Run": func() error { _, err := s.Run(ctx, "print(1)\n", ""); return err },
				"Grade": func() error {
					_, err := s.Grade(ctx, "print(1)\n", []Case{{Name: "one", Expected: "1"}}, CompareTrimmedLines)
					return err
				},
				"GradeMCP": func() error { _, err := s.GradeMCP(ctx, "print(1)\n", nil, MCPOptions{}); return err },
			}
			for name, run := range runs {
				if err := run(); !errors.Is(err, ErrUnavailable) || err.Error() != warmErr.Error() {
					t.Errorf("%s = %v, want %v", name, err, warmErr)
				}
			}
			if ctx.Err() != nil {
				t.Error("the runs waited for their deadline instead of failing at once")
			}
		})
	}
}

// TestInterpreterNeverStarts checks that a file that compiles but whose
// interpreters never start (a WebAssembly module that is not CPython) is
// reported like a missing one, with its file and how its last start
// ended, instead of leaving the sandbox warming up for ever.
func TestInterpreterNeverStarts(t *testing.T) {
	tests := []struct {
		name   string
		module fakeModule
		reason []string
	}{
		// It prints, so the harness seems precompiled; then every start
		// of the pool fails.
		{"prints, then exits", fakeModule{stdout: "no harness here\n", stderr: "a tool that is not CPython\nusage: fake [options]\n", exit: 1},
			[]string{"3 starts failed in a row", "exited with code 1 before it read a submission", `its stderr ends "a tool that is not CPython / usage: fake [options]"`}},
		{"prints, then returns", fakeModule{stdout: "no harness here\n", exit: -1},
			[]string{"3 starts failed in a row", "its _start returned before it read a submission, and wrote nothing to stderr"}},
		// It fails at its first start, the one that precompiles the harness.
		{"exits at once", fakeModule{exit: 1},
			[]string{"exited with code 1 without printing the precompiled harness, and wrote nothing to stderr"}},
		{"traps", fakeModule{stderr: "about to trap\n", trap: true},
			[]string{"crashed without printing the precompiled harness", "unreachable", `its stderr ends "about to trap"`}},
	}
	for _, tt := range tests {
		for _, inProcess := range []bool{false, true} {
			name := tt.name + ", workers"
			if inProcess {
				name = tt.name + ", in process"
			}
			t.Run(name, func(t *testing.T) {
				wasm := filepath.Join(t.TempDir(), ModuleFile)
				if err := os.WriteFile(wasm, tt.module.bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				cfg := testConfig(t)
				cfg.WasmPath = wasm
				cfg.CacheDir = t.TempDir()
				cfg.InProcess = inProcess
				cfg.MaxConcurrent = 2
				// This is about the plain module; the snapshot start's own
				// failures are TestSnapshotFallback's.
				cfg.SnapshotWasm = NoSnapshot
				s, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close(context.Background())
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				start := time.Now()
				warmErr := s.Warm(ctx, nil)
				var u *UnavailableError
				if !errors.As(warmErr, &u) {
					t.Fatalf("Warm = %v, want an *UnavailableError", warmErr)
				}
				t.Logf("Warm after %v: %v", time.Since(start).Round(time.Millisecond), warmErr)
				for _, part := range append([]string{"the interpreter from " + wasm + " compiles but does not start", "is it the CPython for WASI module?", "make setup"}, tt.reason...) {
					if !strings.Contains(u.Reason, part) {
						t.Errorf("reason %q does not say %q", u.Reason, part)
					}
				}
				if strings.Contains(u.Reason, "\n") {
					t.Errorf("reason %q is more than one line", u.Reason)
				}
				ready := s.ReadyErr()
				if !errors.As(ready, &u) || ready.Error() != warmErr.Error() {
					t.Errorf("ReadyErr after Warm = %v, want %v", ready, warmErr)
				}
				runCtx, cancelRuns := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancelRuns()
				runs := map[string]func() error{
					"Run": func() error { _, err := s.Run(runCtx, "print(1)\n", ""); return err },
					"Grade": func() error {
						_, err := s.Grade(runCtx, "print(1)\n", []Case{{Name: "one", Expected: "1"}}, CompareTrimmedLines)
						return err
					},
					"GradeMCP": func() error { _, err := s.GradeMCP(runCtx, "print(1)\n", nil, MCPOptions{}); return err },
				}
				for name, run := range runs {
					t0 := time.Now()
					if err := run(); !errors.Is(err, ErrUnavailable) || err.Error() != warmErr.Error() {
						t.Errorf("%s = %v, want %v", name, err, warmErr)
					}
					if d := time.Since(t0); d > 100*time.Millisecond {
						t.Errorf("%s took %v to refuse, want at once", name, d)
					}
				}
			})
		}
	}
}

// TestStderrTail checks the end of an interpreter's stderr that an error
// quotes: on one line, and the end of a long one.
func TestStderrTail(t *testing.T) {
	long := strings.Repeat("x", 1000) + "\nFatal Python error: no encodings\n"
	tests := []struct {
		name, stderr, want string
	}{
		{"nothing", "", ""},
		{"blank lines", "\n  \n", ""},
		{"lines joined", "Traceback:\n  File x\nValueError: bad\n", "Traceback: / File x / ValueError: bad"},
		{"the end of a long one", long, "…" + strings.Repeat("x", 400-len("\nFatal Python error: no encodings\n")) + " / Fatal Python error: no encodings"},
		{"a cut character", "é" + strings.Repeat("y", 399), "…" + strings.Repeat("y", 399)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stderrTail([]byte(tt.stderr)); got != tt.want {
				t.Errorf("stderrTail = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCacheFolderCannotBeCreated checks that the sandbox works without its
// cache, compiling on start, and says why once.
func TestCacheFolderCannotBeCreated(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the interpreter without a cache (about 7 s)")
	}
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cfg := testConfig(t)
	cfg.CacheDir = filepath.Join(blocker, "cache")
	cfg.InProcess = true
	cfg.MaxConcurrent = 1
	cfg.PoolSize, cfg.MCPPoolSize = 0, 0
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if err := s.ReadyErr(); !errors.Is(err, ErrWarmingUp) {
		t.Errorf("ReadyErr before Warm = %v, want ErrWarmingUp", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Warm(ctx, nil); err != nil {
		t.Fatalf("Warm without a usable cache: %v", err)
	}
	if err := s.ReadyErr(); err != nil {
		t.Errorf("ReadyErr after Warm = %v, want nil", err)
	}
	res, err := s.Run(ctx, "print(6 * 7)\n", "")
	if err != nil || res.Stdout != "42\n" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if n := strings.Count(logs.String(), "compiled-code cache cannot be used"); n != 1 {
		t.Errorf("the log says %d times that the cache cannot be used, want once:\n%s", n, logs.String())
	}
	if _, err := os.Stat(cfg.CacheDir); err == nil {
		t.Error("a cache folder appeared under a file")
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.ReadyErr(); !errors.Is(err, ErrClosed) {
		t.Errorf("ReadyErr after Close = %v, want ErrClosed", err)
	}
}
