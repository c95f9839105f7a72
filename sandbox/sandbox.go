package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	// ErrBusy means the queue is full; answer 503 with Retry-After (see
	// BusyError). Test with errors.Is.
	ErrBusy = errors.New("sandbox: busy, try again shortly")
	// ErrCodeTooLarge means the code is over Config.MaxCodeBytes; it was
	// not run.
	ErrCodeTooLarge = errors.New("sandbox: code too large")
	// ErrClosed means Close was called.
	ErrClosed = errors.New("sandbox: closed")
)

// BusyError is the error Run and Grade return when the queue is full. It
// matches ErrBusy with errors.Is and says how long to wait.
type BusyError struct {
	RetryAfter time.Duration
}

func (e *BusyError) Error() string        { return ErrBusy.Error() }
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// Limit names the limit a run hit.
type Limit string

const (
	LimitNone   Limit = ""
	LimitTime   Limit = "time"
	LimitMemory Limit = "memory"
	LimitOutput Limit = "output"
)

// RunResult is the outcome of running a whole program with Run.
type RunResult struct {
	Stdout string
	// Stderr is what the program wrote to stderr, then its traceback if it
	// raised (only frames of its own code) or its syntax error.
	Stderr   string
	ExitCode int   // 0 on success, 1 after an uncaught exception, -1 if stopped
	Limit    Limit // the limit that stopped or cut the program, if any
	// Message is a plain sentence for a limit or an error, "" on success.
	Message string
	Elapsed time.Duration
}

// Sandbox runs learners' Python. It is safe for concurrent use.
type Sandbox struct {
	cfg   Config
	log   *slog.Logger
	admit chan struct{} // running + queued submissions

	// module is where the interpreter comes from; moduleErr, an
	// *UnavailableError, says why none was found.
	module    moduleRef
	moduleErr error
	// snapErr says why the snapshot start has no instrumented module
	// (errSnapshotOff when turned off); logged once when the sandbox
	// starts.
	snapErr error

	startOnce sync.Once
	startErr  error
	started   chan struct{}
	ready     atomic.Bool
	closed    atomic.Bool
	// notStarting is the *UnavailableError for an interpreter that
	// compiles but never starts, made once the executor reports it.
	notStarting atomic.Pointer[UnavailableError]

	exec executor

	avgRun atomic.Int64 // nanoseconds, a moving average for Retry-After
	stats  struct {
		runs, busy, abandoned, timeouts, crashes atomic.Uint64
	}
}

// executor runs one request somewhere: in this process or in a worker.
type executor interface {
	start(ctx context.Context, progress func(string)) error
	// waitPool waits until the warm pool is full. It returns the error of
	// broken if the interpreter never starts.
	waitPool(ctx context.Context, progress func(string)) error
	// broken returns why the interpreter never starts, once that is known
	// (see engine.noteStartLocked), else nil. It never waits.
	broken() error
	// upgrade begins the snapshot start in every engine, in the background
	// (see engine.beginUpgrade); Warm calls it once the pool is full.
	upgrade()
	// snapshotState reports whether every engine starts from images, or
	// why the snapshot start is off; neither while an upgrade may come.
	// It never waits.
	snapshotState() (on bool, err error)
	// exec runs req once a slot is free. ctx bounds only the wait for the
	// slot: a run that has started goes on to its own deadline.
	exec(ctx context.Context, req execRequest) ([]byte, execOutcome, error)
	close(ctx context.Context) error
}

