package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// workerEnv marks a process started as a sandbox worker; workerArg is its
// argument, so a program that forgot to call WorkerMain fails at once on an
// unknown command instead of running its normal main a second time.
const (
	workerEnv = "LEARN_SANDBOX_WORKER"
	workerArg = "sandbox-worker"
)

// WorkerMain turns this process into a sandbox worker and never returns if
// it was started as one; otherwise it returns at once. A program that uses a
// Sandbox in worker mode (the default) must call it first thing in main, and
// its tests in TestMain:
//
//	func main() {
//		sandbox.WorkerMain()
//		...
//	}
func WorkerMain() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	os.Exit(serveWorker(os.Stdin, os.Stdout))
}

// workerMsg goes from the supervisor to a worker: first the engine's
// configuration, then one request at a time.
type workerMsg struct {
	Config *engineConfig
	ID     uint64
	Req    *execRequest
	// Upgrade asks the worker to begin the snapshot start (see
	// engine.beginUpgrade); it answers with a snapshot event.
	Upgrade bool
}

// workerEvent goes from a worker to the supervisor.
type workerEvent struct {
	// Kind is ready, fail, pool, snapshot, started, stdout, done or free.
	// A fail before ready means the engine did not open; after it, that
	// its interpreter never starts (Err says why, naming the file). Err on
	// ready or snapshot says why the snapshot start asked for could not be
	// had (the worker then starts interpreters as without it); Snap on
	// ready, and a snapshot without Err, that it starts them from images.
	Kind    string
	ID      uint64
	N       int // pool: parked instances
	Snap    bool
	Data    []byte
	Cold    bool
	Outcome execOutcome
	Err     string
}

// serveWorker is the worker's main loop. It runs one request at a time, so a
// killed worker takes only its own run (and its parked instances) with it.
func serveWorker(r io.Reader, w io.Writer) int {
	dec := gob.NewDecoder(bufio.NewReader(r))
	bw := bufio.NewWriter(w)
	enc := gob.NewEncoder(bw)
	var mu sync.Mutex
	send := func(ev workerEvent) {
		mu.Lock()
		defer mu.Unlock()
		if enc.Encode(ev) == nil {
			_ = bw.Flush()
		}
	}
	var first workerMsg
	if err := dec.Decode(&first); err != nil || first.Config == nil {
		return 2
	}
	if err := lowerPriority(first.Config.Nice); err != nil {
		send(workerEvent{Kind: "fail", Err: fmt.Sprintf("sandbox: lower the worker's priority: %v", err)})
		return 1
	}
	e, err := openEngine(context.Background(), *first.Config)
	if err != nil {
		send(workerEvent{Kind: "fail", Err: err.Error()})
		return 1
	}
	// Compiling and imaging leave a large heap behind (the module's bytes,
	// decoded functions); hand it back to the system before serving.
	debug.FreeOSMemory()
	ready := workerEvent{Kind: "ready"}
	on, snapErr := e.snapshotState()
	ready.Snap = on
	if snapErr != nil {
		ready.Err = snapErr.Error()
	}
	send(ready)
	e.fill(func(n int) { send(workerEvent{Kind: "pool", N: n}) },
		func(err error) { send(workerEvent{Kind: "fail", Err: err.Error()}) })
	upgraded := func(err error) {
		if err != nil {
			send(workerEvent{Kind: "snapshot", Err: err.Error()})
			return
		}
		// Compiling and imaging left a heap behind, as at the start.
		debug.FreeOSMemory()
		send(workerEvent{Kind: "snapshot", Snap: true})
	}
	for {
		var m workerMsg
		if err := dec.Decode(&m); err != nil {
			// The supervisor closed the pipe or died.
			_ = e.close(context.Background())
			return 0
		}
		if m.Upgrade {
			e.beginUpgrade(upgraded)
		}
		if m.Req == nil {
			continue
		}
		id := m.ID
		batch := &outputBatch{send: func(p []byte) { send(workerEvent{Kind: "stdout", ID: id, Data: p}) }}
		out, settled := e.exec(*m.Req,
			func(cold bool) { send(workerEvent{Kind: "started", ID: id, Cold: cold}) },
			batch.write)
		batch.flush()
		send(workerEvent{Kind: "done", ID: id, Outcome: out})
		if out.TimedOut || out.Flood || (settled != nil && !<-settled) {
			// The guest may still be spinning and nothing here can stop
			// it: leave, and let the supervisor start a fresh worker.
			return 3
		}
		send(workerEvent{Kind: "free", ID: id})
	}
}

