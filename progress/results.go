package progress

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// ResultTTL is how long a result kept for a lesson's next drawing waits:
// long enough for the browser to follow a redirect, short enough that an
// old result never surprises a learner who comes back later.
const ResultTTL = time.Minute

// KeepResult keeps a drawn result (body, opaque to the core) of one part
// of a lesson, to show once on a's next drawing of that lesson, within
// ResultTTL. A newer result for the same lesson replaces it. Errors come
// from the store.
func (s *Service) KeepResult(ctx context.Context, a Actor, lessonSlug, partID, body string) error {
	now := s.now()
	return s.learning.KeepResult(ctx, ResultToShow{LearnerID: a.ID, LessonSlug: lessonSlug, PartID: partID, Body: body, Expires: now.Add(ResultTTL)}, now)
}

// TakeResult returns a's kept result for the lesson and forgets it; ok is
// false when there is none (or it expired). A visitor not yet Known has
// none and costs no query.
func (s *Service) TakeResult(ctx context.Context, a Actor, lessonSlug string) (r ResultToShow, ok bool, err error) {
	if !a.Known {
		return r, false, nil
	}
	r, err = s.learning.TakeResult(ctx, a.ID, lessonSlug, s.now())
	if errors.Is(err, ErrNotFound) {
		return ResultToShow{}, false, nil
	}
	if err != nil {
		return ResultToShow{}, false, err
	}
	return r, true, nil
}

// KeptAnswers returns a classify or annotate attempt's stored answers, so
// a revisited widget shows the learner's last choices. Anything that no
// longer fits the widget (an author removed an item) is left out; a quiz
// gets none, since its next attempt asks other versions of the questions.
func KeptAnswers(w *lessons.Widget, stored string) Answers {
	kept := newAnswers()
	switch x := w.Value.(type) {
	case *quiz.Classify:
		var answers quiz.ClassifyAnswers
		if json.Unmarshal([]byte(stored), &answers) != nil {
			return kept
		}
		for _, item := range x.Items {
			if v, ok := answers[item.ID]; ok && isCategory(x.Categories, v) {
				kept.Categories[item.ID] = v
			}
		}
	case *quiz.Annotate:
		var answers quiz.AnnotateAnswers
		if json.Unmarshal([]byte(stored), &answers) != nil {
			return kept
		}
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				if v, ok := answers[tool.Name][h]; ok {
					if kept.Hints[tool.Name] == nil {
						kept.Hints[tool.Name] = map[quiz.Hint]bool{}
					}
					kept.Hints[tool.Name][h] = v
				}
			}
		}
	}
	return kept
}
