package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"learn/progress"
)

// The dashboard's reads: each is one query over the class's members,
// whatever the class's size, and each walks an index from class_members
// into the learner's rows (see TestClassQueryPlans).

// query runs one class-wide query and hands every row to scan.
func (s *Store) query(ctx context.Context, what string, scan func(*sql.Rows) error, q string, args ...any) error {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

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
	classLessonsQuery = `SELECT p.learner_id, p.lesson_slug, p.opened_at, p.completed_at
		FROM class_members m JOIN lesson_progress p ON p.learner_id = m.learner_id WHERE m.class_id = ?`
	classQuizzesQuery = `SELECT a.learner_id, a.lesson_slug, a.score, a.total, a.passed, a.created_at
		FROM class_members m JOIN attempts a ON a.learner_id = m.learner_id AND a.kind = 'quiz'
		WHERE m.class_id = ? ORDER BY a.id`
	classWidgetsQuery = `SELECT a.learner_id, a.lesson_slug, count(*),
		count(DISTINCT CASE WHEN a.kind IN ('classify', 'annotate') AND a.passed = 1 THEN a.widget_id END)
		FROM class_members m JOIN attempts a ON a.learner_id = m.learner_id AND a.kind IN ('classify', 'annotate', 'quiz')
		WHERE m.class_id = ? GROUP BY a.learner_id, a.lesson_slug`
	classExercisesQuery = `SELECT s.learner_id, s.exercise_id, count(*),
		min(CASE WHEN s.mode = 'submit' AND s.passed = 1 THEN s.created_at END), max(s.created_at)
		FROM class_members m JOIN submissions s ON s.learner_id = m.learner_id
		WHERE m.class_id = ? GROUP BY s.learner_id, s.exercise_id`
	classXPQuery = `SELECT x.learner_id, sum(x.amount)
		FROM class_members m JOIN xp_awards x ON x.learner_id = m.learner_id
		WHERE m.class_id = ? GROUP BY x.learner_id`
	// Activity comes as the latest time in each ten-minute bucket (the
	// first 15 characters of a fixed-width time): a streak counts days, and
	// a learner's hundreds of attempts shrink to a few dozen rows.
	classTimesQuery = `SELECT a.learner_id, substr(a.created_at, 1, 15), max(a.created_at)
		FROM class_members m JOIN attempts a ON a.learner_id = m.learner_id
		WHERE m.class_id = ? GROUP BY a.learner_id, substr(a.created_at, 1, 15)`
	weeklyXPQuery = `SELECT x.learner_id, sum(x.amount)
		FROM class_members m JOIN xp_awards x ON x.learner_id = m.learner_id AND x.created_at >= ?
		WHERE m.class_id = ? GROUP BY x.learner_id`
	// firstTries is each member's first attempt at each widget or quiz.
	firstTries = `WITH firsts AS (
		SELECT a.learner_id, a.kind, a.lesson_slug, a.widget_id, min(a.id) AS id
		FROM class_members m JOIN attempts a ON a.learner_id = m.learner_id AND a.kind IN ('classify', 'annotate', 'quiz')
		WHERE m.class_id = ? GROUP BY a.learner_id, a.kind, a.lesson_slug, a.widget_id)`
	classTriesQuery = firstTries + `
		SELECT lesson_slug, widget_id, kind, count(*) FROM firsts GROUP BY lesson_slug, widget_id, kind`
	// SQLite-only: json_each and json_quote (PostgreSQL: jsonb_each and
	// value::text). Each value comes back as JSON text.
	classAnswersQuery = firstTries + `
		SELECT f.lesson_slug, f.widget_id, j.key, json_quote(j.value), count(*)
		FROM firsts f JOIN attempts a ON a.id = f.id, json_each(a.answers) j
		GROUP BY f.lesson_slug, f.widget_id, j.key, json_quote(j.value)`
	classSubmitsQuery = `SELECT s.exercise_id, count(DISTINCT s.learner_id),
		count(DISTINCT CASE WHEN s.passed = 1 THEN s.learner_id END), count(*), sum(CASE WHEN s.passed = 1 THEN 0 ELSE 1 END)
		FROM class_members m JOIN submissions s ON s.learner_id = m.learner_id AND s.mode = 'submit'
		WHERE m.class_id = ? GROUP BY s.exercise_id`
	// SQLite-only: json_each over the report's cases (PostgreSQL:
	// jsonb_array_elements).
	classFailuresQuery = `SELECT s.exercise_id, json_extract(c.value, '$.name'), json_extract(c.value, '$.verdict'), count(*)
		FROM class_members m JOIN submissions s ON s.learner_id = m.learner_id AND s.mode = 'submit' AND s.passed = 0,
		json_each(s.report, '$.cases') c
		WHERE m.class_id = ? AND json_extract(c.value, '$.verdict') <> 'passed'
		GROUP BY s.exercise_id, json_extract(c.value, '$.name'), json_extract(c.value, '$.verdict')`
)

