package quiz

import (
	"fmt"
	"regexp"
	"strings"
)

// Hint names one of the four boolean tool annotations of MCP's ToolAnnotations.
type Hint string

// The four hints, spelt as in the MCP schema.
const (
	ReadOnlyHint    Hint = "readOnlyHint"
	DestructiveHint Hint = "destructiveHint"
	IdempotentHint  Hint = "idempotentHint"
	OpenWorldHint   Hint = "openWorldHint"
)

// AllHints returns the four hints in the order the page shows them.
func AllHints() [4]Hint {
	return [4]Hint{ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint}
}

// Default is the value a client assumes when the server leaves the hint out,
// per the MCP specification: readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true. The defaults are the cautious
// reading: an unannotated tool writes, destroys, is not idempotent and
// reaches the open world. An unknown hint returns false.
func (h Hint) Default() bool {
	return h == DestructiveHint || h == OpenWorldHint
}

// Meaning is a one-line description of the hint for the page.
func (h Hint) Meaning() string {
	switch h {
	case ReadOnlyHint:
		return "The tool does not modify its environment."
	case DestructiveHint:
		return "The tool may delete or overwrite; false means it only adds. Meaningful only when readOnlyHint is false."
	case IdempotentHint:
		return "Calling it again with the same arguments has no further effect. Meaningful only when readOnlyHint is false."
	case OpenWorldHint:
		return "The tool reaches an open world (the web, email, other people); a closed one, such as a local memory store, is false."
	}
	return ""
}

// Cue is a plain-language question a learner can ask of any tool to set
// the hint, shown beside the hint where the author wrote no cue of their
// own (HintKey.Cue).
func (h Hint) Cue() string {
	switch h {
	case ReadOnlyHint:
		return "Does it only look, changing nothing?"
	case DestructiveHint:
		return "Could it delete or overwrite something that was there?"
	case IdempotentHint:
		return "Would a second identical call change anything more?"
	case OpenWorldHint:
		return "Does it reach beyond a closed system, to the web or to people?"
	}
	return ""
}

// dependsOnReadOnly reports whether the hint only means something when the
// tool is not read-only.
func (h Hint) dependsOnReadOnly() bool { return h == DestructiveHint || h == IdempotentHint }

// Annotate is the "Annotate the tools" widget: for each tool the learner sets
// the four hints.
type Annotate struct {
	// ID is unique within the lesson.
	ID string `yaml:"id"`
	// Prompt is the instruction shown above the tools.
	Prompt string `yaml:"prompt"`
	// Think is an optional thinking prompt shown above the tools, a question
	// to ask of each tool before setting its hints.
	Think string `yaml:"think"`
	// Tools are the tools to annotate; at least one.
	Tools []Tool `yaml:"tools"`
}

// Tool is one tool to annotate, with the expected hints.
type Tool struct {
	// Name is an MCP tool name: 1 to 128 letters, digits, '_', '-' or '.'.
	Name string `yaml:"name"`
	// Description is the tool's description as a server would send it.
	Description string `yaml:"description"`
	// Hints holds the key: the expected value of each hint and why.
	Hints ToolHints `yaml:"hints"`
}

// ToolHints is the key for one tool. readOnlyHint and openWorldHint are
// required. destructiveHint and idempotentHint are required unless the tool is
// read-only; on a read-only tool they do not matter, any answer is accepted,
// and an explanation, if given, is shown beside the "does not matter" note.
type ToolHints struct {
	ReadOnly    *HintKey `yaml:"readOnlyHint"`
	Destructive *HintKey `yaml:"destructiveHint"`
	Idempotent  *HintKey `yaml:"idempotentHint"`
	OpenWorld   *HintKey `yaml:"openWorldHint"`
}