// New checks cfg and returns a Sandbox. It is cheap: it locates the
// interpreter (see Config.WasmPath) and checks that the cache folder can be
// written (if not, it logs why once and compiles on every start), but
// nothing is compiled or started until Warm, Run or Grade. An interpreter
// that is missing is not an error here: the Sandbox then answers every run,
// and ReadyErr, with an *UnavailableError saying what to do.
func New(cfg Config) (*Sandbox, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	module, moduleErr := locateModule(cfg.WasmPath)
	var snap moduleRef
	var snapErr error
	if moduleErr == nil {
		snap, snapErr = locateSnapshot(cfg.SnapshotWasm, module)
	}
	ecfg := engineConfig{
		WasmPath:           module.Path,
		WasmBuiltIn:        module.BuiltIn,
		CacheDir:           usableCacheDir(cfg.CacheDir, log),
		MemoryLimitPages:   uint32(cfg.MemoryLimitBytes / wasmPageSize),
		CloseOnContextDone: cfg.InProcess,
		PoolSize:           cfg.PoolSize,
		MCPPoolSize:        cfg.MCPPoolSize,
		RefillParallel:     1,
		Nice:               cfg.WorkerNice,
		SnapshotWasm:       snap.Path,
		SnapshotBuiltIn:    snap.BuiltIn,
		SnapshotLater:      true,
	}
	s := &Sandbox{
		cfg:       cfg,
		log:       log,
		module:    module,
		moduleErr: moduleErr,
		snapErr:   snapErr,
		admit:     make(chan struct{}, cfg.MaxConcurrent+cfg.QueueSize),
		started:   make(chan struct{}),
	}
	if cfg.InProcess {
		ecfg.RefillParallel = cfg.MaxConcurrent
		s.exec = &inProcess{cfg: ecfg, log: log, slots: make(chan struct{}, cfg.MaxConcurrent)}
	} else {
		s.exec = newProcPool(ecfg, cfg.MaxConcurrent, cfg.Timeout, log)
	}
	return s, nil
}

// Config returns the configuration the sandbox runs with.
func (s *Sandbox) Config() Config { return s.cfg }

// Warm compiles the interpreter (from the disk cache when it can, about
// 0.3 s, else about 7 s), starts the workers and fills the warm pool,
// calling progress (if not nil) with a line for a log at each step. Run and
// Grade work before Warm ends, starting cold. Ready reports true once Warm
// has succeeded; then the snapshot start, if on, images its interpreters
// in the background (see WaitSnapshot).
func (s *Sandbox) Warm(ctx context.Context, progress func(msg string)) error {
	if progress == nil {
		progress = func(string) {}
	}
	t := time.Now()
	if err := s.start(ctx, progress); err != nil {
		return err
	}
	if err := s.exec.waitPool(ctx, progress); err != nil {
		if failed := s.failed(); failed != nil {
			return failed
		}
		return fmt.Errorf("sandbox: fill warm pool: %w", err)
	}
	s.ready.Store(true)
	progress(fmt.Sprintf("sandbox ready in %v", time.Since(t).Round(time.Millisecond)))
	// Ready with the fresh start; the images come next, in the background,
	// so that a cold cache is ready as soon as without them.
	if s.snapErr == nil {
		s.exec.upgrade()
	}
	return nil
}

