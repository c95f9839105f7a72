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
// on "Submit" and are never sent to the browser. "learn check" requires the
// solution to pass every case and the starter to fail at least one; a
// learner sees the solution only after their own first passing submission.
//
// A case (or an MCP call) may quote, as its rule, the words of the prompt it
// checks; "learn check --strict" warns about a hidden one without. The
// grader itself is tested like code: wrong_solutions are programs a learner
// might plausibly write, each with a note of what it gets wrong, that must
// fail at least one case; other_solutions are right programs in other
// styles that must pass every case. Each is given whole (code) or as the
// reference solution with one passage replaced (replace and with). Like the
// solution, they are used only by "learn check" and never reach a page.
//
//	hidden:
//	  - name: Exactly forty characters
//	    rule: A value longer than 40 characters is shortened
//	    …
//	wrong_solutions:
//	  - note: shortens at 60 characters, not 40
//	    replace: "LONGEST_SHOWN = 40"
//	    with: "LONGEST_SHOWN = 60"
//	other_solutions:
//	  - note: another wording, with an f-string
//	    code: |
//	      …
//
// Hints lead a learner who is stuck, one at a time, once a run or
// submission of theirs has failed; they point at what to look at and never
// give the code (a hint that quotes a line of the solution is an error).
// Taking hints does not change the XP. A learner who solved the exercise
// may open the reference solution to compare, unless show_solution is
// false:
//
//	hints:
//	  - Which of the two kinds of failure is this one?
//	  - The model reads the text of a tool error; what does it need to know?
//	show_solution: false
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
	// WrongSolutions must each fail at least one case; OtherSolutions
	// must each pass every case. After loading, each one's Code holds the
	// whole program.
	WrongSolutions []GraderSolution `yaml:"wrong_solutions"`
	OtherSolutions []GraderSolution `yaml:"other_solutions"`

	// Hints lead a learner who is stuck, without giving the code: at most
	// MaxExerciseHints short markdown texts, revealed one at a time on
	// request once the learner's run or submission has failed.
	Hints []string `yaml:"hints"`
	// ShowSolution, when false, keeps the reference solution from the
	// learner even after they solve the exercise; by default a learner
	// who solved it may compare their code with it.
	ShowSolution *bool `yaml:"show_solution"`

	// PromptHTML is Prompt rendered as markdown.
	PromptHTML template.HTML `yaml:"-"`
	// HintsHTML are Hints rendered as markdown, in order.
	HintsHTML []template.HTML `yaml:"-"`
}

// MaxExerciseHints is how many hints an exercise may list.
const MaxExerciseHints = 5

// SolutionShown reports whether a learner who solved the exercise may see
// its reference solution (the block's show_solution, true by default).
func (e *Exercise) SolutionShown() bool { return e.ShowSolution == nil || *e.ShowSolution }

// hintProblems says what is wrong with an exercise's hints: too many, an
// empty one, or one that quotes a line of the solution.
func hintProblems(e *Exercise) []string {
	var ps []string
	if len(e.Hints) > MaxExerciseHints {
		ps = append(ps, fmt.Sprintf("%d hints is too many: give at most %d, each a step towards the answer", len(e.Hints), MaxExerciseHints))
	}
	for i, h := range e.Hints {
		if strings.TrimSpace(h) == "" {
			ps = append(ps, fmt.Sprintf("hint %d is empty: write what to look at next, such as \"Which exception reaches the model as a tool error?\"", i+1))
			continue
		}
		for _, l := range strings.Split(e.Solution, "\n") {
			if l = strings.TrimSpace(l); len(l) >= minQuotedLine && strings.Contains(h, l) {
				ps = append(ps, fmt.Sprintf("hint %d quotes the solution's line %q: a hint leads the way without giving the code", i+1, l))
				break
			}
		}
	}
	return ps
}

// minQuotedLine is the length from which a solution line found in a hint
// counts as giving the code away; shorter lines (return None) are words
// any hint may use.
const minQuotedLine = 24

