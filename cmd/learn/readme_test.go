package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readmeFlagRow is one row of the README's table of serve flags:
// | `--flag` | `VARIABLE` | default | meaning |
var readmeFlagRow = regexp.MustCompile("^\\| `--([a-z-]+)` \\| `([A-Z_]+)` \\| ([^|]*) \\| (.*) \\|$")

// TestReadmeServeFlags compares the README's table of serve flags with the
// flags learn serve -h lists: the same flags, each with
// its environment variable, and each default the README gives as a value
// (a number, off, or a value in backquotes) equal to the program's.
func TestReadmeServeFlags(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "Flags of `learn serve`")
	if !ok {
		t.Fatal("the README has no table of the flags of learn serve")
	}
	type row struct{ name, env, def string }
	var rows []row
	started := false
	for _, line := range strings.Split(table, "\n") {
		m := readmeFlagRow.FindStringSubmatch(line)
		if m == nil {
			if started && !strings.HasPrefix(line, "|") {
				break
			}
			continue
		}
		started = true
		rows = append(rows, row{m[1], m[2], strings.TrimSpace(m[3])})
	}

	fs := serveFlagSet(t)
	var defined []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { defined = append(defined, f) })
	inREADME := map[string]row{}
	for _, r := range rows {
		inREADME[r.name] = r
	}
	for _, f := range defined {
		r, ok := inREADME[f.Name]
		if !ok {
			t.Errorf("learn serve defines --%s, which the README's table lacks", f.Name)
			continue
		}
		if r.env != envName(f.Name) {
			t.Errorf("--%s: the README says %s, the program reads %s", f.Name, r.env, envName(f.Name))
		}
		if want, ok := readmeDefault(r.def); ok && !sameDefault(f, want) {
			t.Errorf("--%s: the README's default is %s, the program's %q", f.Name, r.def, f.DefValue)
		}
		delete(inREADME, f.Name)
	}
	for name := range inREADME {
		t.Errorf("the README lists --%s, which learn serve does not define", name)
	}
}

// serveFlagSet returns the flags of learn serve, read from its help.
func serveFlagSet(t *testing.T) *flag.FlagSet {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"serve", "-h"}, &out, &errOut); code != 0 {
		t.Fatalf("learn serve -h: exit %d\n%s", code, errOut.String())
	}
	// The help lists "  -name value" then the usage ending "(default X)".
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	name := regexp.MustCompile(`^  -([a-z-]+)`)
	def := regexp.MustCompile(`\(default (.*)\)$`)
	var current string
	for _, line := range strings.Split(errOut.String()+out.String(), "\n") {
		if m := name.FindStringSubmatch(line); m != nil {
			current = m[1]
			fs.String(current, "", "")
			continue
		}
		if m := def.FindStringSubmatch(line); m != nil && current != "" {
			fs.Lookup(current).DefValue = strings.Trim(m[1], `"`)
		}
	}
	if fs.Lookup("addr") == nil {
		t.Fatalf("no flags read from learn serve -h:\n%s", errOut.String())
	}
	return fs
}

// readmeDefault returns the value the README's default column gives: a
// number, a value in backquotes, or "" for off; false for a description.
func readmeDefault(cell string) (string, bool) {
	if cell == "off" {
		return "", true
	}
	if m := regexp.MustCompile("^`([^`]*)`").FindStringSubmatch(cell); m != nil {
		return m[1], true
	}
	if m := regexp.MustCompile(`^(\d+)( \(.*)?$`).FindStringSubmatch(cell); m != nil {
		return m[1], true
	}
	return "", false
}

// sameDefault reports whether f's default is want, comparing durations
// by value ("2160h" is "2160h0m0s"), words in any case ("info" is "INFO")
// and taking off as false or empty.
func sameDefault(f *flag.Flag, want string) bool {
	got := f.DefValue
	if want == "" {
		return got == "" || got == "false" || got == "0"
	}
	if dw, err := time.ParseDuration(want); err == nil {
		dg, err := time.ParseDuration(got)
		return err == nil && dg == dw
	}
	if _, err := strconv.Atoi(want); err == nil {
		return got == want
	}
	return strings.EqualFold(got, want)
}
