package storage

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// RevealHints records that the learner has seen the exercise's first n
// hints and returns how many they have seen now: the count only grows, so
// a doubled post of the same hint, or an older one, changes nothing.
func (s *DB) RevealHints(ctx context.Context, learnerID, exerciseID string, n int, now time.Time) (int, error) {
	if n <= 0 {
		return 0, errors.New("storage: reveal hints: n must be 1 or more")
	}
	var shown int
	err := s.row(ctx, `INSERT INTO exercise_hints (learner_id, exercise_id, shown, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (learner_id, exercise_id) DO UPDATE SET
			shown = CASE WHEN excluded.shown > exercise_hints.shown THEN excluded.shown ELSE exercise_hints.shown END,
			updated_at = CASE WHEN excluded.shown > exercise_hints.shown THEN excluded.updated_at ELSE exercise_hints.updated_at END
		RETURNING shown`, learnerID, exerciseID, n, s.t(now)).Scan(&shown)
	if err != nil {
		return 0, fmt.Errorf("storage: reveal hints of %s: %w", exerciseID, err)
	}
	return shown, nil
}

// HintsShown returns how many hints the learner has seen, by exercise id;
// exercises without a revealed hint are absent.
func (s *DB) HintsShown(ctx context.Context, learnerID string) (map[string]int, error) {
	out := map[string]int{}
	return out, s.preparedEach(ctx, "hints shown", func(sc scanner) error {
		var id string
		var n int
		err := sc.Scan(&id, &n)
		out[id] = n
		return err
	}, "SELECT exercise_id, shown FROM exercise_hints WHERE learner_id = ?", learnerID)
}
