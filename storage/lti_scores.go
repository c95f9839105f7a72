package storage

// The grade passback part of the store: the line items of learners'
// launches (progress.LTIStore) and the outbox of scores (lti.ScoreStore),
// filled in the transaction of the award that changes a score.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"learn/lti"
	"learn/progress"
)

var _ lti.ScoreStore = (*DB)(nil)

// SaveLTILineItem keeps the line item of a learner's launch.
func (s *DB) SaveLTILineItem(ctx context.Context, li progress.LTILineItem) error {
	_, err := s.exec(ctx, `INSERT INTO lti_line_items (learner_id, platform_id, resource_link_id, lesson_slug, class_id, line_item, subject, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (learner_id, platform_id, resource_link_id) DO UPDATE SET
		lesson_slug = excluded.lesson_slug, class_id = excluded.class_id, line_item = excluded.line_item,
		subject = excluded.subject, updated_at = excluded.updated_at`,
		li.LearnerID, li.PlatformID, li.ResourceLinkID, li.LessonSlug, li.ClassID, li.LineItem, li.Subject, s.t(li.UpdatedAt))
	if err != nil {
		return fmt.Errorf("storage: save LTI line item: %w", err)
	}
	return nil
}

// queueScore puts the lesson's score, as the ledger and the lesson's
// progress stand inside tx, in the outbox of every line item the learner
// launched the lesson from; a row holding a newer score (by at) keeps it.
func queueScore(ctx context.Context, tx q, learnerID string, sc progress.LMSScore, at time.Time) error {
	type item struct {
		platformID, classID int64
		lineItem, subject   string
	}
	var items []item
	err := tx.each(ctx, "LTI line items", func(r scanner) error {
		var it item
		err := r.Scan(&it.platformID, &it.classID, &it.lineItem, &it.subject)
		items = append(items, it)
		return err
	}, "SELECT platform_id, class_id, line_item, subject FROM lti_line_items WHERE learner_id = ? AND lesson_slug = ? ORDER BY platform_id, line_item",
		learnerID, sc.LessonSlug)
	if err != nil || len(items) == 0 {
		return err
	}
	given := 0
	if len(sc.AwardKeys) > 0 {
		args := []any{learnerID}
		for _, k := range sc.AwardKeys {
			args = append(args, k)
		}
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(sc.AwardKeys)), ", ")
		if err := tx.row(ctx, "SELECT coalesce(sum(amount), 0) FROM xp_awards WHERE learner_id = ? AND award_key IN ("+marks+")", args...).Scan(&given); err != nil {
			return fmt.Errorf("storage: queue LTI score: the lesson's XP: %w", err)
		}
	}
	completed, err := lessonCompleted(ctx, tx, learnerID, sc.LessonSlug)
	if err != nil {
		return fmt.Errorf("storage: queue LTI score: %w", err)
	}
	for _, it := range items {
		if _, err := tx.exec(ctx, `INSERT INTO lti_scores (learner_id, platform_id, line_item, class_id, lesson_slug, user_id,
			score_given, score_maximum, completed, scored_at, state, attempts, next_try, last_status, last_answer, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, 0, '', ?)
			ON CONFLICT (learner_id, platform_id, line_item) DO UPDATE SET class_id = excluded.class_id, lesson_slug = excluded.lesson_slug,
			user_id = excluded.user_id, score_given = excluded.score_given, score_maximum = excluded.score_maximum,
			completed = excluded.completed, scored_at = excluded.scored_at, state = 'pending', attempts = 0,
			next_try = excluded.next_try, updated_at = excluded.updated_at
			WHERE excluded.scored_at > lti_scores.scored_at`,
			learnerID, it.platformID, it.lineItem, it.classID, sc.LessonSlug, it.subject,
			given, sc.Maximum, completed, tx.t(at), tx.t(at), tx.t(at)); err != nil {
			return fmt.Errorf("storage: queue LTI score: %w", err)
		}
	}
	return nil
}

// lessonCompleted reports whether the learner completed the lesson, in tx.
func lessonCompleted(ctx context.Context, tx q, learnerID, slug string) (bool, error) {
	var n int
	err := tx.row(ctx, "SELECT count(*) FROM lesson_progress WHERE learner_id = ? AND lesson_slug = ? AND completed_at IS NOT NULL",
		learnerID, slug).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("storage: lesson %q completed: %w", slug, err)
	}
	return n > 0, nil
}

