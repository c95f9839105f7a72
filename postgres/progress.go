package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"learn/progress"
)

// MarkLessonOpened records that the learner opened the lesson. Only the
// first opening is kept.
func (s *Store) MarkLessonOpened(ctx context.Context, learnerID, slug string, now time.Time) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at)
		VALUES ($1, $2, $3) ON CONFLICT (learner_id, lesson_slug) DO NOTHING`,
		learnerID, slug, ns(now)); err != nil {
		return fmt.Errorf("postgres: mark lesson %q opened: %w", slug, err)
	}
	return nil
}

// completeLesson marks the lesson completed inside tx, opening it too if
// needed; only the first completion is kept.
func completeLesson(ctx context.Context, tx pgx.Tx, learnerID, slug string, now time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at, completed_at)
		VALUES ($1, $2, $3, $3) ON CONFLICT (learner_id, lesson_slug)
		DO UPDATE SET completed_at = coalesce(lesson_progress.completed_at, excluded.completed_at)`,
		learnerID, slug, ns(now)); err != nil {
		return fmt.Errorf("postgres: mark lesson %q completed: %w", slug, err)
	}
	return nil
}

// ProgressByLesson returns the learner's progress keyed by lesson slug.
// Lessons never opened are absent.
func (s *Store) ProgressByLesson(ctx context.Context, learnerID string) (map[string]progress.LessonProgress, error) {
	rows, err := s.pool.Query(ctx,
		"SELECT lesson_slug, opened_at, completed_at FROM lesson_progress WHERE learner_id = $1", learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: progress: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.LessonProgress{}
	for rows.Next() {
		var p progress.LessonProgress
		var opened int64
		var completed *int64
		if err := rows.Scan(&p.LessonSlug, &opened, &completed); err != nil {
			return nil, fmt.Errorf("postgres: progress: %w", err)
		}
		p.OpenedAt, p.CompletedAt = fromNS(opened), fromNullNS(completed)
		out[p.LessonSlug] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: progress: %w", err)
	}
	return out, nil
}
