package quiz

import (
	"errors"
	"strings"
	"testing"
)

func TestUnansweredQuiz(t *testing.T) {
	q := decodeQuiz(t, variantQuiz)
	d := Draw{} // authored order, variant 0
	all := QuizAnswers{"channel": {"b"}, "kind": {"execution"}, "hints": {"readOnlyHint=false", "destructiveHint=true", "idempotentHint=true", "openWorldHint=false"}}
	tests := []struct {
		name    string
		answers QuizAnswers
		want    []string // ids of unanswered slots
		hints   []Hint   // hints still open on the annotate question
	}{
		{"blank", QuizAnswers{}, []string{"channel", "kind", "hints"}, []Hint{ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint}},
		{"empty choices count as blank", QuizAnswers{"channel": {""}, "kind": nil}, []string{"channel", "kind", "hints"}, []Hint{ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint}},
		{"half filled", QuizAnswers{"channel": {"b"}, "hints": {"readOnlyHint=false"}}, []string{"kind", "hints"}, []Hint{DestructiveHint, IdempotentHint, OpenWorldHint}},
		{"read-only answer needs two hints", QuizAnswers{"channel": {"b"}, "kind": {"protocol"}, "hints": {"readOnlyHint=true"}}, []string{"hints"}, []Hint{OpenWorldHint}},
		{"complete, even if wrong", QuizAnswers{"channel": {"zzz"}, "kind": {"protocol"}, "hints": {"readOnlyHint=true", "openWorldHint=true"}}, nil, nil},
		{"complete", all, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			us := q.Unanswered(d, tt.answers)
			var ids []string
			for _, u := range us {
				ids = append(ids, u.ID)
				if u.ID == "hints" && strings.Join(hintNames(u.Hints), ",") != strings.Join(hintNames(tt.hints), ",") {
					t.Errorf("hints still open %v, want %v", u.Hints, tt.hints)
				}
			}
			if strings.Join(ids, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("unanswered %v, want %v", ids, tt.want)
			}
			err := q.CheckComplete(d, tt.answers)
			if (err == nil) != (len(tt.want) == 0) {
				t.Fatalf("CheckComplete = %v", err)
			}
			var inc *IncompleteError
			if err != nil && !errors.As(err, &inc) {
				t.Fatalf("%T is not an *IncompleteError", err)
			}
			if err != nil {
				msg := err.Error()
				for _, secret := range []string{"EXPL", "isError true", "execution", "correct"} {
					if strings.Contains(msg, secret) {
						t.Errorf("the refusal %q reveals %q", msg, secret)
					}
				}
				if !strings.Contains(msg, "question 1 (How does a tool report") && tt.want[0] == "channel" {
					t.Errorf("the refusal %q does not name question 1 by its prompt", msg)
				}
			}
		})
	}
}

func hintNames(hs []Hint) []string {
	var out []string
	for _, h := range hs {
		out = append(out, string(h))
	}
	return out
}

func TestUnansweredNumbersFollowTheDraw(t *testing.T) {
	q := decodeQuiz(t, variantQuiz)
	d := Draw{Slots: []int{2, 0, 1}}
	us := q.Unanswered(d, QuizAnswers{"hints": {"readOnlyHint=true", "openWorldHint=false"}})
	if len(us) != 2 || us[0].ID != "channel" || us[0].Number != 2 || us[1].ID != "kind" || us[1].Number != 3 {
		t.Fatalf("got %+v, want channel as question 2 and kind as question 3", us)
	}
	want := "2 of 3 questions are not answered: question 2 (How does a tool report that its upstream API is down?) and question 3 (Which kind of error?). Answer every question, then check again."
	if got := q.CheckComplete(d, QuizAnswers{"hints": {"readOnlyHint=true", "openWorldHint=false"}}).Error(); got != want {
		t.Errorf("message\n %s\nwant\n %s", got, want)
	}
}

func TestUnansweredWidgets(t *testing.T) {
	c := &Classify{ID: "c", Prompt: "P", Categories: []Category{{ID: "x", Label: "X"}, {ID: "y", Label: "Y"}},
		Items: []ClassifyItem{{ID: "one", Text: "First", Answer: "x", Explanation: "SECRET"}, {ID: "two", Text: "Second", Answer: "y", Explanation: "SECRET"}}}
	tests := []struct {
		name    string
		answers ClassifyAnswers
		want    string
	}{
		{"blank", ClassifyAnswers{}, "2 of 2 items are not answered: item 1 (First) and item 2 (Second). Answer every item, then check again."},
		{"half", ClassifyAnswers{"one": "y"}, "1 of 2 items is not answered: item 2 (Second). Answer every item, then check again."},
		{"full", ClassifyAnswers{"one": "y", "two": "y"}, ""},
	}
	for _, tt := range tests {
		t.Run("classify "+tt.name, func(t *testing.T) {
			err := c.CheckComplete(tt.answers)
			if got := errString(err); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	tr, fa := true, false
	a := &Annotate{ID: "a", Prompt: "P", Tools: []Tool{{Name: "search", Description: "D", Hints: ToolHints{ReadOnly: &HintKey{Value: &tr, Explanation: "E"}, OpenWorld: &HintKey{Value: &fa, Explanation: "E"}}}}}
	atests := []struct {
		name    string
		answers AnnotateAnswers
		want    string
	}{
		{"blank", AnnotateAnswers{}, "1 of 1 tools is not answered: tool 1 (search): readOnlyHint, destructiveHint, idempotentHint, openWorldHint. Answer every tool, then check again."},
		{"writing answer needs all four", AnnotateAnswers{"search": {ReadOnlyHint: false, OpenWorldHint: true}}, "1 of 1 tools is not answered: tool 1 (search): destructiveHint, idempotentHint. Answer every tool, then check again."},
		{"read-only answer needs two", AnnotateAnswers{"search": {ReadOnlyHint: true, OpenWorldHint: true}}, ""},
	}
	for _, tt := range atests {
		t.Run("annotate "+tt.name, func(t *testing.T) {
			if got := errString(a.CheckComplete(tt.answers)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
