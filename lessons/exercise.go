package lessons

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

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
	// CompareJSON parses the output as JSON, checks it against the
	// exercise's Schema (a definition of the MCP 2026-07-28 schema) if it
	// names one, and compares it structurally with the expected JSON, so
	// spacing and key order do not matter.
	CompareJSON = "json"
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
//	compare: lines        # or exact, or json; default lines
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
// A case has either an expected output or checks (see Checks), which
// grade answers that may be worded in many ways:
//
//	samples:
//	  - name: Bad date
//	    stdin: "start_date|14/11/2026|a date as YYYY-MM-DD"
//	    checks:
//	      contains: [start_date, 14/11/2026, YYYY-MM-DD]
//	      max_length: 200
//
// Checks on the exercise apply to every case, together with the case's own.
//
// With "compare: json" every expected output is JSON; the learner's output
// must be one JSON value, fit the definition of the MCP 2026-07-28 schema
// that schema names (optional, such as "schema: JSONRPCResponse"), and
// equal the expected JSON structurally.
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
	Schema   string         `yaml:"schema"`
	Checks   *Checks        `yaml:"checks"`
	XP       *int           `yaml:"xp"`
	Samples  []ExerciseCase `yaml:"samples"`
	Hidden   []ExerciseCase `yaml:"hidden"`
	MCP      *MCPExercise   `yaml:"mcp"` // an MCP exercise: see MCPExercise

	// PromptHTML is Prompt rendered as markdown.
	PromptHTML template.HTML `yaml:"-"`
}

// ExerciseCase is one test: the program reads Stdin and must print
// Expected, or output that passes Checks.
//
// After loading, Checks holds the exercise's checks merged with the case's
// own, and for a case graded by checks Expected holds a plain description
// of them for the samples table (it is never compared).
type ExerciseCase struct {
	Name     string  `yaml:"name"`
	Stdin    string  `yaml:"stdin"`
	Expected string  `yaml:"expected"`
	Checks   *Checks `yaml:"checks"`
}

// Checks are properties a case's output must have, for answers that may
// be worded in many ways: every check that is set must hold. Strings match
// case-sensitively anywhere in the output; lengths count characters, not
// counting whitespace at the ends. The fields are those of sandbox.Checks,
// so callers convert with (*sandbox.Checks)(c.Checks).
//
//	checks:
//	  contains: [party_size, "40"]     # each must appear
//	  contains_any: [None, "null"]     # at least one must appear
//	  not_contains: [Traceback, 'File "']  # none may appear
//	  max_length: 200                  # at most this many characters
//	  matches: '^party_size .+\.$'     # a Go regular expression it must match
type Checks struct {
	Contains    []string `yaml:"contains"`
	ContainsAny []string `yaml:"contains_any"`
	NotContains []string `yaml:"not_contains"`
	MaxLength   int      `yaml:"max_length"`
	Matches     string   `yaml:"matches"`
}

// Describe says in plain lines what output passes the checks.
func (c *Checks) Describe() string {
	var b strings.Builder
	b.WriteString("Any output that:\n")
	if len(c.Contains) > 0 {
		fmt.Fprintf(&b, "- contains %s\n", quoteJoin(c.Contains, "and"))
	}
	if len(c.ContainsAny) > 0 {
		fmt.Fprintf(&b, "- contains %s\n", quoteJoin(c.ContainsAny, "or"))
	}
	if len(c.NotContains) > 0 {
		fmt.Fprintf(&b, "- does not contain %s\n", quoteJoin(c.NotContains, "or"))
	}
	if c.MaxLength > 0 {
		fmt.Fprintf(&b, "- has at most %d characters\n", c.MaxLength)
	}
	if c.Matches != "" {
		fmt.Fprintf(&b, "- matches the pattern %s\n", c.Matches)
	}
	return b.String()
}

// quoteJoin quotes each string in curly quotes (Go-quoted if it holds a
// control character) and joins them with commas and conj.
func quoteJoin(list []string, conj string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "“" + s + "”"
		if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
			q[i] = strconv.Quote(s)
		}
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}

// empty reports whether no check is set.
func (c *Checks) empty() bool {
	return len(c.Contains) == 0 && len(c.ContainsAny) == 0 && len(c.NotContains) == 0 && c.MaxLength == 0 && c.Matches == ""
}

// merged returns the exercise's checks (may be nil) joined with a case's
// (may be nil): lists are joined and the smaller length limit wins.
// contains_any and matches may be set in one place only.
func merged(ex, c *Checks) (*Checks, string) {
	if ex == nil {
		return c, ""
	}
	if c == nil {
		m := *ex
		return &m, ""
	}
	m := Checks{
		Contains:    append(append([]string(nil), ex.Contains...), c.Contains...),
		ContainsAny: ex.ContainsAny,
		NotContains: append(append([]string(nil), ex.NotContains...), c.NotContains...),
		MaxLength:   ex.MaxLength,
		Matches:     ex.Matches,
	}
	if c.MaxLength > 0 && (m.MaxLength == 0 || c.MaxLength < m.MaxLength) {
		m.MaxLength = c.MaxLength
	}
	switch {
	case len(c.ContainsAny) > 0 && len(ex.ContainsAny) > 0:
		return nil, "contains_any"
	case len(c.ContainsAny) > 0:
		m.ContainsAny = c.ContainsAny
	}
	switch {
	case c.Matches != "" && ex.Matches != "":
		return nil, "matches"
	case c.Matches != "":
		m.Matches = c.Matches
	}
	return &m, ""
}

