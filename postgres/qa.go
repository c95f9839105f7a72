package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"learn/progress"
)

// nullID stores 0 as NULL.
func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// postColumns reads a post with its helpful and open report counts; p is
// qa_posts.
const postColumns = `p.id, p.lesson_slug, coalesce(p.class_id, 0), coalesce(p.question_id, 0), p.author_id, p.author_name,
	coalesce(p.teacher_id, 0), p.part, p.body, p.html, coalesce(p.accepted_id, 0), p.created_at, p.edited_at,
	p.hidden_at, p.hidden_reason, p.deleted_at,
	(SELECT count(*) FROM qa_helpful h WHERE h.post_id = p.id),
	(SELECT count(*) FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL)`

func scanPost(row pgx.Row, extra ...any) (progress.Post, error) {
	var p progress.Post
	var created int64
	var edited, hidden, deleted *int64
	dest := []any{&p.ID, &p.LessonSlug, &p.ClassID, &p.QuestionID, &p.AuthorID, &p.AuthorName, &p.TeacherID, &p.Part,
		&p.Body, &p.HTML, &p.AcceptedID, &created, &edited, &hidden, &p.HiddenReason, &deleted, &p.Helpful, &p.Reports}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return p, err
	}
	p.CreatedAt, p.EditedAt = fromNS(created), fromNullNS(edited)
	p.HiddenAt, p.DeletedAt = fromNullNS(hidden), fromNullNS(deleted)
	return p, nil
}

// CreatePost saves a post, and the notice n (if any) in the same
// transaction.
func (s *Store) CreatePost(ctx context.Context, p progress.Post, n *progress.Notice) (progress.Post, error) {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO qa_posts (lesson_slug, class_id, question_id, author_id, author_name, teacher_id,
			part, body, html, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			p.LessonSlug, nullID(p.ClassID), nullID(p.QuestionID), p.AuthorID, p.AuthorName, nullID(p.TeacherID),
			p.Part, p.Body, p.HTML, ns(p.CreatedAt)).Scan(&p.ID); err != nil {
			return err
		}
		if n != nil {
			n.PostID = p.ID
			return insertNotices(ctx, tx, []progress.Notice{*n})
		}
		return nil
	})
	if err != nil {
		return p, fmt.Errorf("postgres: create post: %w", err)
	}
	return s.FindPost(ctx, p.ID)
}

func insertNotices(ctx context.Context, tx pgx.Tx, notices []progress.Notice) error {
	for _, n := range notices {
		if _, err := tx.Exec(ctx, `INSERT INTO qa_notices (learner_id, kind, question_id, post_id, actor_name, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, n.LearnerID, n.Kind, n.QuestionID, n.PostID, n.ActorName, ns(n.CreatedAt)); err != nil {
			return fmt.Errorf("notice: %w", err)
		}
	}
	return nil
}

// FindPost returns one post, or ErrNotFound.
func (s *Store) FindPost(ctx context.Context, id int64) (progress.Post, error) {
	p, err := scanPost(s.pool.QueryRow(ctx, "SELECT "+postColumns+" FROM qa_posts p WHERE p.id = $1", id))
	if err != nil {
		return p, fmt.Errorf("postgres: find post %d: %w", id, notFound(err))
	}
	return p, nil
}

// changed turns "no row changed" into ErrNotFound.
func changed(tag pgconn.CommandTag, err error, format string, args ...any) error {
	if err != nil {
		return fmt.Errorf(format+": %w", append(args, err)...)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf(format+": %w", append(args, ErrNotFound)...)
	}
	return nil
}

// EditPost replaces a post's text.
func (s *Store) EditPost(ctx context.Context, id int64, body, html string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, "UPDATE qa_posts SET body = $1, html = $2, edited_at = $3 WHERE id = $4", body, html, ns(at), id)
	return changed(tag, err, "postgres: edit post %d", id)
}

// DeletePost marks a post deleted and clears its text.
func (s *Store) DeletePost(ctx context.Context, id int64, at time.Time) error {
	tag, err := s.pool.Exec(ctx, "UPDATE qa_posts SET body = '', html = '', deleted_at = $1 WHERE id = $2", ns(at), id)
	return changed(tag, err, "postgres: delete post %d", id)
}

// SetAccepted sets a question's accepted answer and saves the notices.
func (s *Store) SetAccepted(ctx context.Context, questionID, answerID int64, notices []progress.Notice) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE qa_posts SET accepted_id = $1 WHERE id = $2 AND question_id IS NULL", nullID(answerID), questionID)
		if err := changed(tag, err, "question %d", questionID); err != nil {
			return err
		}
		return insertNotices(ctx, tx, notices)
	})
	if err != nil {
		return fmt.Errorf("postgres: set accepted: %w", err)
	}
	return nil
}

// MarkHelpful records a helpful mark once.
func (s *Store) MarkHelpful(ctx context.Context, postID int64, learnerID string, at time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO qa_helpful (post_id, learner_id, marked_at) VALUES ($1, $2, $3)
		ON CONFLICT (post_id, learner_id) DO NOTHING`, postID, learnerID, ns(at))
	if err != nil {
		return false, fmt.Errorf("postgres: mark helpful %d: %w", postID, err)
	}
	return tag.RowsAffected() == 1, nil
}

// SetHidden hides or restores a post and resolves its open reports.
func (s *Store) SetHidden(ctx context.Context, postID int64, hiddenAt time.Time, reason string, resolvedAt time.Time) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE qa_posts SET hidden_at = $1, hidden_reason = $2 WHERE id = $3", nullNS(hiddenAt), reason, postID)
		if err := changed(tag, err, "post %d", postID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE qa_reports SET resolved_at = $1 WHERE post_id = $2 AND resolved_at IS NULL", ns(resolvedAt), postID)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: set hidden: %w", err)
	}
	return nil
}

