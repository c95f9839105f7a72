package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"learn/progress"
	"learn/quiz"
)

// The learning part of the store (progress.LearningStore): learners, lesson
// progress, attempts, results to show, submissions, XP and reviews.

// EnsureLearner creates the learner with this id if it does not exist yet
// and returns it. It is safe to call on every request that needs a learner.
func (s *DB) EnsureLearner(ctx context.Context, id string, now time.Time) (progress.Learner, error) {
	if id == "" {
		return progress.Learner{}, errors.New("storage: ensure learner: empty id")
	}
	if err := ensureLearner(ctx, s.q, id, now); err != nil {
		return progress.Learner{}, err
	}
	return s.FindLearner(ctx, id)
}

func ensureLearner(ctx context.Context, tx q, id string, now time.Time) error {
	if _, err := tx.exec(ctx,
		"INSERT INTO learners (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", id, tx.t(now)); err != nil {
		return fmt.Errorf("storage: ensure learner: %w", err)
	}
	return nil
}

// FindLearner returns the learner with this id, or an error wrapping
// ErrNotFound.
func (s *DB) FindLearner(ctx context.Context, id string) (progress.Learner, error) {
	var l progress.Learner
	err := s.row(ctx, "SELECT id, created_at, time_zone FROM learners WHERE id = ?", id).Scan(&l.ID, at(&l.CreatedAt), &l.TimeZone)
	return l, notFoundOr(err, "storage: find learner %q", id)
}

// SetTimeZone records the learner's IANA time zone name. The caller
// validates the name; the store keeps what it is given.
func (s *DB) SetTimeZone(ctx context.Context, learnerID, zone string) error {
	res, err := s.exec(ctx, "UPDATE learners SET time_zone = ? WHERE id = ?", zone, learnerID)
	return changed(res, err, "storage: set time zone for %q", learnerID)
}

// MarkLessonOpened records that the learner opened the lesson. Only the
// first opening is kept.
func (s *DB) MarkLessonOpened(ctx context.Context, learnerID, slug string, now time.Time) error {
	if _, err := s.exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at)
		VALUES (?, ?, ?) ON CONFLICT (learner_id, lesson_slug) DO NOTHING`, learnerID, slug, s.t(now)); err != nil {
		return fmt.Errorf("storage: mark lesson %q opened: %w", slug, err)
	}
	return nil
}

// completeLesson marks the lesson completed inside tx, opening it too if
// needed; only the first completion is kept.
func completeLesson(ctx context.Context, tx q, learnerID, slug string, now time.Time) error {
	if _, err := tx.exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at, completed_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (learner_id, lesson_slug)
		DO UPDATE SET completed_at = coalesce(lesson_progress.completed_at, excluded.completed_at)`,
		learnerID, slug, tx.t(now), tx.t(now)); err != nil {
		return fmt.Errorf("storage: mark lesson %q completed: %w", slug, err)
	}
	return nil
}

// ProgressByLesson returns the learner's progress keyed by lesson slug.
// Lessons never opened are absent.
func (s *DB) ProgressByLesson(ctx context.Context, learnerID string) (map[string]progress.LessonProgress, error) {
	out := map[string]progress.LessonProgress{}
	return out, s.each(ctx, "progress", func(sc scanner) error {
		var p progress.LessonProgress
		err := sc.Scan(&p.LessonSlug, at(&p.OpenedAt), at(&p.CompletedAt))
		out[p.LessonSlug] = p
		return err
	}, "SELECT lesson_slug, opened_at, completed_at FROM lesson_progress WHERE learner_id = ?", learnerID)
}

