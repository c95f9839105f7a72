package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"learn/progress"
)

// RecordSubmission saves the submission, keeps its code as the learner's
// latest for the exercise, counts a submit as activity, and grants award
// (if non-nil) once — all in one transaction. It reports whether the award
// was granted by this call.
func (s *Store) RecordSubmission(ctx context.Context, sub progress.Submission, award *progress.Award) (granted bool, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := ensureLearner(ctx, tx, sub.LearnerID, sub.At); err != nil {
			return err
		}
		at := ns(sub.At)
		if _, err := tx.Exec(ctx, `INSERT INTO submissions (learner_id, exercise_id, mode, code, passed, report, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, sub.LearnerID, sub.ExerciseID, sub.Mode, sub.Code, sub.Passed, sub.Report, at); err != nil {
			return fmt.Errorf("postgres: record submission: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO exercise_code (learner_id, exercise_id, code, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (learner_id, exercise_id) DO UPDATE SET code = excluded.code, updated_at = excluded.updated_at`,
			sub.LearnerID, sub.ExerciseID, sub.Code, at); err != nil {
			return fmt.Errorf("postgres: keep code: %w", err)
		}
		if sub.Mode == "submit" {
			// A submission is the learner's activity for streaks too.
			score := 0
			if sub.Passed {
				score = 1
			}
			if err := insertAttempt(ctx, tx, progress.Attempt{LearnerID: sub.LearnerID, WidgetID: sub.ExerciseID,
				Score: score, Total: 1, Passed: sub.Passed, Answers: "{}", At: sub.At}, "exercise"); err != nil {
				return fmt.Errorf("postgres: record submission activity: %w", err)
			}
		}
		if award != nil {
			var err error
			granted, err = awardXP(ctx, tx, sub.LearnerID, *award, sub.At)
			return err
		}
		return nil
	})
	return granted, err
}

// LatestCodes returns the learner's last code for every exercise they ran,
// keyed by exercise id.
func (s *Store) LatestCodes(ctx context.Context, learnerID string) (map[string]string, error) {
	rows, err := s.pool.Query(ctx, "SELECT exercise_id, code FROM exercise_code WHERE learner_id = $1", learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: latest codes: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, code string
		if err := rows.Scan(&id, &code); err != nil {
			return nil, fmt.Errorf("postgres: latest codes: %w", err)
		}
		out[id] = code
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: latest codes: %w", err)
	}
	return out, nil
}

// ExerciseStates returns how the learner's runs and submissions of each
// exercise went, keyed by exercise id.
func (s *Store) ExerciseStates(ctx context.Context, learnerID string) (map[string]progress.ExerciseState, error) {
	rows, err := s.pool.Query(ctx, `SELECT exercise_id, mode, passed, created_at FROM submissions
		WHERE learner_id = $1 ORDER BY created_at, id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: exercise states: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.ExerciseState{}
	for rows.Next() {
		var id, mode string
		var passed bool
		var at int64
		if err := rows.Scan(&id, &mode, &passed, &at); err != nil {
			return nil, fmt.Errorf("postgres: exercise states: %w", err)
		}
		t := fromNS(at)
		e := out[id]
		e.ExerciseID = id
		e.Runs++
		e.LastPassed, e.LastMode, e.LastAt = passed, mode, t
		if passed && mode == "submit" && e.SolvedAt.IsZero() {
			e.SolvedAt = t
		}
		out[id] = e
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: exercise states: %w", err)
	}
	return out, nil
}
