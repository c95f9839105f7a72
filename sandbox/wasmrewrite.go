package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// A WebAssembly module is a header and a list of sections, each an id byte
// and a length-prefixed body (see the binary format in the core
// specification). The snapshot start needs two changes to the interpreter
// module that binaryen cannot make: the shadow stack pointer exported (a
// restored instance must start with the parked one's value), and the
// active data segments moved out of the module (a restored instance's
// memory is the image, so copying them in at instantiation would be wasted
// work and would touch every page of a copy-on-write mapping).

// Section ids used here.
const (
	sectionImport = 2
	sectionGlobal = 6
	sectionExport = 7
	sectionData   = 11
)

// wasmHeader is the magic number and version 1.
var wasmHeader = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// wasmSection is one section of a module: its id and body.
type wasmSection struct {
	id   byte
	body []byte
}

// dataSegment is an active data segment of memory 0: bytes copied to a
// constant offset at instantiation.
type dataSegment struct {
	offset uint32
	data   []byte
}

// parseSections splits a module into its sections.
func parseSections(wasm []byte) ([]wasmSection, error) {
	if !bytes.HasPrefix(wasm, wasmHeader) {
		return nil, errors.New("sandbox: not a WebAssembly module (version 1)")
	}
	r := wasm[len(wasmHeader):]
	var out []wasmSection
	for len(r) > 0 {
		id := r[0]
		size, n := binary.Uvarint(r[1:])
		if n <= 0 || uint64(len(r)-1-n) < size {
			return nil, fmt.Errorf("sandbox: section %d: bad length", id)
		}
		start := 1 + n
		out = append(out, wasmSection{id: id, body: r[start : start+int(size)]})
		r = r[start+int(size):]
	}
	return out, nil
}

// encodeSections is the inverse of parseSections.
func encodeSections(secs []wasmSection) []byte {
	var b bytes.Buffer
	b.Write(wasmHeader)
	for _, s := range secs {
		b.WriteByte(s.id)
		b.Write(binary.AppendUvarint(nil, uint64(len(s.body))))
		b.Write(s.body)
	}
	return b.Bytes()
}

// wasmReader reads the LEB128 integers and vectors of a section body.
type wasmReader struct {
	b   []byte
	err error
}

func (r *wasmReader) u32() uint32 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > 0xffffffff {
		r.err = errors.New("bad unsigned integer")
		return 0
	}
	r.b = r.b[n:]
	return uint32(v)
}

func (r *wasmReader) s32() int32 {
	if r.err != nil {
		return 0
	}
	var v int64
	var shift uint
	for i, c := range r.b {
		if i > 4 {
			break
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			r.b = r.b[i+1:]
			return int32(v)
		}
	}
	r.err = errors.New("bad signed integer")
	return 0
}

