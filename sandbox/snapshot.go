package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// The snapshot start (Config.SnapshotWasm; RATIONALE.md has the route and
// its figures). The interpreter module, instrumented by binaryen's asyncify
// pass for calls that reach WASI's fd_read, can unwind its whole call stack
// into linear memory and rewind it later. An engine runs one interpreter of
// each kind until the harness first reads stdin, where it waits for a
// submission, before any learner code or secret: there, a listener on the
// host's fd_read starts an unwind, _start returns, and the memory and the
// shadow stack pointer are the kind's image. Each submission then gets a
// new instance whose memory is a private copy-on-write mapping of the
// image; the host sets the stack pointer, starts a rewind and calls _start
// again; the listener sees the rewind reach fd_read and stops it, and the
// read goes on, now from the submission's stdin.

// minDataStart is where the asyncify data (the unwound call stack) starts:
// the bottom of the shadow stack, clear of address 0. minDataSize is the
// least room it must have.
const (
	minDataStart = 1024
	minDataSize  = 64 << 10
)

// snapPhase is what random_get does for one instance.
type snapPhase int

const (
	phaseRun     snapPhase = iota // answer every call
	phaseCapture                  // unwind at the first read of stdin
	phaseRewind                   // stop the rewind at the first read
)

// snapCall is one instance's snapshot state, reached by the fd_read
// listener through the context of the call into the guest.
type snapCall struct {
	phase snapPhase
	// unwound is set when the capture unwound; data is where the asyncify
	// data (a header, then the saved stack) starts.
	unwound bool
	data    uint32
	err     error
}

type snapCallKey struct{}

// instantiateWASI adds WASI to rt. With park (the snapshot start), its
// fd_read has parkListener, and its random_get draws from the host's
// cryptographic source (see randomGet).
func instantiateWASI(ctx context.Context, rt wazero.Runtime, park bool) error {
	if !park {
		_, err := wasi_snapshot_preview1.Instantiate(ctx, rt)
		return err
	}
	b := rt.NewHostModuleBuilder(wasi_snapshot_preview1.ModuleName)
	wasi_snapshot_preview1.NewFunctionExporter().ExportFunctions(b)
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(randomGet), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		WithParameterNames("buf", "buf_len").
		Export("random_get")
	_, err := b.Instantiate(experimental.WithFunctionListenerFactory(ctx, parkListenerFactory{}))
	return err
}

// parkListenerFactory puts parkListener on fd_read alone.
type parkListenerFactory struct{}

func (parkListenerFactory) NewFunctionListener(def api.FunctionDefinition) experimental.FunctionListener {
	if def.Name() == "fd_read" {
		return parkListener{}
	}
	return nil
}

// parkListener runs before the host's fd_read. An instance being imaged
// unwinds at its first read of stdin (fd 0); its stdin is empty, so the
// read itself returns nothing, and the unwind then takes the interpreter
// back out of _start. A restored instance stops its rewind at its first
// read, which then reads the submission. Every other read is untouched.
type parkListener struct{}

func (parkListener) Before(ctx context.Context, mod api.Module, _ api.FunctionDefinition, params []uint64, _ experimental.StackIterator) {
	sc, _ := ctx.Value(snapCallKey{}).(*snapCall)
	if sc == nil {
		return
	}
	switch {
	case sc.phase == phaseCapture && params[0] == 0 && !sc.unwound:
		sc.unwound = true
		if err := startUnwind(ctx, mod, sc); err != nil {
			sc.err = err
		}
	case sc.phase == phaseRewind:
		sc.phase = phaseRun
		if _, err := mod.ExportedFunction("asyncify_stop_rewind").Call(ctx); err != nil {
			sc.err = fmt.Errorf("sandbox: snapshot start: stop the rewind: %w", err)
		}
	}
}

func (parkListener) After(context.Context, api.Module, api.FunctionDefinition, []uint64) {}

func (parkListener) Abort(context.Context, api.Module, api.FunctionDefinition, error) {}

// WASI errno values random_get returns.
const (
	errnoSuccess = 0
	errnoFault   = 21
	errnoIO      = 29
)

// randomGet is WASI's random_get drawing from the host's cryptographic
// source, so that every instance, even two restored from one image, gets
// its own entropy (wazero's default source repeats the same bytes in
// every instance).
func randomGet(_ context.Context, mod api.Module, stack []uint64) {
	buf, n := api.DecodeU32(stack[0]), api.DecodeU32(stack[1])
	b, ok := mod.Memory().Read(buf, n)
	if !ok {
		stack[0] = errnoFault
		return
	}
	if _, err := rand.Read(b); err != nil {
		stack[0] = errnoIO
		return
	}
	stack[0] = errnoSuccess
}

