package quiz

// Redact returns the feedback a learner who has not passed may see. A
// right question keeps everything. A wrong question says only that it is
// wrong: its options keep their text and whether they were chosen, and
// only a chosen option keeps its explanation; no option is marked correct,
// a classify question loses its explanation, and an annotate question
// loses every hint's verdict, expected value and explanation. Scores,
// Passed and Missed stay. r is not modified.
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
	f.Message = "Not right. The right answer and its explanation are shown once you pass."
	opts := make([]OptionFeedback, len(f.Options))
	for i, o := range f.Options {
		o.Correct = false
		if !o.Chosen || f.Kind == QuestionClassify {
			o.Explanation = ""
		}
		opts[i] = o
	}
	f.Options = opts
	f.Explanation = ""
	hints := make([]HintFeedback, len(f.Hints))
	for i, h := range f.Hints {
		hints[i] = HintFeedback{Hint: h.Hint, Default: h.Default, Given: h.Given, Matters: h.Matters, Message: "Set; the expected value is shown once you pass."}
		if h.Given == nil {
			hints[i].Message = "Not set."
		}
	}
	f.Hints = hints
	return f
}

// Redact returns the check as a learner who has not got every item right
// may see it: a right item keeps everything; a wrong one keeps the
// category chosen and loses the right category and the explanation. fb is
// not modified.
func (fb ClassifyFeedback) Redact() ClassifyFeedback {
	out := fb
	out.Items = make([]ItemFeedback, len(fb.Items))
	for i, it := range fb.Items {
		if !it.Right {
			it.Answer, it.AnswerLabel, it.Explanation = "", "", ""
			it.Message = "Not right: think again about this one."
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
// says only that it is not right yet, keeping the values given. fb is not
// modified.
func (fb AnnotateFeedback) Redact() AnnotateFeedback {
	out := fb
	out.Tools = make([]ToolFeedback, len(fb.Tools))
	for i, t := range fb.Tools {
		if !t.Right {
			hints := make([]HintFeedback, len(t.Hints))
			for j, h := range t.Hints {
				hints[j] = HintFeedback{Hint: h.Hint, Default: h.Default, Given: h.Given, Matters: h.Matters, Message: "Set; the expected value is shown once this tool is right."}
				if h.Given == nil {
					hints[j].Message = "Not set."
				}
			}
			t.Hints = hints
		}
		out.Tools[i] = t
	}
	return out
}

// Shown is fb whole when every hint is right, Redact otherwise.
func (fb AnnotateFeedback) Shown() AnnotateFeedback {
	if fb.AllCorrect {
		return fb
	}
	return fb.Redact()
}
