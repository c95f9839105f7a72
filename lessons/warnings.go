package lessons

import (
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
	}
	if practice == 0 {
		ps = append(ps, warning(l.File, 1, "the lesson has no practice: add a classify, annotate, quiz or exercise block so learners try what they read"))
	}
	return ps
}
