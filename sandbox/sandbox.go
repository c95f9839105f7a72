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

	startOnce sync.Once
	startErr  error
	started   chan struct{}
	ready     atomic.Bool
	closed    atomic.Bool

	exec executor

	avgRun atomic.Int64 // nanoseconds, a moving average for Retry-After
}

// executor runs one request somewhere: in this process or in a worker.
type executor interface {
	start(ctx context.Context, progress func(string)) error
	waitPool(ctx context.Context, progress func(string)) error
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
	ecfg := engineConfig{
		WasmPath:           module.Path,
		WasmBuiltIn:        module.BuiltIn,
		CacheDir:           usableCacheDir(cfg.CacheDir, log),
		MemoryLimitPages:   uint32(cfg.MemoryLimitBytes / wasmPageSize),
		CloseOnContextDone: cfg.InProcess,
		PoolSize:           cfg.PoolSize,
		MCPPoolSize:        cfg.MCPPoolSize,
		RefillParallel:     1,
	}
	s := &Sandbox{
		cfg:       cfg,
		log:       log,
		module:    module,
		moduleErr: moduleErr,
		admit:     make(chan struct{}, cfg.MaxConcurrent+cfg.QueueSize),
		started:   make(chan struct{}),
	}
	if cfg.InProcess {
		ecfg.RefillParallel = cfg.MaxConcurrent
		s.exec = &inProcess{cfg: ecfg, slots: make(chan struct{}, cfg.MaxConcurrent)}
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
// has succeeded.
func (s *Sandbox) Warm(ctx context.Context, progress func(msg string)) error {
	if progress == nil {
		progress = func(string) {}
	}
	t := time.Now()
	if err := s.start(ctx, progress); err != nil {
		return err
	}
	if err := s.exec.waitPool(ctx, progress); err != nil {
		return fmt.Errorf("sandbox: fill warm pool: %w", err)
	}
	s.ready.Store(true)
	progress(fmt.Sprintf("sandbox ready in %v", time.Since(t).Round(time.Millisecond)))
	return nil
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
// Cases after one that used up the time are reported as timeouts, not run.
// The report holds everything about hidden cases too: send a learner
// Report.Redacted. Errors are those of Run.
func (s *Sandbox) Grade(ctx context.Context, code string, cases []Case, cmp Comparison) (Report, error) {
	stdins := make([]string, len(cases))
	for i, c := range cases {
		stdins[i] = c.Stdin
	}
	tr, end, err := s.submit(ctx, code, stdins)
	if err != nil {
		return Report{}, err
	}
	return judge(cases, tr, end, cmp, s.cfg.limits()), nil
}

// submit admits, queues and runs one submission.
func (s *Sandbox) submit(ctx context.Context, code string, stdins []string) (transcript, execOutcome, error) {
	nonce := newNonce()
	// The harness keeps limit characters of each stream; a character may
	// take 4 bytes, and the host cuts to bytes afterwards.
	limit := s.cfg.MaxOutputBytes
	if len(code) > s.cfg.MaxCodeBytes {
		return transcript{}, execOutcome{}, fmt.Errorf("%w: %d bytes, the limit is %s", ErrCodeTooLarge, len(code), formatBytes(uint64(s.cfg.MaxCodeBytes)))
	}
	return s.submitRaw(ctx, kindPlain, nonce, buildStdin(nonce, limit, code, stdins), len(stdins))
}

// submitRaw admits, queues and runs one submission already encoded for
// the harness as stdin, with ncases cases.
func (s *Sandbox) submitRaw(ctx context.Context, kind harnessKind, nonce string, stdin []byte, ncases int) (transcript, execOutcome, error) {
	if s.closed.Load() {
		return transcript{}, execOutcome{}, ErrClosed
	}
	if err := s.failed(); err != nil {
		return transcript{}, execOutcome{}, err
	}
	select {
	case s.admit <- struct{}{}:
	default:
		return transcript{}, execOutcome{}, &BusyError{RetryAfter: s.retryAfter()}
	}
	defer func() { <-s.admit }()
	if err := s.start(ctx, func(msg string) { s.log.Info(msg) }); err != nil {
		return transcript{}, execOutcome{}, err
	}
	limit := s.cfg.MaxOutputBytes
	req := execRequest{
		Stdin:   stdin,
		Timeout: s.cfg.Timeout,
		// Room for every case's captured streams, traceback and framing
		// (and, in MCP mode, a response and a transcript).
		StdoutCap:  (ncases + 1) * (8*limit + 4096),
		StderrCap:  16 << 10,
		DoneMarker: doneFrame(nonce),
		Kind:       kind,
	}
	if kind == kindMCP {
		req.StdoutCap += ncases*8*limit + 8*limit
	}
	t := time.Now()
	stdout, end, err := s.exec.exec(ctx, req)
	if err != nil {
		return transcript{}, execOutcome{}, err
	}
	s.noteRun(time.Since(t))
	if end.Crash != "" {
		s.log.Warn("sandbox: run ended abnormally", "crash", end.Crash, "stderr", string(end.Stderr))
	}
	return parseFrames(stdout, nonce, ncases), end, nil
}

func (s *Sandbox) noteRun(d time.Duration) {
	old := s.avgRun.Load()
	if old == 0 {
		s.avgRun.Store(int64(d))
		return
	}
	s.avgRun.Store(old + (int64(d)-old)/8)
}

// retryAfter estimates when a slot frees up: the queue's length of runs
// spread over the slots, at least one second.
func (s *Sandbox) retryAfter() time.Duration {
	d := time.Duration(s.avgRun.Load()) * time.Duration(len(s.admit)) / time.Duration(s.cfg.MaxConcurrent)
	return max(d.Round(time.Second), time.Second)
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
	e     *engine
	slots chan struct{}
	mu    sync.Mutex
	pool  chan struct{} // closed and replaced when the pool count changes
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
	e.fill(func(int) {
		p.mu.Lock()
		close(p.pool)
		p.pool = make(chan struct{})
		p.mu.Unlock()
	})
	return nil
}

func (p *inProcess) waitPool(ctx context.Context, progress func(string)) error {
	last := -1
	for {
		p.mu.Lock()
		ch := p.pool
		p.mu.Unlock()
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
	var mu sync.Mutex
	var stdout bytes.Buffer
	out, settled := p.e.exec(req, nil, func(b []byte) {
		mu.Lock()
		stdout.Write(b)
		mu.Unlock()
	})
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
