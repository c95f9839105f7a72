package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"learn/progress"
)

// RecordAttempt saves the attempt and its effects in one transaction, and
// reports whether its award was granted by this call. Two servers posting
// the same award at once both commit their attempts; the unique key of
// xp_awards lets only one of them grant it.
func (s *Store) RecordAttempt(ctx context.Context, a progress.Attempt, fx progress.AttemptEffects) (granted bool, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := ensureLearner(ctx, tx, a.LearnerID, a.At); err != nil {
			return err
		}
		if err := insertAttempt(ctx, tx, a, a.Kind); err != nil {
			return err
		}
		if fx.Award != nil {
			var err error
			if granted, err = awardXP(ctx, tx, a.LearnerID, *fx.Award, a.At); err != nil {
				return err
			}
		}
		if fx.CompleteLesson {
			if err := completeLesson(ctx, tx, a.LearnerID, a.LessonSlug, a.At); err != nil {
				return err
			}
		}
		for _, c := range fx.Missed {
			if err := queueReview(ctx, tx, a.LearnerID, c, a.At); err != nil {
				return err
			}
		}
		return nil
	})
	return granted, err
}

func insertAttempt(ctx context.Context, tx pgx.Tx, a progress.Attempt, kind string) error {
	if _, err := tx.Exec(ctx, `INSERT INTO attempts
		(learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		a.LearnerID, a.LessonSlug, a.WidgetID, kind, a.Score, a.Total, a.Passed, a.Answers, ns(a.At)); err != nil {
		return fmt.Errorf("postgres: record attempt: %w", err)
	}
	return nil
}

// ActivityTimes returns when the learner made each attempt, oldest first.
func (s *Store) ActivityTimes(ctx context.Context, learnerID string) ([]time.Time, error) {
	rows, err := s.pool.Query(ctx,
		"SELECT created_at FROM attempts WHERE learner_id = $1 ORDER BY created_at", learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: activity: %w", err)
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, fmt.Errorf("postgres: activity: %w", err)
		}
		out = append(out, fromNS(at))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: activity: %w", err)
	}
	return out, nil
}

// QuizScores returns the learner's quiz attempts per lesson: first and
// best score, count, whether any passed, and when the last was made.
func (s *Store) QuizScores(ctx context.Context, learnerID string) (map[string]progress.QuizScore, error) {
	rows, err := s.pool.Query(ctx, `SELECT lesson_slug, score, total, passed, created_at
		FROM attempts WHERE learner_id = $1 AND kind = 'quiz' ORDER BY created_at, id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: quiz scores: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.QuizScore{}
	for rows.Next() {
		var slug string
		var score, total int
		var passed bool
		var at int64
		if err := rows.Scan(&slug, &score, &total, &passed, &at); err != nil {
			return nil, fmt.Errorf("postgres: quiz scores: %w", err)
		}
		q, seen := out[slug]
		if !seen {
			q = progress.QuizScore{LessonSlug: slug, First: score}
		}
		q.Best = max(q.Best, score)
		q.Total = max(q.Total, total)
		q.Attempts++
		q.Passed = q.Passed || passed
		q.LastAt = fromNS(at)
		out[slug] = q
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: quiz scores: %w", err)
	}
	return out, nil
}

// AttemptCounts returns how many attempts the learner made at each widget,
// keyed "lessonSlug/widgetID".
func (s *Store) AttemptCounts(ctx context.Context, learnerID string) (map[string]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT lesson_slug, widget_id, count(*) FROM attempts
		WHERE learner_id = $1 AND kind NOT IN ('review', 'exercise') GROUP BY lesson_slug, widget_id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: attempt counts: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var slug, widget string
		var n int
		if err := rows.Scan(&slug, &widget, &n); err != nil {
			return nil, fmt.Errorf("postgres: attempt counts: %w", err)
		}
		out[slug+"/"+widget] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: attempt counts: %w", err)
	}
	return out, nil
}

// LastAttempts returns the learner's latest widget and quiz attempt (not
// reviews) per "lessonSlug/widgetID"; ties in time go to the one recorded
// last.
func (s *Store) LastAttempts(ctx context.Context, learnerID string) (map[string]progress.Attempt, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT ON (lesson_slug, widget_id)
		lesson_slug, widget_id, kind, score, total, passed, answers, created_at
		FROM attempts WHERE learner_id = $1 AND kind NOT IN ('review', 'exercise')
		ORDER BY lesson_slug, widget_id, created_at DESC, id DESC`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: last attempts: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.Attempt{}
	for rows.Next() {
		a := progress.Attempt{LearnerID: learnerID}
		var at int64
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.Score, &a.Total, &a.Passed, &a.Answers, &at); err != nil {
			return nil, fmt.Errorf("postgres: last attempts: %w", err)
		}
		a.At = fromNS(at)
		out[a.LessonSlug+"/"+a.WidgetID] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: last attempts: %w", err)
	}
	return out, nil
}
