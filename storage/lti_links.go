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

// mergedTables are the rows of the LMS-made learner that a link gives to
// the word-made learner, each with the columns that, beside the learner's
// column, make a row unique (empty for a table of one row per learner,
// nil for a log whose rows all move): where both learners have a row, the
// word-made learner's stays (so an award both earned counts once) and the
// other's goes with the learner it belonged to. lesson_progress is merged
// first (the earlier opening and completion win) and quiz_attempts
// renumbered (mergeQuizAttempts), so that their rows then move without a
// clash.
var mergedTables = []struct {
	table, column string
	key           []string
}{
	{"class_members", "learner_id", []string{"class_id"}},
	{"removed_members", "learner_id", []string{"class_id"}},
	{"lesson_progress", "learner_id", []string{"lesson_slug"}},
	{"assignment_extensions", "learner_id", []string{"class_id", "lesson_slug"}},
	{"lti_line_items", "learner_id", []string{"platform_id", "resource_link_id"}},
	{"lti_scores", "learner_id", []string{"platform_id", "line_item"}},
	{"xp_awards", "learner_id", []string{"award_key"}},
	{"widget_passes", "learner_id", []string{"lesson_slug", "widget_id"}},
	{"first_tries", "learner_id", []string{"kind", "lesson_slug", "widget_id"}},
	{"exercise_code", "learner_id", []string{"exercise_id"}},
	{"exercise_hints", "learner_id", []string{"exercise_id"}},
	{"review_cards", "learner_id", []string{"item_key"}},
	{"results_to_show", "learner_id", []string{"lesson_slug"}},
	{"qa_helpful", "learner_id", []string{"post_id"}},
	{"qa_reports", "learner_id", []string{"post_id"}},
	{"qa_names", "learner_id", []string{}},
	{"quiz_attempts", "learner_id", nil},
	{"attempts", "learner_id", nil},
	{"attempt_resets", "learner_id", nil},
	{"submissions", "learner_id", nil},
	{"submission_failures", "learner_id", nil},
	{"qa_posts", "author_id", nil},
	{"qa_notices", "learner_id", nil},
	{"learner_devices", "learner_id", nil},
}

// moveSQL moves the rows of learner ?2 in table to learner ?1, but those
// whose key ?1 has a row of already (all of them when key is nil).
func moveSQL(table, column string, key []string) string {
	q := "UPDATE " + table + " SET " + column + " = ?1 WHERE " + column + " = ?2"
	if key == nil {
		return q
	}
	cond := []string{"x." + column + " = ?1"}
	for _, k := range key {
		cond = append(cond, "x."+k+" = "+table+"."+k)
	}
	return q + " AND NOT EXISTS (SELECT 1 FROM " + table + " x WHERE " + strings.Join(cond, " AND ") + ")"
}

// mergeLessonProgressSQL gives learner ?1's lessons that learner ?2 opened
// too the earlier opening and the earlier completion of the two.
const mergeLessonProgressSQL = `UPDATE lesson_progress SET
	opened_at = CASE WHEN f.opened_at < lesson_progress.opened_at THEN f.opened_at ELSE lesson_progress.opened_at END,
	completed_at = CASE WHEN lesson_progress.completed_at IS NULL OR f.completed_at < lesson_progress.completed_at
		THEN coalesce(f.completed_at, lesson_progress.completed_at) ELSE lesson_progress.completed_at END
	FROM lesson_progress f
	WHERE lesson_progress.learner_id = ?1 AND f.learner_id = ?2 AND f.lesson_slug = lesson_progress.lesson_slug`

// mergeQuizAttempts numbers learner from's attempts of each quiz after
// learner to's, in two steps so that no step makes two rows of one
// learner share a number: first each number is negated, then moved past
// the other learner's last.
func mergeQuizAttempts(ctx context.Context, tx q, to, from string) error {
	if _, err := tx.exec(ctx, "UPDATE quiz_attempts SET number = -number WHERE learner_id = ?", from); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `UPDATE quiz_attempts SET number = -number + coalesce((SELECT max(x.number) FROM quiz_attempts x
		WHERE x.learner_id = ?1 AND x.lesson_slug = quiz_attempts.lesson_slug AND x.quiz_id = quiz_attempts.quiz_id), 0)
		WHERE learner_id = ?2`, to, from)
	return err
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
// LMS-made one), the LMS-made learner's rows merged into the word-made
// learner's (mergedTables), that learner deleted, and the lessons' scores
// queued again for the line items the learner has now (l.Scores).
func (s *DB) LinkLTIUser(ctx context.Context, l progress.LTILink) error {
	err := s.inTx(ctx, func(tx q) error {
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
		if _, err := tx.exec(ctx, mergeLessonProgressSQL, l.LearnerID, l.FromLearnerID); err != nil {
			return fmt.Errorf("merge lesson_progress: %w", err)
		}
		if err := mergeQuizAttempts(ctx, tx, l.LearnerID, l.FromLearnerID); err != nil {
			return fmt.Errorf("merge quiz_attempts: %w", err)
		}
		for _, m := range mergedTables {
			if _, err := tx.exec(ctx, moveSQL(m.table, m.column, m.key), l.LearnerID, l.FromLearnerID); err != nil {
				return fmt.Errorf("move %s: %w", m.table, err)
			}
		}
		// What is left is what the word-made learner had already.
		if _, err = tx.exec(ctx, "DELETE FROM learners WHERE id = ?", l.FromLearnerID); err != nil {
			return err
		}
		for _, sc := range l.Scores {
			if err := queueScore(ctx, tx, l.LearnerID, sc, l.LinkedAt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: link LMS user to a learner: %w", err)
	}
	return nil
}
