package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"learn/progress"
	"learn/quiz"
)

const reviewColumns = "item_key, lesson_slug, widget_id, item_id, state, step, stability, difficulty, due, last_review, reps, lapses"

func queueReview(ctx context.Context, tx pgx.Tx, learnerID string, c progress.ReviewCard, now time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO review_cards (learner_id, `+reviewColumns+`, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
		ON CONFLICT (learner_id, item_key) DO UPDATE SET due = least(review_cards.due, excluded.due)`,
		learnerID, c.Key, c.LessonSlug, c.WidgetID, c.ItemID, int(c.Card.State), c.Card.Step, c.Card.Stability,
		c.Card.Difficulty, ns(c.Card.Due), nullNS(c.Card.LastReview), c.Card.Reps, c.Card.Lapses, ns(now))
	if err != nil {
		return fmt.Errorf("postgres: queue review %q: %w", c.Key, err)
	}
	return nil
}

func scanReview(row pgx.Row) (progress.ReviewCard, error) {
	var c progress.ReviewCard
	var state int
	var due int64
	var last *int64
	if err := row.Scan(&c.Key, &c.LessonSlug, &c.WidgetID, &c.ItemID, &state, &c.Card.Step, &c.Card.Stability,
		&c.Card.Difficulty, &due, &last, &c.Card.Reps, &c.Card.Lapses); err != nil {
		return c, err
	}
	c.Card.State = quiz.State(state)
	c.Card.Due, c.Card.LastReview = fromNS(due), fromNullNS(last)
	return c, nil
}

// DueReviews returns up to limit of the learner's cards due at now, the
// longest overdue first (ties by key).
func (s *Store) DueReviews(ctx context.Context, learnerID string, now time.Time, limit int) ([]progress.ReviewCard, error) {
	// COLLATE "C": ties break by the key's bytes, as in SQLite, whatever
	// the database's collation.
	rows, err := s.pool.Query(ctx, "SELECT "+reviewColumns+
		` FROM review_cards WHERE learner_id = $1 AND due <= $2 ORDER BY due, item_key COLLATE "C" LIMIT $3`,
		learnerID, ns(now), limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: due reviews: %w", err)
	}
	defer rows.Close()
	var out []progress.ReviewCard
	for rows.Next() {
		c, err := scanReview(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: due reviews: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: due reviews: %w", err)
	}
	return out, nil
}

// ReviewCounts returns how many of the learner's cards are due at now and
// how many are in the queue.
func (s *Store) ReviewCounts(ctx context.Context, learnerID string, now time.Time) (due, total int, err error) {
	err = s.pool.QueryRow(ctx,
		"SELECT count(*) FILTER (WHERE due <= $1), count(*) FROM review_cards WHERE learner_id = $2",
		ns(now), learnerID).Scan(&due, &total)
	if err != nil {
		return 0, 0, fmt.Errorf("postgres: review counts: %w", err)
	}
	return due, total, nil
}

// FindReview returns one card of the learner's queue, or an error wrapping
// ErrNotFound.
func (s *Store) FindReview(ctx context.Context, learnerID, key string) (progress.ReviewCard, error) {
	c, err := scanReview(s.pool.QueryRow(ctx, "SELECT "+reviewColumns+
		" FROM review_cards WHERE learner_id = $1 AND item_key = $2", learnerID, key))
	if err != nil {
		return c, fmt.Errorf("postgres: review %q: %w", key, notFound(err))
	}
	return c, nil
}

// AnswerReview reschedules the card and records the attempt and award in
// one transaction. applied is false when the card had already moved on
// (the same answer posted twice, to this server or another); then nothing
// is written. Two such posts at once serialise on the card's row: the
// second re-reads it after the first commits and matches nothing.
func (s *Store) AnswerReview(ctx context.Context, a progress.ReviewAnswer) (applied, granted bool, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		b, n := a.Before.Card, a.After.Card
		tag, err := tx.Exec(ctx, `UPDATE review_cards SET state = $1, step = $2, stability = $3, difficulty = $4,
			due = $5, last_review = $6, reps = $7, lapses = $8
			WHERE learner_id = $9 AND item_key = $10 AND reps = $11 AND due = $12`,
			int(n.State), n.Step, n.Stability, n.Difficulty, ns(n.Due), nullNS(n.LastReview), n.Reps, n.Lapses,
			a.Attempt.LearnerID, a.Before.Key, b.Reps, ns(b.Due))
		if err != nil {
			return fmt.Errorf("postgres: answer review %q: %w", a.Before.Key, err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		applied = true
		if err := insertAttempt(ctx, tx, a.Attempt, "review"); err != nil {
			return fmt.Errorf("postgres: answer review %q: %w", a.Before.Key, err)
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
