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
	Opened     LessonState = "opened"
	Completed  LessonState = "completed"
)

// LessonStates returns the state of every lesson a has opened, by slug;
// lessons not listed are NotStarted.
func (s *Service) LessonStates(ctx context.Context, a Actor) (map[string]LessonState, error) {
	states := map[string]LessonState{}
	if !a.Known {
		return states, nil
	}
	progress, err := s.store.ProgressByLesson(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	for slug, p := range progress {
		states[slug] = Opened
		if p.Completed() {
			states[slug] = Completed
		}
	}
	return states, nil
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
		states    = map[string]LessonState{}
		scores    = map[string]QuizScore{}
		exercises = map[string]ExerciseState{}
	)
	if a.Known {
		if r.History, err = s.store.XPHistory(ctx, a.ID); err != nil {
			return r, err
		}
		if times, err = s.store.ActivityTimes(ctx, a.ID); err != nil {
			return r, err
		}
		if states, err = s.LessonStates(ctx, a); err != nil {
			return r, err
		}
		if scores, err = s.store.QuizScores(ctx, a.ID); err != nil {
			return r, err
		}
		if exercises, err = s.store.ExerciseStates(ctx, a.ID); err != nil {
			return r, err
		}
		if r.ReviewsDue, r.ReviewsTotal, err = s.store.ReviewCounts(ctx, a.ID, now); err != nil {
			return r, err
		}
	}
	r.Calendar = quiz.Calendar(times, now, r.Zone, weeks)
	for _, lesson := range s.Course().Lessons {
		row := LessonReport{Lesson: lesson, State: NotStarted, Quiz: scores[lesson.Slug]}
		if st, ok := states[lesson.Slug]; ok {
			row.State = st
		}
		r.Lessons = append(r.Lessons, row)
		for _, ex := range lesson.Exercises() {
			st := exercises[ex.ID]
			st.ExerciseID = ex.ID
			r.Exercises = append(r.Exercises, ExerciseReport{Lesson: lesson, Exercise: ex, State: st})
		}
	}
	return r, nil
}
