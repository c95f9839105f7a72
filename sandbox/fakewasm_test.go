package sandbox

import "encoding/binary"

// fakeModule is a WebAssembly module, written byte by byte, that compiles
// and imports WASI like the interpreter but is not CPython: its _start
// writes stdout and stderr, then traps, exits with exit or returns.
type fakeModule struct {
	stdout, stderr string
	// trap ends _start with unreachable; else exit, if not negative, is
	// passed to proc_exit; else _start returns.
	trap bool
	exit int
}

// bytes encodes the module. Memory holds the two texts at 256 and 1024,
// their iovecs at 16 and 24, and fd_write's count at 8.
func (m fakeModule) bytes() []byte {
	const (
		fnProcExit = 0
		fnFdWrite  = 1
		fnStart    = 2
	)
	var code []byte
	i32 := func(v int) { code = append(code, 0x41); code = sleb128(code, v) }
	call := func(f int) { code = append(code, 0x10); code = binary.AppendUvarint(code, uint64(f)) }
	var data [][]byte
	segment := func(offset int, b []byte) {
		s := []byte{0x00, 0x41}
		s = sleb128(s, offset)
		s = append(s, 0x0b)
		data = append(data, append(s, wasmVec(len(b), b)...))
	}
	iov := func(ptr, n int) []byte {
		return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, uint32(ptr)), uint32(n))
	}
	for _, w := range []struct {
		fd, iov, at int
		text        string
	}{{1, 16, 256, m.stdout}, {2, 24, 1024, m.stderr}} {
		if w.text == "" {
			continue
		}
		segment(w.iov, iov(w.at, len(w.text)))
		segment(w.at, []byte(w.text))
		i32(w.fd)
		i32(w.iov)
		i32(1)
		i32(8)
		call(fnFdWrite)
		code = append(code, 0x1a) // drop the errno
	}
	switch {
	case m.trap:
		code = append(code, 0x00) // unreachable
	case m.exit >= 0:
		i32(m.exit)
		call(fnProcExit)
	}
	code = append(code, 0x0b)
	body := append([]byte{0x00}, code...) // no locals

	out := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, items ...[]byte) {
		var b []byte
		for _, it := range items {
			b = append(b, it...)
		}
		b = wasmVec(len(items), b)
		out = append(out, id)
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	const i32t = 0x7f
	section(1, // types: proc_exit, fd_write, _start
		[]byte{0x60, 1, i32t, 0},
		[]byte{0x60, 4, i32t, i32t, i32t, i32t, 1, i32t},
		[]byte{0x60, 0, 0})
	section(2, // imports
		append(append(wasmName("wasi_snapshot_preview1"), wasmName("proc_exit")...), 0x00, 0),
		append(append(wasmName("wasi_snapshot_preview1"), wasmName("fd_write")...), 0x00, 1))
	section(3, []byte{2})       // one function, of type 2
	section(5, []byte{0x00, 1}) // one memory of one page
	section(7,                  // exports
		append(wasmName("_start"), 0x00, fnStart),
		append(wasmName("memory"), 0x02, 0))
	section(10, wasmVec(len(body), body))
	if len(data) > 0 {
		section(11, data...)
	}
	return out
}

// wasmVec prefixes b, which holds n items (or n bytes), with n.
func wasmVec(n int, b []byte) []byte {
	return append(binary.AppendUvarint(nil, uint64(n)), b...)
}

// wasmName encodes a name.
func wasmName(s string) []byte { return wasmVec(len(s), []byte(s)) }

// sleb128 appends v in WebAssembly's signed LEB128.
func sleb128(b []byte, v int) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
