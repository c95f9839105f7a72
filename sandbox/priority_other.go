//go:build !linux

package sandbox

// lowerPriority leaves the priority alone where threads cannot be set one
// by one portably.
func lowerPriority(int) error { return nil }