func (r *wasmReader) byte1() byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.err = errors.New("unexpected end")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *wasmReader) bytesN(n uint32) []byte {
	if r.err != nil {
		return nil
	}
	if uint32(len(r.b)) < n {
		r.err = errors.New("unexpected end")
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *wasmReader) name() string { return string(r.bytesN(r.u32())) }

// importedGlobals counts the globals a module imports: they come first in
// the global index space.
func importedGlobals(body []byte) (uint32, error) {
	r := &wasmReader{b: body}
	var globals uint32
	for range r.u32() {
		r.name()
		r.name()
		switch kind := r.byte1(); kind {
		case 0: // function: type index
			r.u32()
		case 1: // table: element type, limits
			r.byte1()
			readLimits(r)
		case 2: // memory: limits
			readLimits(r)
		case 3: // global: value type, mutability
			r.byte1()
			r.byte1()
			globals++
		default:
			r.err = fmt.Errorf("unknown import kind %d", kind)
		}
	}
	return globals, r.err
}

func readLimits(r *wasmReader) {
	if flags := r.byte1(); flags&1 != 0 {
		r.u32()
		r.u32()
	} else {
		r.u32()
	}
}

// firstGlobal returns the first defined global's type and initial value,
// if it is a mutable i32 with a constant initialiser.
func firstGlobal(body []byte) (mutableI32 bool, init int32, err error) {
	r := &wasmReader{b: body}
	if r.u32() == 0 {
		return false, 0, r.err
	}
	typ, mut := r.byte1(), r.byte1()
	op := r.byte1()
	v := r.s32()
	end := r.byte1()
	if r.err != nil {
		return false, 0, r.err
	}
	return typ == 0x7f && mut == 1 && op == 0x41 && end == 0x0b, v, nil
}

// addGlobalExport returns an export section body with an export of global
// index idx under name appended.
func addGlobalExport(body []byte, name string, idx uint32) ([]byte, error) {
	r := &wasmReader{b: body}
	n := r.u32()
	for range n {
		if r.name() == name {
			return nil, fmt.Errorf("sandbox: the module already exports %q", name)
		}
		r.byte1()
		r.u32()
	}
	if r.err != nil {
		return nil, fmt.Errorf("sandbox: export section: %w", r.err)
	}
	// The new count, the old entries, the new entry.
	out := binary.AppendUvarint(nil, uint64(n+1))
	out = append(out, restAfterCount(body)...)
	out = binary.AppendUvarint(out, uint64(len(name)))
	out = append(out, name...)
	out = append(out, 3)
	out = binary.AppendUvarint(out, uint64(idx))
	return out, nil
}

// restAfterCount is a vector's body after its leading count.
func restAfterCount(body []byte) []byte {
	_, n := binary.Uvarint(body)
	if n <= 0 {
		return nil
	}
	return body[n:]
}

// emptyActiveData returns a data section body whose active segments of
// memory 0 with constant offsets hold no bytes, and those segments as they
// were. Passive segments stay (memory.init may copy them later); segment
// indices do not change, so data.drop and memory.init stay valid.
func emptyActiveData(body []byte) ([]byte, []dataSegment, error) {
	r := &wasmReader{b: body}
	n := r.u32()
	out := binary.AppendUvarint(nil, uint64(n))
	var segs []dataSegment
	for i := range n {
		start := r.b
		flag := r.u32()
		switch flag {
		case 0, 2:
			if flag == 2 && r.u32() != 0 {
				return nil, nil, fmt.Errorf("sandbox: data segment %d is for another memory", i)
			}
			op := r.byte1()
			off := r.s32()
			if end := r.byte1(); op != 0x41 || end != 0x0b {
				return nil, nil, fmt.Errorf("sandbox: data segment %d has no constant offset", i)
			}
			data := r.bytesN(r.u32())
			if r.err != nil {
				break
			}
			segs = append(segs, dataSegment{offset: uint32(off), data: data})
			out = binary.AppendUvarint(out, uint64(flag))
			if flag == 2 {
				out = append(out, 0)
			}
			out = append(out, 0x41)
			out = appendSLEB(out, off)
			out = append(out, 0x0b, 0) // no bytes
		case 1:
			r.bytesN(r.u32())
			if r.err != nil {
				break
			}
			out = append(out, start[:len(start)-len(r.b)]...)
		default:
			return nil, nil, fmt.Errorf("sandbox: data segment %d: unknown kind %d", i, flag)
		}
	}
	if r.err != nil {
		return nil, nil, fmt.Errorf("sandbox: data section: %w", r.err)
	}
	return out, segs, nil
}

func appendSLEB(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// stackPointerExport is the name under which the snapshot module exports
// the interpreter's shadow stack pointer.
const stackPointerExport = "learn_stack_pointer"

// snapshotModule turns the asyncify-instrumented interpreter into the
// module every snapshot instance runs: the shadow stack pointer (the first
// global, a mutable i32) exported as stackPointerExport, and the active
// data segments emptied and returned, to be laid into memory by the host.
func snapshotModule(wasm []byte) ([]byte, []dataSegment, error) {
	secs, err := parseSections(wasm)
	if err != nil {
		return nil, nil, err
	}
	var imported uint32
	var sawGlobal, sawExport, sawData bool
	var segs []dataSegment
	for i := range secs {
		s := &secs[i]
		switch s.id {
		case sectionImport:
			if imported, err = importedGlobals(s.body); err != nil {
				return nil, nil, fmt.Errorf("sandbox: import section: %w", err)
			}
		case sectionGlobal:
			ok, _, err := firstGlobal(s.body)
			if err != nil {
				return nil, nil, fmt.Errorf("sandbox: global section: %w", err)
			}
			if !ok {
				return nil, nil, errors.New("sandbox: the module's first global is not a mutable i32 (the stack pointer)")
			}
			sawGlobal = true
		case sectionExport:
			if !sawGlobal {
				return nil, nil, errors.New("sandbox: the module defines no global")
			}
			if s.body, err = addGlobalExport(s.body, stackPointerExport, imported); err != nil {
				return nil, nil, err
			}
			sawExport = true
		case sectionData:
			if s.body, segs, err = emptyActiveData(s.body); err != nil {
				return nil, nil, err
			}
			sawData = true
		}
	}
	if !sawExport || !sawData {
		return nil, nil, errors.New("sandbox: the module has no export or no data section")
	}
	return encodeSections(secs), segs, nil
}
