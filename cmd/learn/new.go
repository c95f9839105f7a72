package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"go.yaml.in/yaml/v3"

	"learn/lessons"
)

// newCourseFiles is what "learn new course" writes: course.yaml (a
// template: the title is filled in) and an example lesson.
//
//go:embed newcourse/course.yaml newcourse/01-first-lesson.md
var newCourseFiles embed.FS

// lessonTemplate is what "learn new lesson" writes: every required field
// and section, ready to fill in.
const lessonTemplate = `---
title: {{yaml .Title}}
slug: {{.Slug}}
order: {{.Order}}
summary: One sentence for the lesson's card on the course home.
objectives:
  - What the learner will be able to do
minutes: 10
---
An opening paragraph: why this lesson matters.

## A first section

Explain one idea, then let the learner try it with a classify, annotate,
exercise or quiz block (the guide at /guide has an example of each).

## Key takeaways

- The one thing to remember.
`

func runNew(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "course" && args[0] != "lesson") {
		fmt.Fprintln(stderr, "learn new: say what to create: \"learn new course DIR\" or \"learn new lesson DIR --title \\\"…\\\"\"")
		return errUsage
	}
	what := args[0]
	fs := flagSet("new "+what, "", stderr)
	title := fs.String("title", "", "the `title` of the new "+what)
	if what == "course" {
		fs.Usage = usageWithArgs(fs, "new course [flags] DIR", "Create a course folder DIR with a course.yaml and an example lesson that uses every widget kind and an exercise.\nExisting files are never overwritten.")
	} else {
		fs.Usage = usageWithArgs(fs, "new lesson [flags] DIR --title \"…\"", "Add a lesson to the course in DIR with the next order number, a slug from the title and the required sections.\nExisting files are never overwritten.")
	}
	if err := parseFlags(fs, args[1:], withEnv(fs)); err != nil {
		return err
	}
	dirs := fs.Args()
	if len(dirs) != 1 {
		fmt.Fprintf(stderr, "learn new %s: give one folder\n", what)
		return errUsage
	}
	if what == "course" {
		return newCourse(dirs[0], *title, stdout)
	}
	if strings.TrimSpace(*title) == "" {
		fmt.Fprintln(stderr, "learn new lesson: give the lesson's title with --title \"…\"")
		return errUsage
	}
	return newLesson(dirs[0], *title, stdout)
}

// newCourse writes course.yaml and the example lesson into dir, creating
// it if needed. It writes nothing if either file exists.
func newCourse(dir, title string, stdout io.Writer) error {
	if strings.TrimSpace(title) == "" {
		title = "My course"
	}
	info, err := fillTemplate("course.yaml", mustRead(newCourseFiles, "newcourse/course.yaml"), struct{ Title string }{title})
	if err != nil {
		return err
	}
	files := []struct {
		name string
		body []byte
	}{
		{lessons.InfoFile, info},
		{"01-first-lesson.md", mustRead(newCourseFiles, "newcourse/01-first-lesson.md")},
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f.name)); err == nil {
			return fmt.Errorf("new course: %s already exists; nothing was written (pick an empty folder)", filepath.Join(dir, f.name))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("new course: %w", err)
	}
	for _, f := range files {
		if err := createFile(filepath.Join(dir, f.name), f.body); err != nil {
			return fmt.Errorf("new course: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(dir, f.name))
	}
	fmt.Fprintf(stdout, "Next: learn check %s, then learn serve --dev --lessons %s and open /guide for every field and block.\n", dir, dir)
	return nil
}

var (
	orderLine = regexp.MustCompile(`(?m)^order:\s*(\d+)\s*$`)
	slugLine  = regexp.MustCompile(`(?m)^slug:\s*(\S+)\s*$`)
	notSlug   = regexp.MustCompile(`[^a-z0-9]+`)
)

// slugFor makes a lesson slug from a title: lowercase letters and digits
// joined by single hyphens.
func slugFor(title string) string {
	s := strings.Trim(notSlug.ReplaceAllString(strings.ToLower(title), "-"), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	return s
}

// newLesson adds a lesson to the course in dir with the next order number.
func newLesson(dir, title string, stdout io.Writer) error {
	slug := slugFor(title)
	if slug == "" {
		return fmt.Errorf("new lesson: the title %q has no letters or digits to make a slug from", title)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return fmt.Errorf("new lesson: %w", err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("new lesson: %s is not a folder: create a course first with \"learn new course %s\"", dir, dir)
	}
	order := 0
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("new lesson: %w", err)
		}
		header := frontMatterOf(src)
		if m := orderLine.FindSubmatch(header); m != nil {
			if n, err := strconv.Atoi(string(m[1])); err == nil && n > order {
				order = n
			}
		}
		if m := slugLine.FindSubmatch(header); m != nil && string(m[1]) == slug {
			return fmt.Errorf("new lesson: %s already has the slug %q; pick another title", name, slug)
		}
	}
	order++
	body, err := fillTemplate("lesson", []byte(lessonTemplate), struct {
		Title, Slug string
		Order       int
	}{title, slug, order})
	if err != nil {
		return err
	}
	path := filepath.Join(dir, fmt.Sprintf("%02d-%s.md", order, slug))
	if err := createFile(path, body); err != nil {
		return fmt.Errorf("new lesson: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s (order %d, slug %s)\n", path, order, slug)
	return nil
}

// frontMatterOf returns the text between a file's first two "---" lines,
// or nil.
func frontMatterOf(src []byte) []byte {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return nil
	}
	rest := src[4:]
	if end := bytes.Index(rest, []byte("\n---")); end >= 0 {
		return rest[:end+1]
	}
	return nil
}

// createFile writes a new file and fails if one exists already.
func createFile(path string, body []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s already exists; nothing was overwritten", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fillTemplate runs a text template whose yaml function quotes a string
// for YAML.
func fillTemplate(name string, src []byte, data any) ([]byte, error) {
	t, err := template.New(name).Funcs(template.FuncMap{"yaml": yamlString}).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("new: template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("new: template %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// yamlString returns s as a YAML scalar, quoted when it needs to be.
func yamlString(s string) (string, error) {
	b, err := yaml.Marshal(strings.TrimSpace(s))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

func mustRead(fsys embed.FS, name string) []byte {
	b, err := fsys.ReadFile(name)
	if err != nil {
		// The names are constants checked by go:embed.
		panic(err)
	}
	return b
}
