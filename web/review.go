package web

import (
	"fmt"
	"net/http"

	"learn/progress"
	"learn/quiz"
)

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

// reviewItemView builds the view of a queue's next item.
func reviewItemView(it *progress.ReviewItem) *ReviewItemView {
	if it == nil {
		return nil
	}
	return &ReviewItemView{
		Key: it.Key, Version: it.Version, LessonTitle: it.Lesson.Title, LessonSlug: it.Lesson.Slug, Question: it.Question.View(),
		Form: &WidgetView{Kind: "review", ID: "review", Action: "/review"},
	}
}

// reviewPageView fills a review page with the queue as it stands now.
func (s *Server) reviewPageView(r *http.Request) (ReviewView, error) {
	v := ReviewView{Page: s.page(r, "Review", "review")}
	q, err := s.app.Reviews(r.Context(), progress.ActorFrom(r.Context()))
	if err != nil {
		return v, err
	}
	v.Due, v.Total, v.Item = q.Due, q.Total, reviewItemView(q.Next)
	return v, nil
}

// reviewShow serves the next due item.
func (s *Server) reviewShow(w http.ResponseWriter, r *http.Request) error {
	v, err := s.reviewPageView(r)
	if err != nil {
		return err
	}
	return render(w, r, reviewPage(v))
}

// reviewAnswer grades one review answer through the core and shows the
// feedback with the next item.
func (s *Server) reviewAnswer(w http.ResponseWriter, r *http.Request) error {
	out, err := s.app.AnswerReview(r.Context(), progress.ActorFrom(r.Context()), progress.ReviewPost{
		Key: r.PostForm.Get("item"), Version: r.PostForm.Get("version"), Choices: reviewChoices(r.PostForm), TimeZone: r.PostForm.Get("tz"),
	})
	if err != nil {
		return err
	}
	r = withSummary(r, out.Summary)
	v, err := s.reviewPageView(r)
	if err != nil {
		return err
	}
	switch {
	case out.NotDue:
		v.Notice = "That item is not due yet; it comes back on its own day. Answers before then change nothing."
	case !out.Counted:
		v.Notice = "That answer was already counted; each answer reschedules its item once."
	default:
		it := out.Item
		answered := &ReviewItemView{Key: it.Key, LessonTitle: it.Lesson.Title, LessonSlug: it.Lesson.Slug, Question: it.Question.View(),
			Feedback: &out.Feedback, Form: &WidgetView{Kind: "review", ID: "review", Action: "/review", Answers: answerFields(out.Kept), Checked: true}}
		if out.Feedback.Right {
			answered.Outcome = fmt.Sprintf("Right. Next review in %s.", untilText(out.After.Due.Sub(s.now())))
		} else {
			answered.Outcome = "Not this time. The item comes back soon."
		}
		if out.Awarded > 0 {
			answered.Outcome += fmt.Sprintf(" +%d XP.", out.Awarded)
		}
		v.Answered = answered
	}
	return render(w, r, reviewPage(v))
}