// WaitSnapshot waits until every interpreter starts from a snapshot image
// (see Config.SnapshotWasm), which happens in the background after Warm
// has filled the pool, and returns nil; or returns why the snapshot start
// is off (turned off, no instrumented module, or imaging failed), or ctx's
// error. Grading works all the while, with the fresh start until then.
func (s *Sandbox) WaitSnapshot(ctx context.Context) error {
	if s.moduleErr != nil {
		return s.moduleErr
	}
	if s.snapErr != nil {
		return s.snapErr
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		on, err := s.exec.snapshotState()
		switch {
		case err != nil:
			return err
		case on:
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Ready reports whether Warm has finished.
func (s *Sandbox) Ready() bool { return s.ready.Load() && !s.closed.Load() }

func (s *Sandbox) start(ctx context.Context, progress func(string)) error {
	s.startOnce.Do(func() {
		s.startErr = s.startExec(ctx, progress)
		close(s.started)
	})
	<-s.started
	return s.startErr
}

// Run runs a whole program once with stdin, under the same limits as
// grading. A program that fails or hits a limit is not an error: see
// RunResult. Errors: ErrCodeTooLarge, ErrBusy, ErrClosed, ctx's error, or
// ErrUnavailable (an *UnavailableError, returned at once) when the
// interpreter is missing or failed to load.
func (s *Sandbox) Run(ctx context.Context, code, stdin string) (RunResult, error) {
	t := time.Now()
	tr, end, err := s.submit(ctx, code, []string{stdin})
	if err != nil {
		return RunResult{}, err
	}
	res := runResult(tr, end, s.cfg.limits())
	res.Elapsed = time.Since(t)
	return res, nil
}

// Grade runs every case of one submission in one fresh interpreter, each
// with its own stdin, captured output and fresh globals, and judges each
// case in Go against its expected output, which the guest never sees.
// Cases that are not hidden run first, and each case's input enters the
// interpreter only when that case starts, so code can never print a hidden
// input into a case the learner sees. Cases after one that used up the
// time are reported as timeouts, not run. The report holds everything
// about hidden cases too, in the order given: send a learner
// Report.Redacted. Errors are those of Run.
func (s *Sandbox) Grade(ctx context.Context, code string, cases []Case, cmp Comparison) (Report, error) {
	order := visibleFirst(len(cases), func(i int) bool { return cases[i].Hidden })
	ordered := make([]Case, len(cases))
	stdins := make([]string, len(cases))
	for i, j := range order {
		ordered[i] = cases[j]
		stdins[i] = cases[j].Stdin
	}
	tr, end, err := s.submit(ctx, code, stdins)
	if err != nil {
		return Report{}, err
	}
	rep := judge(ordered, tr, end, cmp, s.cfg.limits())
	rep.Cases = unorder(rep.Cases, order)
	return rep, nil
}

// visibleFirst returns the indices 0..n-1 with those not hidden first, each
// group in its own order.
func visibleFirst(n int, hidden func(int) bool) []int {
	order := make([]int, 0, n)
	for i := range n {
		if !hidden(i) {
			order = append(order, i)
		}
	}
	for i := range n {
		if hidden(i) {
			order = append(order, i)
		}
	}
	return order
}

// unorder puts results run in order back in the order the caller gave.
func unorder[T any](results []T, order []int) []T {
	if len(results) != len(order) {
		return results
	}
	out := make([]T, len(results))
	for i, j := range order {
		out[j] = results[i]
	}
	return out
}

// submission is one run encoded for the harness.
type submission struct {
	kind   harnessKind
	nonce  string
	first  []byte   // written at once
	later  [][]byte // input of case i+1, written when case i has ended
	ncases int
}

// submit admits, queues and runs one plain submission.
func (s *Sandbox) submit(ctx context.Context, code string, stdins []string) (transcript, execOutcome, error) {
	nonce := newNonce()
	// The harness keeps limit characters of each stream; a character may
	// take 4 bytes, and the host cuts to bytes afterwards.
	limit := s.cfg.MaxOutputBytes
	if len(code) > s.cfg.MaxCodeBytes {
		return transcript{}, execOutcome{}, fmt.Errorf("%w: %d bytes, the limit is %s", ErrCodeTooLarge, len(code), formatBytes(uint64(s.cfg.MaxCodeBytes)))
	}
	first, later := buildStdin(nonce, limit, code, stdins)
	return s.submitRaw(ctx, submission{kind: kindPlain, nonce: nonce, first: first, later: later, ncases: len(stdins)})
}

// errQueueWait is the cause of a queue wait cut at Config.MaxQueueWait.
var errQueueWait = errors.New("sandbox: waited too long for a free slot")

// submitRaw admits, queues and runs one submission.
func (s *Sandbox) submitRaw(ctx context.Context, sub submission) (transcript, execOutcome, error) {
	if s.closed.Load() {
		return transcript{}, execOutcome{}, ErrClosed
	}
	if err := s.failed(); err != nil {
		return transcript{}, execOutcome{}, err
	}
	if err := ctx.Err(); err != nil {
		s.stats.abandoned.Add(1)
		return transcript{}, execOutcome{}, err
	}
	select {
	case s.admit <- struct{}{}:
	default:
		s.stats.busy.Add(1)
		return transcript{}, execOutcome{}, &BusyError{RetryAfter: s.retryAfter()}
	}
	defer func() { <-s.admit }()
	if err := s.start(ctx, func(msg string) { s.log.Info(msg) }); err != nil {
		return transcript{}, execOutcome{}, err
	}
	limit := s.cfg.MaxOutputBytes
	req := execRequest{
		Stdin:   sub.first,
		Later:   sub.later,
		Nonce:   sub.nonce,
		Cases:   sub.ncases,
		Timeout: s.cfg.Timeout,
		// Room for every case's captured streams, traceback and framing
		// (and, in MCP mode, a response and a transcript).
		StdoutCap: (sub.ncases + 1) * (8*limit + 4096),
		StderrCap: 16 << 10,
		Kind:      sub.kind,
	}
	if sub.kind == kindMCP {
		req.StdoutCap += sub.ncases*8*limit + 8*limit
	}
	// The wait for a slot ends at MaxQueueWait, well before an HTTP
	// server's write deadline, or when the caller goes away.
	qctx, cancel := context.WithTimeoutCause(ctx, s.cfg.MaxQueueWait, errQueueWait)
	defer cancel()
	stdout, end, err := s.exec.exec(qctx, req)
	if failed := s.failed(); failed != nil && err == nil && end.Crash != "" {
		// The interpreter did not start for this run, and the executor has
		// just found that it never does: nothing was run.
		return transcript{}, execOutcome{}, failed
	}
	switch {
	case err != nil && ctx.Err() == nil && errors.Is(context.Cause(qctx), errQueueWait):
		s.stats.busy.Add(1)
		return transcript{}, execOutcome{}, &BusyError{RetryAfter: s.retryAfter()}
	case err != nil && ctx.Err() != nil:
		s.stats.abandoned.Add(1)
		return transcript{}, execOutcome{}, err
	case err != nil:
		return transcript{}, execOutcome{}, err
	}
	s.stats.runs.Add(1)
	s.noteRun(end.Ran)
	if end.TimedOut {
		s.stats.timeouts.Add(1)
	}
	if end.Crash != "" {
		// A learner's program that crashes the interpreter (os.abort and
		// the like) is no server failure: count it, keep the detail for
		// debugging.
		s.stats.crashes.Add(1)
		s.log.Debug("sandbox: run ended abnormally", "crash", end.Crash, "stderr", string(end.Stderr))
	}
	return parseFrames(stdout, sub.nonce, sub.ncases), end, nil
}

// noteRun feeds a run's time, from hand-over to its answer (queue wait not
// included), into the moving average Retry-After is estimated from.
func (s *Sandbox) noteRun(d time.Duration) {
	if d <= 0 {
		return
	}
	old := s.avgRun.Load()
	if old == 0 {
		s.avgRun.Store(int64(d))
		return
	}
	s.avgRun.Store(old + (int64(d)-old)/8)
}

// retryAfter estimates when a new submission would get a slot, from the
// submissions admitted now (running and waiting) and the measured run time.
func (s *Sandbox) retryAfter() time.Duration {
	return estimateRetryAfter(time.Duration(s.avgRun.Load()), len(s.admit), s.cfg.MaxConcurrent)
}

// estimateRetryAfter is how long until a submission arriving now would
// run: inflight submissions (running and queued) go through slots at a
// time, each taking avgRun; rounded up to whole seconds, at least one.
func estimateRetryAfter(avgRun time.Duration, inflight, slots int) time.Duration {
	if slots < 1 {
		slots = 1
	}
	waves := (inflight + slots) / slots // the waves ahead, and this one's
	d := avgRun * time.Duration(waves)
	secs := (d + time.Second - 1) / time.Second
	return max(secs*time.Second, time.Second)
}

// Stats are counters since New, for logs and metrics. Learner programs that
// crash or run out of time, and submissions turned away while the sandbox
// is busy, are counted here rather than logged as server errors.
type Stats struct {
	// Runs is the number of submissions run.
	Runs uint64
	// Busy counts submissions turned away with a *BusyError: the queue was
	// full, or the wait reached Config.MaxQueueWait.
	Busy uint64
	// Abandoned counts submissions whose context ended while they waited;
	// they never ran.
	Abandoned uint64
	// Timeouts counts runs stopped at their deadline.
	Timeouts uint64
	// Crashes counts runs whose interpreter crashed (os.abort and the like).
	Crashes uint64
	// InFlight is the number of submissions running or waiting now.
	InFlight int
	// AvgRun is the moving average of run time, queue wait excluded.
	AvgRun time.Duration
}

// Stats returns the counters.
func (s *Sandbox) Stats() Stats {
	return Stats{
		Runs: s.stats.runs.Load(), Busy: s.stats.busy.Load(), Abandoned: s.stats.abandoned.Load(),
		Timeouts: s.stats.timeouts.Load(), Crashes: s.stats.crashes.Load(),
		InFlight: len(s.admit), AvgRun: time.Duration(s.avgRun.Load()),
	}
}

// Close stops the workers and discards the warm pool. Runs in progress end
// with an error or a timeout.
func (s *Sandbox) Close(ctx context.Context) error {
	if s.closed.Swap(true) {
		return nil
	}
	s.startOnce.Do(func() {
		s.startErr = ErrClosed
		close(s.started)
	})
	<-s.started
	return s.exec.close(ctx)
}

// runResult turns a one-case transcript into a RunResult.
func runResult(tr transcript, end execOutcome, l limits) RunResult {
	var r RunResult
	if tr.Syntax != "" {
		r.Stderr = tr.Syntax
		r.ExitCode = 1
		r.Message = syntaxMessage(tr.Syntax)
		return r
	}
	var g guestCase
	if len(tr.Cases) > 0 {
		g = tr.Cases[0]
	}
	out, outCut := actualOutput(g, l)
	r.Stdout = out
	errText, errCut := capText(string(g.Stderr), l.OutputCap)
	if errCut || g.StderrCut {
		errText += outputCutMarker(l)
		errCut = true
	}
	var sb strings.Builder
	sb.WriteString(errText)
	sb.WriteString(g.Traceback)
	r.Stderr = sb.String()
	switch {
	case g.Ended && g.Status == statusMemory:
		r.ExitCode, r.Limit = 1, LimitMemory
		r.Stderr += "MemoryError\n"
		r.Message = fmt.Sprintf("Your program used more than %s of memory: look for a list or string that grows without bound.", l.Memory)
	case g.Ended:
		r.ExitCode = g.ExitCode
		if outCut || errCut {
			r.Limit = LimitOutput
			r.Message = fmt.Sprintf("Your program printed more than %s, so the output was cut: look for a print inside a loop that never ends.", l.Output)
		} else if g.Status == statusError {
			r.Message = errorMessage(g.Traceback)
		}
	case end.TimedOut:
		r.ExitCode, r.Limit = -1, LimitTime
		r.Message = fmt.Sprintf("Your program ran for more than %s and was stopped: look for a loop that never ends, or input() waiting for a line that never comes.", l.Timeout)
	case end.Flood:
		r.ExitCode, r.Limit = -1, LimitOutput
		r.Message = fmt.Sprintf("Your program printed more than %s and was stopped: look for a print inside a loop that never ends.", l.Output)
	case memoryExhausted(end):
		r.ExitCode, r.Limit = -1, LimitMemory
		r.Message = fmt.Sprintf("Your program used more than %s of memory and was stopped: look for a list or string that grows without bound.", l.Memory)
	default:
		r.ExitCode = end.ExitCode
		if r.ExitCode == 0 {
			r.ExitCode = -1
		}
		r.Message = fmt.Sprintf("The interpreter stopped before your program finished (exit code %d).", end.ExitCode)
	}
	return r
}

// inProcess runs interpreters in this process; wazero's CloseOnContextDone
// stops them at their deadline.
type inProcess struct {
	cfg   engineConfig
	log   *slog.Logger
	e     *engine
	slots chan struct{}
	mu    sync.Mutex
	pool  chan struct{} // closed and replaced when the pool count changes or the engine gives up
	// failErr is why the interpreter never starts, once the engine says so.
	failErr error
}

func (p *inProcess) start(ctx context.Context, progress func(string)) error {
	t := time.Now()
	progress("compiling the interpreter (about 7 s the first time, then from the cache)")
	e, err := openEngine(ctx, p.cfg)
	if err != nil {
		return err
	}
	progress(fmt.Sprintf("interpreter compiled in %v", time.Since(t).Round(time.Millisecond)))
	p.mu.Lock()
	p.e = e
	p.pool = make(chan struct{})
	p.mu.Unlock()
	changed := func() {
		close(p.pool)
		p.pool = make(chan struct{})
	}
	e.fill(func(int) {
		p.mu.Lock()
		changed()
		p.mu.Unlock()
	}, func(err error) {
		p.mu.Lock()
		p.failErr = err
		changed()
		p.mu.Unlock()
	})
	return nil
}

func (p *inProcess) upgrade() {
	p.mu.Lock()
	e := p.e
	p.mu.Unlock()
	if e == nil {
		return
	}
	e.beginUpgrade(func(err error) {
		if err != nil {
			p.log.Warn("sandbox: the snapshot start is off; interpreters start fresh for every submission", "err", err)
			return
		}
		p.log.Info("sandbox: interpreters start from snapshot images")
	})
}

func (p *inProcess) snapshotState() (bool, error) {
	p.mu.Lock()
	e := p.e
	p.mu.Unlock()
	if e == nil {
		return false, nil
	}
	return e.snapshotState()
}

func (p *inProcess) broken() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failErr
}

func (p *inProcess) waitPool(ctx context.Context, progress func(string)) error {
	last := -1
	for {
		p.mu.Lock()
		ch, failed := p.pool, p.failErr
		p.mu.Unlock()
		if failed != nil {
			return failed
		}
		n := p.e.parkedCount()
		if n != last {
			last = n
			progress(fmt.Sprintf("warm pool %d/%d", n, p.cfg.PoolSize+p.cfg.MCPPoolSize))
		}
		if n >= p.cfg.PoolSize+p.cfg.MCPPoolSize {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (p *inProcess) exec(ctx context.Context, req execRequest) ([]byte, execOutcome, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, execOutcome{}, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		<-p.slots
		return nil, execOutcome{}, err
	}
	t := time.Now()
	var mu sync.Mutex
	var stdout bytes.Buffer
	out, settled := p.e.exec(req, func(bool) { t = time.Now() }, func(b []byte) {
		mu.Lock()
		stdout.Write(b)
		mu.Unlock()
	})
	out.Ran = time.Since(t)
	// The slot is free once the interpreter has really ended.
	if settled == nil {
		<-p.slots
	} else {
		go func() {
			<-settled
			<-p.slots
		}()
	}
	if out.Crash != "" && out.ExitCode == -1 && strings.Contains(out.Crash, ErrClosed.Error()) {
		return nil, out, ErrClosed
	}
	mu.Lock()
	defer mu.Unlock()
	return bytes.Clone(stdout.Bytes()), out, nil
}

func (p *inProcess) close(ctx context.Context) error {
	if p.e == nil {
		return nil
	}
	return p.e.close(ctx)
}
