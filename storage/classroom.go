package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"learn/progress"
)

// The classroom part of the store (progress.ClassroomStore): teachers and
// their sessions, classes, members and assignments. The dashboard's
// class-wide reads are in class_reads.go.

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// changed turns "no row changed" into ErrNotFound.
func changed(res sql.Result, err error, format string, args ...any) error {
	if err == nil {
		var n int64
		if n, err = res.RowsAffected(); err == nil && n == 0 {
			err = ErrNotFound
		}
	}
	return notFoundOr(err, format, args...)
}

// CreateTeacher saves a new teacher; a taken e-mail wraps ErrConflict.
func (s *DB) CreateTeacher(ctx context.Context, t progress.Teacher) (progress.Teacher, error) {
	if err := s.row(ctx, `INSERT INTO teachers (email, name, admin, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, t.Email, t.Name, t.Admin, t.PasswordHash, s.t(t.CreatedAt)).Scan(&t.ID); err != nil {
		return progress.Teacher{}, fmt.Errorf("storage: create teacher %q: %w", t.Email, err)
	}
	t.CreatedAt = t.CreatedAt.UTC()
	return t, nil
}

const teacherColumns = "t.id, t.email, t.name, t.admin, t.password_hash, t.created_at"

func scanTeacher(row scanner, extra ...any) (progress.Teacher, error) {
	var t progress.Teacher
	err := row.Scan(append([]any{&t.ID, &t.Email, &t.Name, &t.Admin, &t.PasswordHash, at(&t.CreatedAt)}, extra...)...)
	return t, err
}

// FindTeacher returns the teacher with this id, or ErrNotFound.
func (s *DB) FindTeacher(ctx context.Context, id int64) (progress.Teacher, error) {
	t, err := scanTeacher(s.row(ctx, "SELECT "+teacherColumns+" FROM teachers t WHERE t.id = ?", id))
	return t, notFoundOr(err, "storage: find teacher %d", id)
}

// FindTeacherByEmail returns the teacher with this e-mail, or ErrNotFound.
func (s *DB) FindTeacherByEmail(ctx context.Context, email string) (progress.Teacher, error) {
	t, err := scanTeacher(s.row(ctx, "SELECT "+teacherColumns+" FROM teachers t WHERE t.email = ?", email))
	return t, notFoundOr(err, "storage: find teacher %q", email)
}

// ListTeachers returns every teacher by e-mail with their class counts.
func (s *DB) ListTeachers(ctx context.Context) ([]progress.Teacher, error) {
	var out []progress.Teacher
	return out, s.each(ctx, "list teachers", func(sc scanner) error {
		var n int
		t, err := scanTeacher(sc, &n)
		t.ClassCount = n
		out = append(out, t)
		return err
	}, "SELECT "+teacherColumns+", (SELECT count(*) FROM classes c WHERE c.teacher_id = t.id) FROM teachers t ORDER BY t.email")
}

// DeleteTeacher removes the teacher; sessions and classes go with them.
func (s *DB) DeleteTeacher(ctx context.Context, id int64) error {
	res, err := s.exec(ctx, "DELETE FROM teachers WHERE id = ?", id)
	return changed(res, err, "storage: delete teacher %d", id)
}

// SetTeacherPassword replaces the hash and revokes every session of the
// teacher in one transaction.
func (s *DB) SetTeacherPassword(ctx context.Context, id int64, hash string) error {
	return s.inTx(ctx, func(tx q) error {
		res, err := tx.exec(ctx, "UPDATE teachers SET password_hash = ? WHERE id = ?", hash, id)
		if err := changed(res, err, "storage: set password of teacher %d", id); err != nil {
			return err
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
		if _, err := tx.exec(ctx, "DELETE FROM sessions WHERE expires_at <= ?", tx.t(sess.CreatedAt)); err != nil {
			return fmt.Errorf("storage: drop expired sessions: %w", err)
		}
		if _, err := tx.exec(ctx, "INSERT INTO sessions (token_hash, teacher_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
			sess.TokenHash, sess.TeacherID, tx.t(sess.CreatedAt), tx.t(sess.ExpiresAt)); err != nil {
			return fmt.Errorf("storage: create session: %w", err)
		}
		return nil
	})
}

// FindSession returns a live session and its teacher, or ErrNotFound.
func (s *DB) FindSession(ctx context.Context, tokenHash string, now time.Time) (progress.Session, progress.Teacher, error) {
	var sess progress.Session
	t, err := scanTeacher(s.row(ctx, "SELECT "+teacherColumns+`, s.token_hash, s.created_at, s.expires_at
		FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = ? AND s.expires_at > ?`,
		tokenHash, s.t(now)), &sess.TokenHash, at(&sess.CreatedAt), at(&sess.ExpiresAt))
	sess.TeacherID = t.ID
	return sess, t, notFoundOr(err, "storage: find session")
}

// DeleteSession removes one session.
func (s *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.exec(ctx, "DELETE FROM sessions WHERE token_hash = ?", tokenHash); err != nil {
		return fmt.Errorf("storage: delete session: %w", err)
	}
	return nil
}

const classColumns = `c.id, c.teacher_id, c.name, coalesce(c.join_code, ''), c.time_zone, c.leaderboard, c.archived_at, c.created_at,
	(SELECT count(*) FROM class_members m WHERE m.class_id = c.id)`

func scanClass(row scanner, extra ...any) (progress.Class, error) {
	var c progress.Class
	err := row.Scan(append([]any{&c.ID, &c.TeacherID, &c.Name, &c.JoinCode, &c.TimeZone, &c.Leaderboard,
		at(&c.ArchivedAt), at(&c.CreatedAt), &c.MemberCount}, extra...)...)
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
	var out []progress.Class
	return out, s.each(ctx, "teacher classes", func(sc scanner) error {
		c, err := scanClass(sc)
		out = append(out, c)
		return err
	}, "SELECT "+classColumns+` FROM classes c
		WHERE c.teacher_id = ? OR c.id IN (SELECT ct.class_id FROM class_teachers ct WHERE ct.teacher_id = ?)
		ORDER BY c.archived_at IS NOT NULL, c.created_at, c.id`, teacherID, teacherID)
}

// AddCoTeacher makes the teacher a co-teacher of the class; ErrConflict
// when they already are one, ErrNotFound for an unknown class or teacher.
func (s *DB) AddCoTeacher(ctx context.Context, classID, teacherID int64, at time.Time) error {
	return s.inTx(ctx, func(tx q) error {
		var found int
		if err := tx.row(ctx, `SELECT (SELECT count(*) FROM classes WHERE id = ?) + (SELECT count(*) FROM teachers WHERE id = ?)`,
			classID, teacherID).Scan(&found); err != nil {
			return fmt.Errorf("storage: add co-teacher to class %d: %w", classID, err)
		}
		if found != 2 {
			return fmt.Errorf("storage: add co-teacher %d to class %d: %w", teacherID, classID, ErrNotFound)
		}
		if _, err := tx.exec(ctx, "INSERT INTO class_teachers (class_id, teacher_id, added_at) VALUES (?, ?, ?)",
			classID, teacherID, tx.t(at)); err != nil {
			return fmt.Errorf("storage: add co-teacher %d to class %d: %w", teacherID, classID, err)
		}
		return nil
	})
}

// RemoveCoTeacher ends the teacher's co-teaching of the class; ErrNotFound
// when they were not a co-teacher of it.
func (s *DB) RemoveCoTeacher(ctx context.Context, classID, teacherID int64) error {
	res, err := s.exec(ctx, "DELETE FROM class_teachers WHERE class_id = ? AND teacher_id = ?", classID, teacherID)
	return changed(res, err, "storage: remove co-teacher %d from class %d", teacherID, classID)
}

// CoTeachers returns the class's co-teachers by e-mail.
func (s *DB) CoTeachers(ctx context.Context, classID int64) ([]progress.CoTeacher, error) {
	var out []progress.CoTeacher
	return out, s.each(ctx, fmt.Sprintf("co-teachers of class %d", classID), func(sc scanner) error {
		c := progress.CoTeacher{}
		t, err := scanTeacher(sc, at(&c.AddedAt))
		t.PasswordHash = "" // nobody reading a class's teachers needs it
		c.Teacher = t
		out = append(out, c)
		return err
	}, "SELECT "+teacherColumns+`, ct.added_at
		FROM class_teachers ct JOIN teachers t ON t.id = ct.teacher_id WHERE ct.class_id = ? ORDER BY t.email`, classID)
}

// IsCoTeacher reports whether the teacher co-teaches the class.
func (s *DB) IsCoTeacher(ctx context.Context, classID, teacherID int64) (bool, error) {
	var yes bool
	if err := s.row(ctx, "SELECT EXISTS (SELECT 1 FROM class_teachers WHERE class_id = ? AND teacher_id = ?)",
		classID, teacherID).Scan(&yes); err != nil {
		return false, fmt.Errorf("storage: is teacher %d a co-teacher of class %d: %w", teacherID, classID, err)
	}
	return yes, nil
}

// UpdateClass writes the class's settings.
func (s *DB) UpdateClass(ctx context.Context, c progress.Class) error {
	res, err := s.exec(ctx, `UPDATE classes SET name = ?, join_code = ?, time_zone = ?, leaderboard = ?, archived_at = ?
		WHERE id = ?`, c.Name, nullString(c.JoinCode), c.TimeZone, c.Leaderboard, s.nt(c.ArchivedAt), c.ID)
	return changed(res, err, "storage: update class %d", c.ID)
}

// DeleteClass removes the class; memberships and assignments go with it.
func (s *DB) DeleteClass(ctx context.Context, id int64) error {
	res, err := s.exec(ctx, "DELETE FROM classes WHERE id = ?", id)
	return changed(res, err, "storage: delete class %d", id)
}

// AddMember adds the learner to the class, creating the learner if needed.
func (s *DB) AddMember(ctx context.Context, m progress.Member) error {
	return s.inTx(ctx, func(tx q) error {
		if err := ensureLearner(ctx, tx, m.LearnerID, m.JoinedAt); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO class_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, m.ClassID, m.LearnerID, m.Name, m.NameKey, m.Secret, m.SecretHash, tx.t(m.JoinedAt)); err != nil {
			return fmt.Errorf("storage: add member to class %d: %w", m.ClassID, err)
		}
		return nil
	})
}

const memberColumns = "m.class_id, m.learner_id, m.name, m.name_key, m.secret, m.secret_hash, m.joined_at"

func memberFields(m *progress.Member) []any {
	return []any{&m.ClassID, &m.LearnerID, &m.Name, &m.NameKey, &m.Secret, &m.SecretHash, at(&m.JoinedAt)}
}

// FindMember returns the learner's membership of the class, or
// ErrNotFound.
func (s *DB) FindMember(ctx context.Context, classID int64, learnerID string) (progress.Member, error) {
	var m progress.Member
	err := s.row(ctx, "SELECT "+memberColumns+" FROM class_members m WHERE m.class_id = ? AND m.learner_id = ?",
		classID, learnerID).Scan(memberFields(&m)...)
	return m, notFoundOr(err, "storage: find member of class %d", classID)
}

// FindMemberByName returns the member with this name key, or ErrNotFound.
func (s *DB) FindMemberByName(ctx context.Context, classID int64, nameKey string) (progress.Member, error) {
	var m progress.Member
	err := s.row(ctx, "SELECT "+memberColumns+" FROM class_members m WHERE m.class_id = ? AND m.name_key = ?",
		classID, nameKey).Scan(memberFields(&m)...)
	return m, notFoundOr(err, "storage: find member of class %d by name", classID)
}

// Members returns the class's members by name.
func (s *DB) Members(ctx context.Context, classID int64) ([]progress.Member, error) {
	var out []progress.Member
	return out, s.each(ctx, fmt.Sprintf("members of class %d", classID), func(sc scanner) error {
		var m progress.Member
		err := sc.Scan(append(memberFields(&m), &m.TimeZone)...)
		out = append(out, m)
		return err
	}, "SELECT "+memberColumns+", l.time_zone FROM class_members m JOIN learners l ON l.id = m.learner_id WHERE m.class_id = ? ORDER BY m.name_key", classID)
}

// LearnerClasses returns the learner's active classes by name.
func (s *DB) LearnerClasses(ctx context.Context, learnerID string) ([]progress.Membership, error) {
	var out []progress.Membership
	return out, s.preparedEach(ctx, "classes of learner", func(sc scanner) error {
		var ms progress.Membership
		c, err := scanClass(sc, append(memberFields(&ms.Member), &ms.TeacherName)...)
		ms.Class = c
		out = append(out, ms)
		return err
	}, "SELECT "+classColumns+", "+memberColumns+`, t.name
		FROM class_members m JOIN classes c ON c.id = m.class_id JOIN teachers t ON t.id = c.teacher_id
		WHERE m.learner_id = ? AND c.archived_at IS NULL ORDER BY c.name, c.id`, learnerID)
}

// SetMemberSecret replaces a member's secret words and signs out the
// devices that came in with the old ones, in one transaction.
func (s *DB) SetMemberSecret(ctx context.Context, classID int64, learnerID, secret, hash string) error {
	return s.inTx(ctx, func(tx q) error {
		res, err := tx.exec(ctx, "UPDATE class_members SET secret = ?, secret_hash = ? WHERE class_id = ? AND learner_id = ?",
			secret, hash, classID, learnerID)
		if err := changed(res, err, "storage: set secret in class %d", classID); err != nil {
			return err
		}
		return endClassDevices(ctx, tx, classID, learnerID)
	})
}

// RemoveMember takes the learner out of the class and signs out the
// devices that came in with the class's words, in one transaction.
func (s *DB) RemoveMember(ctx context.Context, classID int64, learnerID string) error {
	return s.inTx(ctx, func(tx q) error {
		res, err := tx.exec(ctx, "DELETE FROM class_members WHERE class_id = ? AND learner_id = ?", classID, learnerID)
		if err := changed(res, err, "storage: remove member of class %d", classID); err != nil {
			return err
		}
		return endClassDevices(ctx, tx, classID, learnerID)
	})
}

// RemoveMemberKeeping takes the learner out of the class as RemoveMember
// does, keeping the membership in removed_members (removed at at) so that
// RestoreMember can put it back, and forgets every kept removal made
// before forgetBefore.
func (s *DB) RemoveMemberKeeping(ctx context.Context, classID int64, learnerID string, at, forgetBefore time.Time) error {
	return s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM removed_members WHERE removed_at < ?", tx.t(forgetBefore)); err != nil {
			return fmt.Errorf("storage: forget old removals: %w", err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO removed_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at, removed_at)
			SELECT class_id, learner_id, name, name_key, secret, secret_hash, joined_at, ? FROM class_members WHERE class_id = ? AND learner_id = ?
			ON CONFLICT (class_id, learner_id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, secret = excluded.secret,
				secret_hash = excluded.secret_hash, joined_at = excluded.joined_at, removed_at = excluded.removed_at`,
			tx.t(at), classID, learnerID); err != nil {
			return fmt.Errorf("storage: keep the removal from class %d: %w", classID, err)
		}
		res, err := tx.exec(ctx, "DELETE FROM class_members WHERE class_id = ? AND learner_id = ?", classID, learnerID)
		if err := changed(res, err, "storage: remove member of class %d", classID); err != nil {
			return err
		}
		return endClassDevices(ctx, tx, classID, learnerID)
	})
}

