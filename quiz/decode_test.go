package quiz

import (
	"os"
	"strings"
	"testing"
)

// docExamples returns the first fenced example of each kind in the package
// doc, by info string (TestDocExample checks the variants example).
func docExamples(t *testing.T) map[string]string {
	t.Helper()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var kind string
	var body []string
	for _, line := range strings.Split(string(src), "\n") {
		code, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		switch {
		case kind == "" && strings.HasPrefix(code, "```"):
			kind = strings.TrimPrefix(code, "```")
			body = nil
		case kind != "" && code == "```":
			if _, seen := out[kind]; !seen { // the first example of each kind
				out[kind] = strings.Join(body, "\n") + "\n"
			}
			kind = ""
		case kind != "":
			body = append(body, code)
		}
	}
	return out
}

func TestDocExamplesDecode(t *testing.T) {
	ex := docExamples(t)
	for _, kind := range []string{KindClassify, KindAnnotate, KindQuiz} {
		t.Run(kind, func(t *testing.T) {
			src, ok := ex[kind]
			if !ok {
				t.Fatalf("package doc has no %s example", kind)
			}
			w, ps := DecodeString(kind, src)
			if len(ps) > 0 {
				t.Fatalf("problems: %v", ps)
			}
			if w.Kind() != kind || w.WidgetID() == "" {
				t.Errorf("got kind %q id %q", w.Kind(), w.WidgetID())
			}
		})
	}
}