// RecordAttempt saves the attempt and its effects in one transaction, and
// reports whether its award was granted by this call. Two servers posting
// the same award at once both commit their attempts; the unique key of
// xp_awards lets only one of them grant it.
func (s *DB) RecordAttempt(ctx context.Context, a progress.Attempt, fx progress.AttemptEffects) (granted bool, err error) {
	err = s.inTx(ctx, func(tx q) error {
		if err := ensureLearner(ctx, tx, a.LearnerID, a.At); err != nil {
			return err
		}
		id, err := insertAttempt(ctx, tx, a, a.Kind)
		if err != nil {
			return err
		}
		if qa := fx.Quiz; qa != nil {
			res, err := tx.exec(ctx, `INSERT INTO quiz_attempts (learner_id, lesson_slug, quiz_id, number, draw, passed, started_at, finished_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (learner_id, lesson_slug, quiz_id, number) DO NOTHING`,
				a.LearnerID, qa.LessonSlug, qa.QuizID, qa.Number, qa.Draw, qa.Passed, tx.t(qa.StartedAt), tx.t(qa.FinishedAt))
			if err != nil {
				return fmt.Errorf("storage: record quiz attempt %d: %w", qa.Number, err)
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return fmt.Errorf("storage: record quiz attempt %d: already recorded: %w", qa.Number, ErrConflict)
			}
		}
		if fx.Award != nil {
			if granted, err = awardXP(ctx, tx, a.LearnerID, *fx.Award, id, a.At); err != nil {
				return err
			}
		}
		completes := false
		if fx.CompleteLesson && fx.Score != nil {
			done, err := lessonCompleted(ctx, tx, a.LearnerID, a.LessonSlug)
			if err != nil {
				return err
			}
			completes = !done
		}
		if fx.CompleteLesson {
			if err := completeLesson(ctx, tx, a.LearnerID, a.LessonSlug, a.At); err != nil {
				return err
			}
		} else if a.Kind != "review" && a.LessonSlug != "" {
			// An answer in a lesson opens it, if no page view did (a form
			// posted before the lesson's first visit was recorded).
			if _, err := tx.exec(ctx, `INSERT INTO lesson_progress (learner_id, lesson_slug, opened_at)
				VALUES (?, ?, ?) ON CONFLICT (learner_id, lesson_slug) DO NOTHING`, a.LearnerID, a.LessonSlug, tx.t(a.At)); err != nil {
				return fmt.Errorf("storage: open lesson %q with an answer: %w", a.LessonSlug, err)
			}
		}
		for _, c := range fx.Missed {
			if err := queueReview(ctx, tx, a.LearnerID, c, a.At); err != nil {
				return err
			}
		}
		if fx.Score != nil && (granted || completes) {
			return queueScore(ctx, tx, a.LearnerID, *fx.Score, a.At)
		}
		return nil
	})
	return granted, err
}

