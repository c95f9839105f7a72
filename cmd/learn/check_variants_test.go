package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckVariantShape runs learn check on a course whose quiz has one
// variant per case: a variant with another number of options or another
// kind fails the check with the file and line of the variant, and a
// variant as hard as its question passes.
func TestCheckVariantShape(t *testing.T) {
	const question = "  - id: q1\n    prompt: Which code means the JSON could not be parsed?\n    options:\n" +
		"      - {id: a, text: \"-32700\", correct: true, explanation: It is the parse error.}\n" +
		"      - {id: b, text: \"-32600\", explanation: That is an invalid request.}\n" +
		"      - {id: c, text: \"-32603\", explanation: That is an internal error.}\n"
	tests := []struct {
		name    string
		variant string
		code    int
		want    string
	}{
		{"same shape", "      - prompt: Which code answers a body cut off halfway?\n        options:\n" +
			"          - {id: a, text: \"-32700\", correct: true, explanation: The bytes are not JSON.}\n" +
			"          - {id: b, text: \"-32602\", explanation: Params cannot be judged before the JSON parses.}\n" +
			"          - {id: c, text: \"-32601\", explanation: No method can be read.}\n",
			0, "ok — 1 lesson, 1 widget (0 classify, 0 annotate, 1 quiz), 1 quiz question"},
		{"an option fewer", "      - prompt: Which code answers a body cut off halfway?\n        options:\n" +
			"          - {id: a, text: \"-32700\", correct: true, explanation: The bytes are not JSON.}\n" +
			"          - {id: b, text: \"-32602\", explanation: Params cannot be judged before the JSON parses.}\n",
			1, "01-a.md:24: quiz block: questions[0].variants[0].options: 2 options where the question has 3"},
		{"another kind", "      - kind: multiple\n        prompt: Which codes are JSON-RPC's own?\n        options:\n" +
			"          - {id: a, text: \"-32700\", correct: true, explanation: Parse error.}\n" +
			"          - {id: b, text: \"-32600\", correct: true, explanation: Invalid request.}\n" +
			"          - {id: c, text: \"-32020\", explanation: MCP defines that one.}\n",
			1, "01-a.md:23: quiz block: questions[0].variants[0].kind: the variant is a multiple question but its slot is single"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			lesson := "---\ntitle: A\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n" +
				"```quiz\nid: quiz\npass: 1\nquestions:\n" + question + "    variants:\n" + tt.variant + "```\n\n## Key takeaways\n- x\n"
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
