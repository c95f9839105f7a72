package sandbox

import "syscall"

const mapNoReserve = syscall.MAP_NORESERVE
