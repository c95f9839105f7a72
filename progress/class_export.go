package progress

// A class's export, one row per learner and lesson.

import (
	"context"
	"time"
)

// ExportRow is one line of a class's export: one learner and one lesson.
type ExportRow struct {
	Name, Lesson string
	State        CellState
	// FirstTry and Best are quiz scores of Total; Quizzed is false when
	// the quiz was never tried.
	FirstTry, Best, Total int
	Quizzed               bool
	Attempts              int
	// XP is the learner's total; LessonXP what the lesson's widgets, quiz,
	// exercises and review cards earned them (awards made before awards
	// kept their attempt count in XP only).
	XP, LessonXP      int
	Solved, Exercises int
	// TimeOnTask is the learner's time in the lesson: see TaskGap.
	TimeOnTask time.Duration
	LastActive time.Time
	// Due is when the lesson is due for this learner (their extension, or
	// the class's due time; zero when unassigned or without a date), as
	// DueLabel writes it; Late whether they are late with it.
	Due  string
	Late bool
}

// TaskGap bounds time on task: each gap shorter than it between two of a
// learner's actions (answers, runs and submissions, in any lesson) counts
// for the lesson of the later action; a longer gap is a break and counts
// nothing. So a learner who answers once and leaves has no time on task,
// and one who works through a lesson has about the time they spent.
const TaskGap = 10 * time.Minute

// lessonOf is the lesson an action or award belongs to: its own, or for
// an exercise's run, submission or award the exercise's lesson.
func (s *Service) lessonOf(ev EffortEvent) string {
	if ev.LessonSlug != "" {
		return ev.LessonSlug
	}
	if _, l, ok := s.Course().Exercise(ev.WidgetID); ok {
		return l.Slug
	}
	return ""
}

// effortByLesson sums each member's XP and time on task per lesson.
func (s *Service) effortByLesson(e Effort) (xp map[string]map[string]int, spent map[string]map[string]time.Duration) {
	xp, spent = map[string]map[string]int{}, map[string]map[string]time.Duration{}
	for _, aw := range e.Awards {
		nested(xp, aw.LearnerID)[s.lessonOf(aw)] += aw.XP
	}
	for i, ev := range e.Actions {
		if i == 0 || e.Actions[i-1].LearnerID != ev.LearnerID {
			continue
		}
		if gap := ev.At.Sub(e.Actions[i-1].At); gap > 0 && gap < TaskGap {
			nested(spent, ev.LearnerID)[s.lessonOf(ev)] += gap
		}
	}
	return xp, spent
}

func nested[V any](m map[string]map[string]V, k string) map[string]V {
	inner, ok := m[k]
	if !ok {
		inner = map[string]V{}
		m[k] = inner
	}
	return inner
}

// Export returns one row per learner and lesson of a's class, in roster
// order (by name) and course order.
//
// Errors: NotFound for a class that is not a's.
func (s *Service) Export(ctx context.Context, a Actor, classID int64) (Class, []ExportRow, error) {
	d, err := s.Dashboard(ctx, a, classID, SortName)
	if err != nil {
		return Class{}, nil, err
	}
	effort, err := s.classes.ClassEffort(ctx, d.Class.ID)
	if err != nil {
		return Class{}, nil, err
	}
	xp, spent := s.effortByLesson(effort)
	assigned := map[string]Assignment{}
	for _, as := range d.Assignments {
		assigned[as.LessonSlug] = as.Assignment
	}
	var out []ExportRow
	for _, r := range d.Rows {
		id := r.Member.LearnerID
		for _, c := range r.Cells {
			out = append(out, ExportRow{
				Name: r.Member.Name, Lesson: c.Lesson.Title, State: c.State,
				FirstTry: c.Quiz.First, Best: c.Quiz.Best, Total: c.Quiz.Total, Quizzed: c.Quiz.Attempts > 0,
				Attempts: c.Attempts, XP: r.XP, LessonXP: xp[id][c.Lesson.Slug], Solved: c.Solved, Exercises: c.Exercises,
				TimeOnTask: spent[id][c.Lesson.Slug], LastActive: r.LastActive,
				Due: DueLabel(assigned[c.Lesson.Slug].DueFor(id), d.Class.TimeZone), Late: c.Late,
			})
		}
	}
	return d.Class, out, nil
}
