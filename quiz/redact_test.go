package quiz

import (
	"strings"
	"testing"
)

// feedbackText flattens what a view could show of a result.
func feedbackText(r QuizResult) string {
	var b strings.Builder
	for _, f := range r.Questions {
		b.WriteString(f.Message + "|" + f.Explanation + "|")
		for _, o := range f.Options {
			b.WriteString(o.Explanation + "|")
			if o.Correct {
				b.WriteString("CORRECT:" + o.ID + "|")
			}
		}
		for _, h := range f.Hints {
			b.WriteString(h.Message + "|" + h.Explanation + "|")
			if h.Matters && h.Right {
				b.WriteString("HINTRIGHT|")
			}
		}
	}
	return b.String()
}

func TestRedact(t *testing.T) {
	q := decodeQuiz(t, variantQuiz)
	d := Draw{}
	tests := []struct {
		name    string
		answers QuizAnswers
		shows   []string
		hides   []string
	}{
		{"wrong single shows the chosen explanation only",
			QuizAnswers{"channel": {"a"}, "kind": {"protocol"}, "hints": {"readOnlyHint=true", "openWorldHint=true"}},
			[]string{"EXPL-A", "once you pass"},
			[]string{"EXPL-B", "EXPL-C", "EXPL-D", "CORRECT:", "EXPL-CLASSIFY", "EXPL-RO", "EXPL-OW", "HINTRIGHT", "should be"}},
		{"a right question keeps all its feedback",
			QuizAnswers{"channel": {"b"}, "kind": {"protocol"}, "hints": {"readOnlyHint=true", "openWorldHint=true"}},
			[]string{"EXPL-A", "EXPL-B", "CORRECT:b"},
			[]string{"EXPL-CLASSIFY", "EXPL-DE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := GradeDraw(q, d, tt.answers)
			if r.Passed {
				t.Fatal("the attempt passed; the test needs a failed one")
			}
			shown := r.Shown()
			if !shown.Redacted {
				t.Error("Shown of a failed attempt is not marked Redacted")
			}
			text := feedbackText(shown)
			for _, s := range tt.shows {
				if !strings.Contains(text, s) {
					t.Errorf("redacted feedback lacks %q: %s", s, text)
				}
			}
			for _, s := range tt.hides {
				if strings.Contains(text, s) {
					t.Errorf("redacted feedback reveals %q: %s", s, text)
				}
			}
			if shown.Score != r.Score || len(shown.Missed) != len(r.Missed) {
				t.Error("redaction changed the score or the missed list")
			}
			if !strings.Contains(feedbackText(r), "EXPL-C") {
				t.Error("Redact modified the result it was given")
			}
		})
	}
	passed := GradeDraw(q, d, QuizAnswers{"channel": {"b"}, "kind": {"execution"}, "hints": {"readOnlyHint=true", "openWorldHint=true"}})
	if !passed.Passed || passed.Shown().Redacted || !strings.Contains(feedbackText(passed.Shown()), "EXPL-C") {
		t.Error("a passed attempt is not shown whole")
	}
}

func TestRedactWidgets(t *testing.T) {
	c := &Classify{ID: "c", Prompt: "P", Categories: []Category{{ID: "x", Label: "Ex"}, {ID: "y", Label: "Why"}},
		Items: []ClassifyItem{{ID: "one", Text: "First", Answer: "x", Explanation: "SECRET-1"}, {ID: "two", Text: "Second", Answer: "y", Explanation: "OPEN-2"}}}
	fb := GradeClassify(c, ClassifyAnswers{"one": "y", "two": "y"}).Shown()
	if it := fb.Items[0]; it.Answer != "" || it.AnswerLabel != "" || it.Explanation != "" || strings.Contains(it.Message, "Ex") {
		t.Errorf("wrong item reveals its key: %+v", it)
	}
	if it := fb.Items[1]; it.Explanation != "OPEN-2" || it.Answer != "y" {
		t.Errorf("right item lost its feedback: %+v", it)
	}
	tr, fa := true, false
	a := &Annotate{ID: "a", Prompt: "P", Tools: []Tool{{Name: "t", Description: "D", Hints: ToolHints{
		ReadOnly: &HintKey{Value: &fa, Explanation: "SECRET"}, Destructive: &HintKey{Value: &tr, Explanation: "SECRET"},
		Idempotent: &HintKey{Value: &tr, Explanation: "SECRET"}, OpenWorld: &HintKey{Value: &fa, Explanation: "SECRET"}}}}}
	afb := GradeAnnotate(a, AnnotateAnswers{"t": {ReadOnlyHint: false, DestructiveHint: false, IdempotentHint: true, OpenWorldHint: false}}).Shown()
	for _, h := range afb.Tools[0].Hints {
		if h.Explanation != "" || h.Right || h.Expected || strings.Contains(h.Message, "should be") {
			t.Errorf("hint %s of a wrong tool reveals its key: %+v", h.Hint, h)
		}
	}
}
