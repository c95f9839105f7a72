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
	XP                    int
	Solved, Exercises     int
	LastActive            time.Time
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
	var out []ExportRow
	for _, r := range d.Rows {
		for _, c := range r.Cells {
			out = append(out, ExportRow{
				Name: r.Member.Name, Lesson: c.Lesson.Title, State: c.State,
				FirstTry: c.Quiz.First, Best: c.Quiz.Best, Total: c.Quiz.Total, Quizzed: c.Quiz.Attempts > 0,
				Attempts: c.Attempts, XP: r.XP, Solved: c.Solved, Exercises: c.Exercises, LastActive: r.LastActive,
			})
		}
	}
	return d.Class, out, nil
}
