//go:build unix

package sandbox

import (
	"syscall"
	"time"
)

// selfCPU is the user and system time this process has used, not its
// children's.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