// ClaimScores leases the due pending scores in one UPDATE: of senders
// claiming at once, each row goes to one (PostgreSQL re-checks the
// conditions on a row another transaction just leased). A read comes
// first, so that an empty outbox, polled every second, costs no write
// (and no page generation).
func (s *DB) ClaimScores(ctx context.Context, now, leaseUntil time.Time, lease string, limit int) ([]lti.Score, error) {
	var due int
	if err := s.row(ctx, `SELECT count(*) FROM lti_scores WHERE state = 'pending' AND next_try <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)`,
		s.t(now)).Scan(&due); err != nil {
		return nil, fmt.Errorf("storage: claim LTI scores: %w", err)
	}
	if due == 0 {
		return nil, nil
	}
	var out []lti.Score
	err := s.each(ctx, "claim LTI scores", func(r scanner) error {
		sc := lti.Score{Lease: lease}
		err := r.Scan(&sc.ID, &sc.LearnerID, &sc.PlatformID, &sc.LineItem, &sc.UserID, &sc.Given, &sc.Maximum, &sc.Completed, at(&sc.At), &sc.Attempts)
		out = append(out, sc)
		return err
	}, `UPDATE lti_scores SET lease = ?, lease_until = ?
		WHERE id IN (SELECT id FROM lti_scores WHERE state = 'pending' AND next_try <= ?3 AND (lease_until IS NULL OR lease_until <= ?3)
			ORDER BY next_try, id LIMIT ?4)
		AND state = 'pending' AND next_try <= ?3 AND (lease_until IS NULL OR lease_until <= ?3)
		RETURNING id, learner_id, platform_id, line_item, user_id, score_given, score_maximum, completed, scored_at, attempts`,
		lease, s.t(leaseUntil), s.t(now), limit)
	return out, err
}

// FinishScore records a send and ends its lease; when a newer score
// replaced the row meanwhile, only the lease ends, so the newer one is
// sent next.
func (s *DB) FinishScore(ctx context.Context, sc lti.Score, r lti.ScoreResult) error {
	if r.State != lti.ScorePending && r.State != lti.ScoreSent && r.State != lti.ScoreFailed {
		return fmt.Errorf("storage: finish LTI score: unknown state %q", r.State)
	}
	next := r.NextTry
	if next.IsZero() {
		next = r.At
	}
	res, err := s.exec(ctx, `UPDATE lti_scores SET state = ?, attempts = ?, next_try = ?, last_status = ?, last_answer = ?, updated_at = ?,
		lease = NULL, lease_until = NULL WHERE id = ? AND lease = ? AND scored_at = ?`,
		r.State, sc.Attempts+1, s.t(next), r.Status, lti.Excerpt(r.Answer), s.t(r.At), sc.ID, sc.Lease, s.t(sc.At))
	if err != nil {
		return fmt.Errorf("storage: finish LTI score: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("storage: finish LTI score: %w", err)
	}
	if n == 1 {
		return nil
	}
	if _, err := s.exec(ctx, "UPDATE lti_scores SET lease = NULL, lease_until = NULL WHERE id = ? AND lease = ?", sc.ID, sc.Lease); err != nil {
		return fmt.Errorf("storage: finish LTI score: %w", err)
	}
	return nil
}

// ClassLTIScores returns the outbox's scores of the class.
func (s *DB) ClassLTIScores(ctx context.Context, classID int64) ([]progress.LTIScoreState, error) {
	var out []progress.LTIScoreState
	err := s.each(ctx, "class LTI scores", func(r scanner) error {
		var st progress.LTIScoreState
		err := r.Scan(&st.LearnerID, &st.LessonSlug, &st.State, &st.Given, &st.Maximum, &st.Completed, at(&st.At), &st.Attempts, &st.Status, &st.Answer)
		out = append(out, st)
		return err
	}, `SELECT learner_id, lesson_slug, state, score_given, score_maximum, completed, scored_at, attempts, last_status, last_answer
		FROM lti_scores WHERE class_id = ? ORDER BY learner_id, lesson_slug, line_item`, classID)
	return out, err
}
