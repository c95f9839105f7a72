//go:build release

package sandbox

import "embed"

// builtin holds the interpreter in a release build, and the one
// instrumented for the snapshot start. `make build` copies the npm
// package's python.wasm and the instrumented module `make snapshot` builds
// to pywasm/ (ignored by git) first; without them this file does not
// compile, so a release build cannot lack them. Both are embedded, not the
// instrumented one alone: RATIONALE.md ("The snapshot start by default")
// has the figures.
//
//go:embed pywasm/python.wasm pywasm/python-asyncify.wasm
var builtin embed.FS

// builtinModule returns the embedded interpreter.
func builtinModule() ([]byte, bool) {
	b, err := builtin.ReadFile("pywasm/" + ModuleFile)
	return b, err == nil
}

// builtinSnapshotModule returns the embedded instrumented interpreter.
func builtinSnapshotModule() ([]byte, bool) {
	b, err := builtin.ReadFile("pywasm/" + SnapshotModuleFile)
	return b, err == nil
}
