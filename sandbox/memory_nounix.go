//go:build !unix

package sandbox

import "github.com/tetratelabs/wazero/experimental"

// memPool is empty where there is no mmap: wazero's default memory applies.
type memPool struct{}

func newMemPool(int) *memPool                            { return &memPool{} }
func (*memPool) allocator() experimental.MemoryAllocator { return nil }
func (*memPool) close()                                  {}