// startUnwind lays the asyncify data header below the stack pointer and
// starts the unwind. The interpreter is linked with its stack first (the
// stack pointer starts at 512 KiB and grows down towards 0), so all the
// stack below the parked stack pointer is free: the unwound stack goes
// there, between minDataStart and 16 bytes under the stack pointer.
func startUnwind(ctx context.Context, mod api.Module, sc *snapCall) error {
	sp := api.DecodeU32(mod.ExportedGlobal(stackPointerExport).Get())
	end := (sp - 16) &^ 15
	if sp < 16 || end < minDataStart+minDataSize {
		return fmt.Errorf("sandbox: snapshot start: no room below the stack pointer (%d) for the unwound stack", sp)
	}
	start := uint32(minDataStart)
	if !mod.Memory().WriteUint32Le(start, start+8) || !mod.Memory().WriteUint32Le(start+4, end) {
		return errors.New("sandbox: snapshot start: cannot write the asyncify header")
	}
	sc.data = start
	_, err := mod.ExportedFunction("asyncify_start_unwind").Call(ctx, api.EncodeU32(start))
	return err
}

// snapImage is one kind's parked interpreter: its memory, in a file the
// restored instances map copy-on-write, and the values the host sets.
type snapImage struct {
	kind  harnessKind
	mem   *imageMemory
	pages uint32 // memory size in pages
	sp    uint32 // the shadow stack pointer when parked
	data  uint32 // the asyncify data
}

// snapshotSet is what an engine needs to start instances from images.
type snapshotSet struct {
	compiled wazero.CompiledModule
	segs     []dataSegment
	images   [numKinds]*snapImage
}

// openSnapshot compiles the instrumented module and images both kinds.
func (e *engine) openSnapshot(ctx context.Context) (*snapshotSet, error) {
	raw, err := readSnapshotModule(e.cfg)
	if err != nil {
		return nil, err
	}
	mod, segs, err := snapshotModule(raw)
	if err != nil {
		return nil, fmt.Errorf("sandbox: snapshot start: %s: %w", e.cfg.snapshotName(), err)
	}
	unlock := lockCacheDir(e.cfg.CacheDir)
	compiled, err := e.rt.CompileModule(ctx, mod)
	unlock()
	if err != nil {
		return nil, fmt.Errorf("sandbox: snapshot start: compile %s: %w", e.cfg.snapshotName(), err)
	}
	for _, name := range []string{"asyncify_start_unwind", "asyncify_stop_unwind", "asyncify_start_rewind", "asyncify_stop_rewind", "_start"} {
		if _, ok := compiled.ExportedFunctions()[name]; !ok {
			_ = compiled.Close(ctx)
			return nil, fmt.Errorf("sandbox: snapshot start: %s does not export %s (is it instrumented by wasm-opt --asyncify?)", e.cfg.snapshotName(), name)
		}
	}
	set := &snapshotSet{compiled: compiled, segs: segs}
	for kind := range numKinds {
		img, err := e.capture(ctx, set, kind)
		if err != nil {
			set.close(ctx)
			return nil, err
		}
		set.images[kind] = img
	}
	// The segments were for imaging only; they hold the module's bytes.
	set.segs = nil
	return set, nil
}

// readSnapshotModule returns the instrumented interpreter's bytes.
func readSnapshotModule(cfg engineConfig) ([]byte, error) {
	if cfg.SnapshotBuiltIn {
		b, ok := builtinSnapshotModule()
		if !ok {
			return nil, errors.New("sandbox: snapshot start: this program has no built-in instrumented module")
		}
		return b, nil
	}
	b, err := os.ReadFile(cfg.SnapshotWasm)
	if err != nil {
		return nil, fmt.Errorf("sandbox: snapshot start: %w", err)
	}
	return b, nil
}

func (s *snapshotSet) close(ctx context.Context) {
	for _, img := range s.images {
		if img != nil {
			img.mem.close()
		}
	}
	_ = s.compiled.Close(ctx)
}

