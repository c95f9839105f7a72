package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"learn/lessons"
)

func TestCommands(t *testing.T) {
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "01-a.md"), []byte("---\ntitle: A\nslug: Not A Slug\norder: 1\n---\nBody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join("..", "..", "node_modules", "@antonz", "python-wasi", "dist", "python.wasm")
	badExercises := t.TempDir()
	lesson := "---\ntitle: A\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n" +
		"```exercise\nid: sum\ntitle: Sum\nprompt: Add two numbers.\nstarter: |\n  a, b = map(int, input().split())\n  print(a + b)\nsolution: |\n  print(3)\n" +
		"samples:\n  - name: One\n    stdin: \"1 2\"\n    expected: \"3\"\nhidden:\n  - name: Two\n    stdin: \"2 2\"\n    expected: \"4\"\n```\n\n## Key takeaways\n- x\n"
	if err := os.WriteFile(filepath.Join(badExercises, "01-a.md"), []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	warned := t.TempDir()
	if err := os.WriteFile(filepath.Join(warned, "01-a.md"), []byte("---\ntitle: A\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText only.\n\n## Key takeaways\n- x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hello := write("hello.py", "import sys\nprint('hi', sys.stdin.read().strip())\n")
	stdinFile := write("in.txt", "there\n")
	loop := write("loop.py", "while True:\n    pass\n")
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	ex, _, _ := course.Exercise("report-a-failure")
	right := write("right.py", ex.Solution)
	allPassed := fmt.Sprintf("%d passed, 0 failed", len(ex.Samples)+len(ex.Hidden))
	wrong := write("wrong.py", "k, m = input().split('|')\nprint('result isError=true ' + m)\n")
	tests := []struct {
		name       string
		args       []string
		code       int
		wantOut    []string
		wantErrOut []string
	}{
		{"no command", nil, 2, nil, []string{"Usage:", "serve", "check"}},
		{"help", []string{"--help"}, 0, []string{"Commands:"}, nil},
		{"unknown command", []string{"teleport"}, 2, nil, []string{`unknown command "teleport"`}},
		{"serve help", []string{"serve", "--help"}, 0, nil, []string{"-addr", "[LEARN_ADDR]", "-db", "-lessons", "-log-level", "-dev"}},
		{"serve bad flag", []string{"serve", "--colour"}, 2, nil, []string{"learn serve: unknown flag --colour\nRun \"learn serve -h\" to see its flags.\n"}},
		{"duration without unit", []string{"serve", "--run-timeout", "5"}, 2, nil, []string{"learn serve: --run-timeout 5: a duration needs its unit: write 5s"}},
		{"not a number", []string{"check", "--run-memory", "lots"}, 2, nil, []string{"learn check: --run-memory lots: not a whole number: write one such as 64"}},
		{"version", []string{"--version"}, 0, []string{"learn ", "go1."}, nil},
		{"teacher add without address", []string{"teacher", "add"}, 2, nil, []string{`learn teacher: give the teacher's e-mail address, such as "learn teacher add you@school.example"`}},
		{"teacher unknown action", []string{"teacher", "promote", "a@b.example"}, 2, nil, []string{`unknown action "promote": use add EMAIL, list or remove EMAIL`}},
		{"check built-in", []string{"check", "--python-wasm", wasm}, 0, []string{"built-in course: ok", "lessons", "quiz questions", "exercises (solutions and starters run in the sandbox)"}, []string{"report-a-failure: reference solution", "build-the-response: starter code", "rewrite-the-message: reference solution", "done"}},
		{"check exercises", []string{"check", "--python-wasm", wasm, badExercises}, 1, []string{
			`exercise sum: the reference solution fails case "Two"`, "exercise sum: the starter code already passes every case",
		}, nil},
		{"run", []string{"run", "--python-wasm", wasm, "--stdin", stdinFile, hello}, 0, []string{"hi there"}, nil},
		{"run stopped at its deadline", []string{"run", "--python-wasm", wasm, "--run-timeout", "1s", loop}, 1, nil, []string{"learn run: "}},
		{"run without a file", []string{"run"}, 2, nil, []string{"learn run [flags] FILE.py"}},
		{"grade right", []string{"grade", "--python-wasm", wasm, "report-a-failure", right}, 0, []string{"ok   Pipe in a protocol message: passed", allPassed}, nil},
		{"grade wrong", []string{"grade", "--python-wasm", wasm, "report-a-failure", wrong}, 1, []string{"FAIL Unknown tool: wrong output", "FAIL Pipe in a protocol message: error"}, nil},
		{"grade json", []string{"grade", "--json", "--python-wasm", wasm, "report-a-failure", right}, 0, []string{`"passed": true`, `"verdict": "passed"`}, nil},
		{"grade unknown exercise", []string{"grade", "--python-wasm", wasm, "nope", right}, 1, nil, []string{`no exercise "nope"`, "report-a-failure"}},
		{"check bad folder", []string{"check", bad}, 1, []string{
			"01-a.md:3: slug \"Not A Slug\" is not valid", "01-a.md:2: missing summary", "missing takeaways", "problem(s)",
		}, nil},
		{"check warnings pass", []string{"check", "--no-run", warned}, 0, []string{
			"01-a.md:1: warning: the lesson has no practice", "course.yaml: warning: the course has no course.yaml", ": ok — 1 lesson,", "; 2 warnings",
		}, nil},
		{"check warnings fail with --strict", []string{"check", "--strict", "--no-run", warned}, 1, []string{
			"01-a.md:1: warning: the lesson has no practice", "0 problem(s) and 2 warning(s) (--strict)",
		}, nil},
		{"check --json", []string{"check", "--json", bad}, 1, []string{
			`{"file":"` + filepath.Join(bad, "01-a.md") + `","line":3,"message":"slug \"Not A Slug\" is not valid`, `"severity":"error"}`,
			`{"file":"` + filepath.Join(bad, "course.yaml") + `","message":"the course has no course.yaml`, `"severity":"warning"}`,
		}, []string{"problem(s)"}},
		{"check missing folder", []string{"check", filepath.Join(bad, "nope")}, 1, nil, []string{"does not exist"}},
		{"serve missing folder", []string{"serve", "--lessons", filepath.Join(bad, "nosuchdir")}, 1, nil, []string{"the course folder " + filepath.Join(bad, "nosuchdir") + " does not exist: give the folder that holds course.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.wantErrOut {
				if !strings.Contains(errOut.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut.String())
				}
			}
		})
	}
}

func TestEnvironmentFillsFlags(t *testing.T) {
	t.Setenv("LEARN_DB", "from-env.db")
	t.Setenv("LEARN_ADDR", "127.0.0.1:1")
	fs := flagSet("serve", "", &bytes.Buffer{})
	db := fs.String("db", "learn.db", "")
	addr := fs.String("addr", "localhost:8080", "")
	if err := parseFlags(fs, []string{"--addr", "127.0.0.1:2"}, withEnv(fs)); err != nil {
		t.Fatal(err)
	}
	if *db != "from-env.db" {
		t.Errorf("db = %q, want the environment's value", *db)
	}
	if *addr != "127.0.0.1:2" {
		t.Errorf("addr = %q, want the command line to win over the environment", *addr)
	}
	if got := envName("log-level"); got != "LEARN_LOG_LEVEL" {
		t.Errorf("envName = %q", got)
	}
}

// TestCheckJSONLines checks that learn check --json writes nothing but one
// problem object per line on stdout, with the severity spelt out.
func TestCheckJSONLines(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "01-a.md"), []byte("---\ntitle: A\nslug: a\norder: 0\n---\n![](x.png)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"check", "--json", dir}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	severities := map[string]int{}
	for _, line := range lines {
		var p problemJSON
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("stdout line %q is not a problem object: %v", line, err)
		}
		if p.File == "" || p.Message == "" {
			t.Errorf("problem without file or message: %q", line)
		}
		severities[p.Severity]++
	}
	if severities["error"] != 7 || severities["warning"] != 2 || len(severities) != 2 {
		t.Errorf("severities = %v, want 7 errors (order, summary, objectives, minutes, takeaways, image alt, image missing) and 2 warnings (course.yaml, no practice)", severities)
	}
	if !strings.Contains(errOut.String(), "problem(s)") {
		t.Errorf("the summary should go to stderr: %q", errOut.String())
	}
}
