package sandbox

import "syscall"

// workerSysProcAttr makes the kernel kill a worker whose supervisor died:
// a worker running a spinning guest would not notice its closed stdin.
func workerSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
