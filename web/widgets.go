package web

import (
	"fmt"
	"net/url"

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
		LessonURL: "/lessons/" + url.PathEscape(lesson.Slug) + "#w-" + w.ID}
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
		v.Outcome = fmt.Sprintf("%d of %d right.", out.Score, out.Total)
	case out.Annotate != nil:
		v.AnnotateFeedback = out.Annotate
		v.Outcome = fmt.Sprintf("%d of %d hints right.", out.Score, out.Total)
	case out.Quiz != nil:
		v.QuizResult = out.Quiz
		if out.Passed {
			v.Outcome = fmt.Sprintf("Passed: %d of %d right. The lesson is complete.", out.Score, out.Total)
		} else {
			v.Outcome = fmt.Sprintf("%d of %d right; %d needed to pass. The questions marked wrong come back in your review; try again with new versions of the questions.", out.Score, out.Total, out.Quiz.PassMark)
			v.RetryLabel = "Try again with new questions"
			if out.NextWait > 0 {
				loc, _ := quiz.Zone(zone)
				opens := out.NextOpensAt.In(loc).Format("15:04 MST")
				v.Outcome += fmt.Sprintf(" After %d failed attempts in a row, the next opens at %s, in %d minutes.", quiz.QuizFailsBeforeWait, opens, int(out.NextWait.Minutes()))
				v.RetryLabel = "Try again at " + opens
			}
		}
	}
	if out.Awarded > 0 {
		v.Outcome += fmt.Sprintf(" +%d XP.", out.Awarded)
	}
	return v
}

// refusedView builds the view of a widget whose post was refused as
// incomplete: the form as the learner left it, with the message.
func refusedView(out progress.WidgetOutcome, zone, message string) *WidgetView {
	v := widgetView(out.Lesson, out.Widget, out.Draw, out.Attempt, zone)
	v.Answers, v.Checked, v.Refused, v.Outcome = answerFields(out.Kept), true, true, message
	return v
}
