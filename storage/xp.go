package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"learn/progress"
)

// awardXP writes the award inside tx, so that an award and the attempt that
// earned it commit or roll back together.
func awardXP(ctx context.Context, tx q, learnerID string, a progress.Award, now time.Time) (bool, error) {
	if a.Key == "" || a.Amount <= 0 {
		return false, errors.New("storage: award xp: an award needs a key and a positive amount")
	}
	res, err := tx.exec(ctx, `INSERT INTO xp_awards (learner_id, award_key, amount, reason, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (learner_id, award_key) DO NOTHING`,
		learnerID, a.Key, a.Amount, a.Reason, tx.t(now))
	if err != nil {
		return false, fmt.Errorf("storage: award xp %q: %w", a.Key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("storage: award xp %q: %w", a.Key, err)
	}
	return n == 1, nil
}

// TotalXP returns the sum of every award the learner holds.
func (s *DB) TotalXP(ctx context.Context, learnerID string) (int, error) {
	var total int
	if err := s.preparedRow(ctx, "SELECT coalesce(sum(amount), 0) FROM xp_awards WHERE learner_id = ?", learnerID).Scan(&total); err != nil {
		return 0, fmt.Errorf("storage: total xp: %w", err)
	}
	return total, nil
}

// XPHistory returns the learner's awards, oldest first.
func (s *DB) XPHistory(ctx context.Context, learnerID string) ([]progress.XPEntry, error) {
	rows, err := s.rows(ctx,
		"SELECT award_key, amount, reason, created_at FROM xp_awards WHERE learner_id = ? ORDER BY created_at, id", learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: xp history: %w", err)
	}
	defer rows.Close()
	var out []progress.XPEntry
	for rows.Next() {
		var e progress.XPEntry
		var at string
		if err := rows.Scan(&e.Key, &e.Amount, &e.Reason, &at); err != nil {
			return nil, fmt.Errorf("storage: xp history: %w", err)
		}
		if e.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("storage: xp history: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: xp history: %w", err)
	}
	return out, nil
}
