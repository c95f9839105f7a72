package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"learn/progress"
)

// KeepResult saves a result to show once, replacing the learner's earlier
// one for the lesson, and drops every result that has expired by now.
func (s *Store) KeepResult(ctx context.Context, r progress.ResultToShow, now time.Time) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM results_to_show WHERE expires_at <= $1", ns(now)); err != nil {
			return fmt.Errorf("postgres: keep result: drop expired: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO results_to_show (learner_id, lesson_slug, part_id, body, expires_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (learner_id, lesson_slug) DO UPDATE SET part_id = excluded.part_id, body = excluded.body, expires_at = excluded.expires_at`,
			r.LearnerID, r.LessonSlug, r.PartID, r.Body, ns(r.Expires)); err != nil {
			return fmt.Errorf("postgres: keep result: %w", err)
		}
		return nil
	})
}

// TakeResult returns the learner's result for the lesson and deletes it,
// whichever server kept it: the one DELETE … RETURNING lets only one of
// two servers answering at once have it.
func (s *Store) TakeResult(ctx context.Context, learnerID, lessonSlug string, now time.Time) (progress.ResultToShow, error) {
	r := progress.ResultToShow{LearnerID: learnerID, LessonSlug: lessonSlug}
	var expires int64
	err := s.pool.QueryRow(ctx, `DELETE FROM results_to_show WHERE learner_id = $1 AND lesson_slug = $2
		RETURNING part_id, body, expires_at`, learnerID, lessonSlug).Scan(&r.PartID, &r.Body, &expires)
	if err != nil {
		return r, fmt.Errorf("postgres: take result for %s: %w", lessonSlug, notFound(err))
	}
	r.Expires = fromNS(expires)
	if !now.Before(r.Expires) {
		return progress.ResultToShow{}, fmt.Errorf("postgres: take result for %s: expired: %w", lessonSlug, ErrNotFound)
	}
	return r, nil
}