// ClassActivity reads every member's lessons, quizzes, widgets, exercises,
// XP and activity times in six queries.
func (s *Store) ClassActivity(ctx context.Context, classID int64) (progress.ClassActivity, error) {
	act := progress.ClassActivity{
		Lessons: map[string]map[string]progress.LessonProgress{}, Quizzes: map[string]map[string]progress.QuizScore{},
		Exercises: map[string]map[string]progress.ExerciseState{}, WidgetsPassed: map[string]map[string]int{},
		Attempts: map[string]map[string]int{}, XP: map[string]int{}, Times: map[string][]time.Time{},
	}
	err := s.query(ctx, "class lessons", func(rows *sql.Rows) error {
		var id, opened string
		var completed sql.NullString
		var p progress.LessonProgress
		if err := rows.Scan(&id, &p.LessonSlug, &opened, &completed); err != nil {
			return err
		}
		var err error
		if p.OpenedAt, err = parseTime(opened); err != nil {
			return err
		}
		if p.CompletedAt, err = parseNullTime(completed); err != nil {
			return err
		}
		nested(act.Lessons, id)[p.LessonSlug] = p
		return nil
	}, classLessonsQuery, classID)
	if err != nil {
		return act, err
	}
	err = s.query(ctx, "class quizzes", func(rows *sql.Rows) error {
		var id, slug, at string
		var score, total int
		var passed bool
		if err := rows.Scan(&id, &slug, &score, &total, &passed, &at); err != nil {
			return err
		}
		t, err := parseTime(at)
		if err != nil {
			return err
		}
		m := nested(act.Quizzes, id)
		q, seen := m[slug]
		if !seen {
			q = progress.QuizScore{LessonSlug: slug, First: score}
		}
		q.Best, q.Total = max(q.Best, score), max(q.Total, total)
		q.Attempts++
		q.Passed = q.Passed || passed
		q.LastAt = t
		m[slug] = q
		return nil
	}, classQuizzesQuery, classID)
	if err != nil {
		return act, err
	}
	err = s.query(ctx, "class widgets", func(rows *sql.Rows) error {
		var id, slug string
		var n, passed int
		if err := rows.Scan(&id, &slug, &n, &passed); err != nil {
			return err
		}
		nested(act.Attempts, id)[slug] = n
		nested(act.WidgetsPassed, id)[slug] = passed
		return nil
	}, classWidgetsQuery, classID)
	if err != nil {
		return act, err
	}
	err = s.query(ctx, "class exercises", func(rows *sql.Rows) error {
		var id string
		var e progress.ExerciseState
		var solved sql.NullString
		var last string
		if err := rows.Scan(&id, &e.ExerciseID, &e.Runs, &solved, &last); err != nil {
			return err
		}
		var err error
		if e.SolvedAt, err = parseNullTime(solved); err != nil {
			return err
		}
		if e.LastAt, err = parseTime(last); err != nil {
			return err
		}
		nested(act.Exercises, id)[e.ExerciseID] = e
		return nil
	}, classExercisesQuery, classID)
	if err != nil {
		return act, err
	}
	err = s.query(ctx, "class xp", func(rows *sql.Rows) error {
		var id string
		var xp int
		if err := rows.Scan(&id, &xp); err != nil {
			return err
		}
		act.XP[id] = xp
		return nil
	}, classXPQuery, classID)
	if err != nil {
		return act, err
	}
	err = s.query(ctx, "class activity", func(rows *sql.Rows) error {
		var id, bucket, latest string
		if err := rows.Scan(&id, &bucket, &latest); err != nil {
			return err
		}
		t, err := parseTime(latest)
		if err != nil {
			return err
		}
		act.Times[id] = append(act.Times[id], t)
		return nil
	}, classTimesQuery, classID)
	if err != nil {
		return act, err
	}
	for _, ts := range act.Times {
		slices.SortFunc(ts, time.Time.Compare)
	}
	return act, nil
}

