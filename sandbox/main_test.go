package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	WorkerMain()
	code := m.Run()
	closeShared()
	os.Exit(code)
}

// repoRoot walks up from the package directory to the directory with go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the package directory")
		}
		dir = parent
	}
}

// testConfig is the default configuration with the repository's
// interpreter and a compilation cache that outlives the test run. It fails
// the test if the interpreter is missing.
func testConfig(t testing.TB) Config {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.WasmPath = filepath.Join(root, DefaultWasmPath)
	if _, err := os.Stat(cfg.WasmPath); err != nil {
		t.Fatalf("the CPython WASI module is missing (%v): run make setup in %s", err, root)
	}
	if dir := os.Getenv("LEARN_SANDBOX_CACHE"); dir != "" {
		cfg.CacheDir = dir
	}
	// The snapshot start is the default (found as a server finds it);
	// LEARN_SANDBOX_SNAPSHOT=off runs every test against the fresh start.
	if os.Getenv("LEARN_SANDBOX_SNAPSHOT") == NoSnapshot {
		cfg.SnapshotWasm = NoSnapshot
	}
	return cfg
}

var shared struct {
	sync.Mutex
	boxes map[string]*Sandbox
}

// sharedSandbox returns a warmed sandbox for the named variant, started once
// per test binary: "workers" (the default config), "inprocess", or either
// with "-long" (a 30 s deadline, for limits other than time).
func sharedSandbox(t testing.TB, variant string) *Sandbox {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if s := shared.boxes[variant]; s != nil {
		return s
	}
	cfg := testConfig(t)
	cfg.Timeout = 2 * time.Second
	cfg.QueueSize = 64
	switch variant {
	case "workers":
	case "inprocess":
		cfg.InProcess = true
	case "workers-long", "inprocess-long":
		// For limits other than time, on a machine busy enough that a
		// short deadline would come first.
		cfg.Timeout = 30 * time.Second
		cfg.InProcess = variant == "inprocess-long"
		cfg.PoolSize, cfg.MCPPoolSize = 1, 1
	default:
		t.Fatalf("unknown variant %q", variant)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Warm(ctx, func(msg string) { t.Logf("%s: %s", variant, msg) }); err != nil {
		t.Fatalf("warm %s: %v", variant, err)
	}
	waitSnapshot(t, s, ctx)
	if shared.boxes == nil {
		shared.boxes = map[string]*Sandbox{}
	}
	shared.boxes[variant] = s
	return s
}

// waitSnapshot waits until s starts every interpreter from an image, so
// that a test runs against the default start. Without the instrumented
// module (make snapshot), or with LEARN_SANDBOX_SNAPSHOT=off, it goes on
// with the fresh start, except under CI, where the set-up builds it.
func waitSnapshot(t testing.TB, s *Sandbox, ctx context.Context) {
	t.Helper()
	err := s.WaitSnapshot(ctx)
	switch {
	case err == nil:
	case errors.Is(err, errSnapshotOff):
		t.Log("the fresh start (LEARN_SANDBOX_SNAPSHOT=off)")
	case os.Getenv("CI") != "":
		t.Fatalf("the snapshot start is off: %v", err)
	default:
		t.Logf("the fresh start: %v", err)
	}
}

func closeShared() {
	shared.Lock()
	defer shared.Unlock()
	for _, s := range shared.boxes {
		_ = s.Close(context.Background())
	}
}
