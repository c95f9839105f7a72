//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockCacheDir takes an exclusive lock shared by every process using the
// compilation cache in dir, and returns what releases it. Workers take it
// around compiling the instrumented module, so that on a cold cache one
// compiles it (about 15 s of CPU) and the others then load it from the
// cache instead of all compiling it at once. Without a cache, or if the
// lock file cannot be opened, it locks nothing.
func lockCacheDir(dir string) (unlock func()) {
	if dir == "" {
		return func() {}
	}
	f, err := os.OpenFile(filepath.Join(dir, cacheSubdir, ".snapshot.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return func() {}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}
}
