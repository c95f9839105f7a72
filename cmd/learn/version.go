package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version describes this build: the module version (or "devel"), the
// commit it was built from with its time and whether the work tree had
// changes, and the Go release, from what the Go tool records in the binary.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "learn (no build information)"
	}
	v := strings.Trim(info.Main.Version, "()")
	if v == "" {
		v = "devel"
	}
	var commit, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " with local changes"
			}
		}
	}
	out := "learn " + v
	if commit != "" {
		out += fmt.Sprintf(", commit %.12s", commit)
		if at != "" {
			out += " of " + at
		}
		out += modified
	}
	return out + ", " + info.GoVersion
}
