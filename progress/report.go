package progress

import (
	"context"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// LessonState is how far a learner got with a lesson.
type LessonState string

// Lesson states, in order.
const (
	NotStarted LessonState = "not started"
	// Opened: the lesson was opened but none of its parts is done yet.
	Opened LessonState = "opened"
	// InProgress: some of its parts are done.
	InProgress LessonState = "in progress"
	// Completed: the quiz is passed, or for a lesson without one every
	// part is done (see CompletedMeans). Passing the quiz is what the quiz
	// rules and the lessons promise completes a lesson, and what the store
	// records as its completion.
	Completed LessonState = "completed"
)

// CompletedMeans says, for learners, when a lesson counts as completed.
const CompletedMeans = "A lesson is completed when you pass its quiz (a lesson without a quiz, when every part is done); until then it is in progress once any part is done. Parts are the try-it blocks (done once checked), the quiz (once passed) and the practice exercises (once solved)."

// LessonStatus is where a learner stands with one lesson, from all its
// parts.
type LessonStatus struct {
	State LessonState
	// Done of Parts are finished: a try-it block checked once, the quiz
	// passed, an exercise solved.
	Done, Parts int
}

// PartDone reports whether the learner finished one part of a lesson: a
// classify or annotate block checked at least once, the quiz passed, an
// exercise solved.
func (sum Summary) PartDone(lesson *lessons.Lesson, w *lessons.Widget) bool {
	switch {
	case w.Exercise != nil:
		return sum.Exercises[w.Exercise.ID].Solved()
	case w.Kind == quiz.KindQuiz:
		return sum.Quizzes[lesson.Slug].Passed
	}
	_, tried := sum.Widgets[lesson.Slug+"/"+w.ID]
	return tried
}

// LessonStatus returns where the summary's learner stands with the
// lesson, from all its parts: completed once its quiz is passed (without
// a quiz, once every part is done; with no parts, once opened), in
// progress once any part is done, opened once opened or tried.
func (sum Summary) LessonStatus(lesson *lessons.Lesson) LessonStatus {
	st := LessonStatus{State: NotStarted}
	tried := sum.Opened[lesson.Slug]
	_, hasQuiz := lesson.Quiz()
	for _, seg := range lesson.Segments {
		w := seg.Widget
		if w == nil {
			continue
		}
		st.Parts++
		if sum.PartDone(lesson, w) {
			st.Done++
		}
		if _, ok := sum.Widgets[lesson.Slug+"/"+w.ID]; ok {
			tried = true
		}
		if w.Exercise != nil && sum.Exercises[w.Exercise.ID].Runs > 0 {
			tried = true
		}
	}
	switch {
	case hasQuiz && sum.Quizzes[lesson.Slug].Passed:
		st.State = Completed
	case !hasQuiz && st.Done == st.Parts && (st.Parts > 0 || tried):
		st.State = Completed
	case st.Done > 0:
		st.State = InProgress
	case tried:
		st.State = Opened
	}
	return st
}

// Report is everything the progress page shows about a.
type Report struct {
	Summary Summary
	// Zone is a's time zone, for drawing dates.
	Zone *time.Location
	// History is the XP ledger, oldest first.
	History []XPEntry
	// Calendar has one cell per day of the last weeks, oldest first.
	Calendar []quiz.CalendarDay
	// Lessons are in course order.
	Lessons []LessonReport
	// Exercises are in course order.
	Exercises                []ExerciseReport
	ReviewsDue, ReviewsTotal int
}

// LessonReport is one lesson's row of a report.
type LessonReport struct {
	Lesson *lessons.Lesson
	State  LessonState
	// Done of Parts are finished (see LessonStatus).
	Done, Parts int
	// Quiz is the lesson's quiz attempts; Attempts 0 when never tried.
	Quiz QuizScore
}

// ExerciseReport is one exercise's row of a report.
type ExerciseReport struct {
	Lesson   *lessons.Lesson
	Exercise *lessons.Exercise
	State    ExerciseState
}

// Progress returns a's report at now, with a calendar of the given number
// of weeks.
func (s *Service) Progress(ctx context.Context, a Actor, weeks int) (Report, error) {
	now := s.now()
	r := Report{}
	var err error
	if r.Summary, err = s.Summary(ctx, a); err != nil {
		return r, err
	}
	r.Zone, _ = quiz.Zone(r.Summary.Zone)
	var (
		times     []time.Time
		scores    = map[string]QuizScore{}
		exercises = map[string]ExerciseState{}
	)
	if a.Known {
		if r.History, err = s.learning.XPHistory(ctx, a.ID); err != nil {
			return r, err
		}
		if times, err = s.learning.ActivityTimes(ctx, a.ID); err != nil {
			return r, err
		}
		scores, exercises = r.Summary.Quizzes, r.Summary.Exercises
		if r.ReviewsDue, r.ReviewsTotal, err = s.learning.ReviewCounts(ctx, a.ID, now); err != nil {
			return r, err
		}
	}
	r.Calendar = quiz.Calendar(times, now, r.Zone, weeks)
	for _, lesson := range s.Course().Lessons {
		st := r.Summary.LessonStatus(lesson)
		row := LessonReport{Lesson: lesson, State: st.State, Done: st.Done, Parts: st.Parts, Quiz: scores[lesson.Slug]}
		r.Lessons = append(r.Lessons, row)
		for _, ex := range lesson.Exercises() {
			st := exercises[ex.ID]
			st.ExerciseID = ex.ID
			r.Exercises = append(r.Exercises, ExerciseReport{Lesson: lesson, Exercise: ex, State: st})
		}
	}
	return r, nil
}
