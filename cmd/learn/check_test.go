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
