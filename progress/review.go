package progress

import (
	"context"
	"errors"
	"strconv"

	"learn/lessons"
	"learn/quiz"
)

// reviewBatch is how many due cards NextReview looks at to find one it can
// still show (a card whose lesson changed is skipped).
const reviewBatch = 50

// ReviewItem is one question of the review queue, rebuilt from the course.
type ReviewItem struct {
	Key string
	// Version is the card's review count; an answer posted for an older
	// version was already counted.
	Version  int
	Lesson   *lessons.Lesson
	Question *quiz.Question
}

// ReviewQueue is the state of a's review queue at now.
type ReviewQueue struct {
	Due, Total int
	// Next is the first due item that can still be shown; nil when none.
	Next *ReviewItem
}

// Reviews returns a's queue and its next due item.
func (s *Service) Reviews(ctx context.Context, a Actor) (ReviewQueue, error) {
	var q ReviewQueue
	if !a.Known {
		return q, nil
	}
	now := s.now()
	var err error
	if q.Due, q.Total, err = s.learning.ReviewCounts(ctx, a.ID, now); err != nil {
		return q, err
	}
	cards, err := s.learning.DueReviews(ctx, a.ID, now, reviewBatch)
	if err != nil {
		return q, err
	}
	course := s.Course()
	for _, c := range cards {
		lesson, qn, ok := reviewQuestion(course, c)
		if ok {
			q.Next = &ReviewItem{Key: c.Key, Version: c.Card.Reps, Lesson: lesson, Question: qn}
			break
		}
	}
	return q, nil
}

// ReviewPost is one answer to a review item.
type ReviewPost struct {
	Key string
	// Version is the card's review count the form showed; "" skips the
	// check.
	Version string
	// Choices are the learner's answer to the item's question: option or
	// category ids, or quiz.HintChoice values for an annotate question.
	Choices  []string
	TimeZone string
}

// ReviewOutcome is a graded review answer.
type ReviewOutcome struct {
	Item     ReviewItem
	Feedback quiz.QuestionFeedback
	// Kept are the validated choices, under the question's id, to redraw
	// them.
	Kept Answers
	// Counted is false when the answer changed nothing: posted twice, from
	// a second tab, or for a card that is not due yet.
	Counted bool
	// NotDue is true when the card was answered before it was due.
	NotDue bool
	// After is the card's new schedule.
	After   quiz.Card
	Awarded int
	Summary Summary
}

// AnswerReview grades an answer to a due review card, reschedules the card
// by FSRS and records the attempt, and for a right answer to a card that
// is due grants ReviewXP, all in one transaction: once per scheduled
// interval of the card, and within the day's cap of quiz.ReviewCardsPerDay
// answers (the learner's local day). A
// doubled post, or an answer to a card not yet due, changes nothing
// (Counted false).
//
// Errors are *Error: NotFound when the card is not in a's queue; Gone when
// the card's lesson changed and its question no longer exists.
func (s *Service) AnswerReview(ctx context.Context, a Actor, p ReviewPost) (ReviewOutcome, error) {
	var out ReviewOutcome
	before, err := s.learning.FindReview(ctx, a.ID, p.Key)
	if errors.Is(err, ErrNotFound) {
		return out, notFound("That review item is not in your queue. Open the review page to get the next one.")
	}
	if err != nil {
		return out, err
	}
	lesson, q, ok := reviewQuestion(s.Course(), before)
	if !ok {
		return out, &Error{Kind: Gone, Message: "That item's lesson has changed and it can no longer be reviewed. Open the review page for the next one."}
	}
	out.Item = ReviewItem{Key: before.Key, Version: before.Card.Reps, Lesson: lesson, Question: q}
	out.Kept = newAnswers()
	now := s.now()
	if v, err := strconv.Atoi(p.Version); p.Version != "" && (err != nil || v != before.Card.Reps) {
		// The same answer posted twice, or from a second tab: it counted once.
		out.Summary, err = s.Summary(ctx, a)
		return out, err
	}
	if before.Card.Due.After(now) {
		out.NotDue = true
		out.Summary, err = s.Summary(ctx, a)
		return out, err
	}
	choices := questionChoices(p.Choices, q)
	if len(choices) > 0 {
		out.Kept.Choices[q.ID] = choices
	}
	out.Feedback = quiz.GradeQuestion(q, choices)
	after := before
	after.Card = quiz.Schedule(before.Card, quiz.RatingFor(out.Feedback.Right), now)
	answer := ReviewAnswer{
		Attempt: Attempt{LearnerID: a.ID, LessonSlug: before.LessonSlug, WidgetID: before.WidgetID, Kind: "review",
			Total: 1, Passed: out.Feedback.Right, Answers: jsonString(choices), At: now},
		Before: before, After: after,
	}
	if out.Feedback.Right {
		answer.Attempt.Score = 1
	}
	if err := s.RememberZone(ctx, a, p.TimeZone); err != nil {
		return out, err
	}
	learner, err := s.learning.FindLearner(ctx, a.ID)
	if err != nil {
		return out, err
	}
	loc, _ := quiz.Zone(learner.TimeZone)
	if aw, ok := quiz.ReviewAward(before.Key, before.Card, out.Feedback.Right, now, loc); ok {
		answer.Award = &aw
	}
	applied, granted, err := s.learning.AnswerReview(ctx, answer)
	if err != nil {
		return out, err
	}
	s.summaries.forget(a.ID)
	out.Counted, out.After = applied, after.Card
	if granted {
		out.Awarded = answer.Award.Amount
	}
	out.Summary, err = s.Summary(ctx, Actor{ID: a.ID, Role: a.Role, Known: true})
	return out, err
}

// reviewQuestion rebuilds the question a review card stands for.
func reviewQuestion(course *lessons.Course, c ReviewCard) (*lessons.Lesson, *quiz.Question, bool) {
	lesson, ok := course.Lesson(c.LessonSlug)
	if !ok {
		return nil, nil, false
	}
	w, ok := lesson.Widget(c.WidgetID)
	if !ok {
		return nil, nil, false
	}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		q, ok := x.ItemQuestion(c.ItemID)
		return lesson, &q, ok
	case *quiz.Annotate:
		q, ok := x.ToolQuestion(c.ItemID)
		return lesson, &q, ok
	case *quiz.Quiz:
		q, ok := x.QuestionByID(c.ItemID)
		return lesson, q, ok
	}
	return nil, nil, false
}
