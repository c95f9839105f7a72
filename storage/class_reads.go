package storage

import (
	"context"
	"fmt"
	"slices"
	"time"

	"learn/progress"

	"golang.org/x/sync/errgroup"
)

// The dashboard's reads: each is one query over the class's members,
// whatever the class's size, and each walks an index from class_members
// into the learner's rows (see TestClassQueryPlans).

func nested[V any](m map[string]map[string]V, k1 string) map[string]V {
	inner, ok := m[k1]
	if !ok {
		inner = map[string]V{}
		m[k1] = inner
	}
	return inner
}

// Class-wide queries, kept as constants so the query-plan test checks the
// very text that runs.
const (
	// Each query walks the class's learner ids in order (the IN list) and
	// each learner's rows by an index that starts with learner_id, grouping
	// or ordering in that same order, so SQLite sorts nothing.
	members           = `(SELECT m.learner_id FROM class_members m WHERE m.class_id = ?)`
	classLessonsQuery = `SELECT p.learner_id, p.lesson_slug, p.opened_at, p.completed_at
		FROM lesson_progress p WHERE p.learner_id IN ` + members
	classQuizzesQuery = `SELECT a.learner_id, a.lesson_slug, a.score, a.total, a.passed, a.created_at
		FROM attempts a WHERE a.learner_id IN ` + members + ` AND a.kind = 'quiz'
		ORDER BY a.learner_id, a.kind, a.lesson_slug, a.widget_id, a.id`
	// Widgets passed are kept by a trigger (migration 0009).
	classWidgetsQuery = `SELECT w.learner_id, w.lesson_slug, count(*)
		FROM widget_passes w WHERE w.learner_id IN ` + members + ` GROUP BY w.learner_id, w.lesson_slug`
	classExercisesQuery = `SELECT s.learner_id, s.exercise_id, count(*),
		min(CASE WHEN s.mode = 'submit' AND s.passed THEN s.created_at END), max(s.created_at)
		FROM submissions s WHERE s.learner_id IN ` + members + ` AND ` + afterExerciseReset + `
		GROUP BY s.learner_id, s.exercise_id`
	classXPQuery = `SELECT x.learner_id, sum(x.amount)
		FROM xp_awards x WHERE x.learner_id IN ` + members + ` GROUP BY x.learner_id`
	// Activity times in index order (learner, then time), so nothing is
	// sorted; the reader keeps one time per ten minutes.
	classTimesQuery = `SELECT a.learner_id, a.created_at FROM attempts a
		WHERE a.learner_id IN ` + members + ` ORDER BY a.learner_id, a.created_at`
	weeklyXPQuery = `SELECT x.learner_id, sum(x.amount)
		FROM class_members m JOIN xp_awards x ON x.learner_id = m.learner_id AND x.created_at >= ?
		WHERE m.class_id = ? GROUP BY x.learner_id`
	// Each member's first try at each widget or quiz is kept by a trigger
	// (migration 0009). Identical answer sets are counted once (json.Marshal
	// writes maps with sorted keys, so the same answers are the same text),
	// except a quiz's, kept per learner because each learner's draw differs.
	classAnswersQuery = `SELECT f.lesson_slug, f.widget_id, f.kind, CASE WHEN f.kind = 'quiz' THEN f.learner_id ELSE '' END, a.answers, count(*)
		FROM first_tries f JOIN attempts a ON a.id = f.attempt_id
		WHERE f.learner_id IN ` + members + `
		GROUP BY f.lesson_slug, f.widget_id, f.kind, CASE WHEN f.kind = 'quiz' THEN f.learner_id ELSE '' END, a.answers`
	classSubmitsQuery = `SELECT s.exercise_id, count(DISTINCT s.learner_id),
		count(DISTINCT CASE WHEN s.passed THEN s.learner_id END), count(*), sum(CASE WHEN s.passed THEN 0 ELSE 1 END)
		FROM submissions s WHERE s.learner_id IN ` + members + ` AND s.mode = 'submit' GROUP BY s.exercise_id`
	// Failing cases are kept by a trigger from each failed submission's
	// report (migration 0009).
	classFailuresQuery = `SELECT f.exercise_id, f.case_name, f.verdict, count(*)
		FROM submission_failures f WHERE f.learner_id IN ` + members + `
		GROUP BY f.exercise_id, f.case_name, f.verdict`
)

// The export's reads (not the dashboard's): every member's actions in
// order of learner and time, and every award with its earning attempt.
const (
	classActionsQuery = `SELECT a.learner_id, a.lesson_slug, a.kind, a.widget_id, a.created_at FROM attempts a
		WHERE a.learner_id IN ` + members + `
		UNION ALL SELECT s.learner_id, '', 'submission', s.exercise_id, s.created_at FROM submissions s
		WHERE s.learner_id IN ` + members + `
		ORDER BY 1, 5`
	classAwardsQuery = `SELECT x.learner_id, a.lesson_slug, a.kind, a.widget_id, x.amount
		FROM xp_awards x JOIN attempts a ON a.id = x.attempt_id WHERE x.learner_id IN ` + members
)

