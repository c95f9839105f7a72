package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"learn/progress"
)

// KeepResult saves a result to show once, replacing the learner's earlier
// one for the lesson, and drops every result that has expired by now.
func (s *DB) KeepResult(ctx context.Context, r progress.ResultToShow, now time.Time) error {
	return s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM results_to_show WHERE expires_at <= ?", s.t(now)); err != nil {
			return fmt.Errorf("storage: keep result: drop expired: %w", err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO results_to_show (learner_id, lesson_slug, part_id, body, expires_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (learner_id, lesson_slug) DO UPDATE SET part_id = excluded.part_id, body = excluded.body, expires_at = excluded.expires_at`,
			r.LearnerID, r.LessonSlug, r.PartID, r.Body, s.t(r.Expires)); err != nil {
			return fmt.Errorf("storage: keep result: %w", err)
		}
		return nil
	})
}

// TakeResult returns the learner's result for the lesson and deletes it.
func (s *DB) TakeResult(ctx context.Context, learnerID, lessonSlug string, now time.Time) (progress.ResultToShow, error) {
	r := progress.ResultToShow{LearnerID: learnerID, LessonSlug: lessonSlug}
	var expires string
	// DELETE … RETURNING: SQLite 3.35 and PostgreSQL both have it.
	err := s.row(ctx, `DELETE FROM results_to_show WHERE learner_id = ? AND lesson_slug = ?
		RETURNING part_id, body, expires_at`, learnerID, lessonSlug).Scan(&r.PartID, &r.Body, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("storage: take result for %s: %w", lessonSlug, ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("storage: take result for %s: %w", lessonSlug, err)
	}
	if r.Expires, err = parseTime(expires); err != nil {
		return r, fmt.Errorf("storage: take result for %s: %w", lessonSlug, err)
	}
	if !now.Before(r.Expires) {
		return progress.ResultToShow{}, fmt.Errorf("storage: take result for %s: expired: %w", lessonSlug, ErrNotFound)
	}
	return r, nil
}

// LastAttempts returns the learner's latest widget and quiz attempt (not
// reviews) per "lessonSlug/widgetID".
func (s *DB) LastAttempts(ctx context.Context, learnerID string) (map[string]progress.Attempt, error) {
	rows, err := s.rows(ctx, `SELECT lesson_slug, widget_id, kind, score, total, passed, answers, created_at
		FROM attempts WHERE learner_id = ? AND kind NOT IN ('review', 'exercise') ORDER BY created_at, id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: last attempts: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.Attempt{}
	for rows.Next() {
		a := progress.Attempt{LearnerID: learnerID}
		var at string
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.Score, &a.Total, &a.Passed, &a.Answers, &at); err != nil {
			return nil, fmt.Errorf("storage: last attempts: %w", err)
		}
		if a.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("storage: last attempts: %w", err)
		}
		out[a.LessonSlug+"/"+a.WidgetID] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: last attempts: %w", err)
	}
	return out, nil
}
