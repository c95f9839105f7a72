package storage

import (
	"context"
	"fmt"

	"learn/progress"
)

// RecordSubmission saves the submission, keeps its code as the learner's
// latest for the exercise, and grants award (if non-nil) once — all in one
// transaction. It reports whether the award was granted by this call.
func (s *DB) RecordSubmission(ctx context.Context, sub progress.Submission, award *progress.Award) (granted bool, err error) {
	err = s.inTx(ctx, func(tx q) error {
		if err := ensureLearner(ctx, tx, sub.LearnerID, sub.At); err != nil {
			return err
		}
		at := s.t(sub.At)
		if _, err := tx.exec(ctx, `INSERT INTO submissions (learner_id, exercise_id, mode, code, passed, report, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, sub.LearnerID, sub.ExerciseID, sub.Mode, sub.Code, sub.Passed, sub.Report, at); err != nil {
			return fmt.Errorf("storage: record submission: %w", err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO exercise_code (learner_id, exercise_id, code, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (learner_id, exercise_id) DO UPDATE SET code = excluded.code, updated_at = excluded.updated_at`,
			sub.LearnerID, sub.ExerciseID, sub.Code, at); err != nil {
			return fmt.Errorf("storage: keep code: %w", err)
		}
		if sub.Mode == "submit" {
			// A submission is the learner's activity for streaks too.
			if _, err := tx.exec(ctx, `INSERT INTO attempts
				(learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at)
				VALUES (?, '', ?, 'exercise', ?, 1, ?, '{}', ?)`,
				sub.LearnerID, sub.ExerciseID, boolInt(sub.Passed), sub.Passed, at); err != nil {
				return fmt.Errorf("storage: record submission activity: %w", err)
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// LatestCodes returns the learner's last code for every exercise they ran,
// keyed by exercise id.
func (s *DB) LatestCodes(ctx context.Context, learnerID string) (map[string]string, error) {
	rows, err := s.rows(ctx, "SELECT exercise_id, code FROM exercise_code WHERE learner_id = ?", learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: latest codes: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, code string
		if err := rows.Scan(&id, &code); err != nil {
			return nil, fmt.Errorf("storage: latest codes: %w", err)
		}
		out[id] = code
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: latest codes: %w", err)
	}
	return out, nil
}

// ExerciseStates returns how the learner's runs and submissions of each
// exercise went, keyed by exercise id.
func (s *DB) ExerciseStates(ctx context.Context, learnerID string) (map[string]progress.ExerciseState, error) {
	rows, err := s.rows(ctx, `SELECT exercise_id, mode, passed, created_at FROM submissions
		WHERE learner_id = ? ORDER BY created_at, id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: exercise states: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.ExerciseState{}
	for rows.Next() {
		var id, mode, at string
		var passed bool
		if err := rows.Scan(&id, &mode, &passed, &at); err != nil {
			return nil, fmt.Errorf("storage: exercise states: %w", err)
		}
		t, err := parseTime(at)
		if err != nil {
			return nil, fmt.Errorf("storage: exercise states: %w", err)
		}
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
		return nil, fmt.Errorf("storage: exercise states: %w", err)
	}
	return out, nil
}
