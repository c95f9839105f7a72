package reference

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how Path ended the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = format
	panic(r)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = format
	panic(r)
}

// call runs Path with a recorder and reports how it ended.
func call(t *testing.T, elem ...string) (path string, r *recorder) {
	r = &recorder{TB: t}
	defer func() {
		if v := recover(); v != nil && v != r {
			panic(v)
		}
	}()
	return Path(r, elem...), r
}

func TestPath(t *testing.T) {
	// A module with a reference folder beside it, and one without.
	top := t.TempDir()
	with := filepath.Join(top, "with", "learn")
	without := filepath.Join(top, "without", "learn")
	for _, d := range []string{filepath.Join(with, "pkg"), filepath.Join(top, "with", "shared", "reference"), filepath.Join(without, "pkg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(with, "go.mod"), filepath.Join(without, "go.mod"), filepath.Join(top, "with", "shared", "reference", "doc.md")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, wd, ci, elem string
		want, skip, fail   bool
	}{
		{"present", filepath.Join(with, "pkg"), "", "doc.md", true, false, false},
		{"present under CI", filepath.Join(with, "pkg"), "true", "doc.md", true, false, false},
		{"missing folder", filepath.Join(without, "pkg"), "", "doc.md", false, true, false},
		{"missing folder under CI", filepath.Join(without, "pkg"), "true", "doc.md", false, false, true},
		{"missing document", filepath.Join(with, "pkg"), "", "other.md", false, true, false},
		{"CI=false skips", filepath.Join(without, "pkg"), "false", "doc.md", false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.wd)
			t.Setenv("CI", tt.ci)
			got, r := call(t, tt.elem)
			if tt.want && got != filepath.Join(top, "with", "shared", "reference", tt.elem) {
				t.Errorf("Path = %q", got)
			}
			if (r.skipped != "") != tt.skip || (r.failed != "") != tt.fail {
				t.Errorf("skipped %q, failed %q; want skip=%v fail=%v", r.skipped, r.failed, tt.skip, tt.fail)
			}
			for _, msg := range []string{r.skipped, r.failed} {
				if strings.Contains(msg, "\n") {
					t.Errorf("the reason is not one line: %q", msg)
				}
			}
		})
	}
}
