package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"learn/lessons"
)

// TestNewCourse writes a course, checks it with its exercise run in the
// sandbox, adds a lesson, and checks again.
func TestNewCourse(t *testing.T) {
	wasm := filepath.Join("..", "..", "node_modules", "@antonz", "python-wasi", "dist", "python.wasm")
	dir := filepath.Join(t.TempDir(), "http-course")
	cmd := func(wantCode int, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != wantCode {
			t.Fatalf("learn %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, wantCode, out.String(), errOut.String())
		}
		return out.String() + errOut.String()
	}
	cmd(0, "new", "course", dir, "--title", "Reading HTTP: status codes")
	out := cmd(0, "check", "--strict", "--python-wasm", wasm, dir)
	if !strings.Contains(out, "ok — 1 lesson, 4 widgets (1 classify, 1 annotate, 1 quiz), 4 quiz questions, 1 exercise (solutions and starters run in the sandbox)") {
		t.Errorf("check of a new course:\n%s", out)
	}
	course, err := lessons.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if course.Info.Title != "Reading HTTP: status codes" {
		t.Errorf("course title = %q, want the --title given", course.Info.Title)
	}
	kinds := map[string]bool{}
	for _, s := range course.Lessons[0].Segments {
		if s.Widget != nil {
			kinds[s.Widget.Kind] = true
		}
	}
	for _, k := range []string{"classify", "annotate", "quiz", "exercise"} {
		if !kinds[k] {
			t.Errorf("the example lesson has no %s block", k)
		}
	}

	out = cmd(0, "new", "lesson", dir, "--title", "What 404 means, and why")
	if !strings.Contains(out, "02-what-404-means-and-why.md (order 2, slug what-404-means-and-why)") {
		t.Errorf("new lesson said:\n%s", out)
	}
	out = cmd(0, "check", "--python-wasm", wasm, dir)
	if !strings.Contains(out, "ok — 2 lessons") || !strings.Contains(out, "02-what-404-means-and-why.md:1: warning: the lesson has no practice") {
		t.Errorf("check after new lesson:\n%s", out)
	}
	course, err = lessons.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if l := course.Lessons[1]; l.Title != "What 404 means, and why" || l.Order != 2 || l.Takeaways == "" {
		t.Errorf("new lesson = %q order %d takeaways %q", l.Title, l.Order, l.Takeaways)
	}

	// Nothing is ever overwritten.
	lesson := filepath.Join(dir, "01-first-lesson.md")
	if err := os.WriteFile(lesson, []byte("edited by the author"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = cmd(1, "new", "course", dir)
	if !strings.Contains(out, "already exists; nothing was written") {
		t.Errorf("new course over a course said:\n%s", out)
	}
	if b, _ := os.ReadFile(lesson); string(b) != "edited by the author" {
		t.Errorf("new course overwrote %s", lesson)
	}
	out = cmd(1, "new", "lesson", "--title", "What 404 means, and why", dir)
	if !strings.Contains(out, `already has the slug "what-404-means-and-why"`) {
		t.Errorf("a second lesson with the same title said:\n%s", out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"new"}, "learn new course DIR"},
		{[]string{"new", "lesson", dir}, "--title"},
		{[]string{"new", "lesson", "--title", "!!!", dir}, "no letters or digits"},
		{[]string{"new", "lesson", "--title", "X", filepath.Join(dir, "missing")}, "is not a folder"},
	} {
		var o, e bytes.Buffer
		if code := run(context.Background(), tt.args, &o, &e); code == 0 || !strings.Contains(o.String()+e.String(), tt.want) {
			t.Errorf("learn %v: exit %d, output %q; want a failure saying %q", tt.args, code, o.String()+e.String(), tt.want)
		}
	}
}

// TestCheckGuide runs learn check on the guide's examples, which /guide
// shows: every solution passes in the sandbox, every starter fails, and
// there is not even a warning.
func TestCheckGuide(t *testing.T) {
	wasm := filepath.Join("..", "..", "node_modules", "@antonz", "python-wasi", "dist", "python.wasm")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"check", "--strict", "--python-wasm", wasm, filepath.Join("..", "..", "lessons", "guide")}, &out, &errOut); code != 0 {
		t.Fatalf("check of the guide: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "ok — 7 lessons") || !strings.Contains(out.String(), "4 exercises (solutions and starters run in the sandbox)") {
		t.Errorf("check of the guide said:\n%s", out.String())
	}
}

// TestAuthoredCourse checks a course written only from /guide and the
// README, on another subject than the built-in course, and serves it
// under its own title and, in the header, its own brand.
func TestAuthoredCourse(t *testing.T) {
	dir := filepath.Join("testdata", "permissions-course")
	wasm := filepath.Join("..", "..", "node_modules", "@antonz", "python-wasi", "dist", "python.wasm")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"check", "--strict", "--python-wasm", wasm, dir}, &out, &errOut); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	base := startDevServer(t, dir)
	c := newClient(t)
	resp, body := get(t, c, base+"/")
	if resp.StatusCode != 200 {
		t.Fatalf("GET / = %d", resp.StatusCode)
	}
	for _, want := range []string{
		"<title>Course · Reading Unix file permissions</title>",
		`<a class="brand" href="/" data-testid="brand">perms<span>.unix</span></a>`,
		`<h1 data-testid="course-title">Reading Unix file permissions</h1>`,
		"What rwxr-x--- says about who may do what with a file.",
		"1. The nine permission letters", "2. Permissions as numbers",
		"A course written from the guide", "CC BY 4.0",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("home page lacks %q", want)
		}
	}
	if strings.Contains(body, "MCP") {
		t.Error("the home page of another course still speaks of MCP")
	}
	// The card shows what the lesson really earns: classify 5 + exercise
	// 20 + quiz 50.
	if !strings.Contains(body, "75 XP") {
		t.Errorf("the first lesson's card does not show its 75 earnable XP")
	}
	_, page := get(t, c, base+"/lessons/octal-numbers")
	if !strings.Contains(page, "<title>Permissions as numbers · Reading Unix file permissions</title>") {
		t.Errorf("lesson page title is not the lesson's and the course's")
	}
	if !strings.Contains(page, `data-testid="brand">perms<span>.unix</span></a>`) {
		t.Errorf("lesson page header does not show the course's brand")
	}
}
