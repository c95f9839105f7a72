package progress

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"learn/lessons"
	"learn/quiz"
)

// Answers are a widget post's fields by name, as the lesson page's forms
// name them:
//   - classify: "item.<itemID>" = a category id;
//   - annotate: "hint.<tool>.<hint>" = "true" or "false";
//   - quiz: "q.<questionID>" = option or category ids, or for an annotate
//     question "q.<questionID>.<hint>" = "true" or "false".
//
// Fields naming no item, and values naming no choice, are dropped.
type Answers map[string][]string

// WidgetPost is one check of a classify or annotate widget, or one quiz
// attempt.
type WidgetPost struct {
	LessonSlug, WidgetID string
	Answers              Answers
	// Attempt is the quiz attempt the form showed (1 when unknown); with
	// the learner's id it fixes the question order.
	Attempt int
	// Order is the question order the form showed: question ids, comma
	// separated. When it does not list every question once, the order of
	// Attempt is used.
	Order string
	// TimeZone is the browser's IANA zone, remembered for streaks.
	TimeZone string
}

// WidgetOutcome is a graded widget check with everything a page needs to
// redraw it.
type WidgetOutcome struct {
	Lesson *lessons.Lesson
	Widget *lessons.Widget
	// Kept are the validated answers by form field, to redraw the
	// learner's choices.
	Kept map[string][]string
	// Attempt and Order are the quiz attempt and the question order shown.
	Attempt int
	Order   []int
	// Exactly one feedback is set, by the widget's kind.
	Classify *quiz.ClassifyFeedback
	Annotate *quiz.AnnotateFeedback
	Quiz     *quiz.QuizResult
	// Score of Total right; Passed when all right (a quiz: at its mark).
	Score, Total int
	Passed       bool
	// Awarded is the XP this check granted (0 when already earned).
	Awarded int
	// Summary is the learner's summary after the check.
	Summary Summary
}

