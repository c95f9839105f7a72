package web

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// The names of the widgets' form fields. The page's forms (widget.templ)
// and the parsers below are the only places that know them: the core
// receives typed progress.Answers.
//   - classify: itemField(item) = a category id;
//   - annotate: hintField(tool, hint) = "true" or "false";
//   - quiz and review: questionField(question) = option or category ids,
//     or for an annotate question questionHintField(question, hint) =
//     quiz.HintChoice ("readOnlyHint=true").

func itemField(itemID string) string                  { return "item." + itemID }
func hintField(tool string, h quiz.Hint) string       { return "hint." + tool + "." + string(h) }
func questionField(questionID string) string          { return "q." + questionID }
func questionHintField(id string, h quiz.Hint) string { return "q." + id + "." + string(h) }

// widget returns the widget of a lesson by their ids in the course being
// served, or nil.
func (s *Server) widget(slug, id string) *lessons.Widget {
	lesson, ok := s.course().Lesson(slug)
	if !ok {
		return nil
	}
	w, ok := lesson.Widget(id)
	if !ok {
		return nil
	}
	return w
}

// widgetAnswers reads a widget's posted form into answers by the widget's
// ids: every item, tool and question the widget has, the first value of
// each single-choice field and every value of a multiple-choice one.
// Fields the widget does not have are ignored; values are checked by the
// core. A nil widget (an unknown address) gives none.
func widgetAnswers(w *lessons.Widget, form url.Values) progress.Answers {
	a := progress.Answers{}
	if w == nil {
		return a
	}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		a.Categories = map[string]string{}
		for _, item := range x.Items {
			if v := form.Get(itemField(item.ID)); v != "" {
				a.Categories[item.ID] = v
			}
		}
	case *quiz.Annotate:
		a.Hints = map[string]map[quiz.Hint]bool{}
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				b, err := strconv.ParseBool(form.Get(hintField(tool.Name, h)))
				if err != nil {
					continue
				}
				if a.Hints[tool.Name] == nil {
					a.Hints[tool.Name] = map[quiz.Hint]bool{}
				}
				a.Hints[tool.Name][h] = b
			}
		}
	case *quiz.Quiz:
		a.Choices = map[string][]string{}
		for _, q := range x.Questions {
			if choices := questionAnswer(form, q.ID); len(choices) > 0 {
				a.Choices[q.ID] = choices
			}
		}
	}
	return a
}

// questionAnswer reads one question's fields: its choices, then the first
// value of each hint field of an annotate question.
func questionAnswer(form url.Values, id string) []string {
	choices := append([]string(nil), form[questionField(id)]...)
	for _, h := range quiz.AllHints() {
		if v := form.Get(questionHintField(id, h)); v != "" {
			choices = append(choices, v)
		}
	}
	return choices
}

// reviewChoices reads a review form, which answers one question: every
// value of its question fields, in the order of the fields' names.
func reviewChoices(form url.Values) []string {
	var names []string
	for name := range form {
		if strings.HasPrefix(name, questionField("")) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var choices []string
	for _, name := range names {
		choices = append(choices, form[name]...)
	}
	return choices
}

// answerFields turns answers back into the values of the form fields that
// show them, to redraw the learner's choices.
func answerFields(a progress.Answers) map[string][]string {
	fields := map[string][]string{}
	for item, v := range a.Categories {
		fields[itemField(item)] = []string{v}
	}
	for tool, hints := range a.Hints {
		for h, v := range hints {
			fields[hintField(tool, h)] = []string{strconv.FormatBool(v)}
		}
	}
	for id, choices := range a.Choices {
		for _, c := range choices {
			if hints, bad := quiz.ParseHintChoices([]string{c}); len(bad) == 0 && len(hints) == 1 {
				for h := range hints {
					fields[questionHintField(id, h)] = []string{c}
				}
				continue
			}
			fields[questionField(id)] = append(fields[questionField(id)], c)
		}
	}
	return fields
}
