package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"learn/progress"
)

// nullID stores 0 as NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// postColumns reads a post with its helpful and open report counts; p is
// qa_posts.
const postColumns = `p.id, p.lesson_slug, coalesce(p.class_id, 0), coalesce(p.question_id, 0), p.author_id, p.author_name,
	coalesce(p.teacher_id, 0), p.part, p.body, p.html, coalesce(p.accepted_id, 0), p.created_at, p.edited_at,
	p.hidden_at, p.hidden_reason, p.deleted_at,
	(SELECT count(*) FROM qa_helpful h WHERE h.post_id = p.id),
	(SELECT count(*) FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL)`

func scanPost(row scanner, extra ...any) (progress.Post, error) {
	var p progress.Post
	dest := []any{&p.ID, &p.LessonSlug, &p.ClassID, &p.QuestionID, &p.AuthorID, &p.AuthorName, &p.TeacherID, &p.Part,
		&p.Body, &p.HTML, &p.AcceptedID, at(&p.CreatedAt), at(&p.EditedAt), at(&p.HiddenAt), &p.HiddenReason, at(&p.DeletedAt),
		&p.Helpful, &p.Reports}
	err := row.Scan(append(dest, extra...)...)
	return p, err
}

// CreatePost saves a post, and the notice n (if any) in the same
// transaction.
func (s *DB) CreatePost(ctx context.Context, p progress.Post, n *progress.Notice) (progress.Post, error) {
	err := s.inTx(ctx, func(tx q) error {
		if err := tx.row(ctx, `INSERT INTO qa_posts (lesson_slug, class_id, question_id, author_id, author_name, teacher_id,
			part, body, html, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.LessonSlug, nullID(p.ClassID), nullID(p.QuestionID), p.AuthorID, p.AuthorName, nullID(p.TeacherID),
			p.Part, p.Body, p.HTML, s.t(p.CreatedAt)).Scan(&p.ID); err != nil {
			return err
		}
		if n != nil {
			n.PostID = p.ID
			return insertNotices(ctx, tx, []progress.Notice{*n})
		}
		return nil
	})
	if err != nil {
		return p, fmt.Errorf("storage: create post: %w", err)
	}
	return s.FindPost(ctx, p.ID)
}

func insertNotices(ctx context.Context, tx q, ns []progress.Notice) error {
	for _, n := range ns {
		if _, err := tx.exec(ctx, `INSERT INTO qa_notices (learner_id, kind, question_id, post_id, actor_name, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, n.LearnerID, n.Kind, n.QuestionID, n.PostID, n.ActorName, tx.t(n.CreatedAt)); err != nil {
			return fmt.Errorf("notice: %w", err)
		}
	}
	return nil
}

// FindPost returns one post, or ErrNotFound.
func (s *DB) FindPost(ctx context.Context, id int64) (progress.Post, error) {
	p, err := scanPost(s.row(ctx, "SELECT "+postColumns+" FROM qa_posts p WHERE p.id = ?", id))
	return p, notFoundOr(err, "storage: find post %d", id)
}

// EditPost replaces a post's text.
func (s *DB) EditPost(ctx context.Context, id int64, body, html string, at time.Time) error {
	res, err := s.exec(ctx, "UPDATE qa_posts SET body = ?, html = ?, edited_at = ? WHERE id = ?", body, html, s.t(at), id)
	return changed(res, err, "storage: edit post %d", id)
}

// DeletePost marks a post deleted and clears its text.
func (s *DB) DeletePost(ctx context.Context, id int64, at time.Time) error {
	res, err := s.exec(ctx, "UPDATE qa_posts SET body = '', html = '', deleted_at = ? WHERE id = ?", s.t(at), id)
	return changed(res, err, "storage: delete post %d", id)
}

// SetAccepted sets a question's accepted answer and saves the notices.
func (s *DB) SetAccepted(ctx context.Context, questionID, answerID int64, notices []progress.Notice) error {
	err := s.inTx(ctx, func(tx q) error {
		res, err := tx.exec(ctx, "UPDATE qa_posts SET accepted_id = ? WHERE id = ? AND question_id IS NULL", nullID(answerID), questionID)
		if err := changed(res, err, "question %d", questionID); err != nil {
			return err
		}
		return insertNotices(ctx, tx, notices)
	})
	if err != nil {
		return fmt.Errorf("storage: set accepted: %w", err)
	}
	return nil
}

// MarkHelpful records a helpful mark once.
func (s *DB) MarkHelpful(ctx context.Context, postID int64, learnerID string, at time.Time) (bool, error) {
	res, err := s.exec(ctx, `INSERT INTO qa_helpful (post_id, learner_id, marked_at) VALUES (?, ?, ?)
		ON CONFLICT (post_id, learner_id) DO NOTHING`, postID, learnerID, s.t(at))
	if err != nil {
		return false, fmt.Errorf("storage: mark helpful %d: %w", postID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetHidden hides or restores a post and resolves its open reports.
func (s *DB) SetHidden(ctx context.Context, postID int64, hiddenAt time.Time, reason string, resolvedAt time.Time) error {
	err := s.inTx(ctx, func(tx q) error {
		res, err := tx.exec(ctx, "UPDATE qa_posts SET hidden_at = ?, hidden_reason = ? WHERE id = ?", s.nt(hiddenAt), reason, postID)
		if err := changed(res, err, "post %d", postID); err != nil {
			return err
		}
		_, err = tx.exec(ctx, "UPDATE qa_reports SET resolved_at = ? WHERE post_id = ? AND resolved_at IS NULL", s.t(resolvedAt), postID)
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: set hidden: %w", err)
	}
	return nil
}

// ReportPost records an open report once per learner. A report resolved
// earlier is opened again with the new note.
func (s *DB) ReportPost(ctx context.Context, postID int64, learnerID, reason string, at time.Time) (bool, error) {
	res, err := s.exec(ctx, `INSERT INTO qa_reports (post_id, learner_id, reason, reported_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (post_id, learner_id) DO UPDATE SET reason = excluded.reason, reported_at = excluded.reported_at, resolved_at = NULL
		WHERE qa_reports.resolved_at IS NOT NULL`, postID, learnerID, reason, s.t(at))
	if err != nil {
		return false, fmt.Errorf("storage: report post %d: %w", postID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// LessonPosts returns a lesson's posts in the scopes asked for.
func (s *DB) LessonPosts(ctx context.Context, q progress.PostQuery) ([]progress.Post, error) {
	var scope []string
	args := []any{q.Viewer, q.Viewer, q.LessonSlug}
	if q.Public {
		scope = append(scope, "p.class_id IS NULL")
	}
	if len(q.ClassIDs) > 0 {
		scope = append(scope, "p.class_id IN (?"+strings.Repeat(", ?", len(q.ClassIDs)-1)+")")
		for _, id := range q.ClassIDs {
			args = append(args, id)
		}
	}
	if len(scope) == 0 {
		return nil, nil
	}
	var out []progress.Post
	return out, s.preparedEach(ctx, "lesson posts", func(sc scanner) error {
		var marked, reported bool
		p, err := scanPost(sc, &marked, &reported)
		p.MarkedHelpful, p.Reported = marked, reported
		out = append(out, p)
		return err
	}, "SELECT "+postColumns+`,
		EXISTS (SELECT 1 FROM qa_helpful h WHERE h.post_id = p.id AND h.learner_id = ?),
		EXISTS (SELECT 1 FROM qa_reports r WHERE r.post_id = p.id AND r.learner_id = ? AND r.resolved_at IS NULL)
		FROM qa_posts p WHERE p.lesson_slug = ? AND (`+strings.Join(scope, " OR ")+`)
		ORDER BY p.created_at, p.id`, args...)
}

// scopeClause selects a class's posts, or the public ones for class 0.
const scopeClause = "((? = 0 AND p.class_id IS NULL) OR p.class_id = ?)"

// UnansweredQuestions lists a scope's open questions with no live answer.
func (s *DB) UnansweredQuestions(ctx context.Context, classID int64, limit int) ([]progress.Post, error) {
	var out []progress.Post
	return out, s.each(ctx, "unanswered questions", func(sc scanner) error {
		p, err := scanPost(sc)
		out = append(out, p)
		return err
	}, "SELECT "+postColumns+" FROM qa_posts p WHERE "+scopeClause+`
		AND p.question_id IS NULL AND p.hidden_at IS NULL AND p.deleted_at IS NULL
		AND NOT EXISTS (SELECT 1 FROM qa_posts a WHERE a.question_id = p.id AND a.hidden_at IS NULL AND a.deleted_at IS NULL)
		ORDER BY p.created_at DESC, p.id DESC LIMIT ?`, classID, classID, limit)
}

// ReportedPosts lists a scope's posts with open reports.
func (s *DB) ReportedPosts(ctx context.Context, classID int64, limit int) ([]progress.Post, error) {
	var out []progress.Post
	return out, s.each(ctx, "reported posts", func(sc scanner) error {
		var reason string
		var last time.Time
		p, err := scanPost(sc, &reason, at(&last))
		p.ReportReason, p.ReportedAt = reason, last
		out = append(out, p)
		return err
	}, "SELECT "+postColumns+`,
		(SELECT r.reason FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL ORDER BY r.reported_at DESC LIMIT 1),
		(SELECT max(r.reported_at) FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL) AS last_report
		FROM qa_posts p WHERE `+scopeClause+`
		AND EXISTS (SELECT 1 FROM qa_reports r WHERE r.post_id = p.id AND r.resolved_at IS NULL)
		ORDER BY last_report DESC, p.id DESC LIMIT ?`, classID, classID, limit)
}

// Notices returns a learner's latest notices with their lessons.
func (s *DB) Notices(ctx context.Context, learnerID string, limit int) ([]progress.Notice, error) {
	var out []progress.Notice
	return out, s.each(ctx, "notices", func(sc scanner) error {
		var n progress.Notice
		err := sc.Scan(&n.ID, &n.LearnerID, &n.Kind, &n.QuestionID, &n.PostID, &n.ActorName, at(&n.CreatedAt), at(&n.ReadAt), &n.LessonSlug)
		out = append(out, n)
		return err
	}, `SELECT n.id, n.learner_id, n.kind, n.question_id, n.post_id, n.actor_name, n.created_at, n.read_at, q.lesson_slug
		FROM qa_notices n JOIN qa_posts q ON q.id = n.question_id
		WHERE n.learner_id = ? ORDER BY n.created_at DESC, n.id DESC LIMIT ?`, learnerID, limit)
}

// UnreadNotices counts a learner's unread notices.
func (s *DB) UnreadNotices(ctx context.Context, learnerID string) (int, error) {
	var n int
	if err := s.row(ctx, "SELECT count(*) FROM qa_notices WHERE learner_id = ? AND read_at IS NULL", learnerID).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: unread notices: %w", err)
	}
	return n, nil
}

// ReadNotices marks unread notices read.
func (s *DB) ReadNotices(ctx context.Context, learnerID string, questionID int64, at time.Time) (int, error) {
	res, err := s.exec(ctx, `UPDATE qa_notices SET read_at = ? WHERE learner_id = ? AND read_at IS NULL
		AND (? = 0 OR question_id = ?)`, s.t(at), learnerID, questionID, questionID)
	if err != nil {
		return 0, fmt.Errorf("storage: read notices: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: read notices: %w", err)
	}
	return int(n), nil
}

// SetPublicName records a learner's public display name.
func (s *DB) SetPublicName(ctx context.Context, learnerID, name, key string, now time.Time) error {
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "INSERT INTO learners (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", learnerID, s.t(now)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO qa_names (learner_id, name, name_key) VALUES (?, ?, ?)
			ON CONFLICT (learner_id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key`, learnerID, name, key)
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: set public name: %w", err)
	}
	return nil
}

// PublicName returns a learner's public display name, or ErrNotFound.
func (s *DB) PublicName(ctx context.Context, learnerID string) (string, error) {
	var name string
	err := s.preparedRow(ctx, "SELECT name FROM qa_names WHERE learner_id = ?", learnerID).Scan(&name)
	return name, notFoundOr(err, "storage: public name")
}

// PageGeneration returns the count the triggers of migration 0031 (SQLite)
// and 0016 (PostgreSQL) move with every write to the tables a lesson page
// shows of others' doing; 0 before the first such write. PostgreSQL, which
// several servers share, is asked every time. A SQLite file is one
// server's: its count is read again only after this process wrote (a
// statement that may write ended since the last read), so a page view
// after none costs no query.
func (s *DB) PageGeneration(ctx context.Context) (int64, error) {
	writes := s.writes.Load()
	if s.e.owned {
		if g := s.generation.Load(); g != nil && g.writes == writes {
			return int64(g.value), nil
		}
	}
	var n int64
	if err := s.preparedRow(ctx, "SELECT coalesce(max(generation), 0) FROM page_generations WHERE name = 'shared'").Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: page generation: %w", err)
	}
	s.generation.Store(&generationRead{writes: writes, value: uint64(n)})
	return n, nil
}