// ClassEffort reads every member's actions and awards for the export.
func (s *DB) ClassEffort(ctx context.Context, classID int64) (progress.Effort, error) {
	var e progress.Effort
	err := s.each(ctx, "class actions", func(rows scanner) error {
		var ev progress.EffortEvent
		err := rows.Scan(&ev.LearnerID, &ev.LessonSlug, &ev.Kind, &ev.WidgetID, at(&ev.At))
		e.Actions = append(e.Actions, ev)
		return err
	}, classActionsQuery, classID, classID)
	if err != nil {
		return e, err
	}
	err = s.each(ctx, "class awards", func(rows scanner) error {
		var ev progress.EffortEvent
		err := rows.Scan(&ev.LearnerID, &ev.LessonSlug, &ev.Kind, &ev.WidgetID, &ev.XP)
		e.Awards = append(e.Awards, ev)
		return err
	}, classAwardsQuery, classID)
	return e, err
}

// ClassActivity reads every member's lessons, quizzes, widgets, exercises,
// XP and activity times in six queries run side by side.
func (s *DB) ClassActivity(ctx context.Context, classID int64) (progress.ClassActivity, error) {
	act := progress.ClassActivity{
		Lessons: map[string]map[string]progress.LessonProgress{}, Quizzes: map[string]map[string]progress.QuizScore{},
		Exercises: map[string]map[string]progress.ExerciseState{}, WidgetsPassed: map[string]map[string]int{},
		XP: map[string]int{}, Times: map[string][]time.Time{},
	}
	lessons := func() error {
		return s.each(ctx, "class lessons", func(rows scanner) error {
			var id string
			var p progress.LessonProgress
			err := rows.Scan(&id, &p.LessonSlug, at(&p.OpenedAt), at(&p.CompletedAt))
			nested(act.Lessons, id)[p.LessonSlug] = p
			return err
		}, classLessonsQuery, classID)
	}
	quizzes := func() error {
		return s.each(ctx, "class quizzes", func(rows scanner) error {
			var id, slug string
			var score, total int
			var passed bool
			var t time.Time
			if err := rows.Scan(&id, &slug, &score, &total, &passed, at(&t)); err != nil {
				return err
			}
			m := nested(act.Quizzes, id)
			q, seen := m[slug]
			m[slug] = addQuiz(q, seen, slug, score, total, passed, t)
			return nil
		}, classQuizzesQuery, classID)
	}
	widgets := func() error {
		return s.each(ctx, "class widgets", func(rows scanner) error {
			var id, slug string
			var passed int
			if err := rows.Scan(&id, &slug, &passed); err != nil {
				return err
			}
			nested(act.WidgetsPassed, id)[slug] = passed
			return nil
		}, classWidgetsQuery, classID)
	}
	exercises := func() error {
		return s.each(ctx, "class exercises", func(rows scanner) error {
			var id string
			var e progress.ExerciseState
			err := rows.Scan(&id, &e.ExerciseID, &e.Runs, at(&e.SolvedAt), at(&e.LastAt))
			nested(act.Exercises, id)[e.ExerciseID] = e
			return err
		}, classExercisesQuery, classID)
	}
	xp := func() error {
		return s.each(ctx, "class xp", func(rows scanner) error {
			var id string
			var xp int
			if err := rows.Scan(&id, &xp); err != nil {
				return err
			}
			act.XP[id] = xp
			return nil
		}, classXPQuery, classID)
	}
	times := func() error {
		// A streak counts days and the roster shows the latest time, so one
		// time per ten minutes is kept, and the last time of all: hundreds of
		// attempts become a few dozen times, and only those are parsed.
		var lastID string
		var lastBucket, pending any
		flush := func() error {
			if pending == nil {
				return nil
			}
			var t time.Time
			if err := at(&t).Scan(pending); err != nil {
				return err
			}
			act.Times[lastID] = append(act.Times[lastID], t)
			pending = nil
			return nil
		}
		err := s.each(ctx, "class activity", func(rows scanner) error {
			var id string
			var raw any
			if err := rows.Scan(&id, &raw); err != nil {
				return err
			}
			if b := tenMinutes(raw); id != lastID || b != lastBucket {
				if err := flush(); err != nil {
					return err
				}
				lastID, lastBucket = id, b
			}
			pending = raw
			return nil
		}, classTimesQuery, classID)
		if err == nil {
			err = flush()
		}
		if err != nil {
			return fmt.Errorf("storage: class activity: %w", err)
		}
		return nil
	}
	// Each read fills its own map, on its own connection.
	var g errgroup.Group
	for _, read := range []func() error{lessons, quizzes, widgets, exercises, xp, times} {
		g.Go(read)
	}
	if err := g.Wait(); err != nil {
		return act, err
	}
	for _, ts := range act.Times {
		slices.SortFunc(ts, time.Time.Compare)
	}
	return act, nil
}