// HintKey is the expected value of one hint and why.
type HintKey struct {
	// Value is the right answer; required.
	Value *bool `yaml:"value"`
	// Explanation says why, in a sentence or two; required.
	Explanation string `yaml:"explanation"`
	// Cue is a plain-language question about this tool that leads to the
	// value without saying it, such as "Does sending a message change
	// anything?"; shown beside the hint and when the hint is wrong.
	// Optional (Hint.Cue stands in); missing is a warning (MissingCues).
	Cue string `yaml:"cue"`
}

// CueFor returns the tool's cue for hint h, or the hint's own when the
// author wrote none.
func (t Tool) CueFor(h Hint) string {
	if k := t.Hints.Get(h); k != nil && k.Cue != "" {
		return k.Cue
	}
	return h.Cue()
}

// MissingCues lists the hints of each tool that have no cue of their own,
// as "tool: hint". Hints that do not matter on a read-only tool are left
// out.
func (a *Annotate) MissingCues() []string {
	var out []string
	for _, t := range a.Tools {
		out = append(out, t.missingCues()...)
	}
	return out
}

func (t Tool) missingCues() []string {
	var out []string
	for _, h := range AllHints() {
		if k := t.Hints.Get(h); t.Matters(h) && (k == nil || k.Cue == "") {
			out = append(out, t.Name+": "+string(h))
		}
	}
	return out
}

// Get returns the key for one hint, or nil.
func (t ToolHints) Get(h Hint) *HintKey {
	switch h {
	case ReadOnlyHint:
		return t.ReadOnly
	case DestructiveHint:
		return t.Destructive
	case IdempotentHint:
		return t.Idempotent
	case OpenWorldHint:
		return t.OpenWorld
	}
	return nil
}

// ReadOnly reports whether the key says the tool is read-only.
func (t Tool) ReadOnly() bool {
	k := t.Hints.ReadOnly
	return k != nil && k.Value != nil && *k.Value
}

// Matters reports whether hint h counts for this tool: destructiveHint and
// idempotentHint do not count on a read-only tool.
func (t Tool) Matters(h Hint) bool {
	return !(h.dependsOnReadOnly() && t.ReadOnly())
}

// Kind returns KindAnnotate.
func (a *Annotate) Kind() string { return KindAnnotate }

// WidgetID returns a.ID.
func (a *Annotate) WidgetID() string { return a.ID }

// Validate reports missing ids, names and descriptions, duplicate tool names,
// and hints without a value or an explanation.
func (a *Annotate) Validate() []Problem {
	var ps []Problem
	ps = append(ps, checkID("id", a.ID, "annotate-tools")...)
	ps = append(ps, checkText("prompt", a.Prompt, "the instruction, such as \"Set the hints for each tool.\"")...)
	ps = append(ps, checkOptionalText("think", a.Think, "a question to ask of each tool, such as \"What happens if it runs twice?\"")...)
	if len(a.Tools) == 0 {
		ps = append(ps, Problem{Path: "tools", Message: "no tools; list at least one, each with name, description and hints"})
	}
	names := make([]string, len(a.Tools))
	for i, t := range a.Tools {
		names[i] = t.Name
		ps = append(ps, validateTool(indexPath("tools", i), t)...)
	}
	return append(ps, dupIDs("tools", "name", names)...)
}

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

