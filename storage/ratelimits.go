package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"learn/progress"
)

// purgeEvery is how many takes go between deletions of the keys whose
// buckets are full again (rows that mean the same as no row).
const purgeEvery = 1024

// TakeRate spends one try of rule for key at now, in one statement: the
// upsert moves the key's time only when the try is allowed.
func (s *DB) TakeRate(ctx context.Context, rule progress.Rule, key string, now time.Time) (time.Duration, error) {
	if rule.Off() {
		return 0, nil
	}
	k, n, every := progress.RateKey(rule, key), now.UnixNano(), int64(rule.Every)
	if s.rateTakes.Add(1)%purgeEvery == 0 {
		if _, err := s.exec(ctx, "DELETE FROM rate_limits WHERE tat < ?", n); err != nil {
			return 0, fmt.Errorf("storage: purge rate limits: %w", err)
		}
	}
	// A key freed between the two statements is tried again.
	for range 3 {
		var tat int64
		err := s.row(ctx, `INSERT INTO rate_limits (key, tat) VALUES (?1, CAST(?2 AS BIGINT) + CAST(?3 AS BIGINT))
			ON CONFLICT (key) DO UPDATE SET tat = CASE WHEN rate_limits.tat > ?2 THEN rate_limits.tat ELSE ?2 END + ?3
			WHERE CASE WHEN rate_limits.tat > ?2 THEN rate_limits.tat ELSE ?2 END + ?3 <= CAST(?2 AS BIGINT) + CAST(?4 AS BIGINT)
			RETURNING tat`, k, n, every, int64(rule.Burst)*every).Scan(&tat)
		if err == nil {
			return 0, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("storage: take rate %s: %w", rule.Name, err)
		}
		err = s.row(ctx, "SELECT tat FROM rate_limits WHERE key = ?", k).Scan(&tat)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("storage: take rate %s: %w", rule.Name, err)
		}
		if _, wait := progress.NextTAT(rule, tat, n); wait > 0 {
			return wait, nil
		}
	}
	return 0, fmt.Errorf("storage: take rate %s: the key kept changing", rule.Name)
}

// RefundRate gives back one try TakeRate spent.
func (s *DB) RefundRate(ctx context.Context, rule progress.Rule, key string) error {
	if rule.Off() {
		return nil
	}
	if _, err := s.exec(ctx, "UPDATE rate_limits SET tat = tat - ? WHERE key = ?", int64(rule.Every), progress.RateKey(rule, key)); err != nil {
		return fmt.Errorf("storage: refund rate %s: %w", rule.Name, err)
	}
	return nil
}