// tenMinutes names the ten minutes a stored instant falls in, without
// parsing it: the first 15 characters of fixed-width text ("2026-11-29T10:0"),
// or nanoseconds divided by ten minutes.
func tenMinutes(raw any) any {
	switch v := raw.(type) {
	case string:
		return v[:min(len(v), 15)]
	case []byte:
		return string(v[:min(len(v), 15)])
	case int64:
		return v / int64(10*time.Minute)
	}
	return raw
}

// WeeklyXP sums each member's XP since since.
func (s *DB) WeeklyXP(ctx context.Context, classID int64, since time.Time) (map[string]int, error) {
	out := map[string]int{}
	err := s.each(ctx, "weekly xp", func(rows scanner) error {
		var id string
		var xp int
		if err := rows.Scan(&id, &xp); err != nil {
			return err
		}
		out[id] = xp
		return nil
	}, weeklyXPQuery, s.t(since), classID)
	return out, err
}

// ClassFirstTries counts members' first-try answer sets per widget.
func (s *DB) ClassFirstTries(ctx context.Context, classID int64) (progress.FirstTries, error) {
	return s.firstTries(ctx, "class first tries", classAnswersQuery, classID)
}

// firstTries reads answer sets: lesson, widget, kind, learner (a quiz's),
// answers and count.
func (s *DB) firstTries(ctx context.Context, what, query string, args ...any) (progress.FirstTries, error) {
	var ft progress.FirstTries
	err := s.each(ctx, what, func(rows scanner) error {
		var a progress.AnswerSet
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.LearnerID, &a.Answers, &a.Count); err != nil {
			return err
		}
		ft.Answers = append(ft.Answers, a)
		return nil
	}, query, args...)
	return ft, err
}

// ClassExerciseStats counts members' submissions and failing cases per
// exercise.
func (s *DB) ClassExerciseStats(ctx context.Context, classID int64) ([]progress.ExerciseStat, []progress.CaseFailure, error) {
	return s.exerciseStats(ctx, "class", classSubmitsQuery, classFailuresQuery, classID)
}

// exerciseStats reads submission counts per exercise (submitsQuery) and
// failing cases per exercise, case and verdict (failuresQuery), both with
// args; what names them in errors.
func (s *DB) exerciseStats(ctx context.Context, what, submitsQuery, failuresQuery string, args ...any) ([]progress.ExerciseStat, []progress.CaseFailure, error) {
	var stats []progress.ExerciseStat
	err := s.each(ctx, what+" exercise stats", func(rows scanner) error {
		var st progress.ExerciseStat
		if err := rows.Scan(&st.ExerciseID, &st.Learners, &st.Solvers, &st.Submits, &st.Failed); err != nil {
			return err
		}
		stats = append(stats, st)
		return nil
	}, submitsQuery, args...)
	if err != nil {
		return nil, nil, err
	}
	var fails []progress.CaseFailure
	err = s.each(ctx, what+" case failures", func(rows scanner) error {
		var f progress.CaseFailure
		if err := rows.Scan(&f.ExerciseID, &f.Case, &f.Verdict, &f.Count); err != nil {
			return err
		}
		fails = append(fails, f)
		return nil
	}, failuresQuery, args...)
	return stats, fails, err
}

// LearnerAttempts returns the learner's widget, quiz and review attempts,
// oldest first.
func (s *DB) LearnerAttempts(ctx context.Context, learnerID string) ([]progress.Attempt, error) {
	var out []progress.Attempt
	err := s.each(ctx, "learner attempts", func(rows scanner) error {
		a, err := scanAttempt(rows, learnerID)
		out = append(out, a)
		return err
	}, "SELECT "+attemptColumns+` FROM attempts
		WHERE learner_id = ? AND kind <> 'exercise' ORDER BY created_at, id`, learnerID)
	return out, err
}

// LatestSubmissions returns the learner's latest run or submission of
// each exercise.
func (s *DB) LatestSubmissions(ctx context.Context, learnerID string) (map[string]progress.Submission, error) {
	out := map[string]progress.Submission{}
	err := s.each(ctx, "latest submissions", func(rows scanner) error {
		sub := progress.Submission{LearnerID: learnerID}
		err := rows.Scan(&sub.ExerciseID, &sub.Mode, &sub.Code, &sub.Passed, &sub.Report, at(&sub.At))
		out[sub.ExerciseID] = sub
		return err
	}, `SELECT s.exercise_id, s.mode, s.code, s.passed, s.report, s.created_at FROM submissions s
		WHERE s.learner_id = ? AND s.id = (SELECT max(t.id) FROM submissions t
			WHERE t.learner_id = s.learner_id AND t.exercise_id = s.exercise_id) AND `+afterExerciseReset, learnerID)
	return out, err
}
