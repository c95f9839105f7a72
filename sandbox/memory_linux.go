package sandbox

import "syscall"

const mapNoReserve = syscall.MAP_NORESERVE

// adviseHuge asks for transparent huge pages: in a virtual machine every
// page fault is costly, and a 4 KiB page per fault made faults a quarter of
// an interpreter's start-up.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, 14) } // MADV_HUGEPAGE
