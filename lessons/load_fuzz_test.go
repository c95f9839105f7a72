package lessons

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoad loads a course of one arbitrary lesson file: Load may not panic,
// and returns either a course holding the lesson or problems that each
// name the file.
func FuzzLoad(f *testing.F) {
	f.Add(goodLesson)
	f.Add("---\ntitle: x\n---\n")
	f.Add("---\n: [\n---\n")
	f.Add("no front matter at all")
	f.Add("---\ntitle: T\nslug: t\norder: 1\nsummary: s\nobjectives: [o]\n---\n```classify\nitems: [\n```\n")
	err := fs.WalkDir(BuiltIn(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := fs.ReadFile(BuiltIn(), path)
		if err == nil {
			f.Add(string(b))
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Load(fstest.MapFS{"01-fuzz.md": {Data: []byte(src)}})
		if err != nil {
			if !strings.Contains(err.Error(), "01-fuzz.md") {
				t.Errorf("a problem does not name the file: %v", err)
			}
			return
		}
		if c == nil || len(c.Lessons) != 1 {
			t.Fatalf("Load succeeded with %v", c)
		}
		l := c.Lessons[0]
		if got, ok := c.Lesson(l.Slug); !ok || got != l {
			t.Errorf("the loaded lesson %q cannot be found by its slug", l.Slug)
		}
	})
}
