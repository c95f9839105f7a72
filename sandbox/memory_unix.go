//go:build unix

package sandbox

import (
	"sync"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// memPool backs each instance's linear memory with one anonymous mapping of
// the memory limit's size, and keeps a few mappings of finished instances,
// zeroed, for the next ones.
//
// Why: with wazero's default (a Go slice grown by append) a guest filling
// 50 MiB took 2 s and 4 s of CPU, as every growth copied and churned the
// garbage collector. A mapping never moves or copies. And in a virtual
// machine page faults are dear: they were a quarter of an interpreter's
// start-up, so the mappings ask for huge pages and are reused while their
// pages are resident. Reuse is safe because Free zeroes every byte the
// guest could reach: wazero bounds-checks each access against the length
// Reallocate returned, and the high-water mark of those lengths is cleared.
type memPool struct {
	mu   sync.Mutex
	free []*mmapMemory
	keep int
}

func newMemPool(keep int) *memPool { return &memPool{keep: keep} }

func (p *memPool) allocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(p.allocate)
}

func (p *memPool) allocate(_, max uint64) experimental.LinearMemory {
	p.mu.Lock()
	for len(p.free) > 0 {
		m := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		if uint64(len(m.buf)) == max {
			p.mu.Unlock()
			return m
		}
		m.unmap()
	}
	p.mu.Unlock()
	b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve)
	if err != nil {
		return failedMemory{}
	}
	adviseHuge(b)
	return &mmapMemory{buf: b, pool: p}
}

// close unmaps the kept mappings.
func (p *memPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.free {
		m.unmap()
	}
	p.free = nil
}

type mmapMemory struct {
	buf  []byte
	high uint64 // the most bytes Reallocate ever handed out
	pool *memPool
}

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	m.high = max(m.high, size)
	return m.buf[:size:size]
}

func (m *mmapMemory) Free() {
	if m.buf == nil {
		return
	}
	clear(m.buf[:m.high])
	m.high = 0
	p := m.pool
	p.mu.Lock()
	if len(p.free) < p.keep {
		p.free = append(p.free, m)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	m.unmap()
}

func (m *mmapMemory) unmap() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}

// failedMemory makes instantiation fail cleanly when mmap does.
type failedMemory struct{}

func (failedMemory) Reallocate(uint64) []byte { return nil }
func (failedMemory) Free()                    {}
