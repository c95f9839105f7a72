package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"
)

//go:embed harness/harness.py
var harnessSource string

//go:embed harness/mcp.py
var mcpSource string

// harnessKind says what an interpreter has loaded before its submission
// arrives: the plain harness, or the harness with the MCP teaching module
// (and json, typing, dataclasses, asyncio), which costs about 0.3 s more to
// start and is kept in its own pool.
type harnessKind int

const (
	kindPlain harnessKind = iota
	kindMCP
	numKinds
)

// wasmPageSize is the size of one WebAssembly memory page.
const wasmPageSize = 64 << 10

// engineConfig is what one engine (one wazero runtime holding the compiled
// interpreter and a pool of parked instances) needs. In worker mode the
// supervisor sends it to each worker process.
type engineConfig struct {
	// WasmPath is the interpreter's file, absolute; ignored when
	// WasmBuiltIn is set.
	WasmPath string
	// WasmBuiltIn uses the module embedded in this program (release
	// builds); a worker, being the same program, has it too.
	WasmBuiltIn bool
	// CacheDir holds compiled code; "" compiles on every start.
	CacheDir string
	// MemoryLimitPages caps every instance's linear memory.
	MemoryLimitPages uint32
	// CloseOnContextDone makes a deadline stop a running guest; it costs CPU
	// on every run, so worker processes run without it and are killed instead.
	CloseOnContextDone bool
	// PoolSize and MCPPoolSize are how many parked instances the engine
	// starts with, plain and with the MCP teaching module. Together they
	// are the size of its one pool, whose split then follows demand (see
	// take).
	PoolSize    int
	MCPPoolSize int
	// RefillParallel is how many instances may start at once for the pool.
	RefillParallel int
	// Nice is the worker process's nice increment (see Config.WorkerNice).
	Nice int
	// SnapshotWasm is the asyncify-instrumented interpreter's file (see
	// Config.SnapshotWasm), absolute; SnapshotBuiltIn uses the one
	// embedded in this program instead. With neither, every instance
	// starts as a fresh one.
	SnapshotWasm    string
	SnapshotBuiltIn bool
	// SnapshotLater opens the engine with the fresh start and leaves the
	// imaging to beginUpgrade, which the sandbox calls once it is warm, so
	// that a first start on a cold cache is ready as soon as without the
	// snapshot start (compiling the instrumented module takes about twice
	// as long as the plain one). Without it the engine images at open (a
	// restarted worker, once the snapshot start is known to work and its
	// code is in the cache).
	SnapshotLater bool
}

// snapshot reports whether the snapshot start was asked for.
func (c engineConfig) snapshot() bool { return c.SnapshotWasm != "" || c.SnapshotBuiltIn }

// snapshotName names where the instrumented interpreter comes from.
func (c engineConfig) snapshotName() string {
	if c.SnapshotBuiltIn {
		return "the built-in instrumented module"
	}
	return c.SnapshotWasm
}

// moduleName names where the interpreter comes from, for messages.
func (c engineConfig) moduleName() string {
	if c.WasmBuiltIn {
		return "the built-in module"
	}
	return c.WasmPath
}

// cacheSubdir names the compilation cache directory. wazero's cache key
// ignores the debug-info setting, and a cache written with debug info on
// loads 8x slower, so the name records that ours is written with it off.
const cacheSubdir = "wazero-nodebug"

