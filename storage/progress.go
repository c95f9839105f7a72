package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"learn/progress"
)

// MarkLessonOpened records that the learner opened the lesson. Only the first
// opening is kept.
func (s *DB) MarkLessonOpened(ctx context.Context, learnerID, slug string, now time.Time) error {
	if _, err := s.exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at)
		VALUES (?, ?, ?) ON CONFLICT (learner_id, lesson_slug) DO NOTHING`,
		learnerID, slug, s.t(now)); err != nil {
		return fmt.Errorf("storage: mark lesson %q opened: %w", slug, err)
	}
	return nil
}

// completeLesson marks the lesson completed inside tx, opening it too if
// needed; only the first completion is kept.
func completeLesson(ctx context.Context, tx q, learnerID, slug string, now time.Time) error {
	t := tx.t(now)
	if _, err := tx.exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at, completed_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (learner_id, lesson_slug)
		DO UPDATE SET completed_at = coalesce(lesson_progress.completed_at, excluded.completed_at)`,
		learnerID, slug, t, t); err != nil {
		return fmt.Errorf("storage: mark lesson %q completed: %w", slug, err)
	}
	return nil
}

// ProgressByLesson returns the learner's progress keyed by lesson slug.
// Lessons never opened are absent.
func (s *DB) ProgressByLesson(ctx context.Context, learnerID string) (map[string]progress.LessonProgress, error) {
	rows, err := s.rows(ctx,
		"SELECT lesson_slug, opened_at, completed_at FROM lesson_progress WHERE learner_id = ?", learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: progress: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.LessonProgress{}
	for rows.Next() {
		var p progress.LessonProgress
		var opened string
		var completed sql.NullString
		if err := rows.Scan(&p.LessonSlug, &opened, &completed); err != nil {
			return nil, fmt.Errorf("storage: progress: %w", err)
		}
		if p.OpenedAt, err = parseTime(opened); err != nil {
			return nil, fmt.Errorf("storage: progress: %w", err)
		}
		if completed.Valid {
			if p.CompletedAt, err = parseTime(completed.String); err != nil {
				return nil, fmt.Errorf("storage: progress: %w", err)
			}
		}
		out[p.LessonSlug] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: progress: %w", err)
	}
	return out, nil
}
