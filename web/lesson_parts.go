package web

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// dateText says when something happened in the learner's zone:
// "1 Dec 2026, 09:05".
func dateText(t time.Time, zone string) string {
	loc, _ := quiz.Zone(zone)
	return t.In(loc).Format("2 Jan 2006, 15:04")
}

// widgetStatus says how the learner's last check of a classify or
// annotate widget went; nil before the first.
func widgetStatus(sum progress.Summary, lesson *lessons.Lesson, w *lessons.Widget) *PartStatus {
	last, ok := sum.Widgets[lesson.Slug+"/"+w.ID]
	if !ok {
		return nil
	}
	what := "right"
	if w.Kind == quiz.KindAnnotate {
		what = "hints right"
	}
	text := fmt.Sprintf("Last checked %s: %d of %d %s.", dateText(last.At, sum.Zone), last.Score, last.Total, what)
	if last.Passed {
		text = fmt.Sprintf("Done: all %d %s on %s.", last.Total, what, dateText(last.At, sum.Zone))
	}
	return &PartStatus{Done: true, Text: text + " Your answers are filled in; check again whenever you like."}
}

// quizStatus says how the learner's attempts at the lesson's quiz went;
// nil before the first.
func quizStatus(sum progress.Summary, lesson *lessons.Lesson) *PartStatus {
	qs, ok := sum.Quizzes[lesson.Slug]
	if !ok || qs.Attempts == 0 {
		return nil
	}
	record := fmt.Sprintf("first try %d of %d, best %d of %d, %s", qs.First, qs.Total, qs.Best, qs.Total, Plural(qs.Attempts, "attempt", "attempts"))
	if qs.Passed {
		return &PartStatus{Done: true, Text: fmt.Sprintf("Passed: %s, the last on %s.", record, dateText(qs.LastAt, sum.Zone))}
	}
	return &PartStatus{Text: fmt.Sprintf("Not passed yet: %s, the last on %s.", record, dateText(qs.LastAt, sum.Zone)), NewTry: true}
}

// newVersionsText follows the status of a quiz not passed yet while its
// next try is open (not during a wait, when no try is).
const newVersionsText = "This try asks new versions of the questions."

// exerciseStatus says how the learner's runs of an exercise went; nil
// before the first.
func exerciseStatus(sum progress.Summary, ex *lessons.Exercise) *PartStatus {
	st, ok := sum.Exercises[ex.ID]
	if !ok || st.Runs == 0 {
		return nil
	}
	last := "run of the sample cases"
	if st.LastMode == "submit" {
		last = "submission"
	}
	verdict := "passed"
	if !st.LastPassed {
		verdict = "failed"
	}
	lastText := fmt.Sprintf("Your last %s (%s) %s.", last, dateText(st.LastAt, sum.Zone), verdict)
	if st.Solved() {
		return &PartStatus{Done: true, Text: fmt.Sprintf("Solved on %s. %s Your last code is in the editor.", dateText(st.SolvedAt, sum.Zone), lastText)}
	}
	return &PartStatus{Text: fmt.Sprintf("Not solved yet (%s). %s Your last code is in the editor.", Plural(st.Runs, "run", "runs"), lastText)}
}

// learnerWidgetView is a widget as the learner finds it: unanswered, or
// with their last answers and result. A quiz shows draw, its next attempt.
func learnerWidgetView(lesson *lessons.Lesson, w *lessons.Widget, sum progress.Summary, draw quiz.Draw, attempt int) *WidgetView {
	v := widgetView(lesson, w, draw, attempt, "")
	if w.Kind == quiz.KindQuiz {
		v.Status = quizStatus(sum, lesson)
		v.Folded = v.Status != nil && v.Status.Done
		return v
	}
	if v.Status = widgetStatus(sum, lesson, w); v.Status != nil {
		v.Answers = answerFields(progress.KeptAnswers(w, sum.Widgets[lesson.Slug+"/"+w.ID].Answers))
	}
	return v
}

// headingPattern finds a lesson's section headings as goldmark draws them.
var headingPattern = regexp.MustCompile(`(?s)<h2 id="([^"]+)"[^>]*>(.*?)</h2>`)

// tagPattern finds markup inside a heading.
var tagPattern = regexp.MustCompile(`<[^>]*>`)

// lessonMap lists a lesson's sections and interactive parts in reading
// order, without the learner's state.
func lessonMap(lesson *lessons.Lesson) []TOCEntry {
	var out []TOCEntry
	for i, seg := range lesson.Segments {
		if i == lesson.TakeawaysAt && lesson.Takeaways != "" {
			out = append(out, TOCEntry{Title: "Key takeaways", Anchor: "takeaways-title", Kind: "section"})
		}
		w := seg.Widget
		if w == nil {
			for _, m := range headingPattern.FindAllStringSubmatch(string(seg.HTML), -1) {
				title := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(html.UnescapeString(tagPattern.ReplaceAllString(m[2], ""))), "#"))
				// The takeaways and the quiz have entries of their own.
				if title == "" || strings.EqualFold(title, "Key takeaways") || (strings.EqualFold(title, "Lesson quiz") && hasQuiz(lesson)) {
					continue
				}
				out = append(out, TOCEntry{Title: title, Anchor: m[1], Kind: "section"})
			}
			continue
		}
		switch {
		case w.Exercise != nil:
			out = append(out, TOCEntry{Title: "Practice: " + w.Exercise.Title, Anchor: "x-" + w.ID, Kind: "exercise"})
		case w.Kind == quiz.KindQuiz:
			out = append(out, TOCEntry{Title: "Lesson quiz", Anchor: "w-" + w.ID, Kind: "quiz"})
		default:
			out = append(out, TOCEntry{Title: "Try it: " + widgetTitle(w), Anchor: "w-" + w.ID, Kind: "try"})
		}
	}
	if lesson.TakeawaysAt >= len(lesson.Segments) && lesson.Takeaways != "" {
		out = append(out, TOCEntry{Title: "Key takeaways", Anchor: "takeaways-title", Kind: "section"})
	}
	return out
}

// widgetTitle is a classify or annotate widget's prompt, for the map.
func widgetTitle(w *lessons.Widget) string {
	switch x := w.Value.(type) {
	case *quiz.Classify:
		return x.View().Prompt
	case *quiz.Annotate:
		return x.View().Prompt
	}
	return w.ID
}

// learnerMap marks the map's parts the learner has finished.
func learnerMap(entries []TOCEntry, lesson *lessons.Lesson, sum progress.Summary) []TOCEntry {
	out := make([]TOCEntry, len(entries))
	copy(out, entries)
	for i, e := range out {
		if e.Kind == "section" {
			continue
		}
		id := strings.TrimPrefix(strings.TrimPrefix(e.Anchor, "w-"), "x-")
		if w, ok := lesson.Widget(id); ok {
			out[i].Done = sum.PartDone(lesson, w)
		}
	}
	return out
}

func hasQuiz(lesson *lessons.Lesson) bool {
	_, ok := lesson.Quiz()
	return ok
}