const removedColumns = "class_id, learner_id, name, name_key, secret, secret_hash, joined_at, removed_at"

func scanRemoved(sc scanner) (progress.RemovedMember, error) {
	var r progress.RemovedMember
	err := sc.Scan(append(memberFields(&r.Member), at(&r.RemovedAt))...)
	return r, err
}

// RemovedMembers returns the class's kept removals made at or after
// since, latest first.
func (s *DB) RemovedMembers(ctx context.Context, classID int64, since time.Time) ([]progress.RemovedMember, error) {
	var out []progress.RemovedMember
	return out, s.each(ctx, "removed members", func(sc scanner) error {
		r, err := scanRemoved(sc)
		out = append(out, r)
		return err
	}, "SELECT "+removedColumns+" FROM removed_members WHERE class_id = ? AND removed_at >= ? ORDER BY removed_at DESC, name_key", classID, s.t(since))
}

// RestoreMember puts back a membership removed at or after since, with
// its name and words, and returns it. ErrNotFound when there is none;
// ErrConflict when the learner is in the class again or another member
// took the name meanwhile.
func (s *DB) RestoreMember(ctx context.Context, classID int64, learnerID string, since time.Time) (progress.Member, error) {
	var m progress.Member
	err := s.inTx(ctx, func(tx q) error {
		r, err := scanRemoved(tx.row(ctx, "SELECT "+removedColumns+" FROM removed_members WHERE class_id = ? AND learner_id = ? AND removed_at >= ?",
			classID, learnerID, tx.t(since)))
		if err != nil {
			return notFoundOr(err, "storage: find removal from class %d", classID)
		}
		if _, err := tx.exec(ctx, `INSERT INTO class_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, r.ClassID, r.LearnerID, r.Name, r.NameKey, r.Secret, r.SecretHash, tx.t(r.JoinedAt)); err != nil {
			return fmt.Errorf("storage: restore member of class %d: %w", classID, err)
		}
		if _, err := tx.exec(ctx, "DELETE FROM removed_members WHERE class_id = ? AND learner_id = ?", classID, learnerID); err != nil {
			return fmt.Errorf("storage: restore member of class %d: %w", classID, err)
		}
		m = r.Member
		return nil
	})
	return m, err
}

// endClassDevices deletes the learner's devices signed in with the class's
// words.
func endClassDevices(ctx context.Context, tx q, classID int64, learnerID string) error {
	if _, err := tx.exec(ctx, "DELETE FROM learner_devices WHERE class_id = ? AND learner_id = ?", classID, learnerID); err != nil {
		return fmt.Errorf("storage: sign out devices of class %d: %w", classID, err)
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
	return s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM assignment_extensions WHERE class_id = ? AND lesson_slug = ?", classID, lessonSlug); err != nil {
			return fmt.Errorf("storage: unassign %q from class %d: %w", lessonSlug, classID, err)
		}
		if _, err := tx.exec(ctx, "DELETE FROM assignments WHERE class_id = ? AND lesson_slug = ?", classID, lessonSlug); err != nil {
			return fmt.Errorf("storage: unassign %q from class %d: %w", lessonSlug, classID, err)
		}
		return nil
	})
}

// SetExtension gives one learner a later due time for an assigned lesson,
// or changes it. ErrNotFound when the lesson is not assigned to the class.
func (s *DB) SetExtension(ctx context.Context, classID int64, lessonSlug, learnerID string, due time.Time) error {
	res, err := s.exec(ctx, `INSERT INTO assignment_extensions (class_id, lesson_slug, learner_id, due_at)
		SELECT class_id, lesson_slug, ?, ? FROM assignments WHERE class_id = ? AND lesson_slug = ?
		ON CONFLICT (class_id, lesson_slug, learner_id) DO UPDATE SET due_at = excluded.due_at`,
		learnerID, s.t(due), classID, lessonSlug)
	return changed(res, err, "storage: extend %q for a learner of class %d", lessonSlug, classID)
}

// DeleteExtension takes a learner's extension back.
func (s *DB) DeleteExtension(ctx context.Context, classID int64, lessonSlug, learnerID string) error {
	if _, err := s.exec(ctx, "DELETE FROM assignment_extensions WHERE class_id = ? AND lesson_slug = ? AND learner_id = ?",
		classID, lessonSlug, learnerID); err != nil {
		return fmt.Errorf("storage: take back an extension of class %d: %w", classID, err)
	}
	return nil
}

// Assignments returns the class's assignments by assignment time.
func (s *DB) Assignments(ctx context.Context, classID int64) ([]progress.Assignment, error) {
	var out []progress.Assignment
	err := s.each(ctx, fmt.Sprintf("assignments of class %d", classID), func(sc scanner) error {
		a := progress.Assignment{ClassID: classID}
		err := sc.Scan(&a.LessonSlug, at(&a.Due), at(&a.AssignedAt))
		out = append(out, a)
		return err
	}, "SELECT lesson_slug, due_at, assigned_at FROM assignments WHERE class_id = ? ORDER BY assigned_at, lesson_slug", classID)
	if err != nil || len(out) == 0 {
		return out, err
	}
	index := map[string]int{}
	for i, a := range out {
		index[a.LessonSlug] = i
	}
	return out, s.each(ctx, fmt.Sprintf("extensions of class %d", classID), func(sc scanner) error {
		var slug, learner string
		var due time.Time
		if err := sc.Scan(&slug, &learner, at(&due)); err != nil {
			return err
		}
		if i, ok := index[slug]; ok {
			if out[i].Extensions == nil {
				out[i].Extensions = map[string]time.Time{}
			}
			out[i].Extensions[learner] = due
		}
		return nil
	}, "SELECT lesson_slug, learner_id, due_at FROM assignment_extensions WHERE class_id = ?", classID)
}

// DeleteLearner removes the learner; every table keyed by learner cascades.
func (s *DB) DeleteLearner(ctx context.Context, learnerID string) error {
	if _, err := s.exec(ctx, "DELETE FROM learners WHERE id = ?", learnerID); err != nil {
		return fmt.Errorf("storage: delete learner: %w", err)
	}
	return nil
}
