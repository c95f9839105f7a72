//go:build !linux

package sandbox

import "syscall"

// workerSysProcAttr is nil where there is no parent-death signal; a worker
// then exits when it next reads its closed stdin.
func workerSysProcAttr() *syscall.SysProcAttr { return nil }
