package storage

import (
	"context"
	"fmt"
	"time"

	"learn/progress"
)

// CreateTeacher saves a new teacher; a taken e-mail wraps ErrConflict.
func (s *DB) CreateTeacher(ctx context.Context, t progress.Teacher) (progress.Teacher, error) {
	if err := s.row(ctx, `INSERT INTO teachers (email, name, admin, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, t.Email, t.Name, t.Admin, t.PasswordHash, s.t(t.CreatedAt)).Scan(&t.ID); err != nil {
		return progress.Teacher{}, fmt.Errorf("storage: create teacher %q: %w", t.Email, err)
	}
	t.CreatedAt = t.CreatedAt.UTC()
	return t, nil
}

const teacherColumns = "id, email, name, admin, password_hash, created_at"

func scanTeacher(row interface{ Scan(...any) error }, extra ...any) (progress.Teacher, error) {
	var t progress.Teacher
	var created string
	if err := row.Scan(append([]any{&t.ID, &t.Email, &t.Name, &t.Admin, &t.PasswordHash, &created}, extra...)...); err != nil {
		return t, err
	}
	var err error
	t.CreatedAt, err = parseTime(created)
	return t, err
}

// FindTeacher returns the teacher with this id, or ErrNotFound.
func (s *DB) FindTeacher(ctx context.Context, id int64) (progress.Teacher, error) {
	t, err := scanTeacher(s.row(ctx, "SELECT "+teacherColumns+" FROM teachers WHERE id = ?", id))
	return t, notFoundOr(err, "storage: find teacher %d", id)
}

// FindTeacherByEmail returns the teacher with this e-mail, or ErrNotFound.
func (s *DB) FindTeacherByEmail(ctx context.Context, email string) (progress.Teacher, error) {
	t, err := scanTeacher(s.row(ctx, "SELECT "+teacherColumns+" FROM teachers WHERE email = ?", email))
	return t, notFoundOr(err, "storage: find teacher %q", email)
}

// notFoundOr wraps err with context, turning sql.ErrNoRows into
// ErrNotFound.
// ListTeachers returns every teacher by e-mail with their class counts.
func (s *DB) ListTeachers(ctx context.Context) ([]progress.Teacher, error) {
	rows, err := s.rows(ctx, `SELECT t.id, t.email, t.name, t.admin, t.password_hash, t.created_at,
		(SELECT count(*) FROM classes c WHERE c.teacher_id = t.id) FROM teachers t ORDER BY t.email`)
	if err != nil {
		return nil, fmt.Errorf("storage: list teachers: %w", err)
	}
	defer rows.Close()
	var out []progress.Teacher
	for rows.Next() {
		var n int
		t, err := scanTeacher(rows, &n)
		if err != nil {
			return nil, fmt.Errorf("storage: list teachers: %w", err)
		}
		t.ClassCount = n
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: list teachers: %w", err)
	}
	return out, nil
}

// DeleteTeacher removes the teacher; sessions and classes go with them.
func (s *DB) DeleteTeacher(ctx context.Context, id int64) error {
	res, err := s.exec(ctx, "DELETE FROM teachers WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("storage: delete teacher %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("storage: delete teacher %d: %w", id, ErrNotFound)
	}
	return nil
}

// SetTeacherPassword replaces the hash and revokes every session of the
// teacher in one transaction.
func (s *DB) SetTeacherPassword(ctx context.Context, id int64, hash string) error {
	return s.inTx(ctx, func(tx q) error {
		res, err := tx.exec(ctx, "UPDATE teachers SET password_hash = ? WHERE id = ?", hash, id)
		if err != nil {
			return fmt.Errorf("storage: set password of teacher %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("storage: set password of teacher %d: %w", id, ErrNotFound)
		}
		if _, err := tx.exec(ctx, "DELETE FROM sessions WHERE teacher_id = ?", id); err != nil {
			return fmt.Errorf("storage: revoke sessions of teacher %d: %w", id, err)
		}
		return nil
	})
}

// CreateSession saves a session, and drops sessions that have expired.
func (s *DB) CreateSession(ctx context.Context, sess progress.Session) error {
	return s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM sessions WHERE expires_at <= ?", s.t(sess.CreatedAt)); err != nil {
			return fmt.Errorf("storage: drop expired sessions: %w", err)
		}
		if _, err := tx.exec(ctx, "INSERT INTO sessions (token_hash, teacher_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
			sess.TokenHash, sess.TeacherID, s.t(sess.CreatedAt), s.t(sess.ExpiresAt)); err != nil {
			return fmt.Errorf("storage: create session: %w", err)
		}
		return nil
	})
}

// FindSession returns a live session and its teacher, or ErrNotFound.
func (s *DB) FindSession(ctx context.Context, tokenHash string, now time.Time) (progress.Session, progress.Teacher, error) {
	var sess progress.Session
	var created, expires string
	t, err := scanTeacher(s.row(ctx, `SELECT t.id, t.email, t.name, t.admin, t.password_hash, t.created_at,
		s.token_hash, s.created_at, s.expires_at
		FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = ? AND s.expires_at > ?`,
		tokenHash, s.t(now)), &sess.TokenHash, &created, &expires)
	if err != nil {
		return sess, t, notFoundOr(err, "storage: find session")
	}
	sess.TeacherID = t.ID
	if sess.CreatedAt, err = parseTime(created); err != nil {
		return sess, t, fmt.Errorf("storage: find session: %w", err)
	}
	if sess.ExpiresAt, err = parseTime(expires); err != nil {
		return sess, t, fmt.Errorf("storage: find session: %w", err)
	}
	return sess, t, nil
}

// DeleteSession removes one session.
func (s *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.exec(ctx, "DELETE FROM sessions WHERE token_hash = ?", tokenHash); err != nil {
		return fmt.Errorf("storage: delete session: %w", err)
	}
	return nil
}
