package main

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"learn/sandbox"
)

func TestMain(m *testing.M) {
	// The sandbox starts this test binary again as its worker processes.
	sandbox.WorkerMain()
	// Process tests start this test binary again as the learn command.
	if os.Getenv("LEARN_TEST_RUN_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// testSandboxConfig is the default sandbox with the repository's
// interpreter; it fails the test when "npm ci" has not installed it.
func testSandboxConfig(t *testing.T) sandbox.Config {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.WasmPath = filepath.Join("..", "..", sandbox.DefaultWasmPath)
	if _, err := os.Stat(cfg.WasmPath); err != nil {
		t.Fatalf("the CPython WASI module is missing (run \"npm ci\" or \"make setup\"): %v", err)
	}
	cfg.PoolSize = 1
	return cfg
}
func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