// insertAttempt writes the attempt and returns its id.
func insertAttempt(ctx context.Context, tx q, a progress.Attempt, kind string) (int64, error) {
	var id int64
	if err := tx.row(ctx, `INSERT INTO attempts
		(learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		a.LearnerID, a.LessonSlug, a.WidgetID, kind, a.Score, a.Total, a.Passed, a.Answers, tx.t(a.At)).Scan(&id); err != nil {
		return 0, fmt.Errorf("storage: record %s attempt: %w", kind, err)
	}
	return id, nil
}

// ActivityTimes returns when the learner made each attempt, oldest first:
// the input of streaks and the activity calendar.
func (s *DB) ActivityTimes(ctx context.Context, learnerID string) ([]time.Time, error) {
	var out []time.Time
	return out, s.each(ctx, "activity", func(sc scanner) error {
		var t time.Time
		err := sc.Scan(at(&t))
		out = append(out, t)
		return err
	}, "SELECT created_at FROM attempts WHERE learner_id = ? ORDER BY created_at", learnerID)
}

// addQuiz counts one quiz attempt into q (its first when seen is false).
func addQuiz(q progress.QuizScore, seen bool, slug string, score, total int, passed bool, t time.Time) progress.QuizScore {
	if !seen {
		q = progress.QuizScore{LessonSlug: slug, First: score}
	}
	q.Best, q.Total = max(q.Best, score), max(q.Total, total)
	q.Attempts++
	q.Passed = q.Passed || passed
	q.LastAt = t
	return q
}

// QuizScores returns the learner's quiz attempts per lesson: first and
// best score, count, whether any passed, and when the last was made.
func (s *DB) QuizScores(ctx context.Context, learnerID string) (map[string]progress.QuizScore, error) {
	out := map[string]progress.QuizScore{}
	return out, s.each(ctx, "quiz scores", func(sc scanner) error {
		var slug string
		var score, total int
		var passed bool
		var t time.Time
		if err := sc.Scan(&slug, &score, &total, &passed, at(&t)); err != nil {
			return err
		}
		q, seen := out[slug]
		out[slug] = addQuiz(q, seen, slug, score, total, passed, t)
		return nil
	}, `SELECT lesson_slug, score, total, passed, created_at
		FROM attempts WHERE learner_id = ? AND kind = 'quiz' ORDER BY created_at, id`, learnerID)
}

// QuizAttempts returns the learner's attempts at one quiz, by number.
func (s *DB) QuizAttempts(ctx context.Context, learnerID, lessonSlug, quizID string) ([]progress.QuizAttempt, error) {
	var out []progress.QuizAttempt
	return out, s.each(ctx, "quiz attempts", func(sc scanner) error {
		a := progress.QuizAttempt{LearnerID: learnerID, LessonSlug: lessonSlug, QuizID: quizID}
		err := sc.Scan(&a.Number, &a.Draw, &a.Passed, at(&a.StartedAt), at(&a.FinishedAt), &a.Reset)
		out = append(out, a)
		return err
	}, `SELECT q.number, q.draw, q.passed, q.started_at, q.finished_at,
			EXISTS (SELECT 1 FROM attempt_resets r WHERE r.learner_id = q.learner_id AND r.lesson_slug = q.lesson_slug
				AND r.widget_id = q.quiz_id AND r.kind = 'quiz' AND r.reset_at >= q.finished_at)
		FROM quiz_attempts q
		WHERE q.learner_id = ? AND q.lesson_slug = ? AND q.quiz_id = ? ORDER BY q.number`, learnerID, lessonSlug, quizID)
}

// afterExerciseReset keeps the submissions s (an alias) that no exercise
// reset of the learner came at or after.
const afterExerciseReset = `NOT EXISTS (SELECT 1 FROM attempt_resets r WHERE r.learner_id = s.learner_id
	AND r.kind = 'exercise' AND r.widget_id = s.exercise_id AND r.reset_at >= s.created_at)`

// AddReset records a teacher's reset of a learner's attempts; an
// exercise's reset also forgets the learner's latest code for it, so the
// editor opens on the starter again (every submission keeps its code).
func (s *DB) AddReset(ctx context.Context, r progress.Reset) error {
	kind := r.Kind
	if kind == "" {
		kind = progress.ResetQuizKind
	}
	return s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, `INSERT INTO attempt_resets (class_id, learner_id, lesson_slug, widget_id, kind, reset_at) VALUES (?, ?, ?, ?, ?, ?)`,
			sql.NullInt64{Int64: r.ClassID, Valid: r.ClassID != 0}, r.LearnerID, r.LessonSlug, r.WidgetID, kind, tx.t(r.At)); err != nil {
			return fmt.Errorf("storage: record a reset: %w", err)
		}
		if kind != progress.ResetExerciseKind {
			return nil
		}
		if _, err := tx.exec(ctx, "DELETE FROM exercise_code WHERE learner_id = ? AND exercise_id = ?", r.LearnerID, r.WidgetID); err != nil {
			return fmt.Errorf("storage: reset exercise %s: forget the latest code: %w", r.WidgetID, err)
		}
		return nil
	})
}

// Resets returns the learner's resets, oldest first.
func (s *DB) Resets(ctx context.Context, learnerID string) ([]progress.Reset, error) {
	var out []progress.Reset
	return out, s.each(ctx, "resets", func(sc scanner) error {
		r := progress.Reset{LearnerID: learnerID}
		var class sql.NullInt64
		err := sc.Scan(&class, &r.LessonSlug, &r.WidgetID, &r.Kind, at(&r.At))
		r.ClassID = class.Int64
		out = append(out, r)
		return err
	}, "SELECT class_id, lesson_slug, widget_id, kind, reset_at FROM attempt_resets WHERE learner_id = ? ORDER BY reset_at, id", learnerID)
}

// AttemptCounts returns how many attempts the learner made at each widget,
// keyed "lessonSlug/widgetID".
func (s *DB) AttemptCounts(ctx context.Context, learnerID string) (map[string]int, error) {
	out := map[string]int{}
	return out, s.each(ctx, "attempt counts", func(sc scanner) error {
		var slug, widget string
		var n int
		err := sc.Scan(&slug, &widget, &n)
		out[slug+"/"+widget] = n
		return err
	}, `SELECT lesson_slug, widget_id, count(*) FROM attempts
		WHERE learner_id = ? AND kind NOT IN ('review', 'exercise') GROUP BY lesson_slug, widget_id`, learnerID)
}

// attemptColumns are an attempt's columns, read by scanAttempt.
const attemptColumns = "lesson_slug, widget_id, kind, score, total, passed, answers, created_at"

func scanAttempt(sc scanner, learnerID string) (progress.Attempt, error) {
	a := progress.Attempt{LearnerID: learnerID}
	err := sc.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.Score, &a.Total, &a.Passed, &a.Answers, at(&a.At))
	return a, err
}

// LastAttempts returns the learner's latest widget and quiz attempt (not
// reviews) per "lessonSlug/widgetID"; ties in time go to the one recorded
// last.
func (s *DB) LastAttempts(ctx context.Context, learnerID string) (map[string]progress.Attempt, error) {
	out := map[string]progress.Attempt{}
	return out, s.each(ctx, "last attempts", func(sc scanner) error {
		a, err := scanAttempt(sc, learnerID)
		out[a.LessonSlug+"/"+a.WidgetID] = a
		return err
	}, "SELECT "+attemptColumns+` FROM attempts
		WHERE learner_id = ? AND kind NOT IN ('review', 'exercise') ORDER BY created_at, id`, learnerID)
}

// KeepResult saves a result to show once, replacing the learner's earlier
// one for the lesson, and drops every result that has expired by now.
func (s *DB) KeepResult(ctx context.Context, r progress.ResultToShow, now time.Time) error {
	return s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM results_to_show WHERE expires_at <= ?", tx.t(now)); err != nil {
			return fmt.Errorf("storage: keep result: drop expired: %w", err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO results_to_show (learner_id, lesson_slug, part_id, body, expires_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (learner_id, lesson_slug) DO UPDATE SET part_id = excluded.part_id, body = excluded.body, expires_at = excluded.expires_at`,
			r.LearnerID, r.LessonSlug, r.PartID, r.Body, tx.t(r.Expires)); err != nil {
			return fmt.Errorf("storage: keep result: %w", err)
		}
		return nil
	})
}

