package quiz

import (
	"fmt"
	"strings"
)

// Redact returns the feedback a learner who has not passed may see. A
// right question keeps everything. A wrong question says only that it is
// wrong: it keeps only the options chosen, each with its explanation (for
// a classify question, why the item does not fit the category chosen), no
// option is marked correct, a classify question loses its explanation, and
// an annotate question says which hints are off, each with its cue, but no
// expected value and no explanation (see redactHints). Scores, Passed and
// Missed stay. r is not modified.
func (r QuizResult) Redact() QuizResult {
	out := r
	out.Redacted = true
	out.Questions = make([]QuestionFeedback, len(r.Questions))
	for i, f := range r.Questions {
		out.Questions[i] = f.redacted()
	}
	return out
}

// Shown is r as a learner may see it now: whole once passed, Redacted
// before.
func (r QuizResult) Shown() QuizResult {
	if r.Passed {
		return r
	}
	return r.Redact()
}

func (f QuestionFeedback) redacted() QuestionFeedback {
	if f.Right {
		return f
	}
	// The page says once, for the whole attempt, that the right answers
	// come with the pass.
	f.Message = "Not right."
	// Only the options chosen are kept, with their explanations (for a
	// classify question, why the item does not fit the category chosen):
	// the others, unmarked, would only lengthen the page.
	var opts []OptionFeedback
	for _, o := range f.Options {
		if o.Chosen {
			o.Correct = false
			opts = append(opts, o)
		}
	}
	f.Options = opts
	f.Explanation = ""
	if f.Kind == QuestionAnnotate && len(f.Hints) > 0 {
		f.Message = "Not right: " + offHintsText(f.Hints) + "."
	}
	f.Hints = redactHints(f.Hints)
	return f
}

// redactHints cuts the hints of a tool that is not right yet to what the
// learner may see: which hints are right and which are off, each with its
// cue, and the values given; no expected value and no explanation, which
// could tell the value of another hint.
func redactHints(hs []HintFeedback) []HintFeedback {
	readOnlyRight := false
	for _, h := range hs {
		if h.Hint == ReadOnlyHint {
			readOnlyRight = h.Right
		}
	}
	out := make([]HintFeedback, len(hs))
	for i, h := range hs {
		r := HintFeedback{Hint: h.Hint, Default: h.Default, Given: h.Given, Matters: h.Matters, Right: h.Right, Cue: h.Cue}
		switch {
		case !h.Matters && readOnlyRight:
			// The learner has readOnlyHint right: saying it is read-only
			// tells nothing new.
			r.Message = h.Message
			r.Explanation = h.Explanation
		case !h.Matters:
			r.Message = "Any answer is accepted here; this hint counts only on a tool that changes things."
		case h.Given == nil:
			r.Message = "Not set."
		case h.Right:
			r.Message = "Right."
		default:
			r.Message = "Not right yet."
		}
		out[i] = r
	}
	return out
}

// offHints returns the hints that are off: wrong or not set, among those
// that matter.
func offHints(hs []HintFeedback) []Hint {
	var off []Hint
	for _, h := range hs {
		if h.Matters && !h.Right {
			off = append(off, h.Hint)
		}
	}
	return off
}

// offHintsText names the hints that are off, such as "readOnlyHint and
// openWorldHint are off".
func offHintsText(hs []HintFeedback) string {
	off := offHints(hs)
	names := make([]string, len(off))
	for i, h := range off {
		names[i] = string(h)
	}
	switch len(names) {
	case 0:
		return "no hint is off"
	case 1:
		return names[0] + " is off"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " are off"
}

// Redact returns the check as a learner who has not got every item right
// may see it: a right item keeps everything; a wrong one keeps the
// category chosen and why the item does not fit it (WhyNot), and loses the
// right category and the explanation. fb is not modified.
func (fb ClassifyFeedback) Redact() ClassifyFeedback {
	out := fb
	out.Items = make([]ItemFeedback, len(fb.Items))
	for i, it := range fb.Items {
		if !it.Right {
			it.Answer, it.AnswerLabel, it.Explanation = "", "", ""
			switch {
			case it.GivenLabel == "":
				it.Message = "Not answered: choose a category."
			case it.WhyNot == "":
				it.Message = fmt.Sprintf("Not right: you chose “%s”. Think again about this one.", it.GivenLabel)
			default:
				it.Message = fmt.Sprintf("Not right: you chose “%s”.", it.GivenLabel)
			}
		}
		out.Items[i] = it
	}
	return out
}

// Shown is fb whole when every item is right, Redact otherwise.
func (fb ClassifyFeedback) Shown() ClassifyFeedback {
	if fb.AllCorrect {
		return fb
	}
	return fb.Redact()
}

// Redact returns the check as a learner who has not got every hint right
// may see it: a tool with every hint right keeps everything; any other tool
// says which of its hints are right and which are off, each with its cue,
// keeping the values given but no expected value and no explanation (see
// redactHints). fb is not modified.
func (fb AnnotateFeedback) Redact() AnnotateFeedback {
	out := fb
	out.Tools = make([]ToolFeedback, len(fb.Tools))
	for i, t := range fb.Tools {
		if !t.Right {
			t.Hints = redactHints(t.Hints)
		}
		out.Tools[i] = t
	}
	return out
}

// Off lists, per tool not right yet, the hints that are off, in the
// widget's order; Redact keeps what it needs.
func (fb AnnotateFeedback) Off() []ToolOff {
	var out []ToolOff
	for _, t := range fb.Tools {
		if off := offHints(t.Hints); len(off) > 0 {
			out = append(out, ToolOff{Name: t.Name, Hints: off})
		}
	}
	return out
}

// ToolOff names a tool and its hints that are off.
type ToolOff struct {
	Name  string
	Hints []Hint
}

// Shown is fb whole when every hint is right, Redact otherwise.
func (fb AnnotateFeedback) Shown() AnnotateFeedback {
	if fb.AllCorrect {
		return fb
	}
	return fb.Redact()
}
