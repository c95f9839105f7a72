package progress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// Answers are a learner's choices in one widget post, by the widget's own
// ids. A user interface reads them from its form (package web names the
// fields); the core never sees how a page names its inputs. Choices naming
// nothing the widget offers are dropped when it is graded.
type Answers struct {
	// Categories holds, per classify item id, the category id chosen.
	Categories map[string]string
	// Hints holds, per annotate tool name, the value set for each hint.
	Hints map[string]map[quiz.Hint]bool
	// Choices holds, per quiz question id (the slot's, whichever version
	// was drawn), the option or category ids chosen, or for an annotate
	// question its quiz.HintChoice values ("readOnlyHint=true").
	Choices map[string][]string
}

// newAnswers returns empty Answers ready to be filled.
func newAnswers() Answers {
	return Answers{Categories: map[string]string{}, Hints: map[string]map[quiz.Hint]bool{}, Choices: map[string][]string{}}
}

// WidgetPost is one check of a classify or annotate widget, or one quiz
// attempt.
type WidgetPost struct {
	LessonSlug, WidgetID string
	Answers              Answers
	// Attempt is the quiz attempt the form showed. The server keeps the
	// attempt open (QuizTurn) and refuses any other number with an *Error
	// of kind Gone; 0 is accepted for a learner's first attempt, graded
	// against the first visit's draw a visitor without a cookie saw.
	Attempt int
	// TimeZone is the browser's IANA zone, remembered for streaks.
	TimeZone string
}

// WidgetOutcome is a graded widget check with everything a page needs to
// redraw it.
type WidgetOutcome struct {
	Lesson *lessons.Lesson
	Widget *lessons.Widget
	// Kept are the validated answers, to redraw the learner's choices.
	Kept Answers
	// Attempt and Draw are the quiz attempt and what it showed.
	Attempt int
	Draw    quiz.Draw
	// Exactly one feedback is set, by the widget's kind, cut to what the
	// learner may see: a failed check names what was wrong and explains
	// only the choices made (see quiz.QuizResult.Shown).
	Classify *quiz.ClassifyFeedback
	Annotate *quiz.AnnotateFeedback
	Quiz     *quiz.QuizResult
	// Score of Total right; Passed when all right (a quiz: at its mark).
	Score, Total int
	Passed       bool
	// Awarded is the XP this check granted (0 when already earned).
	Awarded int
	// NextOpensAt, after a quiz attempt, is when the next attempt opens:
	// NextWait after now, which is 0 but after failures in a row
	// (quiz.QuizWait).
	NextOpensAt time.Time
	NextWait    time.Duration
	// FailedInRow, after a quiz attempt, counts the failed attempts in a
	// row it ends (0 after a pass).
	FailedInRow int
	// Summary is the learner's summary after the check.
	Summary Summary
}

