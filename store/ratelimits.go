package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"learn/progress"
)

// The store counts rate limits for every server that opens the file.
var _ progress.RateLimiter = (*Store)(nil)

// purgeEvery is how many takes go between deletions of the keys whose
// buckets are full again (rows that mean the same as no row).
const purgeEvery = 1024

// TakeRate spends one try of rule for key at now, in one statement: the
// upsert moves the key's time only when the try is allowed.
func (s *Store) TakeRate(ctx context.Context, rule progress.Rule, key string, now time.Time) (time.Duration, error) {
	if rule.Off() {
		return 0, nil
	}
	k, n, every := progress.RateKey(rule, key), now.UnixNano(), int64(rule.Every)
	if s.rateTakes.Add(1)%purgeEvery == 0 {
		if _, err := s.db.ExecContext(ctx, "DELETE FROM rate_limits WHERE tat < ?", n); err != nil {
			return 0, fmt.Errorf("store: purge rate limits: %w", err)
		}
	}
	// A key freed between the two statements is tried again.
	for range 3 {
		var tat int64
		err := s.db.QueryRowContext(ctx, `INSERT INTO rate_limits (key, tat) VALUES (?1, ?2 + ?3)
			ON CONFLICT (key) DO UPDATE SET tat = max(rate_limits.tat, ?2) + ?3
			WHERE max(rate_limits.tat, ?2) + ?3 <= ?2 + ?4
			RETURNING tat`, k, n, every, int64(rule.Burst)*every).Scan(&tat)
		if err == nil {
			return 0, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("store: take rate %s: %w", rule.Name, err)
		}
		err = s.db.QueryRowContext(ctx, "SELECT tat FROM rate_limits WHERE key = ?", k).Scan(&tat)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("store: take rate %s: %w", rule.Name, err)
		}
		if _, wait := progress.NextTAT(rule, tat, n); wait > 0 {
			return wait, nil
		}
	}
	return 0, fmt.Errorf("store: take rate %s: the key kept changing", rule.Name)
}

// RefundRate gives back one try TakeRate spent.
func (s *Store) RefundRate(ctx context.Context, rule progress.Rule, key string) error {
	if rule.Off() {
		return nil
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE rate_limits SET tat = tat - ? WHERE key = ?", int64(rule.Every), progress.RateKey(rule, key)); err != nil {
		return fmt.Errorf("store: refund rate %s: %w", rule.Name, err)
	}
	return nil
}