// outputBatch gathers a guest's stdout and sends it to the supervisor in
// batches: at most batchDelay late, or at once past batchBytes. A guest
// that writes one byte at a time would otherwise cost the server's process
// one event per write (about half a CPU core, measured).
type outputBatch struct {
	mu    sync.Mutex
	buf   []byte
	armed bool
	send  func([]byte)
}

const (
	batchDelay = 20 * time.Millisecond
	batchBytes = 64 << 10
)

func (b *outputBatch) write(p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	switch {
	case len(b.buf) >= batchBytes:
		b.flushLocked()
	case !b.armed:
		b.armed = true
		time.AfterFunc(batchDelay, b.flush)
	}
}

// flush sends what is gathered; the worker calls it before "done".
func (b *outputBatch) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *outputBatch) flushLocked() {
	b.armed = false
	if len(b.buf) == 0 {
		return
	}
	b.send(b.buf)
	b.buf = nil
}

// procPool is the supervisor of the worker processes. Each worker holds a
// compiled interpreter and its share of the warm pool and runs one
// submission at a time.
type procPool struct {
	cfg     engineConfig
	timeout time.Duration
	log     *slog.Logger
	workers []*worker
	idle    chan *worker
	closed  atomic.Bool
	done    chan struct{} // closed by close, to release waiting callers

	poolMu   sync.Mutex
	poolCond chan struct{} // closed and replaced when a pool count changes or the pool breaks

	// served is set once any worker has started an interpreter. Until
	// then a worker's report that its interpreter never starts breaks the
	// pool: failErr holds it, and nothing runs.
	served atomic.Bool
	// snapNote logs, once, why workers could not have the snapshot start,
	// and snapErr keeps it: a worker started after that starts fresh.
	// snapOK is set once a worker starts from images: one started after
	// that images at once, its code being in the cache by then.
	snapNote sync.Once
	snapOnce sync.Once
	snapMu   sync.Mutex
	snapErr  error
	snapOK   atomic.Bool
	// upgradeAsked is set once upgrade has run: a worker started after
	// that is asked to upgrade as it starts.
	upgradeAsked atomic.Bool
	failMu       sync.Mutex
	failErr      error
}

type worker struct {
	pp     *procPool
	id     int
	target int // this worker's share of the pool
	// mcpTarget is its share of the pool of interpreters with the MCP
	// teaching module.
	mcpTarget int

	// mu guards the process fields against close, which runs concurrently
	// with a respawn; everything else uses a worker only while holding it
	// (taken from the idle list or being spawned).
	mu     sync.Mutex
	encMu  sync.Mutex // serialises messages to the process (see send)
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *gob.Encoder
	events chan workerEvent // closed when the worker's stdout ends
	exited chan struct{}    // closed when the process has been reaped
	parked atomic.Int32
	// snap is set while the process starts interpreters from images.
	snap atomic.Bool
	seq  uint64
}

func newProcPool(cfg engineConfig, n int, timeout time.Duration, log *slog.Logger) *procPool {
	pp := &procPool{cfg: cfg, timeout: timeout, log: log, idle: make(chan *worker, n), done: make(chan struct{}), poolCond: make(chan struct{})}
	for i := range n {
		share := cfg.PoolSize / n
		if i < cfg.PoolSize%n {
			share++
		}
		mcpShare := cfg.MCPPoolSize / n
		if i < cfg.MCPPoolSize%n {
			mcpShare++
		}
		pp.workers = append(pp.workers, &worker{pp: pp, id: i, target: share, mcpTarget: mcpShare})
	}
	return pp
}

func (pp *procPool) poolChanged() {
	pp.poolMu.Lock()
	close(pp.poolCond)
	pp.poolCond = make(chan struct{})
	pp.poolMu.Unlock()
}

func (pp *procPool) parked() int {
	n := 0
	for _, w := range pp.workers {
		n += int(w.parked.Load())
	}
	return n
}

