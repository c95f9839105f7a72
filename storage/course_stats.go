package storage

import (
	"context"

	"learn/progress"
)

// The authors' statistics read what every learner did, in a class or not:
// the same summaries the dashboard reads for a class (first tries and
// failing cases, kept by triggers), over all learners. Each is one read
// of a table that grows with use; they run for an author's report, not
// on a learner's request.
const (
	courseAnswersQuery = `SELECT f.lesson_slug, f.widget_id, f.kind, CASE WHEN f.kind = 'quiz' THEN f.learner_id ELSE '' END, a.answers, count(*)
		FROM first_tries f JOIN attempts a ON a.id = f.attempt_id
		GROUP BY f.lesson_slug, f.widget_id, f.kind, CASE WHEN f.kind = 'quiz' THEN f.learner_id ELSE '' END, a.answers`
	courseSubmitsQuery = `SELECT s.exercise_id, count(DISTINCT s.learner_id),
		count(DISTINCT CASE WHEN s.passed THEN s.learner_id END), count(*), sum(CASE WHEN s.passed THEN 0 ELSE 1 END)
		FROM submissions s WHERE s.mode = 'submit' GROUP BY s.exercise_id`
	courseFailuresQuery = `SELECT f.exercise_id, f.case_name, f.verdict, count(*)
		FROM submission_failures f GROUP BY f.exercise_id, f.case_name, f.verdict`
	// Per learner and exercise: submissions, and those up to and including
	// the first that passed (0 while none has).
	courseEffortsQuery = `SELECT s.exercise_id, s.learner_id, count(*),
		sum(CASE WHEN p.first_pass IS NOT NULL AND s.id <= p.first_pass THEN 1 ELSE 0 END)
		FROM submissions s LEFT JOIN (SELECT learner_id, exercise_id, min(id) AS first_pass FROM submissions
			WHERE mode = 'submit' AND passed GROUP BY learner_id, exercise_id) p
			ON p.learner_id = s.learner_id AND p.exercise_id = s.exercise_id
		WHERE s.mode = 'submit' GROUP BY s.exercise_id, s.learner_id`
	courseHintsQuery = `SELECT exercise_id, learner_id, shown FROM exercise_hints`
)

// CourseFirstTries counts every learner's first-try answer sets per widget;
// a quiz's sets are kept per learner.
func (s *DB) CourseFirstTries(ctx context.Context) (progress.FirstTries, error) {
	return s.firstTries(ctx, "course first tries", courseAnswersQuery)
}

// CourseExerciseStats counts every learner's submissions and failing cases
// per exercise.
func (s *DB) CourseExerciseStats(ctx context.Context) ([]progress.ExerciseStat, []progress.CaseFailure, error) {
	return s.exerciseStats(ctx, "course", courseSubmitsQuery, courseFailuresQuery)
}

// ExerciseEfforts returns, per learner and exercise, the submissions made,
// those it took to solve it, and the hints shown.
func (s *DB) ExerciseEfforts(ctx context.Context) ([]progress.ExerciseEffort, error) {
	type key struct{ exercise, learner string }
	index := map[key]int{}
	var out []progress.ExerciseEffort
	at := func(exercise, learner string) *progress.ExerciseEffort {
		k := key{exercise, learner}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, progress.ExerciseEffort{ExerciseID: exercise, LearnerID: learner})
		}
		return &out[i]
	}
	err := s.each(ctx, "exercise efforts", func(rows scanner) error {
		var exercise, learner string
		var submits, toSolve int
		if err := rows.Scan(&exercise, &learner, &submits, &toSolve); err != nil {
			return err
		}
		e := at(exercise, learner)
		e.Submits, e.SubmitsToSolve = submits, toSolve
		return nil
	}, courseEffortsQuery)
	if err != nil {
		return nil, err
	}
	err = s.each(ctx, "exercise hints", func(rows scanner) error {
		var exercise, learner string
		var shown int
		if err := rows.Scan(&exercise, &learner, &shown); err != nil {
			return err
		}
		at(exercise, learner).HintsShown = shown
		return nil
	}, courseHintsQuery)
	return out, err
}