// ReportPost records an open report once per learner. A report resolved
// earlier is opened again with the new note.
func (s *Store) ReportPost(ctx context.Context, postID int64, learnerID, reason string, at time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO qa_reports (post_id, learner_id, reason, reported_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (post_id, learner_id) DO UPDATE SET reason = excluded.reason, reported_at = excluded.reported_at, resolved_at = NULL
		WHERE qa_reports.resolved_at IS NOT NULL`, postID, learnerID, reason, ns(at))
	if err != nil {
		return false, fmt.Errorf("postgres: report post %d: %w", postID, err)
	}
	return tag.RowsAffected() == 1, nil
}

// LessonPosts returns a lesson's posts in the scopes asked for.
func (s *Store) LessonPosts(ctx context.Context, q progress.PostQuery) ([]progress.Post, error) {
	if !q.Public && len(q.ClassIDs) == 0 {
		return nil, nil
	}
	classIDs := q.ClassIDs
	if classIDs == nil {
		classIDs = []int64{}
	}
	rows, err := s.pool.Query(ctx, "SELECT "+postColumns+`,
		EXISTS (SELECT 1 FROM qa_helpful h WHERE h.post_id = p.id AND h.learner_id = $1),
		EXISTS (SELECT 1 FROM qa_reports r WHERE r.post_id = p.id AND r.learner_id = $1 AND r.resolved_at IS NULL)
		FROM qa_posts p WHERE p.lesson_slug = $2 AND (($3 AND p.class_id IS NULL) OR p.class_id = ANY($4))
		ORDER BY p.created_at, p.id`, q.Viewer, q.LessonSlug, q.Public, classIDs)
	if err != nil {
		return nil, fmt.Errorf("postgres: lesson posts: %w", err)
	}
	defer rows.Close()
	var out []progress.Post
	for rows.Next() {
		var marked, reported bool
		p, err := scanPost(rows, &marked, &reported)
		if err != nil {
			return nil, fmt.Errorf("postgres: lesson posts: %w", err)
		}
		p.MarkedHelpful, p.Reported = marked, reported
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: lesson posts: %w", err)
	}
	return out, nil
}

// scopeClause selects a class's posts ($1), or the public ones for class 0.
const scopeClause = "(($1::bigint = 0 AND p.class_id IS NULL) OR p.class_id = $1)"

// UnansweredQuestions lists a scope's open questions with no live answer.
func (s *Store) UnansweredQuestions(ctx context.Context, classID int64, limit int) ([]progress.Post, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+postColumns+" FROM qa_posts p WHERE "+scopeClause+`
		AND p.question_id IS NULL AND p.hidden_at IS NULL AND p.deleted_at IS NULL
		AND NOT EXISTS (SELECT 1 FROM qa_posts a WHERE a.question_id = p.id AND a.hidden_at IS NULL AND a.deleted_at IS NULL)
		ORDER BY p.created_at DESC, p.id DESC LIMIT $2`, classID, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: unanswered questions: %w", err)
	}
	return collectPosts(rows, "postgres: unanswered questions")
}

// ReportedPosts lists a scope's posts with open reports.
func (s *Store) ReportedPosts(ctx context.Context, classID int64, limit int) ([]progress.Post, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+postColumns+`,
		(SELECT r.reason FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL ORDER BY r.reported_at DESC LIMIT 1),
		(SELECT max(r.reported_at) FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL) AS last_report
		FROM qa_posts p WHERE `+scopeClause+`
		AND EXISTS (SELECT 1 FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL)
		ORDER BY last_report DESC, p.id DESC LIMIT $2`, classID, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reported posts: %w", err)
	}
	defer rows.Close()
	var out []progress.Post
	for rows.Next() {
		var last int64
		var reason string
		p, err := scanPost(rows, &reason, &last)
		if err != nil {
			return nil, fmt.Errorf("postgres: reported posts: %w", err)
		}
		p.ReportReason, p.ReportedAt = reason, fromNS(last)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reported posts: %w", err)
	}
	return out, nil
}

// collectPosts reads post rows.
func collectPosts(rows pgx.Rows, what string) ([]progress.Post, error) {
	defer rows.Close()
	var out []progress.Post
	for rows.Next() {
		p, err := scanPost(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// Notices returns a learner's latest notices with their lessons.
func (s *Store) Notices(ctx context.Context, learnerID string, limit int) ([]progress.Notice, error) {
	rows, err := s.pool.Query(ctx, `SELECT n.id, n.learner_id, n.kind, n.question_id, n.post_id, n.actor_name, n.created_at, n.read_at, q.lesson_slug
		FROM qa_notices n JOIN qa_posts q ON q.id = n.question_id
		WHERE n.learner_id = $1 ORDER BY n.created_at DESC, n.id DESC LIMIT $2`, learnerID, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: notices: %w", err)
	}
	defer rows.Close()
	var out []progress.Notice
	for rows.Next() {
		var n progress.Notice
		var created int64
		var read *int64
		if err := rows.Scan(&n.ID, &n.LearnerID, &n.Kind, &n.QuestionID, &n.PostID, &n.ActorName, &created, &read, &n.LessonSlug); err != nil {
			return nil, fmt.Errorf("postgres: notices: %w", err)
		}
		n.CreatedAt, n.ReadAt = fromNS(created), fromNullNS(read)
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: notices: %w", err)
	}
	return out, nil
}

// UnreadNotices counts a learner's unread notices.
func (s *Store) UnreadNotices(ctx context.Context, learnerID string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM qa_notices WHERE learner_id = $1 AND read_at IS NULL", learnerID).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: unread notices: %w", err)
	}
	return n, nil
}

// ReadNotices marks unread notices read.
func (s *Store) ReadNotices(ctx context.Context, learnerID string, questionID int64, at time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE qa_notices SET read_at = $1 WHERE learner_id = $2 AND read_at IS NULL
		AND ($3::bigint = 0 OR question_id = $3)`, ns(at), learnerID, questionID)
	if err != nil {
		return 0, fmt.Errorf("postgres: read notices: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// SetPublicName records a learner's public display name.
func (s *Store) SetPublicName(ctx context.Context, learnerID, name, key string, now time.Time) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := ensureLearner(ctx, tx, learnerID, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO qa_names (learner_id, name, name_key) VALUES ($1, $2, $3)
			ON CONFLICT (learner_id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key`, learnerID, name, key)
		return err
	})
	if isUnique(err) {
		return fmt.Errorf("postgres: set public name: %w", ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("postgres: set public name: %w", err)
	}
	return nil
}

// PublicName returns a learner's public display name, or ErrNotFound.
func (s *Store) PublicName(ctx context.Context, learnerID string) (string, error) {
	var name string
	if err := s.pool.QueryRow(ctx, "SELECT name FROM qa_names WHERE learner_id = $1", learnerID).Scan(&name); err != nil {
		return "", fmt.Errorf("postgres: public name: %w", notFound(err))
	}
	return name, nil
}