// start starts the workers: the first alone, so that only it compiles when
// the cache is cold, then the others from the cache.
func (pp *procPool) start(ctx context.Context, progress func(string)) error {
	if len(pp.workers) == 0 {
		return nil
	}
	t := time.Now()
	progress("starting sandbox worker 1 (compiling the interpreter takes about 7 s the first time)")
	if err := pp.workers[0].spawn(ctx); err != nil {
		return err
	}
	progress(fmt.Sprintf("sandbox worker 1 ready in %v", time.Since(t).Round(time.Millisecond)))
	errs := make(chan error, len(pp.workers))
	for _, w := range pp.workers[1:] {
		go func() { errs <- w.spawn(ctx) }()
	}
	var err error
	for range pp.workers[1:] {
		err = errors.Join(err, <-errs)
	}
	if err != nil {
		for _, w := range pp.workers {
			w.kill(nil)
		}
		return err
	}
	for _, w := range pp.workers {
		pp.idle <- w
	}
	progress(fmt.Sprintf("%d sandbox workers ready", len(pp.workers)))
	return nil
}

// startFailed takes a ready worker's report that its interpreter never
// starts. Before any worker has started one, the interpreter is broken and
// so is the pool; after, the trouble is the worker's (its runs start cold
// and retry), so it is only logged.
func (pp *procPool) startFailed(w *worker, msg string) {
	if pp.served.Load() {
		pp.log.Error("sandbox: a worker's interpreters do not start; its pool stays empty until one does", "worker", w.id, "err", msg)
		return
	}
	pp.failMu.Lock()
	if pp.failErr == nil {
		pp.failErr = errors.New(msg)
	}
	pp.failMu.Unlock()
	pp.poolChanged()
}

// snapshotNote takes a worker's report on the snapshot start: on, or
// why not (logged once).
func (pp *procPool) snapshotNote(w *worker, on bool, msg string) {
	if msg != "" {
		pp.snapMu.Lock()
		if pp.snapErr == nil {
			pp.snapErr = errors.New(msg)
		}
		pp.snapMu.Unlock()
		pp.snapNote.Do(func() {
			pp.log.Warn("sandbox: the snapshot start is off; interpreters start fresh for every submission", "err", msg)
		})
		return
	}
	if on {
		w.snap.Store(true)
		pp.snapOK.Store(true)
		pp.snapOnce.Do(func() { pp.log.Info("sandbox: interpreters start from snapshot images") })
	}
}

// send writes one message to the worker's process.
func (w *worker) send(m workerMsg) error {
	w.encMu.Lock()
	defer w.encMu.Unlock()
	w.mu.Lock()
	enc := w.enc
	w.mu.Unlock()
	if enc == nil {
		return errors.New("sandbox: worker not started")
	}
	return enc.Encode(m)
}

// upgrade asks every worker to begin the snapshot start. They take turns
// compiling the instrumented module (lockCacheDir), so on a cold cache one
// compiles it and the others load it.
func (pp *procPool) upgrade() {
	if !pp.cfg.snapshot() || pp.upgradeAsked.Swap(true) {
		return
	}
	for _, w := range pp.workers {
		// A worker that is being replaced is asked as it starts (spawn).
		_ = w.send(workerMsg{Upgrade: true})
	}
}

func (pp *procPool) snapErrSet() bool {
	pp.snapMu.Lock()
	defer pp.snapMu.Unlock()
	return pp.snapErr != nil
}

func (pp *procPool) snapshotState() (bool, error) {
	pp.snapMu.Lock()
	err := pp.snapErr
	pp.snapMu.Unlock()
	if err != nil {
		return false, err
	}
	for _, w := range pp.workers {
		if !w.snap.Load() {
			return false, nil
		}
	}
	return true, nil
}

func (pp *procPool) broken() error {
	pp.failMu.Lock()
	defer pp.failMu.Unlock()
	return pp.failErr
}

