package lessons

import (
	"fmt"
	"strings"

	"learn/quiz"
)

// MinQuizQuestions is the fewest questions a quiz should have: with fewer,
// a guess passes too often. A smaller quiz is a warning.
const MinQuizQuestions = 4

// lessonWarnings finds what a lesson can be served with but should not:
// no practice at all, or a quiz too short to tell.
func lessonWarnings(l *Lesson) []Problem {
	var ps []Problem
	practice := 0
	for _, s := range l.Segments {
		w := s.Widget
		if w == nil {
			continue
		}
		practice++
		if q, ok := w.Value.(*quiz.Quiz); ok && len(q.Questions) < MinQuizQuestions {
			ps = append(ps, warning(l.File, w.Line, "the quiz has %d question(s): give it at least %d, so a guess rarely passes", len(q.Questions), MinQuizQuestions))
		}
		if missing := teachingGaps(w.Value); len(missing) > 0 {
			ps = append(ps, warning(l.File, w.Line, "%s", strings.Join(missing, "; ")))
		}
	}
	if practice == 0 {
		ps = append(ps, warning(l.File, 1, "the lesson has no practice: add a classify, annotate, quiz or exercise block so learners try what they read"))
	}
	return ps
}

// teachingGaps says what a widget lacks for feedback that teaches: a
// why_not for each wrong category of a classify item, a cue for each hint
// that matters of an annotate tool. Without them a wrong choice is only
// told to think again, and a hint shows the hint's general cue.
func teachingGaps(v any) []string {
	var whyNot, cues []string
	switch x := v.(type) {
	case *quiz.Classify:
		whyNot = x.MissingWhyNot()
	case *quiz.Annotate:
		cues = x.MissingCues()
	case *quiz.Quiz:
		whyNot, cues = x.MissingWhyNot(), x.MissingCues()
	}
	var out []string
	if len(whyNot) > 0 {
		out = append(out, fmt.Sprintf("%d wrong choice(s) have no why_not, so a learner who picks one is only told to think again (%s); add why_not: {category-id: why the item is not that} to the item, or why_not: to the category",
			len(whyNot), firstFew(whyNot)))
	}
	if len(cues) > 0 {
		out = append(out, fmt.Sprintf("%d hint(s) have no cue of their own (%s); add cue: a plain question that leads to the value, such as \"Does it only read?\"", len(cues), firstFew(cues)))
	}
	return out
}

// firstFew lists up to three entries and how many more there are.
func firstFew(list []string) string {
	if len(list) <= 3 {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:3], ", ") + fmt.Sprintf(" and %d more", len(list)-3)
}
