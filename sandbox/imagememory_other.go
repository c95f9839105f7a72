//go:build !linux

package sandbox

import (
	"errors"

	"github.com/tetratelabs/wazero/experimental"
)

// imageMemory is unavailable without memory files: the snapshot start
// falls back to today's start.
type imageMemory struct{}

func imageMemorySupported() bool { return false }

func newImageMemory([]byte) (*imageMemory, error) {
	return nil, errors.New("the snapshot start needs Linux (memory files)")
}

func (*imageMemory) close()                                  {}
func (*imageMemory) allocator() experimental.MemoryAllocator { return nil }