// waitPool blocks until every worker has its share of the pool parked.
func (pp *procPool) waitPool(ctx context.Context, progress func(string)) error {
	last := -1
	for {
		pp.poolMu.Lock()
		ch := pp.poolCond
		pp.poolMu.Unlock()
		if err := pp.broken(); err != nil {
			return err
		}
		full := true
		for _, w := range pp.workers {
			if int(w.parked.Load()) < w.target+w.mcpTarget {
				full = false
			}
		}
		if n := pp.parked(); n != last {
			last = n
			progress(fmt.Sprintf("warm pool %d/%d", n, pp.cfg.PoolSize+pp.cfg.MCPPoolSize))
		}
		if full {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// spawn starts the worker's process and waits until its interpreter is
// compiled.
func (w *worker) spawn(ctx context.Context) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("sandbox: find own executable for workers: %w", err)
	}
	cmd := exec.Command(exe, workerArg)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.SysProcAttr = workerSysProcAttr()
	cmd.Stderr = &logWriter{log: w.pp.log, worker: w.id}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("sandbox: worker pipe: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("sandbox: worker pipe: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("sandbox: start worker: %w", err)
	}
	events, exited := make(chan workerEvent, 256), make(chan struct{})
	// The encoder is w's once the configuration is sent, so that nothing
	// else (an upgrade) reaches the process first.
	enc := gob.NewEncoder(stdin)
	w.mu.Lock()
	w.cmd, w.stdin = cmd, stdin
	w.enc = nil
	w.events, w.exited = events, exited
	w.mu.Unlock()
	w.parked.Store(0)
	w.snap.Store(false)
	go func() {
		dec := gob.NewDecoder(bufio.NewReader(stdout))
		ready := false
		for {
			var ev workerEvent
			if err := dec.Decode(&ev); err != nil {
				break
			}
			switch {
			case ev.Kind == "pool":
				if ev.N > 0 {
					w.pp.served.Store(true)
				}
				w.parked.Store(int32(ev.N))
				w.pp.poolChanged()
				continue
			case ev.Kind == "fail" && ready:
				w.pp.startFailed(w, ev.Err)
				continue
			case ev.Kind == "snapshot":
				w.pp.snapshotNote(w, ev.Snap, ev.Err)
				continue
			case ev.Kind == "ready":
				ready = true
				w.pp.snapshotNote(w, ev.Snap, ev.Err)
			}
			events <- ev
		}
		close(events)
		_ = cmd.Wait()
		w.parked.Store(0)
		w.pp.poolChanged()
		close(exited)
	}()
	if w.pp.closed.Load() {
		// Close ran while this process started; it may have missed it.
		w.kill(nil)
		return ErrClosed
	}
	cfg := w.pp.cfg
	cfg.PoolSize = w.target
	cfg.MCPPoolSize = w.mcpTarget
	// A worker started once another has the snapshot start images at
	// once; once it failed, none tries again.
	cfg.SnapshotLater = !w.pp.snapOK.Load()
	if w.pp.snapErrSet() {
		cfg.SnapshotWasm, cfg.SnapshotBuiltIn = "", false
	}
	w.encMu.Lock()
	err = enc.Encode(workerMsg{Config: &cfg})
	w.mu.Lock()
	w.enc = enc
	w.mu.Unlock()
	if err == nil && cfg.SnapshotLater && w.pp.upgradeAsked.Load() {
		err = enc.Encode(workerMsg{Upgrade: true})
	}
	w.encMu.Unlock()
	if err != nil {
		w.kill(nil)
		return fmt.Errorf("sandbox: configure worker: %w", err)
	}
	select {
	case ev, ok := <-events:
		switch {
		case ok && ev.Kind == "ready":
			return nil
		case ok && ev.Kind == "fail":
			w.kill(nil)
			return errors.New(ev.Err)
		}
		w.kill(nil)
		return fmt.Errorf("sandbox: worker exited before it was ready; does main call sandbox.WorkerMain first?")
	case <-ctx.Done():
		w.kill(nil)
		return ctx.Err()
	}
}

// kill ends the worker's process and waits until it is reaped. Events it
// sent before it died go to keep, if not nil.
func (w *worker) kill(keep func(workerEvent)) {
	w.mu.Lock()
	cmd, events, exited := w.cmd, w.events, w.exited
	w.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Kill()
	for ev := range events {
		if keep != nil {
			keep(ev)
		}
	}
	<-exited
}

// respawn replaces a killed worker in the background and returns it to the
// idle list once it is ready.
func (pp *procPool) respawn(w *worker) {
	go func() {
		for !pp.closed.Load() {
			err := w.spawn(context.Background())
			if err == nil {
				pp.idle <- w
				return
			}
			pp.log.Error("sandbox: restart worker", "worker", w.id, "err", err)
			time.Sleep(time.Second)
		}
	}()
}

// exec runs one request on an idle worker. The worker cannot stop its own
// guest (see RATIONALE.md), so the deadline is enforced here by killing the
// worker, which is then replaced in the background.
func (pp *procPool) exec(ctx context.Context, req execRequest) ([]byte, execOutcome, error) {
	var w *worker
	select {
	case w = <-pp.idle:
	case <-ctx.Done():
		return nil, execOutcome{}, ctx.Err()
	case <-pp.done:
		return nil, execOutcome{}, ErrClosed
	}
	if pp.closed.Load() {
		pp.idle <- w
		return nil, execOutcome{}, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		// Gone while it waited: drop it without running.
		pp.idle <- w
		return nil, execOutcome{}, err
	}
	w.seq++
	id := w.seq
	if err := w.send(workerMsg{ID: id, Req: &req}); err != nil {
		w.kill(nil)
		pp.respawn(w)
		return nil, execOutcome{}, fmt.Errorf("sandbox: send to worker: %w", err)
	}
	var stdout bytes.Buffer
	var out execOutcome
	// Until the worker says it started the run (it may be starting a cold
	// interpreter), allow generously; then exactly the run's timeout.
	timer := time.NewTimer(pp.timeout + 30*time.Second)
	defer timer.Stop()
	deadline := time.Now().Add(pp.timeout + 30*time.Second)
	healthy := false
	started := time.Now()
loop:
	for {
		select {
		case ev, ok := <-w.events:
			if !ok {
				out.ExitCode = -1
				out.Crash = "sandbox worker exited"
				break loop
			}
			if ev.ID != id {
				continue
			}
			switch ev.Kind {
			case "started":
				pp.served.Store(true)
				out.Cold = ev.Cold
				timer.Reset(pp.timeout)
				started = time.Now()
				deadline = started.Add(pp.timeout)
			case "stdout":
				if stdout.Len()+len(ev.Data) <= req.StdoutCap {
					stdout.Write(ev.Data)
				}
			case "done":
				cold := out.Cold
				out = ev.Outcome
				out.Cold = cold
				healthy = !out.TimedOut && !out.Flood
				break loop
			}
		case <-timer.C:
			out.TimedOut = true
			out.ExitCode = -1
			break loop
		}
	}
	out.Ran = time.Since(started)
	if healthy {
		// The answer is complete; the worker takes the next run once its
		// interpreter has exited. A guest that forged the last frame and
		// runs on is killed at its deadline.
		go pp.awaitFree(w, id, deadline)
	} else {
		// Keep what the worker sent before it died.
		w.kill(func(ev workerEvent) {
			if ev.ID == id && ev.Kind == "stdout" && stdout.Len()+len(ev.Data) <= req.StdoutCap {
				stdout.Write(ev.Data)
			}
		})
		if out.Crash != "" {
			pp.log.Warn("sandbox: worker died during a run", "worker", w.id, "crash", out.Crash)
		}
		pp.respawn(w)
	}
	return stdout.Bytes(), out, nil
}

// awaitFree returns w to the idle list when it reports its run's
// interpreter gone, or replaces it if that has not happened by the deadline.
func (pp *procPool) awaitFree(w *worker, id uint64, deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline) + time.Second)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-w.events:
			if !ok {
				w.kill(nil)
				pp.respawn(w)
				return
			}
			if ev.ID == id && ev.Kind == "free" {
				pp.idle <- w
				return
			}
		case <-timer.C:
			w.kill(nil)
			pp.respawn(w)
			return
		}
	}
}

// close stops every worker: closing its stdin makes it exit.
func (pp *procPool) close(ctx context.Context) error {
	if pp.closed.Swap(true) {
		return nil
	}
	close(pp.done)
	for _, w := range pp.workers {
		w.mu.Lock()
		cmd, stdin, exited := w.cmd, w.stdin, w.exited
		w.mu.Unlock()
		if cmd == nil {
			continue
		}
		_ = stdin.Close()
		select {
		case <-exited:
		case <-ctx.Done():
			w.kill(nil)
		case <-time.After(2 * time.Second):
			w.kill(nil)
		}
	}
	return nil
}

// logWriter logs a worker's stderr line by line.
type logWriter struct {
	log    *slog.Logger
	worker int
	buf    []byte
	mu     sync.Mutex
}

func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.log.Warn("sandbox worker: "+string(l.buf[:i]), "worker", l.worker)
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > 4096 {
		l.buf = l.buf[:0]
	}
	return len(p), nil
}