func TestDecodeProblems(t *testing.T) {
	ex := docExamples(t)
	tests := []struct {
		name     string
		kind     string
		src      string
		wantPath string
		wantLine int
		wantMsg  string // a substring of the message
	}{
		{
			name: "misspelt hint is an unknown key",
			kind: KindAnnotate,
			src: `id: a
prompt: Set the hints.
tools:
  - name: search
    description: Searches.
    hints:
      readonlyHint: {value: true, explanation: It reads.}
      openWorldHint: {value: true, explanation: The web.}
`,
			wantPath: "tools[0].hints.readonlyHint", wantLine: 7,
			wantMsg: `did you mean "readOnlyHint"`,
		},
		{
			name: "why_not naming the right category",
			kind: KindClassify,
			src: `id: c
prompt: P
categories: [{id: protocol, label: Protocol error}, {id: execution, label: Tool execution error}]
items:
  - {id: a, text: No such tool, answer: protocol, explanation: E., why_not: {protocol: X.}}
`,
			wantPath: "items[0].why_not.protocol", wantLine: 5, wantMsg: "is the right category",
		},
		{
			name: "why_not naming no category",
			kind: KindClassify,
			src: `id: c
prompt: P
categories: [{id: protocol, label: Protocol error}, {id: execution, label: Tool execution error}]
items:
  - {id: a, text: No such tool, answer: protocol, explanation: E., why_not: {exec: X.}}
`,
			wantPath: "items[0].why_not.exec", wantLine: 5, wantMsg: "is not one of the category ids",
		},
		{
			name: "blank why_not of a category",
			kind: KindClassify,
			src: `id: c
prompt: P
categories: [{id: protocol, label: Protocol error, why_not: " "}, {id: execution, label: Tool execution error}]
items:
  - {id: a, text: No such tool, answer: protocol, explanation: E.}
`,
			wantPath: "categories[0].why_not", wantLine: 3, wantMsg: "blank",
		},
		{
			name: "cue that says the value",
			kind: KindAnnotate,
			src: `id: a
prompt: Set the hints.
tools:
  - name: search
    description: Searches.
    hints:
      readOnlyHint: {value: true, explanation: It reads., cue: "True: it only reads"}
      openWorldHint: {value: true, explanation: The web.}
`,
			wantPath: "tools[0].hints.readOnlyHint.cue", wantLine: 7, wantMsg: "names a value",
		},
		{
			name: "why_not on a single question",
			kind: KindQuiz,
			src: `id: q
pass: 1
questions:
  - id: one
    prompt: P?
    why_not: {a: X.}
    options:
      - {id: a, text: A, explanation: EA.}
      - {id: b, text: B, correct: true, explanation: EB.}
`,
			wantPath: "questions[0].why_not", wantLine: 6, wantMsg: "not used by a single question",
		},
		{
			name:     "unknown top-level key",
			kind:     KindQuiz,
			src:      "id: q\npassmark: 3\nquestions: []\n",
			wantPath: "passmark", wantLine: 2, wantMsg: "valid keys here: id, pass, xp, shuffle, shuffle_options, questions",
		},
		{
			name:     "list where a mapping is wanted",
			kind:     KindClassify,
			src:      "id: c\nprompt: P\ncategories: protocol\nitems: []\n",
			wantPath: "categories", wantLine: 3, wantMsg: "expected a list",
		},
		{
			name:     "wrong scalar type",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "pass: 3", "pass: three", 1),
			wantLine: 2, wantMsg: "cannot unmarshal",
		},
		{
			name:     "pass mark above question count",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "pass: 3", "pass: 7", 1),
			wantPath: "pass", wantLine: 2, wantMsg: "set pass: to a number from 1 to 4",
		},
		{
			name:     "default pass mark above question count",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "pass: 3\n", "", 1),
			wantPath: "pass", wantLine: 1, wantMsg: "the default pass mark 5 is above the 4 questions",
		},
		{
			name:     "unknown category in an item's answer",
			kind:     KindClassify,
			src:      strings.Replace(ex[KindClassify], "answer: execution", "answer: tool", 1),
			wantPath: "items[1].answer", wantLine: 15, wantMsg: `unknown category "tool"`,
		},
		{
			name:     "no correct option",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "        correct: true\n", "", 1),
			wantPath: "questions[0].options", wantLine: 9, wantMsg: "no option is marked correct",
		},
		{
			name:     "two correct options in single",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "        text: A JSON-RPC error with code -32603\n", "        text: A JSON-RPC error with code -32603\n        correct: true\n", 1),
			wantPath: "questions[0].options", wantLine: 9, wantMsg: "set kind: multiple",
		},
		{
			name:     "duplicate question id",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "id: protocol-codes", "id: is-error", 1),
			wantPath: "questions[1].id", wantLine: 17, wantMsg: `"is-error" is already used by questions[0]`,
		},
		{
			name:     "missing explanation on an option",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "        explanation: Method not found (-32601) is a protocol error.\n", "", 1),
			wantPath: "questions[1].options[1].explanation", wantLine: 25, wantMsg: "missing or empty",
		},
		{
			name:     "empty item text",
			kind:     KindClassify,
			src:      strings.Replace(ex[KindClassify], `text: The client calls a tool named "serch"; the server has no such tool.`, `text: ""`, 1),
			wantPath: "items[0].text", wantLine: 10, wantMsg: "missing or empty",
		},
		{
			name:     "missing hint value",
			kind:     KindAnnotate,
			src:      strings.Replace(ex[KindAnnotate], "        value: true\n        explanation: A fact", "        explanation: A fact", 1),
			wantPath: "tools[1].hints.destructiveHint.value", wantLine: 19, wantMsg: "write value: true or value: false",
		},
		{
			name:     "destructive hint missing on a writing tool",
			kind:     KindAnnotate,
			src:      strings.Replace(ex[KindAnnotate], "      destructiveHint:\n        value: true\n        explanation: A fact with the same key is overwritten.\n", "", 1),
			wantPath: "tools[1].hints.destructiveHint", wantLine: 15, wantMsg: "only when readOnlyHint is true",
		},
		{
			name:     "invalid tool name",
			kind:     KindAnnotate,
			src:      strings.Replace(ex[KindAnnotate], "name: search_issues", "name: search issues", 1),
			wantPath: "tools[0].name", wantLine: 4, wantMsg: "not a valid MCP tool name",
		},
		{
			name:     "unknown question kind",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "kind: multiple", "kind: many", 1),
			wantPath: "questions[1].kind", wantLine: 18, wantMsg: "use single, multiple, classify or annotate",
		},
		{
			name:     "field that the kind does not use",
			kind:     KindQuiz,
			src:      strings.Replace(ex[KindQuiz], "    prompt: Which of these are protocol errors?\n", "    prompt: Which of these are protocol errors?\n    answer: a\n", 1),
			wantPath: "questions[1].answer", wantLine: 20, wantMsg: "not used by a multiple question",
		},
		{
			name:     "colon in plain text",
			kind:     KindClassify,
			src:      "id: a\nprompt: Pick: one\n",
			wantLine: 2, wantMsg: "put the text in quotes",
		},
		{
			name:     "unknown widget",
			kind:     "exercise",
			src:      "id: x\n",
			wantMsg:  "unknown widget",
			wantLine: 0,
		},
		{
			name:     "duplicate key",
			kind:     KindClassify,
			src:      "id: a\nid: b\n",
			wantPath: "id", wantLine: 2, wantMsg: "appears twice",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := DecodeString(tt.kind, tt.src)
			for _, p := range ps {
				if p.Path == tt.wantPath && strings.Contains(p.Message, tt.wantMsg) {
					if p.Line != tt.wantLine {
						t.Errorf("problem %q at line %d, want line %d", p, p.Line, tt.wantLine)
					}
					return
				}
			}
			t.Errorf("no problem at %q containing %q; got:\n%v", tt.wantPath, tt.wantMsg, ps)
		})
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{"all parts", Problem{Path: "pass", Line: 2, Message: "too high"}, "line 2: pass: too high"},
		{"no line", Problem{Path: "id", Message: "missing"}, "id: missing"},
		{"message only", Problem{Message: "empty"}, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
