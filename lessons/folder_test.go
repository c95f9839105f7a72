package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const plainLesson = `---
title: One
slug: one
order: 1
summary: A lesson.
objectives:
  - Know one thing
minutes: 5
---
Intro.

## Key takeaways
- One thing.
`

// writeCourse makes a course folder with a course.yaml and the files given.
func writeCourse(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loadFolder(t *testing.T, dir string) error {
	t.Helper()
	fsys, closer, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	_, err = Load(fsys)
	return err
}

// TestFolderStaysInside links a lesson and course.yaml to files outside the
// course folder: each is an error naming the file, and the outside file's
// content never appears.
func TestFolderStaysInside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("title: TOP-SECRET-CONTENT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"02-linked.md", InfoFile} {
		t.Run(name, func(t *testing.T) {
			dir := writeCourse(t, map[string]string{"01-one.md": plainLesson})
			if name != InfoFile {
				os.WriteFile(filepath.Join(dir, InfoFile), []byte("title: A course\n"), 0o644)
			}
			if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			err := loadFolder(t, dir)
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load = %v, want problems", err)
			}
			if !strings.Contains(err.Error(), name) {
				t.Errorf("the problems do not name %s:\n%v", name, err)
			}
			if strings.Contains(err.Error(), "TOP-SECRET") {
				t.Errorf("the outside file's content leaked into the problems:\n%v", err)
			}
		})
	}
}

func TestOpenFolderErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "course.yaml")
	os.WriteFile(file, []byte("title: x\n"), 0o644)
	for _, tt := range []struct{ dir, want string }{
		{filepath.Join(t.TempDir(), "nosuchdir"), "does not exist"},
		{file, "is a file, not a folder"},
	} {
		if _, _, err := OpenFolder(tt.dir); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("OpenFolder(%s) = %v, want %q", tt.dir, err, tt.want)
		}
	}
}

// TestLessonLimits loads lessons over the size and nesting limits: each is
// an error naming the file, the line where it applies and the limit.
func TestLessonLimits(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"too large", plainLesson + strings.Repeat("Some text.\n", MaxLessonBytes/10), []string{"02-x.md", "256 KiB"}},
		{"nested quotes", plainLesson + strings.Repeat(">", MaxNesting+1) + " deep\n", []string{"02-x.md:14", "17 levels", "16 allowed"}},
		{"nested lists on one line", plainLesson + strings.Repeat("- ", MaxNesting+1) + "deep\n", []string{"02-x.md:14", "more than the 16"}},
		{"nested lists by indentation", plainLesson + "- a\n" + strings.Repeat("  ", MaxNesting+1) + "- deep\n", []string{"02-x.md:15"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeCourse(t, map[string]string{InfoFile: "title: A course\n", "01-one.md": plainLesson, "02-x.md": strings.Replace(tt.body, "slug: one\norder: 1", "slug: two\norder: 2", 1)})
			err := loadFolder(t, dir)
			if err == nil {
				t.Fatal("the lesson loaded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("problems lack %q:\n%v", w, err)
				}
			}
		})
	}
	t.Run("fenced code may hold anything", func(t *testing.T) {
		body := strings.Replace(plainLesson, "slug: one\norder: 1", "slug: two\norder: 2", 1) + "```text\n" + strings.Repeat(">", 200) + "\n```\n"
		dir := writeCourse(t, map[string]string{InfoFile: "title: A course\n", "01-one.md": plainLesson, "02-x.md": body})
		if err := loadFolder(t, dir); err != nil {
			t.Errorf("a fenced block of > was refused: %v", err)
		}
	})
}

// BenchmarkWorstAcceptedLesson loads the slowest lesson the limits accept:
// the largest file, filled with markdown nested as deep as allowed, in
// quotes and in lists. One load must take well under a second.
func BenchmarkWorstAcceptedLesson(b *testing.B) {
	var body strings.Builder
	body.WriteString(strings.Replace(plainLesson, "## Key takeaways\n- One thing.\n", "", 1))
	for i := 0; body.Len() < MaxLessonBytes-4096; i++ {
		switch i % 3 {
		case 0:
			body.WriteString(strings.Repeat("> ", MaxNesting) + "quoted *text* with `code`\n\n")
		case 1:
			for d := range MaxNesting {
				body.WriteString(strings.Repeat("  ", d) + "- item **bold**\n")
			}
			body.WriteString("\n")
		default:
			body.WriteString(strings.Repeat("- ", MaxNesting) + "listed [link](https://example.com)\n\n")
		}
	}
	body.WriteString("\n## Key takeaways\n- One thing.\n")
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, InfoFile), []byte("title: A course\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "01-one.md"), []byte(body.String()), 0o644)
	b.SetBytes(int64(body.Len()))
	for b.Loop() {
		fsys, closer, err := OpenFolder(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Load(fsys); err != nil {
			b.Fatal(err)
		}
		closer.Close()
	}
}