// ExerciseCase is one test: the program reads Stdin and must print
// Expected, or output that passes Checks.
//
// After loading, Checks holds the exercise's checks merged with the case's
// own, and for a case graded by checks Expected holds a plain description
// of them for the samples table (it is never compared).
type ExerciseCase struct {
	Name string `yaml:"name"`
	// Rule quotes the words of the prompt this case checks.
	Rule     string  `yaml:"rule"`
	Stdin    string  `yaml:"stdin"`
	Expected string  `yaml:"expected"`
	Checks   *Checks `yaml:"checks"`
}

// Checks are properties a case's output must have, for answers that may
// be worded in many ways: every check that is set must hold. Strings match
// case-sensitively anywhere in the output unless an option says otherwise;
// lengths count characters, not counting whitespace at the ends. The
// fields are those of sandbox.Checks, so callers convert with
// (*sandbox.Checks)(c.Checks).
//
//	checks:
//	  contains: [party_size, "40"]     # each must appear
//	  contains_any: [None, "null"]     # at least one must appear
//	  mentions_one_of:                 # of each set, at least one must appear
//	    - [try again, retry]
//	  not_contains: [Traceback, 'File "']  # none may appear
//	  max_length: 200                  # at most this many characters
//	  matches: '^party_size .+\.$'     # a Go regular expression it must match
//	  not_matches: '\b[A-Z]\w*Error\b' # one it must not match anywhere
//	  ignore_case: true                # the strings above match in any case
//	  normalize_space: true            # a run of whitespace counts as one space
//	  whole_words: true                # "retry" is not found in "retrying"
//
// The three options apply to contains, contains_any, mentions_one_of and
// not_contains (not to matches: write (?i) in the pattern); all are off by
// default, so a course written before they existed keeps its meaning.
type Checks struct {
	Contains       []string   `yaml:"contains"`
	ContainsAny    []string   `yaml:"contains_any"`
	NotContains    []string   `yaml:"not_contains"`
	MaxLength      int        `yaml:"max_length"`
	Matches        string     `yaml:"matches"`
	NotMatches     string     `yaml:"not_matches"`
	MentionsOneOf  [][]string `yaml:"mentions_one_of"`
	IgnoreCase     bool       `yaml:"ignore_case"`
	NormalizeSpace bool       `yaml:"normalize_space"`
	WholeWords     bool       `yaml:"whole_words"`
}

