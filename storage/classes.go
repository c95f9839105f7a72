package storage

import (
	"context"
	"database/sql"
	"fmt"

	"learn/progress"
)

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

const classColumns = `c.id, c.teacher_id, c.name, coalesce(c.join_code, ''), c.time_zone, c.leaderboard, c.archived_at, c.created_at,
	(SELECT count(*) FROM class_members m WHERE m.class_id = c.id)`

func scanClass(row interface{ Scan(...any) error }, extra ...any) (progress.Class, error) {
	var c progress.Class
	var archived sql.NullString
	var created string
	if err := row.Scan(append([]any{&c.ID, &c.TeacherID, &c.Name, &c.JoinCode, &c.TimeZone, &c.Leaderboard, &archived, &created, &c.MemberCount}, extra...)...); err != nil {
		return c, err
	}
	var err error
	if c.ArchivedAt, err = parseNullTime(archived); err != nil {
		return c, err
	}
	c.CreatedAt, err = parseTime(created)
	return c, err
}

// CreateClass saves a new class; a join code taken by an active class
// wraps ErrConflict.
func (s *DB) CreateClass(ctx context.Context, c progress.Class) (progress.Class, error) {
	if err := s.row(ctx, `INSERT INTO classes (teacher_id, name, join_code, time_zone, leaderboard, archived_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, c.TeacherID, c.Name, nullString(c.JoinCode), c.TimeZone, c.Leaderboard,
		s.nt(c.ArchivedAt), s.t(c.CreatedAt)).Scan(&c.ID); err != nil {
		return c, fmt.Errorf("storage: create class: %w", err)
	}
	return s.FindClass(ctx, c.ID)
}

// FindClass returns the class with its member count, or ErrNotFound.
func (s *DB) FindClass(ctx context.Context, id int64) (progress.Class, error) {
	c, err := scanClass(s.row(ctx, "SELECT "+classColumns+" FROM classes c WHERE c.id = ?", id))
	return c, notFoundOr(err, "storage: find class %d", id)
}

// FindClassByCode returns the active class with this join code, or
// ErrNotFound.
func (s *DB) FindClassByCode(ctx context.Context, code string) (progress.Class, error) {
	if code == "" {
		return progress.Class{}, fmt.Errorf("storage: find class by code: %w", ErrNotFound)
	}
	c, err := scanClass(s.row(ctx, "SELECT "+classColumns+
		" FROM classes c WHERE c.join_code = ? AND c.archived_at IS NULL", code))
	return c, notFoundOr(err, "storage: find class by code")
}

// TeacherClasses returns the teacher's classes, active first.
func (s *DB) TeacherClasses(ctx context.Context, teacherID int64) ([]progress.Class, error) {
	rows, err := s.rows(ctx, "SELECT "+classColumns+` FROM classes c WHERE c.teacher_id = ?
		ORDER BY c.archived_at IS NOT NULL, c.created_at, c.id`, teacherID)
	if err != nil {
		return nil, fmt.Errorf("storage: teacher classes: %w", err)
	}
	defer rows.Close()
	var out []progress.Class
	for rows.Next() {
		c, err := scanClass(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: teacher classes: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: teacher classes: %w", err)
	}
	return out, nil
}

// UpdateClass writes the class's settings.
func (s *DB) UpdateClass(ctx context.Context, c progress.Class) error {
	res, err := s.exec(ctx, `UPDATE classes SET name = ?, join_code = ?, time_zone = ?, leaderboard = ?, archived_at = ?
		WHERE id = ?`, c.Name, nullString(c.JoinCode), c.TimeZone, c.Leaderboard, s.nt(c.ArchivedAt), c.ID)
	if err != nil {
		return fmt.Errorf("storage: update class %d: %w", c.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("storage: update class %d: %w", c.ID, ErrNotFound)
	}
	return nil
}

// DeleteClass removes the class; memberships and assignments go with it.
func (s *DB) DeleteClass(ctx context.Context, id int64) error {
	res, err := s.exec(ctx, "DELETE FROM classes WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("storage: delete class %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("storage: delete class %d: %w", id, ErrNotFound)
	}
	return nil
}

// AddMember adds the learner to the class, creating the learner if needed.
func (s *DB) AddMember(ctx context.Context, m progress.Member) error {
	return s.inTx(ctx, func(tx q) error {
		if err := ensureLearner(ctx, tx, m.LearnerID, m.JoinedAt); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO class_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, m.ClassID, m.LearnerID, m.Name, m.NameKey, m.Secret, m.SecretHash, s.t(m.JoinedAt))
		if err != nil {
			return fmt.Errorf("storage: add member to class %d: %w", m.ClassID, err)
		}
		return nil
	})
}

const memberColumns = "m.class_id, m.learner_id, m.name, m.name_key, m.secret, m.secret_hash, m.joined_at"

func scanMember(row interface{ Scan(...any) error }, extra ...any) (progress.Member, error) {
	var m progress.Member
	var joined string
	if err := row.Scan(append([]any{&m.ClassID, &m.LearnerID, &m.Name, &m.NameKey, &m.Secret, &m.SecretHash, &joined}, extra...)...); err != nil {
		return m, err
	}
	var err error
	m.JoinedAt, err = parseTime(joined)
	return m, err
}

// FindMember returns the learner's membership of the class, or
// ErrNotFound.
func (s *DB) FindMember(ctx context.Context, classID int64, learnerID string) (progress.Member, error) {
	m, err := scanMember(s.row(ctx, "SELECT "+memberColumns+
		" FROM class_members m WHERE m.class_id = ? AND m.learner_id = ?", classID, learnerID))
	return m, notFoundOr(err, "storage: find member of class %d", classID)
}

// FindMemberByName returns the member with this name key, or ErrNotFound.
func (s *DB) FindMemberByName(ctx context.Context, classID int64, nameKey string) (progress.Member, error) {
	m, err := scanMember(s.row(ctx, "SELECT "+memberColumns+
		" FROM class_members m WHERE m.class_id = ? AND m.name_key = ?", classID, nameKey))
	return m, notFoundOr(err, "storage: find member of class %d by name", classID)
}

// Members returns the class's members by name.
func (s *DB) Members(ctx context.Context, classID int64) ([]progress.Member, error) {
	rows, err := s.rows(ctx, "SELECT "+memberColumns+
		", l.time_zone FROM class_members m JOIN learners l ON l.id = m.learner_id WHERE m.class_id = ? ORDER BY m.name_key", classID)
	if err != nil {
		return nil, fmt.Errorf("storage: members of class %d: %w", classID, err)
	}
	defer rows.Close()
	var out []progress.Member
	for rows.Next() {
		var zone string
		m, err := scanMember(rows, &zone)
		if err != nil {
			return nil, fmt.Errorf("storage: members of class %d: %w", classID, err)
		}
		m.TimeZone = zone
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: members of class %d: %w", classID, err)
	}
	return out, nil
}

// LearnerClasses returns the learner's active classes by name.
func (s *DB) LearnerClasses(ctx context.Context, learnerID string) ([]progress.Membership, error) {
	st, err := s.prepared(ctx, "SELECT "+classColumns+", "+memberColumns+`, t.name
		FROM class_members m JOIN classes c ON c.id = m.class_id JOIN teachers t ON t.id = c.teacher_id
		WHERE m.learner_id = ? AND c.archived_at IS NULL ORDER BY c.name, c.id`)
	if err != nil {
		return nil, fmt.Errorf("storage: classes of learner: %w", err)
	}
	rows, err := st.QueryContext(ctx, learnerID)
	if err != nil {
		return nil, fmt.Errorf("storage: classes of learner: %w", err)
	}
	defer rows.Close()
	var out []progress.Membership
	for rows.Next() {
		var ms progress.Membership
		var joined string
		m := &ms.Member
		c, err := scanClass(rows, &m.ClassID, &m.LearnerID, &m.Name, &m.NameKey, &m.Secret, &m.SecretHash, &joined, &ms.TeacherName)
		if err != nil {
			return nil, fmt.Errorf("storage: classes of learner: %w", err)
		}
		if m.JoinedAt, err = parseTime(joined); err != nil {
			return nil, fmt.Errorf("storage: classes of learner: %w", err)
		}
		ms.Class = c
		out = append(out, ms)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: classes of learner: %w", err)
	}
	return out, nil
}

// SetMemberSecret replaces a member's secret words.
func (s *DB) SetMemberSecret(ctx context.Context, classID int64, learnerID, secret, hash string) error {
	res, err := s.exec(ctx, "UPDATE class_members SET secret = ?, secret_hash = ? WHERE class_id = ? AND learner_id = ?",
		secret, hash, classID, learnerID)
	if err != nil {
		return fmt.Errorf("storage: set secret in class %d: %w", classID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("storage: set secret in class %d: %w", classID, ErrNotFound)
	}
	return nil
}

// RemoveMember takes the learner out of the class.
func (s *DB) RemoveMember(ctx context.Context, classID int64, learnerID string) error {
	res, err := s.exec(ctx, "DELETE FROM class_members WHERE class_id = ? AND learner_id = ?", classID, learnerID)
	if err != nil {
		return fmt.Errorf("storage: remove member of class %d: %w", classID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("storage: remove member of class %d: %w", classID, ErrNotFound)
	}
	return nil
}

// SetAssignment assigns a lesson or changes its due time.
func (s *DB) SetAssignment(ctx context.Context, a progress.Assignment) error {
	if _, err := s.exec(ctx, `INSERT INTO assignments (class_id, lesson_slug, due_at, assigned_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (class_id, lesson_slug) DO UPDATE SET due_at = excluded.due_at`,
		a.ClassID, a.LessonSlug, s.nt(a.Due), s.t(a.AssignedAt)); err != nil {
		return fmt.Errorf("storage: assign %q to class %d: %w", a.LessonSlug, a.ClassID, err)
	}
	return nil
}

// DeleteAssignment takes a lesson off a class's assignments.
func (s *DB) DeleteAssignment(ctx context.Context, classID int64, lessonSlug string) error {
	if _, err := s.exec(ctx, "DELETE FROM assignments WHERE class_id = ? AND lesson_slug = ?", classID, lessonSlug); err != nil {
		return fmt.Errorf("storage: unassign %q from class %d: %w", lessonSlug, classID, err)
	}
	return nil
}

// Assignments returns the class's assignments by assignment time.
func (s *DB) Assignments(ctx context.Context, classID int64) ([]progress.Assignment, error) {
	rows, err := s.rows(ctx, `SELECT lesson_slug, due_at, assigned_at FROM assignments
		WHERE class_id = ? ORDER BY assigned_at, lesson_slug`, classID)
	if err != nil {
		return nil, fmt.Errorf("storage: assignments of class %d: %w", classID, err)
	}
	defer rows.Close()
	var out []progress.Assignment
	for rows.Next() {
		a := progress.Assignment{ClassID: classID}
		var due sql.NullString
		var at string
		if err := rows.Scan(&a.LessonSlug, &due, &at); err != nil {
			return nil, fmt.Errorf("storage: assignments of class %d: %w", classID, err)
		}
		if a.Due, err = parseNullTime(due); err != nil {
			return nil, fmt.Errorf("storage: assignments of class %d: %w", classID, err)
		}
		if a.AssignedAt, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("storage: assignments of class %d: %w", classID, err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: assignments of class %d: %w", classID, err)
	}
	return out, nil
}

// DeleteLearner removes the learner; every table keyed by learner cascades.
func (s *DB) DeleteLearner(ctx context.Context, learnerID string) error {
	if _, err := s.exec(ctx, "DELETE FROM learners WHERE id = ?", learnerID); err != nil {
		return fmt.Errorf("storage: delete learner: %w", err)
	}
	return nil
}
