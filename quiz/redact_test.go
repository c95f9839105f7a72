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
			[]string{"EXPL-A", "Not right.", "WHYNOT-PROTOCOL", "readOnlyHint, destructiveHint, idempotentHint and openWorldHint are off"},
			[]string{"EXPL-B", "EXPL-C", "EXPL-D", "CORRECT:", "EXPL-CLASSIFY", "EXPL-RO", "EXPL-OW", "EXPL-DE", "EXPL-ID", "HINTRIGHT", "should be"}},
		{"a wrong annotate question names its right hints but tells no reason",
			QuizAnswers{"channel": {"a"}, "kind": {"protocol"}, "hints": {"readOnlyHint=false", "destructiveHint=true", "idempotentHint=true", "openWorldHint=true"}},
			[]string{"openWorldHint is off", "HINTRIGHT"},
			[]string{"EXPL-RO", "EXPL-DE", "EXPL-ID", "EXPL-OW", "should be"}},
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
		if h.Explanation != "" || h.Expected || strings.Contains(h.Message, "should be") {
			t.Errorf("hint %s of a wrong tool reveals its key: %+v", h.Hint, h)
		}
		// Which hints are off is said, each with its cue; the value of an
		// off hint is not.
		if wantRight := h.Hint != DestructiveHint; h.Right != wantRight || h.Cue != h.Hint.Cue() {
			t.Errorf("hint %s: Right %t, cue %q; want Right %t and the hint's cue", h.Hint, h.Right, h.Cue, wantRight)
		}
	}
	if off := afb.Off(); len(off) != 1 || off[0].Name != "t" || len(off[0].Hints) != 1 || off[0].Hints[0] != DestructiveHint {
		t.Errorf("Off() = %+v, want destructiveHint of t", off)
	}
}

// TestRedactClassifyWhyNot: a wrong item keeps why the chosen category
// does not fit it, the item's own text before the category's, and never
// the right category.
func TestRedactClassifyWhyNot(t *testing.T) {
	cats := []Category{{ID: "x", Label: "Ex", WhyNot: "CAT-X"}, {ID: "y", Label: "Why", WhyNot: "CAT-Y"}, {ID: "z", Label: "Zed"}}
	c := &Classify{ID: "c", Prompt: "P", Categories: cats, Items: []ClassifyItem{
		{ID: "one", Text: "First", Answer: "z", Explanation: "SECRET-1", WhyNot: map[string]string{"x": "ITEM-X"}},
	}}
	tests := []struct {
		name, given, whyNot, message string
	}{
		{"the item's own text", "x", "ITEM-X", "Not right: you chose “Ex”."},
		{"the category's text when the item has none", "y", "CAT-Y", "Not right: you chose “Why”."},
		{"the right one has none", "z", "", "Right: a Zed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := GradeClassify(c, ClassifyAnswers{"one": tt.given}).Shown().Items[0]
			if it.WhyNot != tt.whyNot || it.Message != tt.message {
				t.Errorf("WhyNot %q, Message %q; want %q, %q", it.WhyNot, it.Message, tt.whyNot, tt.message)
			}
			if !it.Right && (it.Explanation != "" || it.AnswerLabel != "" || strings.Contains(it.Message+it.WhyNot, "Zed")) {
				t.Errorf("a wrong item reveals its key: %+v", it)
			}
		})
	}
}
