package lessons

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Exercise defaults.
const (
	// DefaultExerciseXP is an exercise's XP when its block gives none.
	DefaultExerciseXP = 20
	// CompareLines compares output line by line with trailing spaces and
	// trailing blank lines ignored; CompareExact compares every byte.
	CompareLines = "lines"
	CompareExact = "exact"
)

// Exercise is a Python exercise graded in the sandbox: an "exercise" block
// of a lesson.
//
//	```exercise
//	id: report-a-failure
//	title: Report a failure the right way
//	prompt: |
//	  Read one line KIND|MESSAGE from stdin and print …
//	starter: |
//	  line = input()
//	solution: |
//	  …
//	compare: lines        # or exact; default lines
//	xp: 20
//	samples:
//	  - name: Unknown tool
//	    stdin: "unknown_tool|No tool named serch"
//	    expected: "error -32602 No tool named serch"
//	hidden:
//	  - name: Message with a bar
//	    stdin: "api_failure|upstream | timeout"
//	    expected: "result isError=true upstream | timeout"
//	```
//
// Samples are shown to the learner and run by "Run"; hidden cases run only
// on "Submit" and are never sent to the browser. The solution is used only by
// "learn check", which requires it to pass every case and the starter to
// fail at least one.
type Exercise struct {
	ID       string         `yaml:"id"`
	Title    string         `yaml:"title"`
	Prompt   string         `yaml:"prompt"`
	Starter  string         `yaml:"starter"`
	Solution string         `yaml:"solution"`
	Compare  string         `yaml:"compare"`
	XP       *int           `yaml:"xp"`
	Samples  []ExerciseCase `yaml:"samples"`
	Hidden   []ExerciseCase `yaml:"hidden"`

	// PromptHTML is Prompt rendered as markdown.
	PromptHTML template.HTML `yaml:"-"`
}

// ExerciseCase is one test: the program reads Stdin and must print Expected.
type ExerciseCase struct {
	Name     string `yaml:"name"`
	Stdin    string `yaml:"stdin"`
	Expected string `yaml:"expected"`
}

// XPValue returns the exercise's XP, DefaultExerciseXP when unset.
func (e *Exercise) XPValue() int {
	if e.XP == nil {
		return DefaultExerciseXP
	}
	return *e.XP
}

// Comparison returns how outputs are compared: CompareLines or CompareExact.
func (e *Exercise) Comparison() string {
	if e.Compare == "" {
		return CompareLines
	}
	return e.Compare
}

var exerciseIDPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// decodeExercise decodes and checks an exercise block whose fence is on line.
func (r *renderer) decodeExercise(file string, body []byte, line int) (*Widget, []Problem) {
	var ps []Problem
	add := func(l int, format string, args ...any) {
		ps = append(ps, Problem{File: file, Line: l, Message: "exercise block: " + fmt.Sprintf(format, args...)})
	}
	var node yaml.Node
	if err := yaml.Unmarshal(body, &node); err != nil {
		add(line+yamlErrorLine(err, 0), "not valid YAML: %s", yamlErrorText(err))
		return nil, ps
	}
	var e Exercise
	dec := yaml.NewDecoder(bytes.NewReader(body))
	dec.KnownFields(true)
	if err := dec.Decode(&e); err != nil {
		add(line+yamlErrorLine(err, 0), "%s (known fields: id, title, prompt, starter, solution, compare, xp, samples, hidden)", yamlErrorText(err))
		return nil, ps
	}
	at := func(key string) int { return line + keyLine(&node, key) }
	if !exerciseIDPattern.MatchString(e.ID) {
		add(at("id"), "id %q is not valid: use lowercase letters, digits and hyphens, such as \"report-a-failure\"", e.ID)
	}
	if strings.TrimSpace(e.Title) == "" {
		add(at("title"), `missing title, such as "title: Report a failure the right way"`)
	}
	if strings.TrimSpace(e.Prompt) == "" {
		add(at("prompt"), "missing prompt: say in markdown what the program reads and what it must print")
	}
	if strings.TrimSpace(e.Solution) == "" {
		add(at("solution"), "missing solution: a reference program that passes every case (learn check runs it; learners never see it)")
	}
	if e.Compare != "" && e.Compare != CompareLines && e.Compare != CompareExact {
		add(at("compare"), "compare %q is not known: use \"lines\" (the default) or \"exact\"", e.Compare)
	}
	if e.XP != nil && *e.XP < 0 {
		add(at("xp"), "xp must be 0 or more, such as \"xp: 20\"")
	}
	if len(e.Samples) == 0 {
		add(at("samples"), "no sample cases: list at least one, each with name, stdin and expected, so learners can run their code")
	}
	names := map[string]bool{}
	for i, c := range append(append([]ExerciseCase(nil), e.Samples...), e.Hidden...) {
		where := "samples"
		if i >= len(e.Samples) {
			where = "hidden"
		}
		if strings.TrimSpace(c.Name) == "" {
			add(at(where), "case %d of %s has no name: give each case a short name such as \"Unknown tool\"", i+1, where)
		}
		if names[c.Name] {
			add(at(where), "case name %q is used twice: names identify cases in results", c.Name)
		}
		names[c.Name] = true
	}
	if len(ps) > 0 {
		return nil, ps
	}
	var prompt bytes.Buffer
	if err := r.md.Convert([]byte(e.Prompt), &prompt); err != nil {
		add(at("prompt"), "the prompt could not be rendered: %v", err)
		return nil, ps
	}
	e.PromptHTML = template.HTML(prompt.String())
	return &Widget{Kind: KindExercise, ID: e.ID, Line: line, Exercise: &e}, nil
}
