package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing/fstest"

	"github.com/tetratelabs/wazero"
)

// Precompiled bytecode. Without it every interpreter compiles the harness
// and the MCP teaching module from source, and reads each standard-library
// module it imports from the zip inside the interpreter (inflate, unmarshal,
// and a search of sys.path per module). Instead, the first interpreter an
// engine starts compiles the harness and the teaching module, imports what
// they and the course's programs need, and writes all their code objects in
// one marshal blob; every later interpreter gets that blob read-only at
// bytecodePath and loads from it. The blob is cached beside the compiled
// interpreter, keyed by the interpreter and both sources. RATIONALE.md has
// the figures.

// bytecodeDir is where the blob is mounted in the guest, read-only.
const (
	bytecodeDir  = "/learn"
	bytecodeFile = "code.bin"
)

// bytecodeGen runs in a bare interpreter: stdin holds the lengths of the
// harness and of the teaching module on a line, then both sources; stdout
// gets the marshal blob: {"harness": code, "mcp": code, "stdlib": {name:
// (is_package, code, origin)}}, each code marshalled on its own so that an
// interpreter unmarshals only the modules it imports.
const bytecodeGen = `import os, sys, marshal, zipimport
data = b""
while True:
    b = os.read(0, 1 << 20)
    if not b:
        break
    data += b
nl = data.index(b"\n")
hl, ml = map(int, data[:nl].split())
hsrc = data[nl + 1:nl + 1 + hl].decode()
msrc = data[nl + 1 + hl:nl + 1 + hl + ml].decode()
mcode = compile(msrc, "mcp/__init__.py", "exec")
out = {"harness": marshal.dumps(compile(hsrc, "<string>", "exec")), "mcp": marshal.dumps(mcode)}
m = type(sys)("mcp")
m.__path__ = []
m.__file__ = "mcp/__init__.py"
sys.modules["mcp"] = m
exec(mcode, m.__dict__)
import asyncio, dataclasses, datetime, inspect, json, re, typing
std = {}
for name, mod in list(sys.modules.items()):
    spec = getattr(mod, "__spec__", None)
    loader = getattr(spec, "loader", None)
    if isinstance(loader, zipimport.zipimporter):
        std[name] = (loader.is_package(name), marshal.dumps(loader.get_code(name)), spec.origin)
out["stdlib"] = std
b = marshal.dumps(out)
while b:
    b = b[os.write(1, b):]
os._exit(0)
`

// bytecodeBoot is the interpreter's -c program when the blob is mounted:
// it runs the harness's code object in __main__, with the blob at hand.
var bytecodeBoot = `import marshal
with open("` + bytecodeDir + `/` + bytecodeFile + `", "rb") as _f:
    _B = marshal.loads(_f.read())
del _f
exec(marshal.loads(_B["harness"]))
`

// bytecodeFS returns the read-only file system holding the blob for the
// interpreters of this engine: from the cache if it is there, else made by
// one interpreter and cached.
func bytecodeFS(ctx context.Context, cfg engineConfig, rt wazero.Runtime, compiled wazero.CompiledModule, wasmSum [32]byte) (fs.FS, error) {
	h := sha256.New()
	h.Write(wasmSum[:])
	for _, s := range []string{harnessSource, mcpSource, bytecodeGen} {
		h.Write([]byte(strconv.Itoa(len(s)) + "\n" + s))
	}
	key := hex.EncodeToString(h.Sum(nil))[:32]
	var path string
	if cfg.CacheDir != "" {
		path = filepath.Join(cfg.CacheDir, "bytecode-"+key+".bin")
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return blobFS(b), nil
		}
	}
	b, err := makeBytecode(ctx, cfg, rt, compiled)
	if err != nil {
		return nil, err
	}
	if path != "" {
		// Written aside and renamed, so that another worker never reads
		// half a file.
		tmp, err := os.CreateTemp(cfg.CacheDir, "bytecode-*.tmp")
		if err == nil {
			_, werr := tmp.Write(b)
			cerr := tmp.Close()
			if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
				_ = os.Remove(tmp.Name())
			}
		}
	}
	return blobFS(b), nil
}

func blobFS(b []byte) fs.FS {
	return fstest.MapFS{bytecodeFile: &fstest.MapFile{Data: b, Mode: 0o444}}
}

// makeBytecode runs bytecodeGen in a fresh interpreter.
func makeBytecode(ctx context.Context, cfg engineConfig, rt wazero.Runtime, compiled wazero.CompiledModule) ([]byte, error) {
	var in, out, errOut bytes.Buffer
	fmt.Fprintf(&in, "%d %d\n%s%s", len(harnessSource), len(mcpSource), harnessSource, mcpSource)
	mc := wazero.NewModuleConfig().
		WithName("").
		WithArgs("python", "-S", "-c", bytecodeGen).
		WithStdin(&in).
		WithStdout(&out).
		WithStderr(&errOut).
		WithSysWalltime().
		WithSysNanotime()
	mod, err := rt.InstantiateModule(ctx, compiled, mc)
	if mod != nil {
		_ = mod.Close(ctx)
	}
	if out.Len() == 0 {
		// The engine's first interpreter: one that cannot do this will not
		// start a harness either.
		se := &startError{err: err, stderr: errOut.Bytes(), before: "without printing the precompiled harness"}
		return nil, fmt.Errorf("sandbox: the interpreter from %s compiles but does not start (is it the CPython for WASI module?): %s: %s", cfg.moduleName(), se.detail(), installHint)
	}
	return out.Bytes(), nil
}
