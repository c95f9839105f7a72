package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"

	"learn/progress"
)

// ErrConflict is progress.ErrConflict: a write broke a uniqueness rule.
var ErrConflict = progress.ErrConflict

// isUnique reports whether err is SQLite refusing a duplicate key
// (SQLITE_CONSTRAINT_UNIQUE or SQLITE_CONSTRAINT_PRIMARYKEY).
func isUnique(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && (e.Code() == 2067 || e.Code() == 1555)
}

// CreateTeacher saves a new teacher; a taken e-mail wraps ErrConflict.
func (s *Store) CreateTeacher(ctx context.Context, t progress.Teacher) (progress.Teacher, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO teachers (email, name, admin, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?)`, t.Email, t.Name, t.Admin, t.PasswordHash, formatTime(t.CreatedAt))
	if isUnique(err) {
		return progress.Teacher{}, fmt.Errorf("store: create teacher %q: %w", t.Email, ErrConflict)
	}
	if err != nil {
		return progress.Teacher{}, fmt.Errorf("store: create teacher %q: %w", t.Email, err)
	}
	if t.ID, err = res.LastInsertId(); err != nil {
		return progress.Teacher{}, fmt.Errorf("store: create teacher %q: %w", t.Email, err)
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
func (s *Store) FindTeacher(ctx context.Context, id int64) (progress.Teacher, error) {
	t, err := scanTeacher(s.db.QueryRowContext(ctx, "SELECT "+teacherColumns+" FROM teachers WHERE id = ?", id))
	return t, notFoundOr(err, "store: find teacher %d", id)
}

// FindTeacherByEmail returns the teacher with this e-mail, or ErrNotFound.
func (s *Store) FindTeacherByEmail(ctx context.Context, email string) (progress.Teacher, error) {
	t, err := scanTeacher(s.db.QueryRowContext(ctx, "SELECT "+teacherColumns+" FROM teachers WHERE email = ?", email))
	return t, notFoundOr(err, "store: find teacher %q", email)
}

// notFoundOr wraps err with context, turning sql.ErrNoRows into
// ErrNotFound.
func notFoundOr(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// ListTeachers returns every teacher by e-mail with their class counts.
func (s *Store) ListTeachers(ctx context.Context) ([]progress.Teacher, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT t.id, t.email, t.name, t.admin, t.password_hash, t.created_at,
		(SELECT count(*) FROM classes c WHERE c.teacher_id = t.id) FROM teachers t ORDER BY t.email`)
	if err != nil {
		return nil, fmt.Errorf("store: list teachers: %w", err)
	}
	defer rows.Close()
	var out []progress.Teacher
	for rows.Next() {
		var n int
		t, err := scanTeacher(rows, &n)
		if err != nil {
			return nil, fmt.Errorf("store: list teachers: %w", err)
		}
		t.ClassCount = n
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list teachers: %w", err)
	}
	return out, nil
}

// DeleteTeacher removes the teacher; sessions and classes go with them.
func (s *Store) DeleteTeacher(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM teachers WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("store: delete teacher %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: delete teacher %d: %w", id, ErrNotFound)
	}
	return nil
}

// SetTeacherPassword replaces the hash and revokes every session of the
// teacher in one transaction.
func (s *Store) SetTeacherPassword(ctx context.Context, id int64, hash string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE teachers SET password_hash = ? WHERE id = ?", hash, id)
		if err != nil {
			return fmt.Errorf("store: set password of teacher %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: set password of teacher %d: %w", id, ErrNotFound)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE teacher_id = ?", id); err != nil {
			return fmt.Errorf("store: revoke sessions of teacher %d: %w", id, err)
		}
		return nil
	})
}

// CreateSession saves a session, and drops sessions that have expired.
func (s *Store) CreateSession(ctx context.Context, sess progress.Session) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE expires_at <= ?", formatTime(sess.CreatedAt)); err != nil {
			return fmt.Errorf("store: drop expired sessions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO sessions (token_hash, teacher_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
			sess.TokenHash, sess.TeacherID, formatTime(sess.CreatedAt), formatTime(sess.ExpiresAt)); err != nil {
			return fmt.Errorf("store: create session: %w", err)
		}
		return nil
	})
}

// FindSession returns a live session and its teacher, or ErrNotFound.
func (s *Store) FindSession(ctx context.Context, tokenHash string, now time.Time) (progress.Session, progress.Teacher, error) {
	var sess progress.Session
	var created, expires string
	t, err := scanTeacher(s.db.QueryRowContext(ctx, `SELECT t.id, t.email, t.name, t.admin, t.password_hash, t.created_at,
		s.token_hash, s.created_at, s.expires_at
		FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = ? AND s.expires_at > ?`,
		tokenHash, formatTime(now)), &sess.TokenHash, &created, &expires)
	if err != nil {
		return sess, t, notFoundOr(err, "store: find session")
	}
	sess.TeacherID = t.ID
	if sess.CreatedAt, err = parseTime(created); err != nil {
		return sess, t, fmt.Errorf("store: find session: %w", err)
	}
	if sess.ExpiresAt, err = parseTime(expires); err != nil {
		return sess, t, fmt.Errorf("store: find session: %w", err)
	}
	return sess, t, nil
}

// DeleteSession removes one session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE token_hash = ?", tokenHash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}
