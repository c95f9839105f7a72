package main

import (
	"flag"
	"fmt"
)

// flagsFirst reorders a command's arguments so that the flag package, which
// stops at the first argument that is not a flag, reads flags given
// anywhere: every flag, with the value of a flag that takes one, moves to
// the front, and the other arguments follow after "--" in their order.
// "run FILE.py --stdin IN" becomes "--stdin IN -- FILE.py".
//
// A "--" ends the flags, as with the flag package: what follows is kept as
// arguments even if it starts with "-". A lone "-" is an argument. A flag
// fs does not define stays among the flags so that fs.Parse reports it.
// The error names a flag that needs a value and has none.
func flagsFirst(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		f := fs.Lookup(flagName(a))
		if f == nil || isBoolFlag(f) {
			continue
		}
		if i+1 == len(args) {
			return nil, fmt.Errorf("flag needs an argument: %s", a)
		}
		i++
		flags = append(flags, args[i])
	}
	if len(rest) == 0 {
		return flags, nil
	}
	return append(append(flags, "--"), rest...), nil
}

// flagName is the name in "-name", "--name" or "--name=value"; it is ""
// when the value is given with "=", since the flag then takes nothing
// more, and for malformed flags, which fs.Parse reports.
func flagName(arg string) string {
	name := arg[1:]
	if name != "" && name[0] == '-' {
		name = name[1:]
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '=' {
			return ""
		}
	}
	return name
}

// isBoolFlag reports whether f is given without a value, as -json is.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
