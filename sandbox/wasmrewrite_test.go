package sandbox

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func TestSignedLEB(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 63, 64, -64, -65, 524288, -524288, 1 << 30, -1 << 31, 1<<31 - 1} {
		b := appendSLEB(nil, v)
		if want := sleb128(nil, int(v)); !bytes.Equal(b, want) {
			t.Errorf("appendSLEB(%d) = %x, want %x", v, b, want)
		}
		r := &wasmReader{b: b}
		if got := r.s32(); got != v || r.err != nil || len(r.b) != 0 {
			t.Errorf("s32(%x) = %d, %v, rest %x; want %d", b, got, r.err, r.b, v)
		}
	}
	if r := (&wasmReader{b: []byte{0x80, 0x80}}); r.s32() != 0 || r.err == nil {
		t.Error("a truncated integer read without an error")
	}
}

// TestSnapshotModuleRewrite rewrites the real interpreter: the result must
// compile, export the stack pointer with its initial value, and have lost
// the bytes of its active data segments, which come back as segments.
func TestSnapshotModuleRewrite(t *testing.T) {
	wasm, err := os.ReadFile(testConfig(t).WasmPath)
	if err != nil {
		t.Fatal(err)
	}
	secs, err := parseSections(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encodeSections(secs), wasm) {
		t.Fatal("parsing and encoding the sections does not give the module back")
	}
	out, segs, err := snapshotModule(wasm)
	if err != nil {
		t.Fatal(err)
	}
	var total int
	for _, s := range segs {
		total += len(s.data)
	}
	if len(segs) == 0 || len(wasm)-len(out) < total-1024 {
		t.Fatalf("%d segments of %d bytes, module %d -> %d bytes", len(segs), total, len(wasm), len(out))
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	sp := mod.ExportedGlobal(stackPointerExport)
	if sp == nil || sp.Get() != 524288 {
		t.Fatalf("stack pointer export %v", sp)
	}
	mem := mod.Memory()
	for _, s := range segs[:min(len(segs), 8)] {
		b, ok := mem.Read(s.offset, uint32(len(s.data)))
		if !ok || len(bytes.Trim(b, "\x00")) != 0 {
			t.Fatalf("segment at %d was still copied in", s.offset)
		}
	}
	if _, _, err := snapshotModule(out); err == nil {
		t.Error("rewriting a module twice did not fail (the export is already there)")
	}
	if _, _, err := snapshotModule([]byte("not wasm")); err == nil {
		t.Error("rewriting a text did not fail")
	}
}

func TestEmptyActiveData(t *testing.T) {
	active := func(flag byte, off int, data string) []byte {
		b := []byte{flag}
		if flag == 2 {
			b = append(b, 0)
		}
		b = append(sleb128(append(b, 0x41), off), 0x0b)
		return append(b, wasmVec(len(data), []byte(data))...)
	}
	passive := append([]byte{1}, wasmVec(3, []byte("xyz"))...)
	body := wasmVec(3, bytes.Join([][]byte{active(0, 16, "abc"), passive, active(2, 70000, "q")}, nil))
	out, segs, err := emptyActiveData(body)
	if err != nil {
		t.Fatal(err)
	}
	want := wasmVec(3, bytes.Join([][]byte{active(0, 16, ""), passive, active(2, 70000, "")}, nil))
	if !bytes.Equal(out, want) {
		t.Errorf("data section\n got %x\nwant %x", out, want)
	}
	if len(segs) != 2 || segs[0].offset != 16 || string(segs[0].data) != "abc" || segs[1].offset != 70000 || string(segs[1].data) != "q" {
		t.Errorf("segments %+v", segs)
	}
	for _, bad := range [][]byte{
		wasmVec(1, []byte{0, 0x23, 0, 0x0b, 0}),      // offset from a global
		wasmVec(1, []byte{2, 1, 0x41, 0, 0x0b, 0}),   // another memory
		wasmVec(1, []byte{0, 0x41, 0, 0x0b, 5, 'a'}), // truncated
		wasmVec(1, []byte{7}),                        // unknown kind
	} {
		if _, _, err := emptyActiveData(bad); err == nil {
			t.Errorf("%x: no error", bad)
		}
	}
}
