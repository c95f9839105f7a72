//go:build unix

package sandbox

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapAllocator backs each instance's linear memory with one anonymous
// mapping of the memory limit's size. The kernel supplies zeroed pages as
// the guest touches them, so growing never copies and never involves Go's
// garbage collector. With wazero's default (a Go slice grown by append) a
// guest filling 50 MiB took 2 s of wall time and 4 s of CPU; with this, 0.3 s.
func mmapAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve)
		if err != nil {
			return &failedMemory{}
		}
		return &mmapMemory{buf: b}
	})
}

type mmapMemory struct{ buf []byte }

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}

// failedMemory makes instantiation fail cleanly when mmap does.
type failedMemory struct{}

func (failedMemory) Reallocate(uint64) []byte { return nil }
func (failedMemory) Free()                    {}