// checkProblems says what is wrong with one set of checks.
func checkProblems(c *Checks) []string {
	var ps []string
	if c.empty() {
		ps = append(ps, "checks is empty: set at least one of contains, contains_any, not_contains, max_length, matches")
	}
	for key, list := range map[string][]string{"contains": c.Contains, "contains_any": c.ContainsAny, "not_contains": c.NotContains} {
		for _, v := range list {
			if v == "" {
				ps = append(ps, key+" has an empty string, which every output contains: remove it")
			}
		}
	}
	for _, v := range c.Contains {
		for _, n := range c.NotContains {
			if n != "" && strings.Contains(v, n) {
				ps = append(ps, fmt.Sprintf("contains %q but not_contains %q: no output can pass both", v, n))
			}
		}
	}
	if c.MaxLength < 0 {
		ps = append(ps, "max_length must be 1 or more, such as \"max_length: 200\"")
	}
	if c.Matches != "" {
		if _, err := regexp.Compile(c.Matches); err != nil {
			ps = append(ps, fmt.Sprintf("matches %q is not a valid Go regular expression: %v", c.Matches, err))
		}
	}
	sort.Strings(ps)
	return ps
}

// XPValue returns the exercise's XP, DefaultExerciseXP when unset.
func (e *Exercise) XPValue() int {
	if e.XP == nil {
		return DefaultExerciseXP
	}
	return *e.XP
}

// Comparison returns how outputs are compared: CompareLines, CompareExact
// or CompareJSON.
func (e *Exercise) Comparison() string {
	if e.Compare == "" {
		return CompareLines
	}
	return e.Compare
}

var exerciseIDPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// schemaNamePattern is the shape of a definition name of the MCP schema.
var schemaNamePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// withChecks merges the exercise's checks into each case and describes
// them in Expected; the cases were validated, so merging cannot clash.
func withChecks(cases []ExerciseCase, ex *Checks) []ExerciseCase {
	for i := range cases {
		c, _ := merged(ex, cases[i].Checks)
		if c == nil {
			continue
		}
		cases[i].Checks = c
		cases[i].Expected = c.Describe()
	}
	return cases
}

// caseKeyLine is the line (in the block) of key in the i-th case of the
// list named list, or of the case itself, or of the list.
func caseKeyLine(doc *yaml.Node, list string, i int, key string) int {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return 1
	}
	for j := 0; j+1 < len(doc.Content); j += 2 {
		if doc.Content[j].Value != list {
			continue
		}
		seq := doc.Content[j+1]
		if seq.Kind != yaml.SequenceNode || i >= len(seq.Content) {
			return doc.Content[j].Line
		}
		item := seq.Content[i]
		if item.Kind == yaml.MappingNode {
			for k := 0; k+1 < len(item.Content); k += 2 {
				if item.Content[k].Value == key {
					return item.Content[k].Line
				}
			}
		}
		return item.Line
	}
	return 1
}

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
		add(line+yamlErrorLine(err, 0), "%s (known fields: id, title, prompt, starter, solution, compare, schema, checks, xp, samples, hidden; a case has name, stdin, expected or checks; checks has contains, contains_any, not_contains, max_length, matches)", yamlErrorText(err))
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
	if e.Compare != "" && e.Compare != CompareLines && e.Compare != CompareExact && e.Compare != CompareJSON {
		add(at("compare"), "compare %q is not known: use \"lines\" (the default), \"exact\" or \"json\"", e.Compare)
	}
	if e.Schema != "" && e.Compare != CompareJSON {
		add(at("schema"), "schema %q is used only with \"compare: json\": add that, or remove schema", e.Schema)
	}
	if e.Schema != "" && !schemaNamePattern.MatchString(e.Schema) {
		add(at("schema"), "schema %q is not a definition name: name one of the MCP schema's definitions, such as \"JSONRPCResponse\"", e.Schema)
	}
	if e.Checks != nil {
		for _, p := range checkProblems(e.Checks) {
			add(at("checks"), "%s", p)
		}
	}
	if e.XP != nil && *e.XP < 0 {
		add(at("xp"), "xp must be 0 or more, such as \"xp: 20\"")
	}
	ps = append(ps, e.MCP.validate(&e, file, at("mcp"))...)
	if len(e.Samples) == 0 && e.MCP == nil {
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
		k := i
		if where == "hidden" {
			k -= len(e.Samples)
		}
		caseAt := func(key string) int { return line + caseKeyLine(&node, where, k, key) }
		checks, clash := merged(e.Checks, c.Checks)
		switch {
		case clash != "":
			add(caseAt("checks"), "case %q sets %s, and so does the exercise's checks: set it in one place", c.Name, clash)
		case checks != nil && c.Expected != "":
			add(caseAt("expected"), "case %q has both expected and checks: a case is graded by one or the other", c.Name)
		case checks == nil && e.Compare == CompareJSON && !json.Valid([]byte(c.Expected)):
			add(caseAt("expected"), "case %q: expected is not valid JSON, which \"compare: json\" needs", c.Name)
		}
		if c.Checks != nil {
			for _, p := range checkProblems(c.Checks) {
				add(caseAt("checks"), "case %q: %s", c.Name, p)
			}
		}
	}
	if len(ps) > 0 {
		return nil, ps
	}
	e.Samples = withChecks(e.Samples, e.Checks)
	e.Hidden = withChecks(e.Hidden, e.Checks)
	var prompt bytes.Buffer
	if err := r.md.Convert([]byte(e.Prompt), &prompt); err != nil {
		add(at("prompt"), "the prompt could not be rendered: %v", err)
		return nil, ps
	}
	e.PromptHTML = template.HTML(prompt.String())
	return &Widget{Kind: KindExercise, ID: e.ID, Line: line, Exercise: &e}, nil
}