// TakeResult returns the learner's result for the lesson and deletes it.
func (s *DB) TakeResult(ctx context.Context, learnerID, lessonSlug string, now time.Time) (progress.ResultToShow, error) {
	r := progress.ResultToShow{LearnerID: learnerID, LessonSlug: lessonSlug}
	err := s.row(ctx, `DELETE FROM results_to_show WHERE learner_id = ? AND lesson_slug = ?
		RETURNING part_id, body, expires_at`, learnerID, lessonSlug).Scan(&r.PartID, &r.Body, at(&r.Expires))
	if err == nil && !now.Before(r.Expires) {
		return progress.ResultToShow{}, fmt.Errorf("storage: take result for %s: expired: %w", lessonSlug, ErrNotFound)
	}
	return r, notFoundOr(err, "storage: take result for %s", lessonSlug)
}

// RecordSubmission saves the submission, keeps its code as the learner's
// latest for the exercise, and grants award (if non-nil) once, all in one
// transaction. It reports whether the award was granted by this call.
func (s *DB) RecordSubmission(ctx context.Context, sub progress.Submission, award *progress.Award) (granted bool, err error) {
	err = s.inTx(ctx, func(tx q) error {
		if err := ensureLearner(ctx, tx, sub.LearnerID, sub.At); err != nil {
			return err
		}
		at := tx.t(sub.At)
		if _, err := tx.exec(ctx, `INSERT INTO submissions (learner_id, exercise_id, mode, code, passed, report, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, sub.LearnerID, sub.ExerciseID, sub.Mode, sub.Code, sub.Passed, sub.Report, at); err != nil {
			return fmt.Errorf("storage: record submission: %w", err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO exercise_code (learner_id, exercise_id, code, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (learner_id, exercise_id) DO UPDATE SET code = excluded.code, updated_at = excluded.updated_at`,
			sub.LearnerID, sub.ExerciseID, sub.Code, at); err != nil {
			return fmt.Errorf("storage: keep code: %w", err)
		}
		var attemptID int64
		if sub.Mode == "submit" {
			// A submission is the learner's activity for streaks too.
			score := 0
			if sub.Passed {
				score = 1
			}
			a := progress.Attempt{LearnerID: sub.LearnerID, WidgetID: sub.ExerciseID, Score: score, Total: 1,
				Passed: sub.Passed, Answers: "{}", At: sub.At}
			var err error
			if attemptID, err = insertAttempt(ctx, tx, a, "exercise"); err != nil {
				return err
			}
		}
		if award != nil {
			if attemptID == 0 {
				return errors.New("storage: record submission: only a submission (mode submit) earns an award")
			}
			var err error
			if granted, err = awardXP(ctx, tx, sub.LearnerID, *award, attemptID, sub.At); err != nil || !granted || sub.Score == nil {
				return err
			}
			return queueScore(ctx, tx, sub.LearnerID, *sub.Score, sub.At)
		}
		return nil
	})
	return granted, err
}

