package main

import (
	"os"
	"runtime/debug"
)

// The server's garbage collector settings, unless GOGC or GOMEMLIMIT say
// otherwise. The server's live heap is small (tens of MiB) and a lesson
// page allocates buffers and headers on every request, so at Go's default
// of 100 % the collector ran so often that it cost about a third of each
// page's CPU; at 400 % a page costs about 30 % less CPU and the server
// holds about 30 MiB more. The memory limit makes the collector work
// harder, not fail, as the heap nears it, so the higher percentage never
// lets the heap run past it: under a classroom's grading the server's
// heap grew with 400 % alone (the server and its workers peaked at 552
// MiB in bench/sandbox/run-classroom against 441 MiB at 100 %; 491 MiB
// with a 128 MiB limit, 481 MiB with 96 MiB). 96 MiB was too close to
// what serving pages takes (84 MiB resident): bench-page fell to 0.39 to
// 0.44 of nginx with it, and gave 0.50 to 0.68 with 128 MiB.
const (
	serverGCPercent   = 400
	serverMemoryLimit = 128 << 20
)

// gcSettings returns the collector settings to apply given the
// environment: each is 0 when the environment sets it (the runtime has
// read it already).
func gcSettings(getenv func(string) string) (percent int, limit int64) {
	if getenv("GOGC") == "" {
		percent = serverGCPercent
	}
	if getenv("GOMEMLIMIT") == "" {
		limit = serverMemoryLimit
	}
	return percent, limit
}

// tuneServerGC applies gcSettings to this process; sandbox workers are
// other processes and keep theirs.
func tuneServerGC() {
	percent, limit := gcSettings(os.Getenv)
	if percent > 0 {
		debug.SetGCPercent(percent)
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
}
