// Package reference finds the documents the course was written from, for
// the tests that compare the repository against them: the official MCP
// schema and the originality check.
//
// The documents are not part of the repository. They sit in
// ../shared/reference beside it in development and in CI, and nowhere in a
// plain clone. So a test that needs one skips, saying which folder it
// wanted, when it is missing; with CI=true a missing document fails the
// test instead, so CI never passes by skipping.
package reference

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Path returns the path of the reference document (or folder) elem,
// such as Path(t, "mcp-schema", "schema-2026-07-28.json"); with no elem,
// the reference folder itself. When it does not exist it skips t, or
// fails t if the environment variable CI is true.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("reference: %v", err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatalf("reference: no go.mod above %s", wd)
		}
		root = parent
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "reference")
	p := filepath.Join(append([]string{dir}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("reference document %s is missing, and CI=true makes that a failure: put the shared reference folder at %s", p, dir)
		}
		t.Skipf("skipped: needs the reference documents in %s, a folder beside the repository in development and CI only", dir)
	}
	return p
}