// WeeklyXP sums each member's XP since since.
func (s *Store) WeeklyXP(ctx context.Context, classID int64, since time.Time) (map[string]int, error) {
	out := map[string]int{}
	err := s.query(ctx, "weekly xp", func(rows *sql.Rows) error {
		var id string
		var xp int
		if err := rows.Scan(&id, &xp); err != nil {
			return err
		}
		out[id] = xp
		return nil
	}, weeklyXPQuery, formatTime(since), classID)
	return out, err
}

// ClassFirstTries counts members' first tries per widget, and each answer
// per item on those tries.
func (s *Store) ClassFirstTries(ctx context.Context, classID int64) (progress.FirstTries, error) {
	var ft progress.FirstTries
	err := s.query(ctx, "class first tries", func(rows *sql.Rows) error {
		var w progress.WidgetTries
		if err := rows.Scan(&w.LessonSlug, &w.WidgetID, &w.Kind, &w.Learners); err != nil {
			return err
		}
		ft.Widgets = append(ft.Widgets, w)
		return nil
	}, classTriesQuery, classID)
	if err != nil {
		return ft, err
	}
	err = s.query(ctx, "class first answers", func(rows *sql.Rows) error {
		var a progress.AnswerCount
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.ItemID, &a.Value, &a.Count); err != nil {
			return err
		}
		ft.Answers = append(ft.Answers, a)
		return nil
	}, classAnswersQuery, classID)
	return ft, err
}

// ClassExerciseStats counts members' submissions and failing cases per
// exercise.
func (s *Store) ClassExerciseStats(ctx context.Context, classID int64) ([]progress.ExerciseStat, []progress.CaseFailure, error) {
	var stats []progress.ExerciseStat
	err := s.query(ctx, "class exercise stats", func(rows *sql.Rows) error {
		var st progress.ExerciseStat
		if err := rows.Scan(&st.ExerciseID, &st.Learners, &st.Solvers, &st.Submits, &st.Failed); err != nil {
			return err
		}
		stats = append(stats, st)
		return nil
	}, classSubmitsQuery, classID)
	if err != nil {
		return nil, nil, err
	}
	var fails []progress.CaseFailure
	err = s.query(ctx, "class case failures", func(rows *sql.Rows) error {
		var f progress.CaseFailure
		var name, verdict sql.NullString
		if err := rows.Scan(&f.ExerciseID, &name, &verdict, &f.Count); err != nil {
			return err
		}
		f.Case, f.Verdict = name.String, verdict.String
		fails = append(fails, f)
		return nil
	}, classFailuresQuery, classID)
	return stats, fails, err
}

// LearnerAttempts returns the learner's widget, quiz and review attempts,
// oldest first.
func (s *Store) LearnerAttempts(ctx context.Context, learnerID string) ([]progress.Attempt, error) {
	var out []progress.Attempt
	err := s.query(ctx, "learner attempts", func(rows *sql.Rows) error {
		a := progress.Attempt{LearnerID: learnerID}
		var at string
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.Score, &a.Total, &a.Passed, &a.Answers, &at); err != nil {
			return err
		}
		var err error
		a.At, err = parseTime(at)
		out = append(out, a)
		return err
	}, `SELECT lesson_slug, widget_id, kind, score, total, passed, answers, created_at FROM attempts
		WHERE learner_id = ? AND kind <> 'exercise' ORDER BY created_at, id`, learnerID)
	return out, err
}

// LatestSubmissions returns the learner's latest run or submission of
// each exercise.
func (s *Store) LatestSubmissions(ctx context.Context, learnerID string) (map[string]progress.Submission, error) {
	out := map[string]progress.Submission{}
	err := s.query(ctx, "latest submissions", func(rows *sql.Rows) error {
		sub := progress.Submission{LearnerID: learnerID}
		var at string
		if err := rows.Scan(&sub.ExerciseID, &sub.Mode, &sub.Code, &sub.Passed, &sub.Report, &at); err != nil {
			return err
		}
		var err error
		sub.At, err = parseTime(at)
		out[sub.ExerciseID] = sub
		return err
	}, `SELECT s.exercise_id, s.mode, s.code, s.passed, s.report, s.created_at FROM submissions s
		WHERE s.learner_id = ? AND s.id = (SELECT max(t.id) FROM submissions t
			WHERE t.learner_id = s.learner_id AND t.exercise_id = s.exercise_id)`, learnerID)
	return out, err
}
