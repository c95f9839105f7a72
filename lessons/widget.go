package lessons

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"learn/quiz"
)

// KindExercise names a Python exercise block.
const KindExercise = "exercise"

// widgetKinds are the info strings that name interactive blocks.
var widgetKinds = map[string]bool{quiz.KindClassify: true, quiz.KindAnnotate: true, quiz.KindQuiz: true, KindExercise: true}

// decodeWidget decodes the YAML body of a widget block whose opening fence
// is on line of file.
func (r *renderer) decodeWidget(file, kind string, body []byte, line int) (*Widget, []Problem) {
	if kind == KindExercise {
		return r.decodeExercise(file, body, line)
	}
	if !quiz.IsKind(kind) {
		return nil, []Problem{{File: file, Line: line, Message: fmt.Sprintf("widget %q is not implemented yet: remove the block or turn it into a plain code block", kind)}}
	}
	var node yaml.Node
	if err := yaml.Unmarshal(body, &node); err != nil {
		at, msg := yamlSyntax(body, err)
		return nil, []Problem{{File: file, Line: line + at, Message: fmt.Sprintf("the %s block is not valid YAML: %s", kind, msg)}}
	}
	w, qps := quiz.Decode(kind, &node)
	var ps []Problem
	for _, p := range qps {
		msg := p.Message
		if p.Path != "" {
			msg = p.Path + ": " + msg
		}
		ps = append(ps, Problem{File: file, Line: line + max(p.Line, 1), Message: fmt.Sprintf("%s block: %s", kind, msg)})
	}
	if w == nil || len(ps) > 0 {
		return nil, ps
	}
	return &Widget{Kind: kind, ID: w.WidgetID(), Line: line, Value: w}, nil
}

// checkWidgets finds problems between a lesson's widgets: shared ids and
// more than one end-of-lesson quiz.
func checkWidgets(l *Lesson) []Problem {
	var ps []Problem
	ids := map[string]int{}
	quizzes := 0
	for _, s := range l.Segments {
		w := s.Widget
		if w == nil {
			continue
		}
		if first, dup := ids[w.ID]; dup {
			ps = append(ps, Problem{File: l.File, Line: w.Line, Message: fmt.Sprintf("widget id %q is already used on line %d: give each widget of a lesson its own id", w.ID, first)})
		}
		ids[w.ID] = w.Line
		if w.Kind == quiz.KindQuiz {
			quizzes++
			if quizzes == 2 {
				ps = append(ps, Problem{File: l.File, Line: w.Line, Message: "a lesson has one end-of-lesson quiz: merge the questions into the first quiz block"})
			}
		}
	}
	return ps
}

// Widget returns the lesson's widget with this id.
func (l *Lesson) Widget(id string) (*Widget, bool) {
	for _, s := range l.Segments {
		if s.Widget != nil && s.Widget.ID == id {
			return s.Widget, true
		}
	}
	return nil, false
}

// Quiz returns the lesson's end-of-lesson quiz, if it has one.
func (l *Lesson) Quiz() (*quiz.Quiz, bool) {
	for _, s := range l.Segments {
		if s.Widget != nil && s.Widget.Kind == quiz.KindQuiz {
			q, ok := s.Widget.Value.(*quiz.Quiz)
			return q, ok
		}
	}
	return nil, false
}

// Exercises returns the lesson's exercises in order.
func (l *Lesson) Exercises() []*Exercise {
	var out []*Exercise
	for _, s := range l.Segments {
		if s.Widget != nil && s.Widget.Exercise != nil {
			out = append(out, s.Widget.Exercise)
		}
	}
	return out
}

// Exercise finds an exercise anywhere in the course by id, with its lesson.
func (c *Course) Exercise(id string) (*Exercise, *Lesson, bool) {
	for _, l := range c.Lessons {
		for _, e := range l.Exercises() {
			if e.ID == id {
				return e, l, true
			}
		}
	}
	return nil, nil, false
}
