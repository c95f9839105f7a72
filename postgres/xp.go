package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"learn/progress"
)

// awardXP writes the award inside tx, so that an award and the attempt
// that earned it commit or roll back together. A concurrent transaction
// holding the same key makes this one wait for it, then do nothing.
func awardXP(ctx context.Context, tx pgx.Tx, learnerID string, a progress.Award, now time.Time) (bool, error) {
	if a.Key == "" || a.Amount <= 0 {
		return false, errors.New("postgres: award xp: an award needs a key and a positive amount")
	}
	tag, err := tx.Exec(ctx, `INSERT INTO xp_awards (learner_id, award_key, amount, reason, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (learner_id, award_key) DO NOTHING`,
		learnerID, a.Key, a.Amount, a.Reason, ns(now))
	if err != nil {
		return false, fmt.Errorf("postgres: award xp %q: %w", a.Key, err)
	}
	return tag.RowsAffected() == 1, nil
}

// TotalXP returns the sum of every award the learner holds.
func (s *Store) TotalXP(ctx context.Context, learnerID string) (int, error) {
	var total int
	if err := s.pool.QueryRow(ctx,
		"SELECT coalesce(sum(amount), 0) FROM xp_awards WHERE learner_id = $1", learnerID).Scan(&total); err != nil {
		return 0, fmt.Errorf("postgres: total xp: %w", err)
	}
	return total, nil
}

// XPHistory returns the learner's awards, oldest first.
func (s *Store) XPHistory(ctx context.Context, learnerID string) ([]progress.XPEntry, error) {
	rows, err := s.pool.Query(ctx,
		"SELECT award_key, amount, reason, created_at FROM xp_awards WHERE learner_id = $1 ORDER BY created_at, id", learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: xp history: %w", err)
	}
	defer rows.Close()
	var out []progress.XPEntry
	for rows.Next() {
		var e progress.XPEntry
		var at int64
		if err := rows.Scan(&e.Key, &e.Amount, &e.Reason, &at); err != nil {
			return nil, fmt.Errorf("postgres: xp history: %w", err)
		}
		e.At = fromNS(at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: xp history: %w", err)
	}
	return out, nil
}
