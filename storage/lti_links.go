package storage

// The link part of the store: an LMS user who used learn with secret words
// before takes that learner for their LMS account, once
// (progress.LTILinkStore).

import (
	"context"
	"fmt"
	"strings"

	"learn/progress"
)

var _ progress.LTILinkStore = (*DB)(nil)

// learningTables are the tables whose rows are a learner's own work: a
// learner with a row in any of them has progress a link would have to
// merge (lesson_progress counts once a lesson is completed; an opened
// lesson moves with the link).
var learningTables = []string{
	"xp_awards", "attempts", "submissions", "exercise_code", "quiz_attempts", "exercise_hints", "review_cards",
	"qa_helpful", "qa_reports",
}

// hasProgressSQL is true when the learner (?1) has progress beyond their
// memberships and opened lessons.
var hasProgressSQL = func() string {
	var parts []string
	for _, t := range learningTables {
		parts = append(parts, "EXISTS (SELECT 1 FROM "+t+" WHERE learner_id = ?1)")
	}
	parts = append(parts, "EXISTS (SELECT 1 FROM qa_posts WHERE author_id = ?1)",
		"EXISTS (SELECT 1 FROM lesson_progress WHERE learner_id = ?1 AND completed_at IS NOT NULL)")
	return "SELECT " + strings.Join(parts, " OR ")
}()

// movedTables are the rows of the LMS-made learner that a link gives to
// the word-made learner, each with the columns that, beside learner_id,
// make a row unique: a row the word-made learner already has stays theirs,
// and the other's goes with the learner it belonged to.
var movedTables = []struct{ table, key string }{
	{"class_members", "class_id"},
	{"lesson_progress", "lesson_slug"},
	{"assignment_extensions", "class_id, lesson_slug"},
	{"lti_line_items", "platform_id, resource_link_id"},
	{"lti_scores", "platform_id, line_item"},
}

// HasLearningProgress reports whether the learner has progress beyond
// their class memberships and the lessons they opened.
func (s *DB) HasLearningProgress(ctx context.Context, learnerID string) (bool, error) {
	var has bool
	if err := s.row(ctx, hasProgressSQL, learnerID).Scan(&has); err != nil {
		return false, fmt.Errorf("storage: learner's progress: %w", err)
	}
	return has, nil
}

// FindLTIUserByLearner returns the LMS user whose learner this is.
func (s *DB) FindLTIUserByLearner(ctx context.Context, learnerID string) (progress.LTIUser, error) {
	u := progress.LTIUser{LearnerID: learnerID}
	var teacher *int64
	err := s.row(ctx, "SELECT issuer, subject, teacher_id, created_at FROM lti_users WHERE learner_id = ? ORDER BY created_at LIMIT 1", learnerID).
		Scan(&u.Issuer, &u.Subject, &teacher, at(&u.CreatedAt))
	if teacher != nil {
		u.TeacherID = *teacher
	}
	return u, notFoundOr(err, "storage: find LTI user of a learner")
}

const linkColumns = "issuer, subject, learner_id, from_learner_id, coalesce(class_id, 0), linked_at"

func scanLink(sc scanner) (progress.LTILink, error) {
	var l progress.LTILink
	err := sc.Scan(&l.Issuer, &l.Subject, &l.LearnerID, &l.FromLearnerID, &l.ClassID, at(&l.LinkedAt))
	return l, err
}

// FindLTILink returns the link the LMS user made.
func (s *DB) FindLTILink(ctx context.Context, issuer, subject string) (progress.LTILink, error) {
	l, err := scanLink(s.row(ctx, "SELECT "+linkColumns+" FROM lti_links WHERE issuer = ? AND subject = ?", issuer, subject))
	return l, notFoundOr(err, "storage: find LTI link")
}

// FindLTILinkByLearner returns the link that took the word-made learner.
func (s *DB) FindLTILinkByLearner(ctx context.Context, learnerID string) (progress.LTILink, error) {
	l, err := scanLink(s.row(ctx, "SELECT "+linkColumns+" FROM lti_links WHERE learner_id = ?", learnerID))
	return l, notFoundOr(err, "storage: find LTI link of a learner")
}

// LinkLTIUser makes the link in one transaction: the link's row (whose
// keys refuse a second link either way, on any server), the LMS user's
// row pointed at the word-made learner (only while it still names the
// LMS-made one), the LMS-made learner's memberships, opened lessons,
// extensions, line items and scores moved, and that learner deleted.
func (s *DB) LinkLTIUser(ctx context.Context, l progress.LTILink) error {
	err := s.inTx(ctx, func(tx q) error {
		var has bool
		if err := tx.row(ctx, hasProgressSQL, l.FromLearnerID).Scan(&has); err != nil {
			return err
		}
		if has {
			return fmt.Errorf("the LMS account's learner has progress of its own: %w", ErrConflict)
		}
		var taken int
		if err := tx.row(ctx, "SELECT count(*) FROM lti_users WHERE learner_id = ?", l.LearnerID).Scan(&taken); err != nil {
			return err
		}
		if taken > 0 {
			return fmt.Errorf("the learner belongs to an LMS account already: %w", ErrConflict)
		}
		var class any
		if l.ClassID != 0 {
			class = l.ClassID
		}
		if _, err := tx.exec(ctx, "INSERT INTO lti_links (issuer, subject, learner_id, from_learner_id, class_id, linked_at) VALUES (?, ?, ?, ?, ?, ?)",
			l.Issuer, l.Subject, l.LearnerID, l.FromLearnerID, class, tx.t(l.LinkedAt)); err != nil {
			return err
		}
		res, err := tx.exec(ctx, "UPDATE lti_users SET learner_id = ? WHERE issuer = ? AND subject = ? AND learner_id = ?",
			l.LearnerID, l.Issuer, l.Subject, l.FromLearnerID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("the LMS account no longer names its first learner: %w", ErrConflict)
		}
		for _, m := range movedTables {
			if _, err := tx.exec(ctx, "UPDATE "+m.table+" SET learner_id = ?1 WHERE learner_id = ?2 AND ("+m.key+") NOT IN (SELECT "+m.key+" FROM "+m.table+" WHERE learner_id = ?1)",
				l.LearnerID, l.FromLearnerID); err != nil {
				return fmt.Errorf("move %s: %w", m.table, err)
			}
		}
		_, err = tx.exec(ctx, "DELETE FROM learners WHERE id = ?", l.FromLearnerID)
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: link LMS user to a learner: %w", err)
	}
	return nil
}
