package lessons

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// exerciseLesson is a valid lesson around one exercise block body.
func exerciseLesson(body string) string {
	const front = "title: T\nslug: s\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n"
	return "---\n" + front + "---\nText.\n\n```exercise\n" + body + "```\n\n## Key takeaways\n- x\n"
}

// lineOf is the 1-based line of the first line of src holding marker.
func lineOf(src, marker string) int {
	i := strings.Index(src, marker)
	if i < 0 {
		return -1
	}
	return strings.Count(src[:i], "\n") + 1
}

const exerciseHead = "id: x\ntitle: X\nprompt: P\nstarter: pass\nsolution: pass\n"

func TestLoadExerciseChecksAndJSON(t *testing.T) {
	tests := []struct {
		name string
		body string
		// marker → a part of the problem reported on marker's line
		want map[string]string
	}{
		{"unknown key in checks", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      contain: [a]\n",
			map[string]string{"contain: [a]": "field contain not found"}},
		{"both expected and checks", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    expected: a\n    checks:\n      contains: [a]\n",
			map[string]string{"expected: a": `case "A" has both expected and checks`}},
		{"exercise checks with expected cases", exerciseHead + "checks:\n  max_length: 5\nsamples:\n  - name: A\n    stdin: a\n    expected: a\n",
			map[string]string{"expected: a": `case "A" has both expected and checks`}},
		{"empty checks", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks: {}\n",
			map[string]string{"checks: {}": "checks is empty"}},
		{"bad values", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      contains: [\"\", x]\n      not_contains: [x]\n      max_length: -1\n      matches: \"(\"\n",
			map[string]string{"    checks:": "contains has an empty string"}},
		{"bad values name each problem", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      contains: [x]\n      not_contains: [x]\n      max_length: -1\n      matches: \"(\"\n",
			map[string]string{"    checks:": `contains "x" but not_contains "x"`}},
		{"bad pattern", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      matches: \"(\"\n",
			map[string]string{"    checks:": "not a valid Go regular expression"}},
		{"negative length", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      max_length: -1\n",
			map[string]string{"    checks:": "max_length must be 1 or more"}},
		{"bad exercise checks", exerciseHead + "checks:\n  contains_any: [\"\"]\nsamples:\n  - name: A\n    stdin: a\n",
			map[string]string{"checks:\n  contains_any": "contains_any has an empty string"}},
		{"contains_any in two places", exerciseHead + "checks:\n  contains_any: [a]\nhidden:\n  - name: H\n    stdin: h\n    checks:\n      contains_any: [b]\nsamples:\n  - name: A\n    stdin: a\n",
			map[string]string{"    checks:\n      contains_any: [b]": `case "H" sets contains_any, and so does the exercise's checks`}},
		{"checks as a scalar", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks: yes\n",
			map[string]string{"checks: yes": "cannot unmarshal"}},
		{"expected not JSON", exerciseHead + "compare: json\nsamples:\n  - name: A\n    stdin: a\n    expected: '{\"a\": }'\n",
			map[string]string{"expected: '{": `case "A": expected is not valid JSON`}},
		{"schema without json", exerciseHead + "schema: JSONRPCResponse\nsamples:\n  - name: A\n    stdin: a\n    expected: a\n",
			map[string]string{"schema: JSONRPCResponse": `used only with "compare: json"`}},
		{"schema name", exerciseHead + "compare: json\nschema: \"#/$defs/X\"\nsamples:\n  - name: A\n    stdin: a\n    expected: '{}'\n",
			map[string]string{"schema: \"#": "is not a definition name"}},
		{"wrong solution without note", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    expected: a\nwrong_solutions:\n  - code: print(1)\n",
			map[string]string{"  - code: print(1)": "wrong_solutions 1: has no note"}},
		{"wrong solution without code", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    expected: a\nwrong_solutions:\n  - note: N\n",
			map[string]string{"  - note: N": "wrong_solutions 1: has no code"}},
		{"other solution with code and replace", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    expected: a\nother_solutions:\n  - note: N\n    code: x\n    replace: pass\n    with: x\n",
			map[string]string{"  - note: N": "other_solutions 1: has both code and replace"}},
		{"replace not in the solution", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    expected: a\nwrong_solutions:\n  - note: N\n    replace: nothing\n    with: x\n",
			map[string]string{"  - note: N": `wrong_solutions 1: replace "nothing" appears 0 times in the solution`}},
		{"unknown field of a grader solution", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    expected: a\nwrong_solutions:\n  - note: N\n    program: x\n",
			map[string]string{"    program: x": "field program not found"}},
		{"empty set of synonyms", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      mentions_one_of: [[]]\n",
			map[string]string{"    checks:": "mentions_one_of set 1 is empty"}},
		{"empty synonym", exerciseHead + "samples:\n  - name: A\n    stdin: a\n    checks:\n      mentions_one_of: [[a, \"\"]]\n",
			map[string]string{"    checks:": "mentions_one_of set 1 has an empty string"}},
		{"unknown compare lists json", exerciseHead + "compare: yaml\nsamples:\n  - name: A\n    stdin: a\n    expected: a\n",
			map[string]string{"compare: yaml": `"lines" (the default), "exact" or "json"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := exerciseLesson(tt.body)
			_, err := Load(fstest.MapFS{"a.md": {Data: []byte(src)}})
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load error = %v, want Problems", err)
			}
			for marker, part := range tt.want {
				want := fmt.Sprintf("a.md:%d: exercise block: ", lineOf(src, marker))
				found := false
				for _, p := range ps {
					found = found || strings.HasPrefix(p.String(), want) && strings.Contains(p.String(), part)
				}
				if !found {
					t.Errorf("no problem %q…%q in:\n%s", want, part, ps.Error())
				}
			}
		})
	}
}

func TestLoadExerciseChecksMerged(t *testing.T) {
	body := exerciseHead + "checks:\n  not_contains: [Traceback]\n  max_length: 200\n" +
		"samples:\n  - name: A\n    stdin: a\n    checks:\n      contains: [a]\n      max_length: 50\n" +
		"hidden:\n  - name: H\n    stdin: h\n"
	c, err := Load(fstest.MapFS{"a.md": {Data: []byte(exerciseLesson(body))}})
	if err != nil {
		t.Fatal(err)
	}
	e, _, _ := c.Exercise("x")
	a, h := e.Samples[0], e.Hidden[0]
	if fmt.Sprint(a.Checks) != fmt.Sprint(&Checks{Contains: []string{"a"}, NotContains: []string{"Traceback"}, MaxLength: 50}) {
		t.Errorf("sample checks = %+v", a.Checks)
	}
	if fmt.Sprint(h.Checks) != fmt.Sprint(&Checks{NotContains: []string{"Traceback"}, MaxLength: 200}) {
		t.Errorf("hidden checks = %+v", h.Checks)
	}
	want := "Any output that:\n- contains “a”\n- does not contain “Traceback”\n- has at most 50 characters\n"
	if a.Expected != want {
		t.Errorf("sample Expected = %q, want the description %q", a.Expected, want)
	}
}

func TestLoadExerciseTextOptionsMerged(t *testing.T) {
	body := exerciseHead + "checks:\n  ignore_case: true\n  mentions_one_of: [[try again, retry]]\n" +
		"samples:\n  - name: A\n    stdin: a\n    checks:\n      whole_words: true\n      mentions_one_of: [[minute, shortly]]\n"
	c, err := Load(fstest.MapFS{"a.md": {Data: []byte(exerciseLesson(body))}})
	if err != nil {
		t.Fatal(err)
	}
	e, _, _ := c.Exercise("x")
	want := &Checks{MentionsOneOf: [][]string{{"try again", "retry"}, {"minute", "shortly"}}, IgnoreCase: true, WholeWords: true}
	if fmt.Sprint(e.Samples[0].Checks) != fmt.Sprint(want) {
		t.Errorf("checks = %+v, want %+v", e.Samples[0].Checks, want)
	}
	desc := "Any output that:\n- mentions “try again” or “retry”\n- mentions “minute” or “shortly”\n(the words match in any case, as whole words)\n"
	if e.Samples[0].Expected != desc {
		t.Errorf("description = %q, want %q", e.Samples[0].Expected, desc)
	}
}

func TestLoadGraderSolutions(t *testing.T) {
	body := "id: x\ntitle: X\nprompt: P\nstarter: pass\nsolution: |\n  LIMIT = 40\n  print(LIMIT)\n" +
		"samples:\n  - name: A\n    stdin: a\n    expected: \"40\"\nhidden:\n  - name: H\n    rule: at most 40\n    stdin: h\n    expected: \"40\"\n" +
		"wrong_solutions:\n  - note: sixty\n    replace: LIMIT = 40\n    with: LIMIT = 60\n  - note: whole\n    code: print(4)\n" +
		"other_solutions:\n  - note: literal\n    code: print('40')\n"
	c, err := Load(fstest.MapFS{"a.md": {Data: []byte(exerciseLesson(body))}})
	if err != nil {
		t.Fatal(err)
	}
	e, _, _ := c.Exercise("x")
	want := []GraderSolution{{Note: "sixty", Code: "LIMIT = 60\nprint(LIMIT)\n"}, {Note: "whole", Code: "print(4)"}}
	if fmt.Sprintf("%q", e.WrongSolutions) != fmt.Sprintf("%q", want) {
		t.Errorf("wrong solutions = %q, want %q", e.WrongSolutions, want)
	}
	if len(e.OtherSolutions) != 1 || e.OtherSolutions[0].Code != "print('40')" || e.Hidden[0].Rule != "at most 40" {
		t.Errorf("other solutions = %q, hidden = %+v", e.OtherSolutions, e.Hidden)
	}
}

func TestLoadExerciseJSON(t *testing.T) {
	body := exerciseHead + "compare: json\nschema: JSONRPCResponse\nsamples:\n  - name: A\n    stdin: a\n    expected: |\n      {\"jsonrpc\": \"2.0\", \"id\": 1, \"error\": {\"code\": -32600, \"message\": \"m\"}}\n"
	c, err := Load(fstest.MapFS{"a.md": {Data: []byte(exerciseLesson(body))}})
	if err != nil {
		t.Fatal(err)
	}
	e, _, _ := c.Exercise("x")
	if e.Comparison() != CompareJSON || e.Schema != "JSONRPCResponse" || e.Samples[0].Checks != nil {
		t.Errorf("exercise = %+v", e)
	}
}

func TestLoadMCPCallProblems(t *testing.T) {
	const head = "id: x\ntitle: X\nprompt: P\nstarter: pass\nsolution: pass\nmcp:\n  calls:\n    - name: A\n      tool: t\n      expect: result\n"
	tests := []struct {
		name, calls, want string
	}{
		{"same_as names a later call", "    - name: B\n      tool: t\n      expect: result\n      same_as: {charge_id: C}\n    - name: C\n      tool: t\n      expect: result\n",
			`call "B": same_as charge_id names "C", which is not an earlier call`},
		{"text_checks on tools/list", "    - name: B\n      method: tools/list\n      hints: {t: {readOnlyHint: true}}\n      text_checks: {contains: [x]}\n",
			"a tools/list call takes no tool, arguments, text_contains, text_checks or structured_keys"},
		{"output_schema on tools/call", "    - name: B\n      tool: t\n      expect: result\n      output_schema: {t: [a]}\n",
			"hints and output_schema are read from tools/list"},
		{"bad text_checks", "    - name: B\n      tool: t\n      expect: tool error\n      text_checks: {mentions_one_of: [[]]}\n",
			"text_checks: mentions_one_of set 1 is empty"},
		{"text_checks on a protocol error", "    - name: B\n      tool: t\n      expect: protocol error\n      text_checks: {contains: [x]}\n",
			"a protocol error has no text content or structuredContent to check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"a.md": {Data: []byte(exerciseLesson(head + tt.calls))}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error = %v, want one with %q", err, tt.want)
			}
		})
	}
	ok := head + "      rule: the first call\n    - name: B\n      tool: t\n      expect: result\n      same_as: {charge_id: A}\n" +
		"      text_checks: {mentions_one_of: [[a, b]], ignore_case: true}\n    - name: C\n      method: tools/list\n      output_schema: {t: [a]}\n"
	c, err := Load(fstest.MapFS{"a.md": {Data: []byte(exerciseLesson(ok))}})
	if err != nil {
		t.Fatal(err)
	}
	e, _, _ := c.Exercise("x")
	if calls := e.MCP.Calls; calls[0].Rule != "the first call" || calls[1].SameAs["charge_id"] != "A" || !calls[1].TextChecks.IgnoreCase || calls[2].OutputSchema["t"][0] != "a" {
		t.Errorf("calls = %+v", calls)
	}
}
