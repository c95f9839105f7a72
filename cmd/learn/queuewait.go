package main

import (
	"context"
	"errors"
	"time"

	"learn/grading"
	"learn/sandbox"
)

// defaultRunWait is how long a run may wait for a free sandbox slot before
// the server answers 503: long enough to ride out a burst of submissions,
// short enough that the learner is told rather than left waiting.
const defaultRunWait = 20 * time.Second

// queueBound is the sandbox with a bound on how long a run waits for a free
// slot: past wait, a waiting run leaves the queue and fails with a
// *sandbox.BusyError, which the server answers 503 with Retry-After. The
// sandbox stops waiting at a context's deadline but never cuts a run that
// has started, so the bound covers the wait alone.
type queueBound struct {
	grading.Runner
	wait time.Duration
}

// Grade implements grading.Runner.
func (q queueBound) Grade(ctx context.Context, code string, cases []sandbox.Case, cmp sandbox.Comparison) (sandbox.Report, error) {
	bounded, cancel := context.WithTimeout(ctx, q.wait)
	defer cancel()
	rep, err := q.Runner.Grade(bounded, code, cases, cmp)
	return rep, q.busy(ctx, err)
}

// GradeMCP implements grading.Runner.
func (q queueBound) GradeMCP(ctx context.Context, code string, calls []sandbox.MCPCall, opt sandbox.MCPOptions) (sandbox.MCPReport, error) {
	bounded, cancel := context.WithTimeout(ctx, q.wait)
	defer cancel()
	rep, err := q.Runner.GradeMCP(bounded, code, calls, opt)
	return rep, q.busy(ctx, err)
}

// Run implements grading.Runner.
func (q queueBound) Run(ctx context.Context, code, stdin string) (sandbox.RunResult, error) {
	bounded, cancel := context.WithTimeout(ctx, q.wait)
	defer cancel()
	res, err := q.Runner.Run(bounded, code, stdin)
	return res, q.busy(ctx, err)
}

// busy turns the bound's own deadline into a BusyError; the caller's
// cancellation (a client gone) stays as it is.
func (q queueBound) busy(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &sandbox.BusyError{RetryAfter: q.wait / 4}
}

// writeTimeout is the HTTP write timeout for a sandbox configuration: past
// the longest a graded request can take (the queue wait, 30 s for a worker
// to start a cold interpreter, the run itself) with time to answer, so that
// every queued request gets its response, 200 or 503. At least 60 s.
func writeTimeout(runWait time.Duration, sb sandbox.Config) time.Duration {
	return max(runWait+30*time.Second+sb.Timeout+15*time.Second, 60*time.Second)
}