// engine holds one wazero runtime with the compiled interpreter and a pool of
// interpreters started ahead of demand. Each instance serves one run.
type engine struct {
	cfg      engineConfig
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	// code is the precompiled bytecode, mounted read-only in every
	// instance (see bytecode.go).
	code fs.FS

	ctx    context.Context // cancelled by close
	cancel context.CancelFunc
	mem    *memPool

	mu       sync.Mutex
	parked   [numKinds][]*instance
	starting [numKinds]int
	// target is how many instances of each kind the pool keeps; a miss
	// moves one unit of it to the kind that missed.
	target [numKinds]int
	// need lists the kinds to start, oldest first: what was taken first is
	// refilled first.
	need   []harnessKind
	closed bool
	wake   chan struct{}
	onPool func(parked int) // called when the number of parked instances changes
	onFail func(error)      // called once if the interpreter never starts
	// okStart is set once an instance has started; until then
	// failedStarts counts starts that failed in a row, and gaveUp, once
	// there are maxFailedStarts, holds why, and the pool stops refilling
	// (see noteStartLocked).
	okStart      bool
	failedStarts int
	gaveUp       error
	refillWG     sync.WaitGroup
	// snap, when not nil, starts instances from images of parked
	// interpreters (see snapshot.go); snapErr says why it is nil although
	// cfg asked for it, and instances start as before. Both are set at
	// open or by upgrade, under mu; compiled (the plain module) is closed
	// and nil once snap is set and no fresh instance is being created.
	snap    *snapshotSet
	snapErr error
	// instantiating counts fresh instances between their start and their
	// park (or end): the plain module may not be closed under them.
	instantiating sync.WaitGroup
	// upgradeBegun is set once beginUpgrade has started the upgrade.
	upgradeBegun bool
	// running counts instance goroutines. The runtime may only be closed
	// once they have all returned: closing it frees linear memory (an
	// mmap), which a guest still running would then fault on.
	running sync.WaitGroup
}

// openEngine compiles the interpreter (from the disk cache when it can) and
// returns an engine with an empty pool; call fill to start the pool. A
// cache that cannot be opened or written is skipped, not an error: the
// supervisor has already logged why (usableCacheDir).
func openEngine(ctx context.Context, cfg engineConfig) (*engine, error) {
	wasm, err := readModule(cfg)
	if err != nil {
		return nil, err
	}
	ectx, cancel := context.WithCancel(context.Background())
	rt, compiled, err := compileModule(ctx, ectx, cfg, wasm, cfg.CacheDir)
	if err != nil && cfg.CacheDir != "" {
		rt, compiled, err = compileModule(ctx, ectx, cfg, wasm, "")
	}
	if err != nil {
		cancel()
		return nil, err
	}
	code, err := bytecodeFS(ctx, cfg, rt, compiled, sha256.Sum256(wasm))
	if err != nil {
		cancel()
		_ = rt.Close(ctx)
		return nil, err
	}
	e := &engine{
		cfg: cfg, rt: rt, compiled: compiled, code: code,
		ctx: ectx, cancel: cancel,
		mem:  newMemPool(2),
		wake: make(chan struct{}, 1),
	}
	if cfg.snapshot() && !cfg.SnapshotLater {
		// Nothing runs yet, so nothing else can fail here.
		_ = e.upgrade(ctx)
	}
	return e, nil
}

// upgrade images a parked interpreter of each kind and starts every
// instance from those images from then on (see snapshot.go). Instances
// already parked were started fresh; they serve their submissions as
// before. It returns why the snapshot start could not be had (also kept
// in snapErr); the engine then goes on with the fresh start. It is safe to
// call while the engine serves, and does nothing after the first call.
func (e *engine) upgrade(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return ErrClosed
	}
	if e.snap != nil || e.snapErr != nil || !e.cfg.snapshot() {
		err := e.snapErr
		e.mu.Unlock()
		return err
	}
	e.mu.Unlock()
	var set *snapshotSet
	var err error
	if !imageMemorySupported() {
		err = errors.New("sandbox: snapshot start: this system has no memory files (Linux only)")
	} else {
		set, err = e.openSnapshot(ctx)
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		if set != nil {
			set.close(ctx)
		}
		return ErrClosed
	}
	if err != nil {
		e.snapErr = err
		e.mu.Unlock()
		return err
	}
	e.snap = set
	compiled := e.compiled
	e.compiled = nil
	// The parked instances started fresh, from the plain module: each
	// holds that module's machine code alive and tens of MiB of private
	// memory. Restored ones replace them (refill tops the pool up), whose
	// pages are the image's until written.
	var fresh []*instance
	for kind := range numKinds {
		fresh = append(fresh, e.parked[kind]...)
		e.parked[kind] = nil
	}
	onPool := e.onPool
	e.mu.Unlock()
	for _, inst := range fresh {
		inst.discard()
	}
	if len(fresh) > 0 {
		if onPool != nil {
			onPool(0)
		}
		e.kick()
	}
	// Their ends release their modules, so the collection the worker
	// runs after the upgrade can free the plain module's code.
	for _, inst := range fresh {
		select {
		case <-inst.done:
		case <-ctx.Done():
		}
	}
	// Every instance starts from an image now: drop the plain module once
	// no fresh one is being created from it.
	e.instantiating.Wait()
	_ = compiled.Close(ctx)
	return nil
}