// LatestCodes returns the learner's last code for every exercise they ran,
// keyed by exercise id.
func (s *DB) LatestCodes(ctx context.Context, learnerID string) (map[string]string, error) {
	out := map[string]string{}
	return out, s.each(ctx, "latest codes", func(sc scanner) error {
		var id, code string
		err := sc.Scan(&id, &code)
		out[id] = code
		return err
	}, "SELECT exercise_id, code FROM exercise_code WHERE learner_id = ?", learnerID)
}

// ExerciseStates returns how the learner's runs and submissions of each
// exercise went, keyed by exercise id.
func (s *DB) ExerciseStates(ctx context.Context, learnerID string) (map[string]progress.ExerciseState, error) {
	out := map[string]progress.ExerciseState{}
	return out, s.each(ctx, "exercise states", func(sc scanner) error {
		var id, mode string
		var passed bool
		var t time.Time
		if err := sc.Scan(&id, &mode, &passed, at(&t)); err != nil {
			return err
		}
		e := out[id]
		e.ExerciseID = id
		e.Runs++
		if !passed {
			e.Failures++
		}
		e.LastPassed, e.LastMode, e.LastAt = passed, mode, t
		if passed && mode == "submit" && e.SolvedAt.IsZero() {
			e.SolvedAt = t
		}
		out[id] = e
		return nil
	}, "SELECT s.exercise_id, s.mode, s.passed, s.created_at FROM submissions s WHERE s.learner_id = ? AND "+afterExerciseReset+" ORDER BY s.created_at, s.id", learnerID)
}

