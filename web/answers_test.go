package web

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// keyAnswers answers every item, tool and question of a widget with its
// key, as a learner who knows it would.
func keyAnswers(w *lessons.Widget) progress.Answers {
	a := progress.Answers{}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		a.Categories = map[string]string{}
		for _, item := range x.Items {
			a.Categories[item.ID] = item.Answer
		}
	case *quiz.Annotate:
		a.Hints = map[string]map[quiz.Hint]bool{}
		for _, tool := range x.Tools {
			a.Hints[tool.Name] = map[quiz.Hint]bool{}
			for _, h := range quiz.AllHints() {
				if k := tool.Hints.Get(h); k != nil && k.Value != nil {
					a.Hints[tool.Name][h] = *k.Value
				}
			}
		}
	case *quiz.Quiz:
		a.Choices = map[string][]string{}
		for _, q := range x.Questions {
			switch q.Kind {
			case quiz.QuestionClassify:
				a.Choices[q.ID] = []string{q.Answer}
			case quiz.QuestionAnnotate:
				for _, h := range quiz.AllHints() {
					if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
						a.Choices[q.ID] = append(a.Choices[q.ID], quiz.HintChoice(h, *k.Value))
					}
				}
			default:
				for _, o := range q.Options {
					if o.Correct {
						a.Choices[q.ID] = append(a.Choices[q.ID], o.ID)
					}
				}
			}
		}
	}
	return a
}

// TestWidgetFormsRoundTrip writes every widget of the built-in course's
// answers into the form fields the page draws and reads them back: the
// parser and the page agree on every name, so renaming a field in one
// place only fails here, not silently in grading.
func TestWidgetFormsRoundTrip(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range course.Lessons {
		for _, seg := range l.Segments {
			w := seg.Widget
			if w == nil || w.Exercise != nil {
				continue
			}
			n++
			t.Run(l.Slug+"/"+w.ID, func(t *testing.T) {
				want := keyAnswers(w)
				form := url.Values(answerFields(want))
				form.Set("tz", "Europe/Paris")
				form.Set("item.no-such-item", "protocol")
				if diff := cmp.Diff(want, widgetAnswers(w, form), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("answers read back (-written +read):\n%s", diff)
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("the built-in course has no widgets")
	}
}

func TestReviewChoices(t *testing.T) {
	tests := []struct {
		name string
		form url.Values
		want []string
	}{
		{"one option", url.Values{"q.is-error": {"b"}, "item": {"key"}, "version": {"2"}}, []string{"b"}},
		{"several options", url.Values{"q.codes": {"a", "c"}}, []string{"a", "c"}},
		{"hints of an annotate question", url.Values{"q.tool.readOnlyHint": {"readOnlyHint=true"}, "q.tool.openWorldHint": {"openWorldHint=false"}},
			[]string{"openWorldHint=false", "readOnlyHint=true"}},
		{"nothing answered", url.Values{"item": {"key"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, reviewChoices(tt.form)); diff != "" {
				t.Errorf("choices (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzWidgetForm posts an arbitrary field and value to every widget's
// parser: it never panics, and every answer it returns names an item, tool
// or question of the widget and carries a value that was posted.
func FuzzWidgetForm(f *testing.F) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		f.Fatal(err)
	}
	var widgets []*lessons.Widget
	for _, l := range course.Lessons {
		for _, seg := range l.Segments {
			if w := seg.Widget; w != nil && w.Exercise == nil {
				widgets = append(widgets, w)
			}
		}
	}
	for _, seed := range [][2]string{{"item.which-channel-1", "protocol"}, {"hint.delete_file.readOnlyHint", "true"}, {"q.is-error", "b"}, {"q.x.readOnlyHint", "readOnlyHint=true"}, {"", "\xff"}} {
		f.Add(uint8(0), seed[0], seed[1])
		f.Add(uint8(len(widgets)-1), seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, which uint8, field, value string) {
		w := widgets[int(which)%len(widgets)]
		a := widgetAnswers(w, url.Values{field: {value, value}})
		for item, v := range a.Categories {
			if field != itemField(item) || v != value {
				t.Errorf("category %q = %q from field %q", item, v, field)
			}
		}
		for tool, hints := range a.Hints {
			for h := range hints {
				if field != hintField(tool, h) {
					t.Errorf("hint %s.%s from field %q", tool, h, field)
				}
			}
		}
		for id, choices := range a.Choices {
			for _, c := range choices {
				if c != value || (field != questionField(id) && field[:min(len(field), len(questionField(id))+1)] != questionField(id)+".") {
					t.Errorf("choice %q of %q from field %q", c, id, field)
				}
			}
		}
	})
}