// snapshotState says which start the engine uses: on (from images), or
// why not, or neither yet (nil, false) while an upgrade may come.
func (e *engine) snapshotState() (on bool, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.snap != nil, e.snapErr
}

// compileModule makes a runtime for cfg, with the compilation cache in
// cacheDir unless it is "", and compiles wasm in it.
func compileModule(ctx, rtCtx context.Context, cfg engineConfig, wasm []byte, cacheDir string) (wazero.Runtime, wazero.CompiledModule, error) {
	rc := wazero.NewRuntimeConfig().
		WithDebugInfoEnabled(false).
		WithCloseOnContextDone(cfg.CloseOnContextDone).
		WithMemoryLimitPages(cfg.MemoryLimitPages)
	if cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(filepath.Join(cacheDir, cacheSubdir))
		if err != nil {
			return nil, nil, fmt.Errorf("sandbox: cache directory: %w", err)
		}
		rc = rc.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(rtCtx, rc)
	if err := instantiateWASI(ctx, rt, cfg.snapshot()); err != nil {
		_ = rt.Close(ctx)
		return nil, nil, fmt.Errorf("sandbox: wasi: %w", err)
	}
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		_ = rt.Close(ctx)
		return nil, nil, fmt.Errorf("sandbox: cannot load the interpreter from %s (is it the CPython for WASI module?): %w: %s", cfg.moduleName(), err, installHint)
	}
	return rt, compiled, nil
}

// instance is one interpreter, started with the harness. It is parked when
// the harness has warmed up and blocks reading its submission from stdin.
type instance struct {
	stdin  *io.PipeWriter
	stdout *sink
	stderr *sink
	parked chan struct{} // closed at the first read of stdin
	done   chan error    // the result of _start
	ctx    context.Context
	cancel context.CancelFunc
	cold   bool
	kind   harnessKind
	// restored is set for an instance started from a snapshot image.
	restored bool
}

// parkReader reports the guest's first read of stdin: the harness only reads
// once it is ready for a submission.
type parkReader struct {
	r    *io.PipeReader
	once sync.Once
	ch   chan struct{}
}

func (p *parkReader) Read(b []byte) (int, error) {
	p.once.Do(func() { close(p.ch) })
	return p.r.Read(b)
}

// sink receives a guest stream. It forwards to fn once set, and gives up
// (reporting overflow) past limit bytes.
type sink struct {
	mu       sync.Mutex
	fn       func([]byte)
	pending  bytes.Buffer
	n, limit int
	overflow func()
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit > 0 && s.n+len(p) > s.limit {
		room := s.limit - s.n
		if room > 0 {
			s.deliver(p[:room])
			s.n = s.limit
		}
		if s.overflow != nil {
			s.overflow()
			s.overflow = nil
		}
		return 0, io.ErrShortWrite
	}
	s.n += len(p)
	s.deliver(p)
	return len(p), nil
}

func (s *sink) deliver(p []byte) {
	if s.fn == nil {
		s.pending.Write(p)
		return
	}
	s.fn(bytes.Clone(p))
}

// attach sets where the stream goes from now on, with a byte limit counted
// from now, and hands over anything written before.
func (s *sink) attach(fn func([]byte), limit int, overflow func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fn, s.limit, s.overflow, s.n = fn, limit, overflow, 0
	if s.pending.Len() > 0 {
		p := s.pending.Bytes()
		s.pending = bytes.Buffer{}
		s.n = len(p)
		fn(p)
	}
}

// harnessArgs are the interpreter's arguments. -S skips site (48 ms of
// start-up); -I gained nothing measurable. The harness and the teaching
// module come precompiled from the mounted bytecode (see bytecode.go).
func harnessArgs(kind harnessKind) []string {
	if kind == kindMCP {
		return []string{"python", "-S", "-c", bytecodeBoot, "mcp"}
	}
	return []string{"python", "-S", "-c", bytecodeBoot}
}

