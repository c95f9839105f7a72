package storage

import (
	"context"
	"fmt"
	"time"

	"learn/progress"
)

// RecordAttempt saves the attempt and its effects in one transaction, and
// reports whether its award was granted by this call.
func (s *DB) RecordAttempt(ctx context.Context, a progress.Attempt, fx progress.AttemptEffects) (granted bool, err error) {
	err = s.inTx(ctx, func(tx q) error {
		if err := ensureLearner(ctx, tx, a.LearnerID, a.At); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO attempts
			(learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.LearnerID, a.LessonSlug, a.WidgetID, a.Kind, a.Score, a.Total, a.Passed, a.Answers, s.t(a.At)); err != nil {
			return fmt.Errorf("storage: record attempt: %w", err)
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

func ensureLearner(ctx context.Context, tx q, id string, now time.Time) error {
	if _, err := tx.exec(ctx,
		"INSERT INTO learners (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", id, tx.t(now)); err != nil {
		return fmt.Errorf("storage: ensure learner: %w", err)
	}
	return nil
}

// ActivityTimes returns when the learner made each attempt, oldest first:
// the input of streaks and the activity calendar.
func (s *DB) ActivityTimes(ctx context.Context, learnerID string) ([]time.Time, error) {
	rows, err := s.rows(ctx,
		"SELECT created_at FROM attempts WHERE learner_id = ? ORDER BY created_at", learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: activity: %w", err)
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var at string
		if err := rows.Scan(&at); err != nil {
			return nil, fmt.Errorf("storage: activity: %w", err)
		}
		t, err := parseTime(at)
		if err != nil {
			return nil, fmt.Errorf("storage: activity: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: activity: %w", err)
	}
	return out, nil
}

// QuizScores returns the learner's quiz attempts per lesson: first and
// best score, count, whether any passed, and when the last was made.
func (s *DB) QuizScores(ctx context.Context, learnerID string) (map[string]progress.QuizScore, error) {
	rows, err := s.rows(ctx, `SELECT lesson_slug, score, total, passed, created_at
		FROM attempts WHERE learner_id = ? AND kind = 'quiz' ORDER BY created_at, id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: quiz scores: %w", err)
	}
	defer rows.Close()
	out := map[string]progress.QuizScore{}
	for rows.Next() {
		var slug, at string
		var score, total int
		var passed bool
		if err := rows.Scan(&slug, &score, &total, &passed, &at); err != nil {
			return nil, fmt.Errorf("storage: quiz scores: %w", err)
		}
		t, err := parseTime(at)
		if err != nil {
			return nil, fmt.Errorf("storage: quiz scores: %w", err)
		}
		q, seen := out[slug]
		if !seen {
			q = progress.QuizScore{LessonSlug: slug, First: score}
		}
		q.Best = max(q.Best, score)
		q.Total = max(q.Total, total)
		q.Attempts++
		q.Passed = q.Passed || passed
		q.LastAt = t
		out[slug] = q
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: quiz scores: %w", err)
	}
	return out, nil
}

// AttemptCounts returns how many attempts the learner made at each widget,
// keyed "lessonSlug/widgetID".
func (s *DB) AttemptCounts(ctx context.Context, learnerID string) (map[string]int, error) {
	rows, err := s.rows(ctx, `SELECT lesson_slug, widget_id, count(*) FROM attempts
		WHERE learner_id = ? AND kind NOT IN ('review', 'exercise') GROUP BY lesson_slug, widget_id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: attempt counts: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var slug, widget string
		var n int
		if err := rows.Scan(&slug, &widget, &n); err != nil {
			return nil, fmt.Errorf("storage: attempt counts: %w", err)
		}
		out[slug+"/"+widget] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: attempt counts: %w", err)
	}
	return out, nil
}
