//go:build !release

package sandbox

// builtinModule reports that this build embeds no interpreter: the module
// is found on disk (see locateModule). Build with -tags release (make
// build) to embed it.
func builtinModule() ([]byte, bool) { return nil, false }

// builtinSnapshotModule reports that this build embeds no instrumented
// interpreter either (see locateSnapshot).
func builtinSnapshotModule() ([]byte, bool) { return nil, false }