// start starts an instance and waits until it is parked or has failed.
func (e *engine) start(kind harnessKind) (*instance, error) {
	pr, pw := io.Pipe()
	inst := &instance{
		stdin:  pw,
		stdout: &sink{},
		stderr: &sink{},
		parked: make(chan struct{}),
		done:   make(chan error, 1),
		kind:   kind,
	}
	ctx, cancel := context.WithCancel(e.ctx)
	inst.ctx, inst.cancel = ctx, cancel
	mc := e.moduleConfig(kind, &parkReader{r: pr, ch: inst.parked}, inst.stdout, inst.stderr)
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		cancel()
		return nil, ErrClosed
	}
	e.running.Add(1)
	snap, compiled := e.snap, e.compiled
	if snap == nil {
		e.instantiating.Add(1)
	}
	e.mu.Unlock()
	inst.restored = snap != nil
	go func() {
		defer e.running.Done()
		var err error
		if snap != nil {
			err = e.restore(ctx, snap, snap.images[kind], mc)
		} else {
			_, err = e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, e.mem.allocator()), compiled, mc)
		}
		_ = pr.Close()
		inst.done <- err
	}()
	if snap == nil {
		defer e.instantiating.Done()
	}
	select {
	case <-inst.parked:
		return inst, nil
	case err := <-inst.done:
		cancel()
		var stderr bytes.Buffer
		inst.stderr.attach(func(p []byte) { stderr.Write(p) }, 0, nil)
		return nil, &startError{err: err, stderr: stderr.Bytes(), before: "before it read a submission"}
	}
}

// moduleConfig is an instance's configuration: the harness's arguments
// for kind, its streams, the host's clocks and the bytecode mounted
// read-only. An image is taken and restored with the same, so the WASI
// state that lives in the host (arguments, the preopened mount as fd 3,
// the clocks) is the same before and after.
func (e *engine) moduleConfig(kind harnessKind, stdin io.Reader, stdout, stderr io.Writer) wazero.ModuleConfig {
	return wazero.NewModuleConfig().
		WithName("").
		WithArgs(harnessArgs(kind)...).
		WithStdin(stdin).
		WithStdout(stdout).
		WithStderr(stderr).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep().
		WithFSConfig(wazero.NewFSConfig().WithFSMount(e.code, bytecodeDir))
}

// startError is how an interpreter that was to start ended instead: _start
// returned, exited or trapped before it was ready.
type startError struct {
	err    error // InstantiateModule's result
	stderr []byte
	before string // what it did not get to, such as "before it read a submission"
}

func (e *startError) Error() string { return "sandbox: interpreter did not start: " + e.detail() }
func (e *startError) Unwrap() error { return e.err }

// detail says in one line how the guest ended and what it last wrote to
// stderr.
func (e *startError) detail() string {
	var exit *sys.ExitError
	var s string
	switch {
	case e.err == nil:
		s = "its _start returned " + e.before
	case errors.As(e.err, &exit):
		s = fmt.Sprintf("it exited with code %d %s", exit.ExitCode(), e.before)
	default:
		line, _, _ := strings.Cut(e.err.Error(), "\n")
		s = fmt.Sprintf("it crashed %s (%s)", e.before, line)
	}
	if tail := stderrTail(e.stderr); tail != "" {
		return s + ", and its stderr ends " + strconv.Quote(tail)
	}
	return s + ", and wrote nothing to stderr"
}

