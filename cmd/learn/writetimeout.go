package main

import (
	"time"

	"learn/sandbox"
)

// writeTimeout is the HTTP write timeout for a sandbox configuration: past
// the longest a graded request can take (the sandbox's queue wait,
// sandbox.Config.MaxQueueWait, then 30 s for a worker to start a cold
// interpreter and the run itself) with time to answer, so that every
// queued request gets its response, 200 or 503. At least 60 s.
func writeTimeout(sb sandbox.Config) time.Duration {
	return max(sb.MaxQueueWait+30*time.Second+sb.Timeout+15*time.Second, 60*time.Second)
}
