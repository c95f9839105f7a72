package progress

import (
	"context"
	"fmt"
	"time"

	"learn/quiz"
)

// QuizTurn is where a learner stands with a lesson quiz, read from the
// store (never from a form): the attempt open now, what it shows, and the
// wait before it when the learner failed too often in a row.
type QuizTurn struct {
	// Next is the number of the attempt open now; 0 for a first visit
	// without a cookie, which shows the draw every visitor sees.
	Next int
	Draw quiz.Draw
	// Failed counts the failed attempts, FailedInRow those since the last
	// pass; Passed is whether any attempt passed.
	Failed, FailedInRow int
	Passed              bool
	// OpensAt is when attempt Next can be posted: the last attempt's end,
	// or later by quiz.QuizWait after failures in a row. Zero before the
	// first attempt.
	OpensAt time.Time
}

// Waiting reports whether the turn's attempt is not open yet at now.
func (t QuizTurn) Waiting(now time.Time) bool { return now.Before(t.OpensAt) }

// QuizTurn returns a's turn at the lesson's quiz. An actor without a
// cookie (not Known) is at the first visit's draw and costs no query.
func (s *Service) QuizTurn(ctx context.Context, a Actor, lessonSlug string, q *quiz.Quiz) (QuizTurn, error) {
	if !a.Known {
		return QuizTurn{Draw: QuizDraw(a, q, 0)}, nil
	}
	return s.quizTurn(ctx, a, lessonSlug, q)
}

// quizTurn reads a's turn from the store. The attempt number counts every
// quiz attempt the learner made (those made before attempts were kept with
// their draw included); the failures come from the kept attempts.
func (s *Service) quizTurn(ctx context.Context, a Actor, lessonSlug string, q *quiz.Quiz) (QuizTurn, error) {
	counts, err := s.learning.AttemptCounts(ctx, a.ID)
	if err != nil {
		return QuizTurn{}, err
	}
	return s.quizTurnCounted(ctx, a, lessonSlug, q, counts)
}

// quizTurnCounted is quizTurn with the learner's attempt counts
// (LearningStore.AttemptCounts) already read, for a caller that needs the
// turns of several quizzes.
func (s *Service) quizTurnCounted(ctx context.Context, a Actor, lessonSlug string, q *quiz.Quiz, counts map[string]int) (QuizTurn, error) {
	rows, err := s.learning.QuizAttempts(ctx, a.ID, lessonSlug, q.ID)
	if err != nil {
		return QuizTurn{}, err
	}
	t := QuizTurn{Next: counts[lessonSlug+"/"+q.ID] + 1}
	for _, r := range rows {
		t.Next = max(t.Next, r.Number+1)
		if r.Reset {
			// A teacher's reset came after it: it counts for its number,
			// not for the wait or the XP of a pass.
			t.Passed = t.Passed || r.Passed
			continue
		}
		if r.Passed {
			t.Passed, t.FailedInRow = true, 0
		} else {
			t.Failed++
			t.FailedInRow++
		}
		t.OpensAt = r.FinishedAt
	}
	if !t.OpensAt.IsZero() {
		t.OpensAt = t.OpensAt.Add(quiz.QuizWait(t.FailedInRow))
	}
	t.Draw = QuizDraw(a, q, t.Next)
	return t, nil
}

// attemptOver is the refusal of a post for an attempt that is not the
// open one: posted twice, from an old tab, or with a number of its own.
func attemptOver(next int) *Error {
	return &Error{Kind: Gone, Message: fmt.Sprintf("This attempt is over; here is the next, attempt %d, with other versions of the questions.", next)}
}

// quizWaitError is the refusal of a post while the learner waits after
// failures in a row.
func quizWaitError(t QuizTurn, now time.Time, zone string) *Error {
	loc, _ := quiz.Zone(zone)
	wait := t.OpensAt.Sub(now).Round(time.Minute)
	return &Error{Kind: TooMany, RetryAfter: t.OpensAt.Sub(now),
		Message: fmt.Sprintf("You failed this quiz %d times in a row, so the next attempt opens at %s (in %s). Meanwhile, reread the lesson and review the questions you missed.",
			t.FailedInRow, t.OpensAt.In(loc).Format("15:04 MST"), wait)}
}