// stderrTail is the end of an interpreter's stderr on one line, its lines
// joined with " / ": at most the last 400 bytes, where an error message
// ends.
func stderrTail(b []byte) string {
	const keep = 400
	cut := len(b) > keep
	if cut {
		b = b[len(b)-keep:]
	}
	var lines []string
	for _, l := range strings.Split(strings.ToValidUTF8(string(b), ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, " / ")
	if cut {
		s = "…" + s
	}
	return s
}

// maxFailedStarts is how many starts in a row may fail, with none ever
// succeeded, before an engine takes its interpreter for one that never
// starts: a file that compiles but is not CPython, or whose harness fails.
// Retrying such a file for ever would leave Warm waiting for ever.
const maxFailedStarts = 3

// noteStartLocked counts the outcome of a start. It returns the error to
// report through onFail when this failure is the one that makes the engine
// give up: maxFailedStarts in a row with no start ever succeeded. The
// engine then stops refilling its pool; a cold start that succeeds later
// resumes it. Once an instance has started, failures are passing troubles
// and only retried. The caller holds e.mu.
func (e *engine) noteStartLocked(err error) error {
	if err == nil {
		if e.gaveUp != nil {
			e.kick() // refill again
		}
		e.okStart, e.failedStarts, e.gaveUp = true, 0, nil
		return nil
	}
	var se *startError
	if e.okStart || e.gaveUp != nil || e.closed || e.ctx.Err() != nil || !errors.As(err, &se) {
		return nil
	}
	e.failedStarts++
	if e.failedStarts < maxFailedStarts {
		return nil
	}
	e.gaveUp = fmt.Errorf("sandbox: the interpreter from %s compiles but does not start (is it the CPython for WASI module?): %d starts failed in a row; in the last, %s: %s",
		e.cfg.moduleName(), e.failedStarts, se.detail(), installHint)
	return e.gaveUp
}

// discard stops a parked instance: closing stdin makes the harness exit.
func (inst *instance) discard() {
	_ = inst.stdin.Close()
	inst.cancel()
}

// fill starts the background refill of the pool. onPool, if not nil, is
// called with the number of parked instances whenever it changes; onFail,
// if not nil, is called once if the interpreter never starts (see
// noteStartLocked), with an error that names its file and says why.
func (e *engine) fill(onPool func(int), onFail func(error)) {
	e.mu.Lock()
	e.onPool, e.onFail = onPool, onFail
	e.target = [numKinds]int{kindPlain: e.cfg.PoolSize, kindMCP: e.cfg.MCPPoolSize}
	// The first fill alternates kinds, so both are ready early.
	for i := range max(e.cfg.PoolSize, e.cfg.MCPPoolSize) {
		if i < e.cfg.MCPPoolSize {
			e.need = append(e.need, kindMCP)
		}
		if i < e.cfg.PoolSize {
			e.need = append(e.need, kindPlain)
		}
	}
	e.mu.Unlock()
	if e.cfg.PoolSize <= 0 && e.cfg.MCPPoolSize <= 0 {
		if onPool != nil {
			onPool(0)
		}
		return
	}
	e.refillWG.Add(1)
	go e.refill()
}

func (e *engine) refill() {
	defer e.refillWG.Done()
	par := max(e.cfg.RefillParallel, 1)
	for {
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return
		}
		// Top up any kind short of its target (after a failed start).
		for kind := range numKinds {
			short := e.target[kind] - len(e.parked[kind]) - e.starting[kind]
			for range short - count(e.need, kind) {
				e.need = append(e.need, kind)
			}
		}
		for e.gaveUp == nil && len(e.need) > 0 && e.starting[kindPlain]+e.starting[kindMCP] < par {
			kind := e.need[0]
			e.need = e.need[1:]
			if len(e.parked[kind])+e.starting[kind] >= e.target[kind] {
				continue
			}
			e.starting[kind]++
			go e.startOne(kind)
		}
		e.mu.Unlock()
		select {
		case <-e.wake:
		case <-e.ctx.Done():
			return
		}
	}
}

// beginUpgrade runs upgrade in the background, once however often it is
// called, and then calls onUpgrade, if not nil, with its result. The
// sandbox calls it once it is warm, so that a first start on a cold cache
// is ready as soon as without the snapshot start (see
// engineConfig.SnapshotLater). It does nothing if the engine has no
// snapshot start to upgrade to, or has it already.
func (e *engine) beginUpgrade(onUpgrade func(error)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.upgradeBegun || e.closed || !e.cfg.snapshot() || e.snap != nil || e.snapErr != nil {
		return
	}
	e.upgradeBegun = true
	e.running.Add(1)
	go func() {
		defer e.running.Done()
		err := e.upgrade(e.ctx)
		if onUpgrade != nil && !errors.Is(err, ErrClosed) && e.ctx.Err() == nil {
			onUpgrade(err)
		}
	}()
}

func count(ks []harnessKind, k harnessKind) int {
	n := 0
	for _, x := range ks {
		if x == k {
			n++
		}
	}
	return n
}

func (e *engine) startOne(kind harnessKind) {
	inst, err := e.start(kind)
	e.mu.Lock()
	e.starting[kind]--
	if err == nil && e.closed {
		e.mu.Unlock()
		inst.discard()
		return
	}
	gaveUp := e.noteStartLocked(err)
	if err == nil {
		e.parked[kind] = append(e.parked[kind], inst)
	}
	n, onPool, onFail := len(e.parked[kindPlain])+len(e.parked[kindMCP]), e.onPool, e.onFail
	e.mu.Unlock()
	if gaveUp != nil && onFail != nil {
		onFail(gaveUp)
	}
	if err != nil {
		// Do not spin on a broken interpreter: wait before the next try.
		select {
		case <-time.After(time.Second):
		case <-e.ctx.Done():
		}
	} else if onPool != nil {
		onPool(n)
	}
	e.kick()
}