func validateTool(path string, t Tool) []Problem {
	var ps []Problem
	switch {
	case t.Name == "":
		ps = append(ps, Problem{Path: joinPath(path, "name"), Message: "missing; give the tool's name, such as \"search_issues\""})
	case !toolNameRE.MatchString(t.Name):
		ps = append(ps, Problem{Path: joinPath(path, "name"), Message: fmt.Sprintf("%q is not a valid MCP tool name; use 1 to 128 letters, digits, '_', '-' or '.', such as \"search_issues\"", t.Name)})
	}
	ps = append(ps, checkText(joinPath(path, "description"), t.Description, "the tool's description as the server sends it")...)
	hp := joinPath(path, "hints")
	for _, h := range AllHints() {
		p := joinPath(hp, string(h))
		k := t.Hints.Get(h)
		if k == nil {
			if t.Matters(h) {
				msg := fmt.Sprintf("missing; give %s: {value: true or false, explanation: why}", h)
				if h.dependsOnReadOnly() {
					msg += fmt.Sprintf(" (it may be left out only when readOnlyHint is true; its default is %t)", h.Default())
				}
				ps = append(ps, Problem{Path: p, Message: msg})
			}
			continue
		}
		if k.Value == nil {
			ps = append(ps, Problem{Path: joinPath(p, "value"), Message: "missing; write value: true or value: false"})
		}
		ps = append(ps, checkCue(joinPath(p, "cue"), k.Cue)...)
		if t.Matters(h) {
			ps = append(ps, checkText(joinPath(p, "explanation"), k.Explanation, "a sentence saying why "+string(h)+" has this value for this tool")...)
		}
	}
	return ps
}

// checkOptionalText reports a text that is given but blank.
func checkOptionalText(path, text, what string) []Problem {
	if text != "" && strings.TrimSpace(text) == "" {
		return []Problem{{Path: path, Message: "blank; leave it out or write " + what}}
	}
	return nil
}

// cueGivesAway finds a cue that names a value, which would give the answer.
var cueGivesAway = regexp.MustCompile(`(?i)\b(true|false)\b`)

// checkCue reports a blank cue and one that names true or false: a cue
// leads to the value, it does not say it.
func checkCue(path, cue string) []Problem {
	if ps := checkOptionalText(path, cue, "a plain question that leads to the value, such as \"Does it only read?\""); ps != nil {
		return ps
	}
	if cueGivesAway.MatchString(cue) {
		return []Problem{{Path: path, Message: fmt.Sprintf("%q names a value; a cue is a question that leads to the value without saying it, such as \"Does it only read?\"", cue)}}
	}
	return nil
}

// AnnotateView is what the page shows of an annotate widget: tool names and
// descriptions and each hint with its default; no expected values and no
// explanations.
type AnnotateView struct {
	ID     string
	Prompt string
	// Think is the block's thinking prompt, "" if none.
	Think string
	Tools []ToolView
	// Hints are the four hints in page order, with their defaults.
	Hints []HintView
}

// ToolView is a tool as the page shows it, with its hints in page order,
// each with the tool's cue.
type ToolView struct {
	Name        string
	Description string
	Hints       []HintView
}

// View returns the keyless view of the tool.
func (t Tool) View() ToolView {
	v := ToolView{Name: t.Name, Description: t.Description, Hints: hintViews()}
	for i := range v.Hints {
		v.Hints[i].Cue = t.CueFor(v.Hints[i].Name)
	}
	return v
}

// HintView is a hint as the page shows it: its name, its default and what it
// means. TrueChoice and FalseChoice are the answer values for a quiz
// question of kind annotate (see HintChoice).
type HintView struct {
	Name                    Hint
	Default                 bool
	Meaning                 string
	TrueChoice, FalseChoice string
	// Cue is the plain-language question beside the hint: the tool's (see
	// Tool.CueFor), or the hint's own in the block-wide list.
	Cue string
}

func hintViews() []HintView {
	var vs []HintView
	for _, h := range AllHints() {
		vs = append(vs, HintView{Name: h, Default: h.Default(), Meaning: h.Meaning(), TrueChoice: HintChoice(h, true), FalseChoice: HintChoice(h, false), Cue: h.Cue()})
	}
	return vs
}

// View returns the keyless view the page is rendered from.
func (a *Annotate) View() AnnotateView {
	v := AnnotateView{ID: a.ID, Prompt: a.Prompt, Think: a.Think, Hints: hintViews()}
	for _, t := range a.Tools {
		v.Tools = append(v.Tools, t.View())
	}
	return v
}