// capture runs one interpreter of kind to the park point and keeps it as
// the kind's image. Its stdin is empty: nothing per submission exists yet.
func (e *engine) capture(ctx context.Context, set *snapshotSet, kind harnessKind) (*snapImage, error) {
	sc := &snapCall{phase: phaseCapture}
	cctx := context.WithValue(ctx, snapCallKey{}, sc)
	cctx = experimental.WithMemoryAllocator(cctx, segmentAllocator{inner: e.mem.allocator(), segs: set.segs})
	var stdout, stderr bytes.Buffer
	mc := e.moduleConfig(kind, bytes.NewReader(nil), &stdout, &stderr).WithStartFunctions()
	mod, err := e.rt.InstantiateModule(cctx, set.compiled, mc)
	if err != nil {
		return nil, fmt.Errorf("sandbox: snapshot start: instantiate: %w", err)
	}
	defer mod.Close(ctx)
	_, err = mod.ExportedFunction("_start").Call(cctx)
	switch {
	case sc.err != nil:
		return nil, sc.err
	case err != nil || !sc.unwound:
		se := &startError{err: err, stderr: stderr.Bytes(), before: "before it parked"}
		return nil, fmt.Errorf("sandbox: snapshot start: imaging the %s interpreter: %s", kindName(kind), se.detail())
	}
	if _, err := mod.ExportedFunction("asyncify_stop_unwind").Call(cctx); err != nil {
		return nil, fmt.Errorf("sandbox: snapshot start: stop the unwind: %w", err)
	}
	if stdout.Len() > 0 {
		return nil, fmt.Errorf("sandbox: snapshot start: the %s harness wrote %d bytes before it parked", kindName(kind), stdout.Len())
	}
	mem := mod.Memory()
	b, _ := mem.Read(0, mem.Size())
	im, err := newImageMemory(b)
	if err != nil {
		return nil, fmt.Errorf("sandbox: snapshot start: %w", err)
	}
	return &snapImage{
		kind:  kind,
		mem:   im,
		pages: mem.Size() / wasmPageSize,
		sp:    api.DecodeU32(mod.ExportedGlobal(stackPointerExport).Get()),
		data:  sc.data,
	}, nil
}

func kindName(k harnessKind) string {
	if k == kindMCP {
		return "MCP"
	}
	return "plain"
}

// restore runs a new instance from img until _start ends, as
// InstantiateModule runs a fresh one: the harness resumes at its park
// point and reads its submission from mc's stdin.
func (e *engine) restore(ctx context.Context, set *snapshotSet, img *snapImage, mc wazero.ModuleConfig) error {
	sc := &snapCall{phase: phaseRewind}
	rctx := context.WithValue(ctx, snapCallKey{}, sc)
	rctx = experimental.WithMemoryAllocator(rctx, img.mem.allocator())
	mod, err := e.rt.InstantiateModule(rctx, set.compiled, mc.WithStartFunctions())
	if err != nil {
		return err
	}
	defer mod.Close(context.Background())
	mem := mod.Memory()
	if cur := mem.Size() / wasmPageSize; cur < img.pages {
		if _, ok := mem.Grow(img.pages - cur); !ok {
			return fmt.Errorf("sandbox: snapshot start: cannot grow memory to the image's %d pages", img.pages)
		}
	}
	mod.ExportedGlobal(stackPointerExport).(api.MutableGlobal).Set(api.EncodeU32(img.sp))
	if _, err := mod.ExportedFunction("asyncify_start_rewind").Call(rctx, api.EncodeU32(img.data)); err != nil {
		return fmt.Errorf("sandbox: snapshot start: start the rewind: %w", err)
	}
	_, err = mod.ExportedFunction("_start").Call(rctx)
	if sc.err != nil {
		return sc.err
	}
	if sc.phase == phaseRewind && err == nil {
		return errors.New("sandbox: snapshot start: _start returned without rewinding to the park point")
	}
	var exit *sys.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 0 {
		return nil // as InstantiateModule reports a clean exit
	}
	return err
}

// segmentAllocator gives a new memory the module's active data segments,
// which the snapshot module no longer copies in itself.
type segmentAllocator struct {
	inner experimental.MemoryAllocator
	segs  []dataSegment
}

func (a segmentAllocator) Allocate(cap, max uint64) experimental.LinearMemory {
	return &segmentMemory{LinearMemory: a.inner.Allocate(cap, max), segs: a.segs}
}

type segmentMemory struct {
	experimental.LinearMemory
	segs []dataSegment
}

func (m *segmentMemory) Reallocate(size uint64) []byte {
	b := m.LinearMemory.Reallocate(size)
	if m.segs != nil && b != nil {
		for _, s := range m.segs {
			if uint64(s.offset)+uint64(len(s.data)) > uint64(len(b)) {
				return nil
			}
			copy(b[s.offset:], s.data)
		}
		m.segs = nil
	}
	return b
}
