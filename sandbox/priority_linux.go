package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// lowerPriority adds nice to the nice value of every thread of this
// process, up to 19. On Linux a nice value belongs to a thread, and a new
// thread takes its creator's, so each thread there is now is set: twice
// over, for one started during the first pass.
func lowerPriority(nice int) error {
	if nice <= 0 {
		return nil
	}
	// The raw system call answers 20 - nice.
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return fmt.Errorf("read priority: %w", err)
	}
	want := min(20-raw+nice, 19)
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("list threads: %w", err)
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
			if err != nil {
				continue // the thread has ended
			}
			if 20-raw >= want {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, want); err != nil {
				return fmt.Errorf("thread %d: %w", tid, err)
			}
		}
	}
	return nil
}