// CheckWidget grades a classify or annotate widget, or a lesson quiz, and
// saves the attempt with its effects in one transaction: the XP of a first
// fully right check or first quiz pass, the lesson's completion when its
// quiz passes, and every missed item into the review queue (due at once).
//
// Errors: *Error of kind NotFound for an unknown lesson or widget, or a
// store failure.
func (s *Service) CheckWidget(ctx context.Context, a Actor, p WidgetPost) (WidgetOutcome, error) {
	lesson, w, err := s.lessonWidget(p.LessonSlug, p.WidgetID)
	if err != nil {
		return WidgetOutcome{}, err
	}
	now := s.now()
	out := WidgetOutcome{Lesson: lesson, Widget: w, Kept: map[string][]string{}, Attempt: p.Attempt}
	if out.Attempt < 1 || out.Attempt > 1_000_000 {
		out.Attempt = 1
	}
	attempt := Attempt{LearnerID: a.ID, LessonSlug: lesson.Slug, WidgetID: w.ID, Kind: w.Kind, At: now}
	var fx AttemptEffects
	var missed []string
	var award quiz.Award
	var awarded bool
	switch x := w.Value.(type) {
	case *quiz.Classify:
		answers := quiz.ClassifyAnswers{}
		for _, item := range x.Items {
			field := "item." + item.ID
			if v := first(p.Answers[field]); isCategory(x.Categories, v) {
				answers[item.ID] = v
				out.Kept[field] = []string{v}
			}
		}
		fb := quiz.GradeClassify(x, answers)
		out.Classify = &fb
		out.Score, out.Total, out.Passed = fb.Score, fb.Total, fb.AllCorrect
		missed = fb.Missed
		award, awarded = quiz.WidgetAward(lesson.Slug, w.ID, fb.AllCorrect)
		attempt.Answers = jsonString(answers)
	case *quiz.Annotate:
		answers := quiz.AnnotateAnswers{}
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				field := "hint." + tool.Name + "." + string(h)
				v := first(p.Answers[field])
				b, err := strconv.ParseBool(v)
				if v == "" || err != nil {
					continue
				}
				if answers[tool.Name] == nil {
					answers[tool.Name] = map[quiz.Hint]bool{}
				}
				answers[tool.Name][h] = b
				out.Kept[field] = []string{v}
			}
		}
		fb := quiz.GradeAnnotate(x, answers)
		out.Annotate = &fb
		out.Score, out.Total, out.Passed = fb.Score, fb.Total, fb.AllCorrect
		missed = fb.Missed
		award, awarded = quiz.WidgetAward(lesson.Slug, w.ID, fb.AllCorrect)
		attempt.Answers = jsonString(answers)
	case *quiz.Quiz:
		answers := quiz.QuizAnswers{}
		for i := range x.Questions {
			if given := QuestionChoices(p.Answers, &x.Questions[i], out.Kept); len(given) > 0 {
				answers[x.Questions[i].ID] = given
			}
		}
		result := quiz.GradeQuiz(x, answers)
		order, ok := postedOrder(x, p.Order)
		if !ok {
			order = quiz.Order(x, quiz.AttemptSeed(a.ID, out.Attempt))
		}
		out.Order = order
		result.Questions = quiz.Arrange(result.Questions, order)
		out.Quiz = &result
		out.Score, out.Total, out.Passed = result.Score, result.Total, result.Passed
		missed = result.Missed
		award, awarded = quiz.QuizAward(lesson.Slug, x, result)
		fx.CompleteLesson = result.Passed
		attempt.Answers = jsonString(answers)
	default:
		return out, notFound(fmt.Sprintf("The block %q of this lesson cannot be checked.", w.ID))
	}
	attempt.Score, attempt.Total, attempt.Passed = out.Score, out.Total, out.Passed
	if awarded {
		fx.Award = &award
	}
	for _, itemID := range missed {
		card := quiz.MissedCard(now)
		// A missed item is ready to review at once; FSRS takes over from its
		// first review.
		card.Due = now
		fx.Missed = append(fx.Missed, ReviewCard{
			Key: quiz.ReviewItemKey(lesson.Slug, w.ID, itemID), LessonSlug: lesson.Slug, WidgetID: w.ID, ItemID: itemID, Card: card,
		})
	}
	if err := s.RememberZone(ctx, a, p.TimeZone); err != nil {
		return out, err
	}
	granted, err := s.store.RecordAttempt(ctx, attempt, fx)
	if err != nil {
		return out, err
	}
	if granted {
		out.Awarded = fx.Award.Amount
	}
	s.summaries.forget(a.ID)
	if out.Summary, err = s.Summary(ctx, Actor{ID: a.ID, Role: a.Role, Known: true}); err != nil {
		return out, err
	}
	return out, nil
}

// QuestionChoices reads the posted answer to one question (field "q.ID",
// or "q.ID.<hint>" per hint of an annotate question), keeps only choices
// the question offers, and records the kept fields in keep so a redrawn
// form shows the learner's choices.
func QuestionChoices(form Answers, q *quiz.Question, keep map[string][]string) []string {
	field := "q." + q.ID
	if q.Kind == quiz.QuestionAnnotate {
		var given []string
		for _, h := range quiz.AllHints() {
			v := first(form[field+"."+string(h)])
			if _, err := strconv.ParseBool(v); err != nil {
				continue
			}
			given = append(given, string(h)+"="+v)
			keep[field+"."+string(h)] = []string{v}
		}
		return given
	}
	offered := map[string]bool{}
	for _, o := range q.Options {
		offered[o.ID] = true
	}
	for _, c := range q.Categories {
		offered[c.ID] = true
	}
	var given []string
	for _, v := range form[field] {
		if offered[v] && !contains(given, v) {
			given = append(given, v)
		}
	}
	if len(given) > 0 {
		keep[field] = given
	}
	return given
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

// QuizOrder returns the question order a's attempt at the quiz shows: the
// authored order for a first visit, else the attempt's own shuffle.
func QuizOrder(a Actor, q *quiz.Quiz, attempt int) []int {
	if !a.Known {
		order := make([]int, len(q.Questions))
		for i := range order {
			order[i] = i
		}
		return order
	}
	return quiz.Order(q, quiz.AttemptSeed(a.ID, attempt))
}

func isCategory(cats []quiz.Category, id string) bool {
	for _, c := range cats {
		if c.ID == id {
			return true
		}
	}
	return false
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
