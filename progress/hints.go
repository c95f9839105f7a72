package progress

import (
	"context"
	"fmt"
)

// HintsOpen reports whether the learner may take the exercise's hints: it
// lists some, and a run or submission of theirs has failed. Hints lead a
// learner who is stuck; before a first try there is nothing to be stuck on.
func (sum Summary) HintsOpen(exerciseID string, hints int) bool {
	return hints > 0 && sum.Exercises[exerciseID].Failures > 0
}

// RevealHint shows a the exercise's hint number n (1 for the first) and
// returns a's summary after it. A learner asks for the hint after the
// ones they have: asking again for one already shown changes nothing, so
// a doubled post is harmless. Taking hints changes no XP.
//
// Errors are *Error: NotFound for an unknown exercise (or one not in
// lessonSlug); Invalid when the exercise has no hint n, when a has not had
// a failed run yet, or when n skips a hint not yet shown.
func (s *Service) RevealHint(ctx context.Context, a Actor, lessonSlug, exerciseID string, n int) (Summary, error) {
	_, ex, err := s.ExerciseFor(lessonSlug, exerciseID)
	if err != nil {
		return Summary{}, err
	}
	sum, err := s.Summary(ctx, a)
	if err != nil {
		return sum, err
	}
	shown := sum.Hints[ex.ID]
	switch {
	case n < 1 || n > len(ex.Hints):
		return sum, &Error{Kind: Invalid, Message: fmt.Sprintf("This exercise has %d hints; there is no hint %d. Reload the lesson to see its current version.", len(ex.Hints), n)}
	case !sum.HintsOpen(ex.ID, len(ex.Hints)):
		return sum, &Error{Kind: Invalid, Message: "Hints open once a run or submission of yours has failed: try the exercise first."}
	case n > shown+1:
		return sum, &Error{Kind: Invalid, Message: fmt.Sprintf("Hints come one at a time: take hint %d first.", shown+1)}
	case n <= shown:
		return sum, nil
	}
	if _, err := s.learning.RevealHints(ctx, a.ID, ex.ID, n, s.now()); err != nil {
		return sum, err
	}
	s.summaries.forget(a.ID)
	return s.Summary(ctx, Actor{ID: a.ID, Role: a.Role, Known: true})
}
