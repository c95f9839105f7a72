package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"learn/lessons"
	"learn/quiz"
	"learn/store"
)

// reviewBatch is how many due cards a review page looks at to find one it
// can still show (a card whose lesson changed is skipped).
const reviewBatch = 50

// ReviewView is the review page: one due item, or the feedback on the last
// answer, and how many remain.
type ReviewView struct {
	Page
	Due, Total int
	// Item is the question to answer now; nil when nothing is due.
	Item *ReviewItemView
	// Answered is the item just answered with its feedback; nil before.
	Answered *ReviewItemView
	// Notice explains a post that changed nothing.
	Notice string
}

// ReviewItemView is one review question.
type ReviewItemView struct {
	Key string
	// Version is the card's review count when the page was drawn; an answer
	// posted for an older version was already counted.
	Version     int
	LessonTitle string
	LessonSlug  string
	Question    quiz.QuestionView
	Feedback    *quiz.QuestionFeedback
	// Form holds the learner's answers, to keep their choices checked.
	Form *WidgetView
	// Outcome says what happened, for everyone and for screen readers.
	Outcome string
}

// reviewQuestion rebuilds the question a review card stands for.
func reviewQuestion(course *lessons.Course, c store.ReviewCard) (*lessons.Lesson, *quiz.Question, bool) {
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

// nextReview finds the first due card that can still be shown.
func (s *Server) nextReview(r *http.Request, id string) (*ReviewItemView, error) {
	cards, err := s.store.DueReviews(r.Context(), id, s.now(), reviewBatch)
	if err != nil {
		return nil, err
	}
	course := s.course.Load()
	for _, c := range cards {
		lesson, q, ok := reviewQuestion(course, c)
		if !ok {
			continue
		}
		return &ReviewItemView{
			Key: c.Key, Version: c.Card.Reps, LessonTitle: lesson.Title, LessonSlug: lesson.Slug, Question: q.View(),
			Form: &WidgetView{Kind: "review", ID: "review", Action: "/review"},
		}, nil
	}
	return nil, nil
}

// reviewShow serves the next due item.
func (s *Server) reviewShow(w http.ResponseWriter, r *http.Request) error {
	l := learnerFrom(r.Context())
	v := ReviewView{Page: s.page(r, "Review", "review")}
	if l.Known {
		var err error
		if v.Due, v.Total, err = s.store.ReviewCounts(r.Context(), l.ID, s.now()); err != nil {
			return err
		}
		if v.Item, err = s.nextReview(r, l.ID); err != nil {
			return err
		}
	}
	return render(w, r, reviewPage(v))
}

// reviewAnswer grades one review answer, reschedules the card and shows the
// feedback with the next item.
func (s *Server) reviewAnswer(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The form could not be read. Reload the page and try again.", Err: err}
	}
	l := learnerFrom(r.Context())
	key := r.PostForm.Get("item")
	before, err := s.store.FindReview(r.Context(), l.ID, key)
	if errors.Is(err, store.ErrNotFound) {
		return &Error{Status: http.StatusNotFound, Message: "That review item is not in your queue. Open the review page to get the next one."}
	}
	if err != nil {
		return err
	}
	if v, err := strconv.Atoi(r.PostForm.Get("version")); err == nil && v != before.Card.Reps {
		// The same answer posted twice, or from a second tab: it counted once.
		return s.reviewAlreadyCounted(w, r, l.ID)
	}
	lesson, q, ok := reviewQuestion(s.course.Load(), before)
	if !ok {
		return &Error{Status: http.StatusGone, Message: "That item's lesson has changed and it can no longer be reviewed. Open the review page for the next one."}
	}
	form := &WidgetView{Kind: "review", ID: "review", Action: "/review", Answers: map[string][]string{}, Checked: true}
	choices := questionChoices(r.PostForm, q, form.Answers)
	fb := quiz.GradeQuestion(q, choices)
	now := s.now()
	after := before
	after.Card = quiz.Schedule(before.Card, quiz.RatingFor(fb.Right), now)
	answer := store.ReviewAnswer{
		Attempt: store.Attempt{LearnerID: l.ID, LessonSlug: before.LessonSlug, WidgetID: before.WidgetID, Kind: "review",
			Total: 1, Passed: fb.Right, Answers: jsonString(choices), At: now},
		Before: before, After: after,
	}
	if fb.Right {
		answer.Attempt.Score = 1
	}
	if a, ok := quiz.ReviewAward(before.Key, before.Card, fb.Right); ok {
		answer.Award = &store.Award{Key: a.Key, Amount: a.Amount, Reason: a.Reason}
	}
	if err := s.rememberZone(r, l, r.PostForm.Get("tz")); err != nil {
		return err
	}
	applied, granted, err := s.store.AnswerReview(r.Context(), answer)
	if err != nil {
		return err
	}
	if r, _, err = s.reloadLearner(r); err != nil {
		return err
	}

	answered := &ReviewItemView{Key: key, LessonTitle: lesson.Title, LessonSlug: lesson.Slug, Question: q.View(), Feedback: &fb, Form: form}
	if !applied {
		return s.reviewAlreadyCounted(w, r, l.ID)
	}
	switch {
	case fb.Right:
		answered.Outcome = fmt.Sprintf("Right. Next review in %s.", untilText(after.Card.Due.Sub(now)))
	default:
		answered.Outcome = "Not this time. The item comes back soon."
	}
	if granted {
		answered.Outcome += fmt.Sprintf(" +%d XP.", answer.Award.Amount)
	}
	v := ReviewView{Page: s.page(r, "Review", "review"), Answered: answered}
	if v.Due, v.Total, err = s.store.ReviewCounts(r.Context(), l.ID, now); err != nil {
		return err
	}
	if v.Item, err = s.nextReview(r, l.ID); err != nil {
		return err
	}
	return render(w, r, reviewPage(v))
}

// reviewAlreadyCounted answers a doubled review post: nothing changes, and
// the page says so and serves the next item.
func (s *Server) reviewAlreadyCounted(w http.ResponseWriter, r *http.Request, id string) error {
	v := ReviewView{Page: s.page(r, "Review", "review"), Notice: "That answer was already counted; each answer reschedules its item once."}
	var err error
	if v.Due, v.Total, err = s.store.ReviewCounts(r.Context(), id, s.now()); err != nil {
		return err
	}
	if v.Item, err = s.nextReview(r, id); err != nil {
		return err
	}
	return render(w, r, reviewPage(v))
}
