package lessons

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

const goodLesson = `---
title: First
slug: first
order: 1
summary: The first lesson.
objectives:
  - Learn one thing
minutes: 5
---
Intro with a table.

| a | b |
|---|---|
| 1 | 2 |

## Section

` + "```json mcp=ToolAnnotations\n{\"readOnlyHint\": true}\n```" + `

` + "```python linenos\nprint('hi')\n```" + `

## Key takeaways
- One
`

func TestLoadGoodLesson(t *testing.T) {
	c, err := Load(fstest.MapFS{"01-first.md": {Data: []byte(goodLesson)}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	l, ok := c.Lesson("first")
	if !ok {
		t.Fatal("lesson first not found")
	}
	if l.EarnableXP() != 0 || l.Minutes != 5 || l.Title != "First" {
		t.Errorf("front matter = %+v", l)
	}
	var body strings.Builder
	for _, s := range l.Segments {
		body.WriteString(string(s.HTML))
	}
	for _, want := range []string{
		"<table>", "<td>1</td>",
		`<h2 id="section">Section<a href="#section" class="anchor"`,
		`class="hl-`, // chroma classes, no inline style
		`hl-ln`,      // line numbers where asked
	} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("body lacks %q:\n%s", want, body.String())
		}
	}
	if strings.Contains(body.String(), "style=") {
		t.Errorf("body has inline styles:\n%s", body.String())
	}
	if strings.Contains(body.String(), takeawaysHeading) || !strings.Contains(string(l.Takeaways), "<li>One</li>") {
		t.Errorf("takeaways not moved to their box: takeaways=%q", l.Takeaways)
	}
	if len(l.Examples) != 2 || l.Examples[0].Schema != "ToolAnnotations" || l.Examples[0].Line != 18 {
		t.Errorf("examples = %+v, want the json block on line 18 marked ToolAnnotations", l.Examples)
	}
}

const classifyBlock = "```classify\nid: kinds\nprompt: Which kind?\ncategories:\n  - {id: protocol, label: Protocol error}\n  - {id: execution, label: Tool execution error}\n" +
	"items:\n  - {id: a, text: No such tool, answer: protocol, explanation: Finding the tool is the protocol's job., why_not: {execution: No tool ran.}}\n```\n"