// GraderSolution is a program kept to test an exercise's grader: a wrong
// one with a note of what it gets wrong, or another right one with a note
// of its style. It is the whole program (code), or the reference solution
// with the one passage replace changed to with.
type GraderSolution struct {
	Note    string `yaml:"note"`
	Code    string `yaml:"code"`
	Replace string `yaml:"replace"`
	With    string `yaml:"with"`
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
	for _, set := range c.MentionsOneOf {
		fmt.Fprintf(&b, "- mentions %s\n", quoteJoin(set, "or"))
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
	if c.NotMatches != "" {
		fmt.Fprintf(&b, "- does not match the pattern %s\n", c.NotMatches)
	}
	var opts []string
	if c.IgnoreCase {
		opts = append(opts, "in any case")
	}
	if c.NormalizeSpace {
		opts = append(opts, "with any spacing")
	}
	if c.WholeWords {
		opts = append(opts, "as whole words")
	}
	if len(opts) > 0 {
		fmt.Fprintf(&b, "(the words match %s)\n", strings.Join(opts, ", "))
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
	return len(c.Contains) == 0 && len(c.ContainsAny) == 0 && len(c.NotContains) == 0 && c.MaxLength == 0 && c.Matches == "" && c.NotMatches == "" && len(c.MentionsOneOf) == 0
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
		NotMatches:  ex.NotMatches,
		// Sets of synonyms are joined; an option set in either place holds.
		MentionsOneOf:  append(append([][]string(nil), ex.MentionsOneOf...), c.MentionsOneOf...),
		IgnoreCase:     ex.IgnoreCase || c.IgnoreCase,
		NormalizeSpace: ex.NormalizeSpace || c.NormalizeSpace,
		WholeWords:     ex.WholeWords || c.WholeWords,
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
	switch {
	case c.NotMatches != "" && ex.NotMatches != "":
		return nil, "not_matches"
	case c.NotMatches != "":
		m.NotMatches = c.NotMatches
	}
	return &m, ""
}

// checkProblems says what is wrong with one set of checks.
func checkProblems(c *Checks) []string {
	var ps []string
	if c.empty() {
		ps = append(ps, "checks is empty: set at least one of contains, contains_any, mentions_one_of, not_contains, max_length, matches, not_matches")
	}
	for i, set := range c.MentionsOneOf {
		if len(set) == 0 {
			ps = append(ps, fmt.Sprintf("mentions_one_of set %d is empty: list the words of which one must appear, such as [try again, retry]", i+1))
		}
		for _, v := range set {
			if v == "" {
				ps = append(ps, fmt.Sprintf("mentions_one_of set %d has an empty string, which every output contains: remove it", i+1))
			}
		}
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
	for key, pattern := range map[string]string{"matches": c.Matches, "not_matches": c.NotMatches} {
		if pattern == "" {
			continue
		}
		if _, err := regexp.Compile(pattern); err != nil {
			ps = append(ps, fmt.Sprintf("%s %q is not a valid Go regular expression: %v", key, pattern, err))
		}
	}
	sort.Strings(ps)
	return ps
}

// resolve checks a grader solution and sets Code to the whole program;
// it returns what is wrong with it.
func (g *GraderSolution) resolve(solution string) []string {
	var ps []string
	if strings.TrimSpace(g.Note) == "" {
		ps = append(ps, "has no note: say what it gets wrong (or, for another right solution, how it differs)")
	}
	switch {
	case g.Code != "" && (g.Replace != "" || g.With != ""):
		ps = append(ps, "has both code and replace: give the whole program, or the passage of the solution to replace")
	case g.Code == "" && g.Replace == "":
		ps = append(ps, "has no code: give the whole program as code, or replace and with to change the solution")
	case g.Code == "" && strings.Count(solution, g.Replace) != 1:
		ps = append(ps, fmt.Sprintf("replace %q appears %d times in the solution: it must appear exactly once", g.Replace, strings.Count(solution, g.Replace)))
	case g.Code == "":
		g.Code = strings.Replace(solution, g.Replace, g.With, 1)
		g.Replace, g.With = "", ""
	}
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
		at, msg := yamlSyntax(body, err)
		add(line+at, "not valid YAML: %s", msg)
		return nil, ps
	}
	var e Exercise
	dec := yaml.NewDecoder(bytes.NewReader(body))
	dec.KnownFields(true)
	if err := dec.Decode(&e); err != nil {
		add(line+yamlErrorLine(err, 0), "%s (known fields: id, title, prompt, starter, solution, compare, schema, checks, xp, samples, hidden, mcp, wrong_solutions, other_solutions, hints, show_solution; a case has name, rule, stdin, expected or checks; checks has contains, contains_any, mentions_one_of, not_contains, max_length, matches, not_matches, ignore_case, normalize_space, whole_words; a wrong or other solution has note, and code or replace and with)", yamlErrorText(err, line))
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
		add(at("solution"), "missing solution: a reference program that passes every case (learn check runs it; learners see it only after solving the exercise, unless show_solution is false)")
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
	for _, p := range hintProblems(&e) {
		add(at("hints"), "%s", p)
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
	for _, list := range []struct {
		key  string
		sols []GraderSolution
	}{{"wrong_solutions", e.WrongSolutions}, {"other_solutions", e.OtherSolutions}} {
		for i := range list.sols {
			solAt := func(key string) int { return line + caseKeyLine(&node, list.key, i, key) }
			for _, p := range list.sols[i].resolve(e.Solution) {
				add(solAt("note"), "%s %d: %s", list.key, i+1, p)
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
	for i, h := range e.Hints {
		var b bytes.Buffer
		if err := r.md.Convert([]byte(h), &b); err != nil {
			add(at("hints"), "hint %d could not be rendered: %v", i+1, err)
			return nil, ps
		}
		e.HintsHTML = append(e.HintsHTML, template.HTML(b.String()))
	}
	return &Widget{Kind: KindExercise, ID: e.ID, Line: line, Exercise: &e}, nil
}
