package lessons

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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

// FuzzCourseFolder writes an arbitrary lesson and course.yaml into a real
// course folder and loads it through OpenFolder, as the server and learn
// check do: loading may not panic, a lesson it accepts nests no deeper
// than MaxNesting outside fenced code, and every problem names its file.
func FuzzCourseFolder(f *testing.F) {
	f.Add(goodLesson, "title: A course\n")
	f.Add(goodLesson+strings.Repeat("> ", MaxNesting+1)+"x\n", "title: A course\n")
	f.Add(goodLesson+"```\n"+strings.Repeat("- ", 50)+"\n```\n", "title: [\n")
	f.Add("---\n"+strings.Repeat(" ", 40)+"- x\n---\n", "")
	f.Fuzz(func(t *testing.T, lesson, info string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "01-fuzz.md"), []byte(lesson), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, InfoFile), []byte(info), 0o644); err != nil {
			t.Fatal(err)
		}
		fsys, closer, err := OpenFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		c, err := Load(fsys)
		if err != nil {
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load failed without problems: %v", err)
			}
			for _, p := range ps {
				if p.File != "01-fuzz.md" && p.File != InfoFile && p.File != "." {
					t.Errorf("a problem names no file of the course: %+v", p)
				}
			}
			return
		}
		if p := nestingProblem("01-fuzz.md", []byte(lesson), 1); p != nil || len(c.Lessons) != 1 {
			t.Errorf("accepted a lesson over the limits: %v, %d lessons", p, len(c.Lessons))
		}
	})
}
