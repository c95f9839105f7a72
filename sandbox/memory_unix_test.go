//go:build unix

package sandbox

import (
	"bytes"
	"testing"
)

// TestMemPoolZeroesReusedMemory: a mapping handed to a new instance holds no
// byte of the one before.
func TestMemPoolZeroesReusedMemory(t *testing.T) {
	p := newMemPool(1)
	defer p.close()
	const max = 4 << 20
	a := p.allocate(0, max)
	buf := a.Reallocate(1 << 20)
	buf = a.Reallocate(3 << 20) // grown: the high-water mark is 3 MiB
	for i := range buf {
		buf[i] = 0xAA
	}
	_ = a.Reallocate(1 << 20)
	a.Free()
	b := p.allocate(0, max)
	if b != a {
		t.Fatal("the mapping was not reused")
	}
	full := b.Reallocate(max)
	if i := bytes.IndexByte(full, 0xAA); i >= 0 {
		t.Fatalf("byte %d of the previous instance survived", i)
	}
	if got := b.Reallocate(max + 1); got != nil {
		t.Fatal("Reallocate past the maximum returned memory")
	}
	b.Free()
}
