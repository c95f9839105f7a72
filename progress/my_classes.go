package progress

// A learner's own classes and assignments, as their home shows them.

import (
	"context"

	"learn/lessons"
)

// MyClass is one of a learner's classes as their home shows it.
type MyClass struct {
	Membership
	Assignments []MyAssignment
	// Leaderboard is set when the class shows this week's XP table.
	Leaderboard []LeaderRow
}

// MyAssignment is one assigned lesson with the learner's state in it.
type MyAssignment struct {
	Lesson *lessons.Lesson
	DueDay string
	Done   bool
	Late   bool
}

// MyClasses returns a's classes with their assignments (and weekly
// leaderboards where the teacher turned one on). A first visit has none.
func (s *Service) MyClasses(ctx context.Context, a Actor) ([]MyClass, error) {
	if !a.Known {
		return nil, nil
	}
	ms, err := s.classes.LearnerClasses(ctx, a.ID)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	progress, err := s.learning.ProgressByLesson(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out []MyClass
	for _, m := range ms {
		mc := MyClass{Membership: m}
		assignments, err := s.classes.Assignments(ctx, m.Class.ID)
		if err != nil {
			return nil, err
		}
		for _, as := range assignments {
			l, ok := s.Course().Lesson(as.LessonSlug)
			if !ok {
				continue
			}
			lp := progress[as.LessonSlug]
			mc.Assignments = append(mc.Assignments, MyAssignment{Lesson: l, DueDay: DueLabel(as.DueFor(a.ID), m.Class.TimeZone), Done: lp.Completed(), Late: late(as, a.ID, lp, now)})
		}
		if m.Class.Leaderboard {
			members, err := s.classes.Members(ctx, m.Class.ID)
			if err != nil {
				return nil, err
			}
			if mc.Leaderboard, err = s.leaderboard(ctx, m.Class, members, now); err != nil {
				return nil, err
			}
		}
		out = append(out, mc)
	}
	return out, nil
}