// CheckWidget grades a classify or annotate widget, or a lesson quiz, and
// saves the attempt with its effects in one transaction: the XP of a first
// fully right check or first quiz pass, the lesson's completion when its
// quiz passes, and every missed item into the review queue (due at once).
//
// A post must answer every item. An incomplete one is refused with an
// *Error of kind Invalid whose message names the unanswered items; nothing
// is graded or saved, and the outcome carries only the kept answers (no
// feedback), so the form can be shown again as it was.
//
// A quiz post answers the learner's open attempt (QuizTurn): another
// number, or the same attempt posted twice, is refused with an *Error of
// kind Gone, and a post while the learner waits after failures in a row
// (quiz.QuizWait) with one of kind TooMany saying when the next opens; the
// outcome then carries the open attempt and its draw, to show it.
//
// Errors: *Error of kind NotFound for an unknown lesson or widget, Invalid
// for an incomplete post, Gone or TooMany for a quiz post as above, or a
// store failure.
func (s *Service) CheckWidget(ctx context.Context, a Actor, p WidgetPost) (WidgetOutcome, error) {
	lesson, w, err := s.lessonWidget(p.LessonSlug, p.WidgetID)
	if err != nil {
		return WidgetOutcome{}, err
	}
	now := s.now()
	out := WidgetOutcome{Lesson: lesson, Widget: w, Kept: newAnswers(), Attempt: p.Attempt}
	if out.Attempt < 0 || out.Attempt > 1_000_000 {
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
			if v := p.Answers.Categories[item.ID]; isCategory(x.Categories, v) {
				answers[item.ID] = v
				out.Kept.Categories[item.ID] = v
			}
		}
		if err := x.CheckComplete(answers); err != nil {
			return out, incomplete(err)
		}
		fb := quiz.GradeClassify(x, answers)
		shown := fb.Shown()
		out.Classify = &shown
		out.Score, out.Total, out.Passed = fb.Score, fb.Total, fb.AllCorrect
		missed = fb.Missed
		award, awarded = quiz.WidgetAward(lesson.Slug, w.ID, fb.AllCorrect)
		attempt.Answers = jsonString(answers)
	case *quiz.Annotate:
		answers := quiz.AnnotateAnswers{}
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				b, ok := p.Answers.Hints[tool.Name][h]
				if !ok {
					continue
				}
				if answers[tool.Name] == nil {
					answers[tool.Name] = map[quiz.Hint]bool{}
					out.Kept.Hints[tool.Name] = map[quiz.Hint]bool{}
				}
				answers[tool.Name][h] = b
				out.Kept.Hints[tool.Name][h] = b
			}
		}
		if err := x.CheckComplete(answers); err != nil {
			return out, incomplete(err)
		}
		fb := quiz.GradeAnnotate(x, answers)
		shown := fb.Shown()
		out.Annotate = &shown
		out.Score, out.Total, out.Passed = fb.Score, fb.Total, fb.AllCorrect
		missed = fb.Missed
		award, awarded = quiz.WidgetAward(lesson.Slug, w.ID, fb.AllCorrect)
		attempt.Answers = jsonString(answers)
	case *quiz.Quiz:
		// The attempt and its draw are the server's: a post answers the
		// open attempt or is refused, and the refusal shows the next.
		turn, err := s.quizTurn(ctx, a, lesson.Slug, x)
		if err != nil {
			return out, err
		}
		out.Attempt, out.Draw = turn.Next, turn.Draw
		firstVisit := p.Attempt == 0 && turn.Next == 1
		if firstVisit {
			// The page a visitor without a cookie saw: today's first-visit
			// draw, kept as their first attempt.
			out.Draw = QuizDraw(a, x, 0)
		}
		answers := quiz.QuizAnswers{}
		for i := range x.Questions {
			drawn := x.Drawn(out.Draw, i)
			slot := x.Questions[i].ID // answers are keyed by slot
			if given := questionChoices(p.Answers.Choices[slot], &drawn); len(given) > 0 {
				answers[slot] = given
				out.Kept.Choices[slot] = given
			}
		}
		if err := x.CheckComplete(out.Draw, answers); err != nil {
			return out, incomplete(err)
		}
		if p.Attempt != turn.Next && !firstVisit {
			out.Kept, out.Draw = newAnswers(), turn.Draw
			return out, attemptOver(turn.Next)
		}
		if turn.Waiting(now) {
			return out, quizWaitError(turn, now, p.TimeZone)
		}
		result := quiz.GradeDraw(x, out.Draw, answers)
		shown := result.Shown()
		out.Quiz = &shown
		out.Score, out.Total, out.Passed = result.Score, result.Total, result.Passed
		missed = result.Missed
		// The pass's XP falls with the failed attempts before it
		// (quiz.QuizPassXP); once passed, the award is held anyway.
		award, awarded = quiz.QuizAward(lesson.Slug, x, result, turn.Failed)
		if !result.Passed {
			out.FailedInRow = turn.FailedInRow + 1
			out.NextWait = quiz.QuizWait(out.FailedInRow)
		}
		out.NextOpensAt = now.Add(out.NextWait)
		fx.Quiz = &QuizAttempt{LearnerID: a.ID, LessonSlug: lesson.Slug, QuizID: x.ID, Number: turn.Next,
			Draw: jsonString(out.Draw), Passed: result.Passed, StartedAt: turn.OpensAt, FinishedAt: now}
		if fx.Quiz.StartedAt.IsZero() {
			fx.Quiz.StartedAt = now
		}
		fx.CompleteLesson = result.Passed
		attempt.Answers = jsonString(answers)
	default:
		return out, notFound(fmt.Sprintf("The block %q of this lesson cannot be checked.", w.ID))
	}
	attempt.Score, attempt.Total, attempt.Passed = out.Score, out.Total, out.Passed
	if awarded {
		fx.Award = &award
	}
	if awarded || fx.CompleteLesson {
		fx.Score = lmsScore(lesson)
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
	granted, err := s.learning.RecordAttempt(ctx, attempt, fx)
	if errors.Is(err, ErrConflict) && fx.Quiz != nil {
		// The same attempt posted twice at once: the other post counted.
		out.Quiz, out.Attempt, out.Draw = nil, fx.Quiz.Number+1, QuizDraw(a, w.Value.(*quiz.Quiz), fx.Quiz.Number+1)
		return out, attemptOver(out.Attempt)
	}
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

// questionChoices keeps, of the choices given to one question, those the
// question offers, each once, in the order given: HintChoice values for an
// annotate question (the first value given for each hint), option or
// category ids for the others.
func questionChoices(choices []string, q *quiz.Question) []string {
	if q.Kind == quiz.QuestionAnnotate {
		var given []string
		seen := map[quiz.Hint]bool{}
		for _, v := range choices {
			for _, h := range quiz.AllHints() {
				if !seen[h] && (v == quiz.HintChoice(h, true) || v == quiz.HintChoice(h, false)) {
					seen[h] = true
					given = append(given, v)
				}
			}
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
	for _, v := range choices {
		if offered[v] && !contains(given, v) {
			given = append(given, v)
		}
	}
	return given
}

// QuizDraw returns what a's attempt at the quiz shows. Attempt 0 is a
// first visit's: the same for everyone, so that the page of a visitor
// without a cookie can be drawn once and graded when it is posted. Every
// later attempt is the learner's own (quiz.DrawFor), so a retry asks
// other versions of the questions.
func QuizDraw(a Actor, q *quiz.Quiz, attempt int) quiz.Draw {
	if attempt <= 0 {
		return quiz.DrawFor(q, "", 1)
	}
	return quiz.DrawFor(q, a.ID, attempt)
}

// NextQuizAttempt returns the number of a's next attempt at the quiz: 0
// for a first visit, else one more than the attempts made.
func NextQuizAttempt(a Actor, sum Summary, lessonSlug, quizID string) int {
	if !a.Known {
		return 0
	}
	return sum.QuizAttempt(lessonSlug, quizID)
}

// incomplete turns the quiz package's refusal into an Invalid error.
func incomplete(err error) error {
	return &Error{Kind: Invalid, Message: err.Error(), Err: err}
}

func isCategory(cats []quiz.Category, id string) bool {
	for _, c := range cats {
		if c.ID == id {
			return true
		}
	}
	return false
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
