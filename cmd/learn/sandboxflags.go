package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"learn/sandbox"
)

// sandboxFlags are the sandbox's limits, shared by serve, run, grade and
// check so that the command line grades exactly as the server does.
type sandboxFlags struct {
	cfg         sandbox.Config
	memoryMiB   int
	outputKiB   int
	codeKiB     int
	noWorkers   bool
	wasmPathSet string
}

// add registers the sandbox flags on fs with their defaults.
func (f *sandboxFlags) add(fs *flag.FlagSet) {
	f.cfg = sandbox.DefaultConfig()
	fs.StringVar(&f.cfg.WasmPath, "python-wasm", f.cfg.WasmPath, "CPython for WASI `file` (default: the one built into a release build, else python.wasm beside this program, else the repository's node_modules)")
	fs.StringVar(&f.cfg.CacheDir, "sandbox-cache", f.cfg.CacheDir, "`folder` for the compiled interpreter; empty compiles on every start")
	fs.DurationVar(&f.cfg.Timeout, "run-timeout", f.cfg.Timeout, "wall `time` one submission may run, all its cases together")
	fs.IntVar(&f.memoryMiB, "run-memory", int(f.cfg.MemoryLimitBytes>>20), "guest memory limit in `MiB`")
	fs.IntVar(&f.outputKiB, "run-output", f.cfg.MaxOutputBytes>>10, "stdout and stderr limit per case, each, in `KiB`")
	fs.IntVar(&f.codeKiB, "code-size", f.cfg.MaxCodeBytes>>10, "largest accepted code in `KiB`")
	fs.IntVar(&f.cfg.MaxConcurrent, "runs-at-once", f.cfg.MaxConcurrent, "`number` of submissions run at the same time")
	fs.IntVar(&f.cfg.QueueSize, "run-queue", f.cfg.QueueSize, "`number` of submissions that may wait; past it the server answers 503")
	fs.DurationVar(&f.cfg.MaxQueueWait, "run-queue-wait", f.cfg.MaxQueueWait, "longest `time` a submission waits in that queue before the server answers 503")
	fs.IntVar(&f.cfg.PoolSize, "warm-pool", f.cfg.PoolSize, "`number` of plain interpreters started ahead of demand, beside the 2 with the MCP teaching module (the log counts both: 6 by default); 0 leaves only those 2, so other runs start cold")
	fs.StringVar(&f.cfg.SnapshotWasm, "sandbox-snapshot", "", "asyncify-instrumented interpreter `file` every grading starts from an image of (the snapshot start), or off to start a fresh interpreter per grading (default: the one built into a release build, else the repository's .cache/snapshot/python-asyncify.wasm, which make snapshot builds; without one, gradings start fresh and the log says why)")
	fs.BoolVar(&f.noWorkers, "sandbox-in-process", false, "run interpreters inside this process instead of worker processes (slower; see sandbox/RATIONALE.md)")
}

// config returns the sandbox configuration the flags describe.
func (f *sandboxFlags) config() (sandbox.Config, error) {
	c := f.cfg
	if f.memoryMiB <= 0 || f.outputKiB <= 0 || f.codeKiB <= 0 || c.Timeout <= 0 {
		return c, fmt.Errorf("sandbox limits must be above 0: --run-memory %d, --run-output %d, --code-size %d, --run-timeout %v", f.memoryMiB, f.outputKiB, f.codeKiB, c.Timeout)
	}
	if c.MaxQueueWait <= 0 {
		return c, fmt.Errorf("--run-queue-wait %v must be above 0", c.MaxQueueWait)
	}
	if c.Timeout > 10*time.Minute {
		return c, fmt.Errorf("--run-timeout %v is longer than 10 minutes; a learner would give up long before", c.Timeout)
	}
	c.MemoryLimitBytes = uint64(f.memoryMiB) << 20
	if c.MemoryLimitBytes < sandbox.MinMemoryLimitBytes {
		return c, fmt.Errorf("--run-memory %d MiB is below the %d MiB Python needs to start", f.memoryMiB, sandbox.MinMemoryLimitBytes>>20)
	}
	c.MaxOutputBytes = f.outputKiB << 10
	c.MaxCodeBytes = f.codeKiB << 10
	c.InProcess = f.noWorkers
	if c.WasmPath != "" {
		if abs, err := filepath.Abs(c.WasmPath); err == nil {
			c.WasmPath = abs
		}
	}
	if c.SnapshotWasm != "" && c.SnapshotWasm != sandbox.NoSnapshot {
		if abs, err := filepath.Abs(c.SnapshotWasm); err == nil {
			c.SnapshotWasm = abs
		}
	}
	return c, nil
}