func TestLoadWidget(t *testing.T) {
	src := strings.Replace(goodLesson, "## Section\n", "## Section\n\n"+classifyBlock, 1)
	c, err := Load(fstest.MapFS{"01-first.md": {Data: []byte(src)}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	l, _ := c.Lesson("first")
	w, ok := l.Widget("kinds")
	if !ok || w.Kind != "classify" || w.Line != 18 {
		t.Fatalf("widget = %+v, want classify \"kinds\" on line 18", w)
	}
	var before, after bool
	for _, s := range l.Segments {
		if s.Widget != nil {
			before = true
		} else if before {
			after = true
		}
	}
	if !before || !after {
		t.Errorf("the widget is not placed between two HTML segments")
	}
}

const exerciseBlock = "```exercise\nid: echo\ntitle: Echo\nprompt: Print **what** you read.\nstarter: |\n  pass\nsolution: |\n  print(input())\n" +
	"samples:\n  - name: One\n    stdin: a\n    expected: a\nhidden:\n  - name: Two\n    stdin: b\n    expected: b\n```\n"

func TestLoadExercise(t *testing.T) {
	src := strings.Replace(goodLesson, "## Section\n", "## Section\n\n"+exerciseBlock, 1)
	c, err := Load(fstest.MapFS{"01-first.md": {Data: []byte(src)}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	e, l, ok := c.Exercise("echo")
	if !ok || l.Slug != "first" {
		t.Fatal("exercise echo not found in lesson first")
	}
	if e.XPValue() != DefaultExerciseXP || e.Comparison() != CompareLines || len(e.Hidden) != 1 || e.Solution != "print(input())\n" {
		t.Errorf("exercise = %+v", e)
	}
	if !strings.Contains(string(e.PromptHTML), "<strong>what</strong>") {
		t.Errorf("prompt not rendered as markdown: %q", e.PromptHTML)
	}
}

func TestLoadProblems(t *testing.T) {
	withFront := func(fm string) string { return "---\n" + fm + "---\nBody.\n\n## Key takeaways\n- x\n" }
	const valid = "title: T\nslug: s\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n"
	tests := []struct {
		name  string
		files map[string]string
		want  []string // each must appear in the problem list
	}{
		{"no front matter", map[string]string{"a.md": "# Hi\n"}, []string{"a.md:1: the file must start with YAML front matter"}},
		{"unclosed front matter", map[string]string{"a.md": "---\ntitle: x\n"}, []string{"a.md:1: the front matter is not closed"}},
		{"missing title", map[string]string{"a.md": withFront(strings.Replace(valid, "title: T\n", "", 1))}, []string{"a.md:2: missing title"}},
		{"bad slug", map[string]string{"a.md": withFront(strings.Replace(valid, "slug: s", "slug: Bad Slug", 1))}, []string{`a.md:3: slug "Bad Slug" is not valid`}},
		{"unknown field", map[string]string{"a.md": withFront(valid + "colour: red\n")}, []string{"a.md:9: bad front matter", "field colour not found"}},
		{"bad yaml", map[string]string{"a.md": withFront("title: [unclosed\n")}, []string{"a.md:", "bad front matter"}},
		{"duplicate slug", map[string]string{
			"a.md": withFront(valid),
			"b.md": withFront(strings.Replace(valid, "order: 1", "order: 2", 1)),
		}, []string{`b.md:2: slug "s" is already used by a.md`}},
		{"unknown widget", map[string]string{"a.md": withFront(valid) + "\n```classify\nitems: []\n```\n"},
			[]string{"a.md:15: the classify block cannot stand"}},
		{"widget in body", map[string]string{"a.md": "---\n" + valid + "---\nText.\n\n```python colour=red\nx = 1\n```\n\n```classify\nid: k\nprompt: P\ncategories: []\nitems: []\n```\n\n## Key takeaways\n- x\n"},
			[]string{`a.md:19: classify block: categories:`, `a.md:12: unknown flag "colour=red"`}},
		{"misspelt hint", map[string]string{"a.md": "---\n" + valid + "---\nText.\n\n```annotate\nid: a\nprompt: P\ntools:\n  - name: t\n    description: D\n    hints:\n      readonlyHint: {value: true, explanation: E}\n```\n\n## Key takeaways\n- x\n"},
			[]string{`a.md:19: annotate block: tools[0].hints.readonlyHint`, "readOnlyHint"}},
		{"bad yaml in widget", map[string]string{"a.md": "---\n" + valid + "---\nText.\n\n```quiz\nid: [oops\n```\n\n## Key takeaways\n- x\n"},
			[]string{`a.md:1`, "quiz block"}},
		{"duplicate widget ids", map[string]string{"a.md": "---\n" + valid + "---\n" + classifyBlock + "\n" + classifyBlock + "\n## Key takeaways\n- x\n"},
			[]string{`widget id "kinds" is already used on line 10`}},
		{"exercise without samples", map[string]string{"a.md": "---\n" + valid + "---\n```exercise\nid: x\ntitle: X\nprompt: P\nsolution: pass\ncompare: fuzzy\n```\n\n## Key takeaways\n- x\n"},
			[]string{"a.md:11: exercise block: no sample cases", `a.md:15: exercise block: compare "fuzzy" is not known`}},
		{"exercise id twice", map[string]string{
			"a.md": "---\n" + valid + "---\n" + exerciseBlock + "\n## Key takeaways\n- x\n",
			"b.md": "---\n" + strings.NewReplacer("order: 1", "order: 2", "slug: s", "slug: t").Replace(valid) + "---\n" + exerciseBlock + "\n## Key takeaways\n- x\n",
		}, []string{`exercise id "echo" is already used`}},
		{"reserved character", map[string]string{"a.md": withFront(valid) + "odd \uE000 mark\n"}, []string{"a.md:14: the private-use character U+E000 is reserved"}},
		{"missing takeaways", map[string]string{"a.md": "---\n" + valid + "---\nOnly text.\n"}, []string{"a.md:10: missing takeaways"}},
		{"empty course", map[string]string{}, []string{"the course has no lessons"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, src := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(src)}
			}
			_, err := Load(fsys)
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load error = %v, want Problems", err)
			}
			for _, want := range tt.want {
				if !strings.Contains(ps.Error(), want) {
					t.Errorf("problems lack %q:\n%s", want, ps.Error())
				}
			}
		})
	}
}

func TestBuiltInCourseLoads(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatalf("the built-in course has problems:\n%v", err)
	}
	if len(c.Lessons) < 2 {
		t.Fatalf("built-in course has %d lessons, want at least 2", len(c.Lessons))
	}
	for i, l := range c.Lessons {
		prev, next := c.Neighbours(l.Slug)
		if (i == 0) != (prev == nil) || (i == len(c.Lessons)-1) != (next == nil) {
			t.Errorf("neighbours of %s wrong: prev=%v next=%v", l.Slug, prev, next)
		}
	}
}
