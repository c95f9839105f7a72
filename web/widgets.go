package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"learn/lessons"
	"learn/quiz"
	"learn/store"
)

// widgetAction is the URL a widget's form posts to.
func widgetAction(slug, id string) string {
	return "/lessons/" + url.PathEscape(slug) + "/widgets/" + url.PathEscape(id)
}

// widgetView builds the unanswered view of a widget. attempt is the quiz
// attempt number that fixes the question order.
func widgetView(lesson *lessons.Lesson, w *lessons.Widget, learnerID string, attempt int, zone string) *WidgetView {
	v := &WidgetView{Kind: w.Kind, ID: w.ID, Action: widgetAction(lesson.Slug, w.ID), TimeZone: zone, Attempt: attempt}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		cv := x.View()
		v.Classify = &cv
	case *quiz.Annotate:
		av := x.View()
		v.Annotate = &av
	case *quiz.Quiz:
		qv := x.View(quiz.Order(x, quiz.AttemptSeed(learnerID, attempt)))
		v.Quiz = &qv
	}
	return v
}

// quizAttempt returns the attempt number the learner's next quiz try has.
func (s *Server) quizAttempt(r *http.Request, lesson *lessons.Lesson) (int, error) {
	l := learnerFrom(r.Context())
	q, ok := lesson.Quiz()
	if !ok || !l.Known || !q.Shuffle {
		return 1, nil
	}
	return l.sum.attempts[lesson.Slug+"/"+q.ID] + 1, nil
}

// checkResult is a graded widget: the view with feedback, and the effects
// to store with the attempt.
type checkResult struct {
	view    *WidgetView
	attempt store.Attempt
	effects store.AttemptEffects
}

// gradeWidget reads the posted answers for w and grades them.
func gradeWidget(lesson *lessons.Lesson, w *lessons.Widget, form url.Values, learnerID string, now time.Time) (checkResult, error) {
	attempt := 1
	if a, err := strconv.Atoi(form.Get("attempt")); err == nil && a >= 1 && a <= 1_000_000 {
		attempt = a
	}
	v := widgetView(lesson, w, learnerID, attempt, form.Get("tz"))
	v.Checked = true
	v.Answers = map[string][]string{}
	res := checkResult{view: v}
	res.attempt = store.Attempt{LearnerID: learnerID, LessonSlug: lesson.Slug, WidgetID: w.ID, Kind: w.Kind, At: now}
	var missed []string
	var award quiz.Award
	var awarded bool
	switch x := w.Value.(type) {
	case *quiz.Classify:
		answers := quiz.ClassifyAnswers{}
		for _, item := range x.Items {
			field := "item." + item.ID
			if a := form.Get(field); a != "" {
				answers[item.ID] = a
				v.Answers[field] = []string{a}
			}
		}
		fb := quiz.GradeClassify(x, answers)
		v.ClassifyFeedback = &fb
		res.attempt.Score, res.attempt.Total, res.attempt.Passed = fb.Score, fb.Total, fb.AllCorrect
		missed = fb.Missed
		award, awarded = quiz.WidgetAward(lesson.Slug, w.ID, fb.AllCorrect)
		v.Passed = fb.AllCorrect
		v.Outcome = fmt.Sprintf("%d of %d right.", fb.Score, fb.Total)
		res.attempt.Answers = jsonString(answers)
	case *quiz.Annotate:
		answers := quiz.AnnotateAnswers{}
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				field := "hint." + tool.Name + "." + string(h)
				a := form.Get(field)
				b, err := strconv.ParseBool(a)
				if a == "" || err != nil {
					continue
				}
				if answers[tool.Name] == nil {
					answers[tool.Name] = map[quiz.Hint]bool{}
				}
				answers[tool.Name][h] = b
				v.Answers[field] = []string{a}
			}
		}
		fb := quiz.GradeAnnotate(x, answers)
		v.AnnotateFeedback = &fb
		res.attempt.Score, res.attempt.Total, res.attempt.Passed = fb.Score, fb.Total, fb.AllCorrect
		missed = fb.Missed
		award, awarded = quiz.WidgetAward(lesson.Slug, w.ID, fb.AllCorrect)
		v.Passed = fb.AllCorrect
		v.Outcome = fmt.Sprintf("%d of %d hints right.", fb.Score, fb.Total)
		res.attempt.Answers = jsonString(answers)
	case *quiz.Quiz:
		answers := quiz.QuizAnswers{}
		for i := range x.Questions {
			if given := questionChoices(form, &x.Questions[i], v.Answers); len(given) > 0 {
				answers[x.Questions[i].ID] = given
			}
		}
		result := quiz.GradeQuiz(x, answers)
		order, ok := postedOrder(x, form.Get("order"))
		if !ok {
			order = quiz.Order(x, quiz.AttemptSeed(learnerID, attempt))
		}
		result.Questions = quiz.Arrange(result.Questions, order)
		qv := x.View(order)
		v.Quiz = &qv
		v.QuizResult = &result
		res.attempt.Score, res.attempt.Total, res.attempt.Passed = result.Score, result.Total, result.Passed
		missed = result.Missed
		award, awarded = quiz.QuizAward(lesson.Slug, x, result)
		res.effects.CompleteLesson = result.Passed
		v.Passed = result.Passed
		if result.Passed {
			v.Outcome = fmt.Sprintf("Passed: %d of %d right. The lesson is complete.", result.Score, result.Total)
		} else {
			v.Outcome = fmt.Sprintf("%d of %d right; %d needed to pass. Read the explanations, then try again.", result.Score, result.Total, result.PassMark)
		}
		res.attempt.Answers = jsonString(answers)
	default:
		return res, fmt.Errorf("web: widget %q of kind %s cannot be checked", w.ID, w.Kind)
	}
	if awarded {
		res.effects.Award = &store.Award{Key: award.Key, Amount: award.Amount, Reason: award.Reason}
	}
	for _, itemID := range missed {
		card := quiz.MissedCard(now)
		// A missed item is ready to review at once; FSRS takes over from its
		// first review.
		card.Due = now
		res.effects.Missed = append(res.effects.Missed, store.ReviewCard{
			Key: quiz.ReviewItemKey(lesson.Slug, w.ID, itemID), LessonSlug: lesson.Slug, WidgetID: w.ID, ItemID: itemID, Card: card,
		})
	}
	return res, nil
}

// postedOrder reads the question order a quiz form showed: every question
// id once, comma-separated. ok is false for anything else.
func postedOrder(q *quiz.Quiz, posted string) ([]int, bool) {
	ids := strings.Split(posted, ",")
	if posted == "" || len(ids) != len(q.Questions) {
		return nil, false
	}
	index := make(map[string]int, len(q.Questions))
	for i, qn := range q.Questions {
		index[qn.ID] = i
	}
	order := make([]int, 0, len(ids))
	for _, id := range ids {
		i, ok := index[id]
		if !ok {
			return nil, false
		}
		delete(index, id)
		order = append(order, i)
	}
	return order, true
}

// questionChoices reads the posted answer to one question (field "q.ID",
// or "q.ID.hint" per hint of an annotate question) and records the fields
// in keep, so the redrawn form shows the learner's choices.
func questionChoices(form url.Values, q *quiz.Question, keep map[string][]string) []string {
	field := "q." + q.ID
	if q.Kind != quiz.QuestionAnnotate {
		keep[field] = form[field]
		return form[field]
	}
	var given []string
	for _, h := range quiz.AllHints() {
		if a := form.Get(field + "." + string(h)); a != "" {
			given = append(given, a)
			keep[field+"."+string(h)] = []string{a}
		}
	}
	return given
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