func (e *engine) kick() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// parkedCount is the number of instances (of both kinds) waiting for a
// submission.
func (e *engine) parkedCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.parked[kindPlain]) + len(e.parked[kindMCP])
}

// take returns a parked instance of kind, or starts a fresh one (cold) if
// the pool has none. The pool is one pool of both kinds: what is taken is
// queued to be replaced by the same kind, and a miss moves one place of
// the pool from the other kind to this one (discarding a parked instance of
// the other kind if that puts it over), so the split follows demand.
func (e *engine) take(kind harnessKind) (*instance, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, ErrClosed
	}
	var drop *instance
	if n := len(e.parked[kind]); n > 0 {
		inst := e.parked[kind][n-1]
		e.parked[kind] = e.parked[kind][:n-1]
		e.need = append(e.need, kind)
		total := len(e.parked[kindPlain]) + len(e.parked[kindMCP])
		onPool := e.onPool
		e.mu.Unlock()
		if onPool != nil {
			onPool(total)
		}
		e.kick()
		return inst, nil
	}
	if other := 1 - kind; e.target[other] > 0 {
		e.target[other]--
		e.target[kind]++
		e.need = append(e.need, kind)
		if len(e.parked[other])+e.starting[other] > e.target[other] && len(e.parked[other]) > 0 {
			drop = e.parked[other][0]
			e.parked[other] = e.parked[other][1:]
		}
	}
	e.mu.Unlock()
	if drop != nil {
		drop.discard()
	}
	e.kick()
	inst, err := e.start(kind)
	e.mu.Lock()
	gaveUp, onFail := e.noteStartLocked(err), e.onFail
	e.mu.Unlock()
	if gaveUp != nil && onFail != nil {
		onFail(gaveUp)
	}
	if err != nil {
		return nil, err
	}
	inst.cold = true
	return inst, nil
}

// execRequest is one run: the bytes for the harness's stdin and the limits
// the host enforces on the raw streams.
type execRequest struct {
	// Stdin is written at once: header, code and the first case's input.
	Stdin []byte
	// Later holds the input of case i+1 at index i, written only once the
	// guest's frames show case i ended (see frameParser), so no code ever
	// sees the input of a case that has not started.
	Later [][]byte
	// Nonce marks the harness's frames; Cases is how many cases the run has.
	Nonce     string
	Cases     int
	Timeout   time.Duration
	StdoutCap int // raw guest stdout bytes before the run is stopped
	StderrCap int // raw guest stderr bytes kept
	// Kind is the interpreter the run needs.
	Kind harnessKind
}

// execOutcome is how a run ended, as seen from the host.
type execOutcome struct {
	ExitCode int  // the guest's exit code (0 after the harness's os._exit(0))
	TimedOut bool // stopped at the deadline
	Flood    bool // raw stdout passed StdoutCap and the run was stopped
	Cold     bool // no parked instance was free
	// Ran is the run's time from hand-over to its answer, queue wait and a
	// cold start excluded; set by the executor.
	Ran    time.Duration
	Stderr []byte // the interpreter's own stderr (not the learner's), capped
	Crash  string // a host-side failure, for logs only
}