// awardXP writes the award, earned by the attempt with id attemptID,
// inside tx, so that an award and the attempt that earned it commit or roll
// back together. An award with Slots takes the first of its numbered keys
// the learner does not hold: each insert waits for a concurrent one of the
// same key and then does nothing, so no more than Slots rows can exist.
func awardXP(ctx context.Context, tx q, learnerID string, a progress.Award, attemptID int64, now time.Time) (bool, error) {
	if a.Key == "" || a.Amount <= 0 || a.Slots < 0 {
		return false, errors.New("storage: award xp: an award needs a key and a positive amount")
	}
	keys := []string{a.Key}
	if a.Slots > 0 {
		keys = keys[:0]
		for n := 1; n <= a.Slots; n++ {
			keys = append(keys, a.Key+strconv.Itoa(n))
		}
	}
	for _, key := range keys {
		res, err := tx.exec(ctx, `INSERT INTO xp_awards (learner_id, award_key, amount, reason, created_at, attempt_id)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (learner_id, award_key) DO NOTHING`,
			learnerID, key, a.Amount, a.Reason, tx.t(now), attemptID)
		if err != nil {
			return false, fmt.Errorf("storage: award xp %q: %w", key, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return false, fmt.Errorf("storage: award xp %q: %w", key, err)
		}
		if n == 1 {
			return true, nil
		}
	}
	return false, nil
}

// TotalXP returns the sum of every award the learner holds.
func (s *DB) TotalXP(ctx context.Context, learnerID string) (int, error) {
	var total int
	if err := s.preparedRow(ctx, "SELECT coalesce(sum(amount), 0) FROM xp_awards WHERE learner_id = ?", learnerID).Scan(&total); err != nil {
		return 0, fmt.Errorf("storage: total xp: %w", err)
	}
	return total, nil
}

// XPHistory returns the learner's awards, oldest first.
func (s *DB) XPHistory(ctx context.Context, learnerID string) ([]progress.XPEntry, error) {
	var out []progress.XPEntry
	return out, s.each(ctx, "xp history", func(sc scanner) error {
		var e progress.XPEntry
		var slug, widget, kind, answers sql.NullString
		var score, total sql.NullInt64
		var passed sql.NullBool
		var earnedAt time.Time
		err := sc.Scan(&e.Key, &e.Amount, &e.Reason, at(&e.At),
			&slug, &widget, &kind, &score, &total, &passed, &answers, at(&earnedAt))
		if kind.Valid {
			e.Earned = progress.Attempt{LearnerID: learnerID, LessonSlug: slug.String, WidgetID: widget.String, Kind: kind.String,
				Score: int(score.Int64), Total: int(total.Int64), Passed: passed.Bool, Answers: answers.String, At: earnedAt}
		}
		out = append(out, e)
		return err
	}, `SELECT x.award_key, x.amount, x.reason, x.created_at,
		a.lesson_slug, a.widget_id, a.kind, a.score, a.total, a.passed, a.answers, a.created_at
		FROM xp_awards x LEFT JOIN attempts a ON a.id = x.attempt_id
		WHERE x.learner_id = ? ORDER BY x.created_at, x.id`, learnerID)
}

const reviewColumns = "item_key, lesson_slug, widget_id, item_id, state, step, stability, difficulty, due, last_review, reps, lapses"

func queueReview(ctx context.Context, tx q, learnerID string, c progress.ReviewCard, now time.Time) error {
	_, err := tx.exec(ctx, `INSERT INTO review_cards (learner_id, `+reviewColumns+`, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (learner_id, item_key) DO NOTHING`,
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
	err := sc.Scan(&c.Key, &c.LessonSlug, &c.WidgetID, &c.ItemID, &state, &c.Card.Step, &c.Card.Stability,
		&c.Card.Difficulty, at(&c.Card.Due), at(&c.Card.LastReview), &c.Card.Reps, &c.Card.Lapses)
	c.Card.State = quiz.State(state)
	return c, err
}

// DueReviews returns up to limit of the learner's cards due at now, the
// longest overdue first.
func (s *DB) DueReviews(ctx context.Context, learnerID string, now time.Time, limit int) ([]progress.ReviewCard, error) {
	var out []progress.ReviewCard
	return out, s.each(ctx, "due reviews", func(sc scanner) error {
		c, err := scanReview(sc)
		out = append(out, c)
		return err
	}, "SELECT "+reviewColumns+" FROM review_cards WHERE learner_id = ? AND due <= ? ORDER BY due, item_key LIMIT ?",
		learnerID, s.t(now), limit)
}

// ReviewCounts returns how many of the learner's cards are due at now and
// how many are in the queue.
func (s *DB) ReviewCounts(ctx context.Context, learnerID string, now time.Time) (due, total int, err error) {
	err = s.row(ctx, "SELECT coalesce(sum(CASE WHEN due <= ? THEN 1 ELSE 0 END), 0), count(*) FROM review_cards WHERE learner_id = ?",
		s.t(now), learnerID).Scan(&due, &total)
	if err != nil {
		return 0, 0, fmt.Errorf("storage: review counts: %w", err)
	}
	return due, total, nil
}

// FindReview returns one card of the learner's queue, or an error wrapping
// ErrNotFound.
func (s *DB) FindReview(ctx context.Context, learnerID, key string) (progress.ReviewCard, error) {
	c, err := scanReview(s.row(ctx, "SELECT "+reviewColumns+" FROM review_cards WHERE learner_id = ? AND item_key = ?", learnerID, key))
	return c, notFoundOr(err, "storage: review %q", key)
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
			int(n.State), n.Step, n.Stability, n.Difficulty, tx.t(n.Due), tx.nt(n.LastReview), n.Reps, n.Lapses,
			a.Attempt.LearnerID, a.Before.Key, b.Reps, tx.t(b.Due))
		if err != nil {
			return fmt.Errorf("storage: answer review %q: %w", a.Before.Key, err)
		}
		if rows, _ := res.RowsAffected(); rows == 0 {
			return nil
		}
		applied = true
		id, err := insertAttempt(ctx, tx, a.Attempt, "review")
		if err != nil {
			return err
		}
		if a.Award != nil {
			if granted, err = awardXP(ctx, tx, a.Attempt.LearnerID, *a.Award, id, a.Attempt.At); err != nil {
				return err
			}
		}
		return nil
	})
	return applied, granted, err
}
