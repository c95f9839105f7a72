package sandbox

import (
	"context"
	"errors"
	"strings"
)

var (
	// ErrUnavailable means the interpreter could not be found or loaded, so
	// nothing can run until an operator fixes it and restarts: answer 503
	// with the reason. Run, Grade and GradeMCP return it at once, and
	// ReadyErr reports it. Test with errors.Is; errors.As with an
	// *UnavailableError gives the reason alone.
	ErrUnavailable = errors.New("sandbox: Python is unavailable")
	// ErrWarmingUp is ReadyErr's answer while the interpreter compiles and
	// the warm pool fills. Runs still work meanwhile, starting cold.
	ErrWarmingUp = errors.New("sandbox: the Python interpreter is still warming up")
)

// UnavailableError is the error for an interpreter that could not be found
// or loaded. It matches ErrUnavailable with errors.Is.
type UnavailableError struct {
	// Reason says what failed and how to fix it, in one line, for example
	// "python.wasm not found at /srv/python.wasm: run `make setup` …". It
	// names server paths: show it to operators and teachers.
	Reason string
	// Err is the underlying failure, if any.
	Err error
}

func (e *UnavailableError) Error() string        { return ErrUnavailable.Error() + ": " + e.Reason }
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }
func (e *UnavailableError) Unwrap() error        { return e.Err }

func unavailable(reason string, err error) *UnavailableError {
	return &UnavailableError{Reason: reason, Err: err}
}

// ReadyErr reports whether the sandbox is ready: nil once Warm has
// succeeded; an *UnavailableError (errors.Is ErrUnavailable) once the
// interpreter is known to be missing, to fail to load, or to compile but
// never start (maxFailedStarts starts in a row failed, none ever
// succeeded), which Run, Grade and GradeMCP then return too; ErrClosed
// after Close; else ErrWarmingUp.
func (s *Sandbox) ReadyErr() error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := s.failed(); err != nil {
		return err
	}
	if s.ready.Load() {
		return nil
	}
	return ErrWarmingUp
}

// failed returns the *UnavailableError that keeps the sandbox from running
// anything, or nil: the interpreter is missing, does not load, or compiles
// but never starts. It never waits.
func (s *Sandbox) failed() error {
	if s.moduleErr != nil {
		return s.moduleErr
	}
	select {
	case <-s.started:
		if errors.Is(s.startErr, ErrUnavailable) {
			return s.startErr
		}
	default:
	}
	if u := s.notStarting.Load(); u != nil {
		return u
	}
	if err := s.exec.broken(); err != nil {
		s.notStarting.CompareAndSwap(nil, asUnavailable(err))
		return s.notStarting.Load()
	}
	return nil
}

// startExec starts the executor on the located interpreter. A failure
// other than cancellation or Close is an *UnavailableError: nothing can
// run after it.
func (s *Sandbox) startExec(ctx context.Context, progress func(string)) error {
	if s.moduleErr != nil {
		return s.moduleErr
	}
	progress("interpreter: " + s.module.String())
	if s.snapErr != nil && !errors.Is(s.snapErr, errSnapshotOff) {
		s.log.Warn("sandbox: the snapshot start is off; interpreters start fresh for every submission", "err", s.snapErr)
	}
	err := s.exec.start(ctx, progress)
	switch {
	case err == nil, errors.Is(err, ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return asUnavailable(err)
}

// asUnavailable makes err, which says what failed and what to do, the
// reason of an *UnavailableError.
func asUnavailable(err error) *UnavailableError {
	return unavailable(strings.TrimPrefix(err.Error(), "sandbox: "), err)
}
