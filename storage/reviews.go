package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"learn/progress"
	"learn/quiz"
)

const reviewColumns = "item_key, lesson_slug, widget_id, item_id, state, step, stability, difficulty, due, last_review, reps, lapses"

func queueReview(ctx context.Context, tx q, learnerID string, c progress.ReviewCard, now time.Time) error {
	_, err := tx.exec(ctx, `INSERT INTO review_cards (learner_id, `+reviewColumns+`, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (learner_id, item_key) DO UPDATE SET due = CASE
			WHEN excluded.due < review_cards.due THEN excluded.due ELSE review_cards.due END`,
		learnerID, c.Key, c.LessonSlug, c.WidgetID, c.ItemID, int(c.Card.State), c.Card.Step, c.Card.Stability,
		c.Card.Difficulty, tx.t(c.Card.Due), tx.nt(c.Card.LastReview), c.Card.Reps, c.Card.Lapses, tx.t(now))
	if err != nil {
		return fmt.Errorf("storage: queue review %q: %w", c.Key, err)
	}
	return nil
}

func scanReview(sc scanner) (progress.ReviewCard, error) {
	var c progress.ReviewCard
	var state int
	var due string
	var last sql.NullString
	if err := sc.Scan(&c.Key, &c.LessonSlug, &c.WidgetID, &c.ItemID, &state, &c.Card.Step, &c.Card.Stability,
		&c.Card.Difficulty, &due, &last, &c.Card.Reps, &c.Card.Lapses); err != nil {
		return c, err
	}
	c.Card.State = quiz.State(state)
	var err error
	if c.Card.Due, err = parseTime(due); err != nil {
		return c, err
	}
	if last.Valid {
		if c.Card.LastReview, err = parseTime(last.String); err != nil {
			return c, err
		}
	}
	return c, nil
}

// DueReviews returns up to limit of the learner's cards due at now, the
// longest overdue first.
func (s *DB) DueReviews(ctx context.Context, learnerID string, now time.Time, limit int) ([]progress.ReviewCard, error) {
	rows, err := s.rows(ctx, "SELECT "+reviewColumns+
		" FROM review_cards WHERE learner_id = ? AND due <= ? ORDER BY due, item_key LIMIT ?",
		learnerID, s.t(now), limit)
	if err != nil {
		return nil, fmt.Errorf("storage: due reviews: %w", err)
	}
	defer rows.Close()
	var out []progress.ReviewCard
	for rows.Next() {
		c, err := scanReview(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: due reviews: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: due reviews: %w", err)
	}
	return out, nil
}

// ReviewCounts returns how many of the learner's cards are due at now and
// how many are in the queue.
func (s *DB) ReviewCounts(ctx context.Context, learnerID string, now time.Time) (due, total int, err error) {
	err = s.row(ctx,
		"SELECT coalesce(sum(CASE WHEN due <= ? THEN 1 ELSE 0 END), 0), count(*) FROM review_cards WHERE learner_id = ?",
		s.t(now), learnerID).Scan(&due, &total)
	if err != nil {
		return 0, 0, fmt.Errorf("storage: review counts: %w", err)
	}
	return due, total, nil
}

// FindReview returns one card of the learner's queue, or an error wrapping
// ErrNotFound.
func (s *DB) FindReview(ctx context.Context, learnerID, key string) (progress.ReviewCard, error) {
	c, err := scanReview(s.row(ctx, "SELECT "+reviewColumns+
		" FROM review_cards WHERE learner_id = ? AND item_key = ?", learnerID, key))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("storage: review %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("storage: review %q: %w", key, err)
	}
	return c, nil
}

// AnswerReview reschedules the card and records the attempt and award in
// one transaction. applied is false when the card had already moved on (the
// same answer posted twice); then nothing is written.
func (s *DB) AnswerReview(ctx context.Context, a progress.ReviewAnswer) (applied, granted bool, err error) {
	err = s.inTx(ctx, func(tx q) error {
		b, n := a.Before.Card, a.After.Card
		res, err := tx.exec(ctx, `UPDATE review_cards SET state = ?, step = ?, stability = ?, difficulty = ?,
			due = ?, last_review = ?, reps = ?, lapses = ?
			WHERE learner_id = ? AND item_key = ? AND reps = ? AND due = ?`,
			int(n.State), n.Step, n.Stability, n.Difficulty, s.t(n.Due), s.nt(n.LastReview), n.Reps, n.Lapses,
			a.Attempt.LearnerID, a.Before.Key, b.Reps, s.t(b.Due))
		if err != nil {
			return fmt.Errorf("storage: answer review %q: %w", a.Before.Key, err)
		}
		if rows, _ := res.RowsAffected(); rows == 0 {
			return nil
		}
		applied = true
		if _, err := tx.exec(ctx, `INSERT INTO attempts
			(learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at)
			VALUES (?, ?, ?, 'review', ?, ?, ?, ?, ?)`,
			a.Attempt.LearnerID, a.Attempt.LessonSlug, a.Attempt.WidgetID, a.Attempt.Score, a.Attempt.Total,
			a.Attempt.Passed, a.Attempt.Answers, s.t(a.Attempt.At)); err != nil {
			return fmt.Errorf("storage: answer review %q: %w", a.Before.Key, err)
		}
		if a.Award != nil {
			if granted, err = awardXP(ctx, tx, a.Attempt.LearnerID, *a.Award, a.Attempt.At); err != nil {
				return err
			}
		}
		return nil
	})
	return applied, granted, err
}
