package web

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// widgetAction is the URL a widget's form posts to.
func widgetAction(slug, id string) string {
	return "/lessons/" + url.PathEscape(slug) + "/widgets/" + url.PathEscape(id)
}

// widgetView builds the unanswered view of a widget. A quiz shows draw, what
// its attempt asks.
func widgetView(lesson *lessons.Lesson, w *lessons.Widget, draw quiz.Draw, attempt int, zone string) *WidgetView {
	v := &WidgetView{Kind: w.Kind, ID: w.ID, Action: widgetAction(lesson.Slug, w.ID), TimeZone: zone, Attempt: attempt,
		LessonURL: "/lessons/" + url.PathEscape(lesson.Slug) + "#w-" + w.ID, RetryURL: retryURL(lesson.Slug, w.ID, attempt+1)}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		cv := x.View()
		v.Classify = &cv
	case *quiz.Annotate:
		av := x.View()
		v.Annotate = &av
	case *quiz.Quiz:
		qv := x.ViewDraw(draw)
		v.Quiz = &qv
	}
	return v
}

// retryURL is the lesson page for a quiz's next attempt. The query makes
// it an address of its own, so following it from the page of a failed
// attempt (drawn in place, or kept once after a plain post) loads the page
// anew instead of only scrolling; the server ignores the value.
func retryURL(slug, quizID string, next int) string {
	return "/lessons/" + url.PathEscape(slug) + "?try=" + strconv.Itoa(next) + "#w-" + quizID
}

// quizWaitView is the wait before the next quiz attempt: failsInRow
// failed attempts in a row, opening at opensAt, said in zone.
func quizWaitView(opensAt, now time.Time, failsInRow int, zone string) *QuizWait {
	loc, _ := quiz.Zone(zone)
	at := opensAt.In(loc).Format("15:04 MST")
	mins := int(math.Ceil(opensAt.Sub(now).Minutes()))
	in := Plural(max(mins, 1), "min", "min")
	return &QuizWait{
		Text: fmt.Sprintf("You failed this quiz %d times in a row, so the next attempt opens at %s, in %s. Meanwhile, reread the lesson and review the questions you missed.",
			failsInRow, at, in),
		Label:   fmt.Sprintf("Try again at %s (in %s)", at, in),
		OpensAt: opensAt.UTC().Format(time.RFC3339),
	}
}

// quizAttempt returns the attempt number the actor's next try at the
// lesson's quiz has (see progress.NextQuizAttempt).
func quizAttempt(a progress.Actor, sum progress.Summary, lesson *lessons.Lesson) int {
	q, ok := lesson.Quiz()
	if !ok {
		return 0
	}
	return progress.NextQuizAttempt(a, sum, lesson.Slug, q.ID)
}

// checkedView builds the view of a widget after a check: the form with the
// learner's choices kept and the feedback.
func checkedView(out progress.WidgetOutcome, zone string) *WidgetView {
	v := widgetView(out.Lesson, out.Widget, out.Draw, out.Attempt, zone)
	v.Checked, v.Answers, v.Passed = true, answerFields(out.Kept), out.Passed
	switch {
	case out.Classify != nil:
		v.ClassifyFeedback = out.Classify
		v.Outcome = fmt.Sprintf("%d of %d right.", out.Score, out.Total) + classifyOff(out.Classify)
	case out.Annotate != nil:
		v.AnnotateFeedback = out.Annotate
		v.Outcome = fmt.Sprintf("%d of %d hints right.", out.Score, out.Total) + annotateOff(out.Annotate)
	case out.Quiz != nil:
		v.QuizResult = out.Quiz
		if out.Passed {
			v.Outcome = fmt.Sprintf("Passed: %d of %d right. The lesson is complete.", out.Score, out.Total)
		} else {
			v.Outcome = fmt.Sprintf("%d of %d right; %d needed to pass. The questions marked wrong come back in your review; try again with new versions of the questions.", out.Score, out.Total, out.Quiz.PassMark)
			if out.NextWait > 0 {
				v.Wait = quizWaitView(out.NextOpensAt, out.NextOpensAt.Add(-out.NextWait), out.FailedInRow, zone)
				loc, _ := quiz.Zone(zone)
				v.Outcome += fmt.Sprintf(" After %d failed attempts in a row, the next opens at %s, in %d minutes.", out.FailedInRow, out.NextOpensAt.In(loc).Format("15:04 MST"), int(out.NextWait.Minutes()))
			}
		}
	}
	if out.Awarded > 0 {
		v.Outcome += fmt.Sprintf(" +%d XP.", out.Awarded)
	}
	return v
}

// classifyOff names the items to look at again: " Look again at items 2
// and 5."; "" when all are right.
func classifyOff(fb *quiz.ClassifyFeedback) string {
	var nums []string
	for i, it := range fb.Items {
		if !it.Right {
			nums = append(nums, strconv.Itoa(i+1))
		}
	}
	if len(nums) == 0 {
		return ""
	}
	return fmt.Sprintf(" Look again at %s %s.", Word(len(nums), "item", "items"), andList(nums))
}

// annotateOff names the hints that are off, tool by tool: " Still off:
// destructiveHint and idempotentHint of delete_file; openWorldHint of
// fetch_url."; "" when all are right.
func annotateOff(fb *quiz.AnnotateFeedback) string {
	var parts []string
	for _, t := range fb.Off() {
		names := make([]string, len(t.Hints))
		for i, h := range t.Hints {
			names[i] = string(h)
		}
		parts = append(parts, andList(names)+" of "+t.Name)
	}
	if len(parts) == 0 {
		return ""
	}
	return " Still off: " + strings.Join(parts, "; ") + "."
}

// andList joins words as "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// refusedView builds the view of a widget whose post was refused as
// incomplete: the form as the learner left it, with the message.
func refusedView(out progress.WidgetOutcome, zone, message string) *WidgetView {
	v := widgetView(out.Lesson, out.Widget, out.Draw, out.Attempt, zone)
	v.Answers, v.Checked, v.Refused, v.Outcome = answerFields(out.Kept), true, true, message
	return v
}

// withQuizWait sets v.Wait when v is the lesson quiz and the learner must
// wait for its next attempt after failures in a row. It asks the store
// only for a learner with at least quiz.QuizFailsBeforeWait attempts.
func (s *Server) withQuizWait(r *http.Request, lesson *lessons.Lesson, w *lessons.Widget, sum progress.Summary, v *WidgetView) error {
	q, ok := w.Value.(*quiz.Quiz)
	a := progress.ActorFrom(r.Context())
	if !ok || !a.Known || sum.Quizzes[lesson.Slug].Attempts < quiz.QuizFailsBeforeWait {
		return nil
	}
	turn, err := s.app.QuizTurn(r.Context(), a, lesson.Slug, q)
	if err != nil {
		return fmt.Errorf("web: quiz turn of %s: %w", lesson.Slug, err)
	}
	if now := s.now(); turn.Waiting(now) {
		v.Wait = quizWaitView(turn.OpensAt, now, turn.FailedInRow, sum.Zone)
	}
	return nil
}
