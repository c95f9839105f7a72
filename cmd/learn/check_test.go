package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckSchemaNames(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		code   int
		want   string
	}{
		{"a definition", "JSONRPCResponse", 0, "ok — 1 lesson, 1 widget (0 classify, 0 annotate, 0 quizzes), 0 quiz questions, 1 exercise"},
		{"no such definition", "JSONRPCReply", 1, `01-a.md:12: exercise echo: schema "JSONRPCReply" is not a definition of the MCP 2026-07-28 schema`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			lesson := "---\ntitle: A\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n" +
				"```exercise\nid: echo\ntitle: Echo\nprompt: Echo JSON.\nstarter: pass\nsolution: print(input())\ncompare: json\nschema: " + tt.schema + "\n" +
				"samples:\n  - name: One\n    stdin: '{}'\n    expected: '{}'\n```\n\n## Key takeaways\n- x\n"
			if err := os.WriteFile(filepath.Join(dir, "01-a.md"), []byte(lesson), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"check", "--no-run", dir}, &out, &errOut)
			if code != tt.code || !strings.Contains(out.String(), tt.want) {
				t.Errorf("exit %d, want %d; stdout lacks %q:\n%s%s", code, tt.code, tt.want, out.String(), errOut.String())
			}
		})
	}
}

func TestCheckCatchesMalformedFAQ(t *testing.T) {
	dir := t.TempDir()
	lesson := "---\ntitle: A\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n" +
		"```faq\n- question: Why does isError matter?\n  answer: A missing one means success.\n- question: And -32602?\n```\n\n## Key takeaways\n- x\n"
	if err := os.WriteFile(filepath.Join(dir, "01-a.md"), []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"check", "--no-run", dir}, &out, &errOut)
	want := `01-a.md:15: faq entry 2 ("And -32602?") has no answer`
	if code == 0 || !strings.Contains(out.String()+errOut.String(), want) {
		t.Errorf("exit %d; output lacks %q:\n%s%s", code, want, out.String(), errOut.String())
	}
}

// graderCourse writes a course of one exercise, sum, with the given extra
// YAML (wrong_solutions, other_solutions) and hidden cases, and returns its
// folder.
func graderCourse(t *testing.T, hidden, extra string) string {
	t.Helper()
	dir := t.TempDir()
	lesson := "---\ntitle: A\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n" +
		"```exercise\nid: sum\ntitle: Sum\nprompt: Print the sum of two whole numbers.\nstarter: |\n  print(0)\n" +
		"solution: |\n  a, b = map(int, input().split())\n  print(a + b)\n" +
		"samples:\n  - name: One\n    stdin: \"1 2\"\n    expected: \"3\"\nhidden:\n" + hidden + extra + "```\n\n## Key takeaways\n- x\n"
	if err := os.WriteFile(filepath.Join(dir, "01-a.md"), []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "course.yaml"), []byte("title: Sums\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckGraderSolutions(t *testing.T) {
	wasm := filepath.Join("..", "..", "node_modules", "@antonz", "python-wasi", "dist", "python.wasm")
	const ruled = "  - name: Two\n    rule: the sum of two whole numbers\n    stdin: \"2 2\"\n    expected: \"4\"\n"
	const unruled = "  - name: Two\n    stdin: \"2 2\"\n    expected: \"4\"\n"
	const enough = "wrong_solutions:\n" +
		"  - {note: always 3, code: 'print(3)'}\n  - {note: multiplies, replace: a + b, with: a * b}\n  - {note: concatenates, code: 'print(input().replace(\" \", \"\"))'}\n" +
		"  - {note: one too many, replace: a + b, with: a + b + 1}\n  - {note: prints nothing, code: 'pass'}\n" +
		"other_solutions:\n  - {note: sum of a list, code: 'print(sum(int(x) for x in input().split()))'}\n" +
		"  - {note: two inputs, code: \"x, y = input().split()\\nprint(int(x) + int(y))\"}\n  - {note: eval, code: 'print(eval(input().replace(\" \", \"+\")))'}\n"
	tests := []struct {
		name    string
		args    []string
		dir     string
		code    int
		want    []string
		notWant []string
	}{
		{"a listed wrong solution that passes is named", nil,
			graderCourse(t, ruled, "wrong_solutions:\n  - {note: always 3, code: 'print(3)'}\n  - {note: adds zero, replace: a + b, with: a + b + 0}\n"), 1,
			[]string{"01-a.md:12: exercise sum: wrong solution 2 (adds zero) passes every case"},
			[]string{"wrong solution 1"}},
		{"a listed right solution that fails names the case and its diff", nil,
			graderCourse(t, ruled, "other_solutions:\n  - {note: sum of a list, code: 'print(sum(int(x) for x in input().split()))'}\n  - {note: subtracts, replace: a + b, with: a - b}\n"), 1,
			[]string{`exercise sum: other solution 2 (subtracts) fails case "One" (wrong output)`, `other solution 2 (subtracts) fails case "Two" (wrong output)`, "\n    - 3\n    + -1\n"},
			[]string{"other solution 1"}},
		{"enough solutions and rules pass --strict", []string{"--strict"}, graderCourse(t, ruled, enough), 0,
			[]string{"ok — 1 lesson"}, []string{"warning"}},
		{"a hidden case without a rule warns under --strict", []string{"--strict"}, graderCourse(t, unruled, enough), 1,
			[]string{`01-a.md:12: warning: exercise sum: hidden case "Two" names no rule`}, nil},
		{"too few solutions warn under --strict", []string{"--strict"}, graderCourse(t, ruled, "wrong_solutions:\n  - {note: always 3, code: 'print(3)'}\n"), 1,
			[]string{"exercise sum: it lists 1 wrong solution(s): give at least 5", "exercise sum: it lists 0 other right solution(s): give at least 3"}, nil},
		{"without --strict the grader warnings are not given", nil, graderCourse(t, unruled, "wrong_solutions:\n  - {note: always 3, code: 'print(3)'}\n"), 0,
			[]string{"ok — 1 lesson"}, []string{"names no rule", "wrong solution(s)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append(append([]string{"check", "--python-wasm", wasm}, tt.args...), tt.dir)
			code := run(context.Background(), args, &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d:\n%s", code, tt.code, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("stdout has %q:\n%s", w, out.String())
				}
			}
		})
	}
}