// AnnotateAnswers maps a tool name to the learner's value for each hint. A
// hint left out is unanswered.
type AnnotateAnswers map[string]map[Hint]bool

// AnnotateFeedback is the verdict on an annotate check.
type AnnotateFeedback struct {
	// Tools are in the widget's order.
	Tools []ToolFeedback
	// Score counts right hints (a hint that does not matter counts as
	// right); Total is four per tool.
	Score, Total int
	// AllCorrect is Score == Total: the check that earns WidgetXP.
	AllCorrect bool
	// Missed lists the names of tools with any wrong hint, which enter the
	// review queue.
	Missed []string
}

// ToolFeedback is the verdict on one tool.
type ToolFeedback struct {
	Name  string
	Right bool
	// Hints are in AllHints order.
	Hints []HintFeedback
}

// HintFeedback is the verdict on one hint of one tool.
type HintFeedback struct {
	Hint    Hint
	Default bool
	// Given is the learner's value, nil if unanswered.
	Given *bool
	// Expected is the key's value; meaningless when Matters is false.
	Expected bool
	// Matters is false for destructiveHint and idempotentHint on a
	// read-only tool, where any answer is accepted.
	Matters bool
	Right   bool
	// Message says right, wrong, not answered or does not matter.
	Message string
	// Explanation is the author's reason ("" only where Matters is false
	// and the author gave none).
	Explanation string
	// Cue is the tool's plain-language question for this hint (see
	// Tool.CueFor).
	Cue string
}

// GradeAnnotate checks every hint of every tool of a against answers.
func GradeAnnotate(a *Annotate, answers AnnotateAnswers) AnnotateFeedback {
	fb := AnnotateFeedback{}
	for _, t := range a.Tools {
		tf := gradeTool(t, answers[t.Name])
		for _, h := range tf.Hints {
			fb.Total++
			if h.Right {
				fb.Score++
			}
		}
		if !tf.Right {
			fb.Missed = append(fb.Missed, t.Name)
		}
		fb.Tools = append(fb.Tools, tf)
	}
	fb.AllCorrect = fb.Total > 0 && fb.Score == fb.Total
	return fb
}

func gradeTool(t Tool, given map[Hint]bool) ToolFeedback {
	tf := ToolFeedback{Name: t.Name, Right: true}
	for _, h := range AllHints() {
		f := HintFeedback{Hint: h, Default: h.Default(), Matters: t.Matters(h), Cue: t.CueFor(h)}
		if v, ok := given[h]; ok {
			f.Given = &v
		}
		k := t.Hints.Get(h)
		if k != nil {
			f.Explanation = k.Explanation
			if k.Value != nil {
				f.Expected = *k.Value
			}
		}
		switch {
		case !f.Matters:
			f.Right = true
			f.Message = fmt.Sprintf("Does not matter here: %s is read-only, and %s only means something when readOnlyHint is false, so any answer is accepted.", t.Name, h)
		case f.Given == nil:
			f.Message = fmt.Sprintf("Not answered: %s should be %t (the default is %t).", h, f.Expected, f.Default)
		case *f.Given == f.Expected:
			f.Right = true
			f.Message = fmt.Sprintf("Right: %s is %t.", h, f.Expected)
		default:
			f.Message = fmt.Sprintf("Not quite: %s should be %t, not %t.", h, f.Expected, *f.Given)
		}
		if !f.Right {
			tf.Right = false
		}
		tf.Hints = append(tf.Hints, f)
	}
	return tf
}

// ToolQuestion returns the named tool as a quiz question of kind annotate, so
// a review can show and grade it alone. ok is false if there is no such tool.
func (a *Annotate) ToolQuestion(name string) (q Question, ok bool) {
	for _, t := range a.Tools {
		if t.Name == name {
			t := t
			return Question{ID: t.Name, Kind: QuestionAnnotate, Prompt: a.Prompt, Tool: &t}, true
		}
	}
	return Question{}, false
}
