//go:build release

package sandbox

import "embed"

// builtin holds the interpreter in a release build. `make build` copies
// the npm package's python.wasm to pywasm/ (ignored by git) first; without
// it this file does not compile, so a release build cannot lack it.
//
//go:embed pywasm/python.wasm
var builtin embed.FS

// builtinModule returns the embedded interpreter.
func builtinModule() ([]byte, bool) {
	b, err := builtin.ReadFile("pywasm/" + ModuleFile)
	return b, err == nil
}
