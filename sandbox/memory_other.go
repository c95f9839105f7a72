//go:build unix && !linux

package sandbox

const mapNoReserve = 0