// exec runs req on one instance. Stdout goes to onStdout as it arrives so a
// supervisor can keep what a killed worker printed. onStarted is called once
// the submission is handed to the interpreter; the deadline runs from then.
// The deadline only stops the guest if the engine was compiled with
// CloseOnContextDone; otherwise the caller must kill the process.
//
// When the harness's last frame arrives exec
// returns at once, without waiting for the interpreter to exit: a learner
// waits for the answer, not for the teardown. The returned channel then
// receives true once the instance has exited, or false if it was still
// running at the deadline (a forged last frame); the caller must not reuse
// the slot, or the process, before that. Otherwise the channel is nil.
func (e *engine) exec(req execRequest, onStarted func(cold bool), onStdout func([]byte)) (execOutcome, <-chan bool) {
	inst, err := e.take(req.Kind)
	if err != nil {
		return execOutcome{ExitCode: -1, Crash: err.Error()}, nil
	}
	var out execOutcome
	out.Cold = inst.cold
	var errMu sync.Mutex
	var stderr bytes.Buffer
	var flood, finish sync.Once
	floodCh := make(chan struct{})
	doneCh := make(chan struct{})
	// The feeder writes the stdin parts in order; stdout decides when.
	feed := make(chan []byte, len(req.Later)+1)
	fed := 0
	watch := newFrameParser(req.Nonce, req.Cases, false)
	inst.stdout.attach(func(p []byte) {
		onStdout(p)
		// Calls are serial (the sink's lock), so watch and fed need no lock.
		watch.write(p)
		for fed < len(req.Later) && watch.ended(fed) {
			feed <- req.Later[fed]
			fed++
			if fed == len(req.Later) {
				close(feed)
			}
		}
		if watch.tr.Done {
			finish.Do(func() { close(doneCh) })
		}
	}, req.StdoutCap, func() { flood.Do(func() { close(floodCh) }) })
	if len(req.Later) == 0 {
		close(feed)
	}
	inst.stderr.attach(func(p []byte) {
		errMu.Lock()
		defer errMu.Unlock()
		if room := req.StderrCap - stderr.Len(); room > 0 {
			stderr.Write(p[:min(len(p), room)])
		}
	}, 0, nil)
	if onStarted != nil {
		onStarted(inst.cold)
	}
	go func() {
		defer inst.stdin.Close()
		if _, err := inst.stdin.Write(req.Stdin); err != nil {
			return
		}
		for {
			select {
			case p, ok := <-feed:
				if !ok {
					return
				}
				if _, err := inst.stdin.Write(p); err != nil {
					return
				}
			case <-inst.ctx.Done():
				return
			}
		}
	}()
	timer := time.NewTimer(req.Timeout)
	var runErr error
	var settled chan bool
	select {
	case runErr = <-inst.done:
		timer.Stop()
	case <-doneCh:
		settled = make(chan bool, 1)
		go func() {
			select {
			case <-inst.done:
				timer.Stop()
				inst.cancel()
				settled <- true
			case <-timer.C:
				_ = e.stop(inst)
				settled <- false
			}
		}()
	case <-timer.C:
		out.TimedOut = true
		runErr = e.stop(inst)
	case <-floodCh:
		timer.Stop()
		out.Flood = true
		runErr = e.stop(inst)
	}
	if settled == nil {
		inst.cancel()
	}
	errMu.Lock()
	out.Stderr = bytes.Clone(stderr.Bytes())
	errMu.Unlock()
	var exit *sys.ExitError
	switch {
	case runErr == nil:
	case errors.As(runErr, &exit):
		out.ExitCode = int(exit.ExitCode())
		if exit.ExitCode() == sys.ExitCodeDeadlineExceeded || exit.ExitCode() == sys.ExitCodeContextCanceled {
			out.ExitCode = -1
		}
	default:
		// A trap: out of bounds, unreachable (CPython's abort) and the like.
		out.ExitCode = -1
		out.Crash = runErr.Error()
	}
	if settled == nil {
		return out, nil
	}
	return out, settled
}

// stop ends a running instance. Without CloseOnContextDone nothing can stop
// it in this process: the supervisor kills the worker, so do not wait.
func (e *engine) stop(inst *instance) error {
	inst.cancel()
	if !e.cfg.CloseOnContextDone {
		return nil
	}
	return <-inst.done
}

// close discards the pool and closes the runtime.
func (e *engine) close(ctx context.Context) error {
	e.mu.Lock()
	e.closed = true
	parked := append(e.parked[kindPlain], e.parked[kindMCP]...)
	e.parked = [numKinds][]*instance{}
	e.mu.Unlock()
	for _, inst := range parked {
		inst.discard()
	}
	e.cancel()
	e.refillWG.Wait()
	done := make(chan struct{})
	go func() {
		e.running.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		// A guest is still running; leave the runtime to the process's end
		// rather than free memory under it.
		return fmt.Errorf("sandbox: close: an interpreter is still running: %w", ctx.Err())
	}
	err := e.rt.Close(ctx)
	e.mu.Lock()
	snap := e.snap
	e.mu.Unlock()
	if snap != nil {
		snap.close(ctx)
	}
	e.mem.close()
	return err
}
