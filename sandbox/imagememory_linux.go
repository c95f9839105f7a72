package sandbox

import (
	"fmt"
	"os"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// imageMemory holds a snapshot image in a memory file (memfd). Each
// restored instance maps the file privately: pages are shared with the
// image until the instance writes to them, and then copied for it alone,
// so a submission pays for the pages it touches, not for the whole image,
// and nothing it writes reaches the file or another instance.
type imageMemory struct {
	f    *os.File
	size int64 // bytes of image; the file is sparse up to its end
}

// imageMemorySupported reports whether restored instances can map images.
func imageMemorySupported() bool { return true }

// newImageMemory copies b into a new memory file.
func newImageMemory(b []byte) (*imageMemory, error) {
	fd, err := unix.MemfdCreate("learn-image", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %w", err)
	}
	f := os.NewFile(uintptr(fd), "learn-image")
	if _, err := f.WriteAt(b, 0); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("write the image: %w", err)
	}
	return &imageMemory{f: f, size: int64(len(b))}, nil
}

func (m *imageMemory) close() { _ = m.f.Close() }

func (m *imageMemory) allocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(m.allocate)
}

// allocate maps the file privately over the whole memory limit. Past the
// image the file is grown (a hole, read as zeros and costing nothing), so
// that growing memory never touches a page beyond the file's end.
func (m *imageMemory) allocate(_, max uint64) experimental.LinearMemory {
	if st, err := m.f.Stat(); err != nil || uint64(st.Size()) < max {
		if err := m.f.Truncate(int64(max)); err != nil {
			return failedMemory{}
		}
	}
	b, err := syscall.Mmap(int(m.f.Fd()), 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|mapNoReserve)
	if err != nil {
		return failedMemory{}
	}
	return &cowMemory{buf: b}
}

// cowMemory is one instance's private mapping of an image.
type cowMemory struct{ buf []byte }

func (c *cowMemory) Reallocate(size uint64) []byte {
	if c.buf == nil || size > uint64(len(c.buf)) {
		return nil
	}
	return c.buf[:size:size]
}

func (c *cowMemory) Free() {
	if c.buf != nil {
		_ = syscall.Munmap(c.buf)
		c.buf = nil
	}
}
