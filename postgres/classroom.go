package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"learn/progress"
)

// ErrConflict is progress.ErrConflict: a write broke a uniqueness rule.
var ErrConflict = progress.ErrConflict

// isUnique reports whether err is PostgreSQL refusing a duplicate key.
func isUnique(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == "23505"
}

// nullText stores "" as NULL.
func nullText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateTeacher saves a new teacher; a taken e-mail wraps ErrConflict.
func (s *Store) CreateTeacher(ctx context.Context, t progress.Teacher) (progress.Teacher, error) {
	err := s.pool.QueryRow(ctx, `INSERT INTO teachers (email, name, admin, password_hash, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, t.Email, t.Name, t.Admin, t.PasswordHash, ns(t.CreatedAt)).Scan(&t.ID)
	if isUnique(err) {
		return progress.Teacher{}, fmt.Errorf("postgres: create teacher %q: %w", t.Email, ErrConflict)
	}
	if err != nil {
		return progress.Teacher{}, fmt.Errorf("postgres: create teacher %q: %w", t.Email, err)
	}
	t.CreatedAt = fromNS(ns(t.CreatedAt))
	return t, nil
}

const teacherColumns = "t.id, t.email, t.name, t.admin, t.password_hash, t.created_at"

func scanTeacher(row pgx.Row, extra ...any) (progress.Teacher, error) {
	var t progress.Teacher
	var created int64
	err := row.Scan(append([]any{&t.ID, &t.Email, &t.Name, &t.Admin, &t.PasswordHash, &created}, extra...)...)
	t.CreatedAt = fromNS(created)
	return t, err
}

// FindTeacher returns the teacher with this id, or ErrNotFound.
func (s *Store) FindTeacher(ctx context.Context, id int64) (progress.Teacher, error) {
	t, err := scanTeacher(s.pool.QueryRow(ctx, "SELECT "+teacherColumns+" FROM teachers t WHERE t.id = $1", id))
	if err != nil {
		return t, fmt.Errorf("postgres: find teacher %d: %w", id, notFound(err))
	}
	return t, nil
}

// FindTeacherByEmail returns the teacher with this e-mail, or ErrNotFound.
func (s *Store) FindTeacherByEmail(ctx context.Context, email string) (progress.Teacher, error) {
	t, err := scanTeacher(s.pool.QueryRow(ctx, "SELECT "+teacherColumns+" FROM teachers t WHERE t.email = $1", email))
	if err != nil {
		return t, fmt.Errorf("postgres: find teacher %q: %w", email, notFound(err))
	}
	return t, nil
}

// ListTeachers returns every teacher by e-mail with their class counts.
func (s *Store) ListTeachers(ctx context.Context) ([]progress.Teacher, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+teacherColumns+
		", (SELECT count(*) FROM classes c WHERE c.teacher_id = t.id) FROM teachers t ORDER BY t.email")
	if err != nil {
		return nil, fmt.Errorf("postgres: list teachers: %w", err)
	}
	defer rows.Close()
	var out []progress.Teacher
	for rows.Next() {
		var n int
		t, err := scanTeacher(rows, &n)
		if err != nil {
			return nil, fmt.Errorf("postgres: list teachers: %w", err)
		}
		t.ClassCount = n
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: list teachers: %w", err)
	}
	return out, nil
}

// exec runs one statement that must change a row, else ErrNotFound.
func (s *Store) exec(ctx context.Context, what string, q string, args ...any) error {
	tag, err := s.pool.Exec(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("postgres: %s: %w", what, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: %s: %w", what, ErrNotFound)
	}
	return nil
}

// DeleteTeacher removes the teacher; sessions and classes go with them.
func (s *Store) DeleteTeacher(ctx context.Context, id int64) error {
	return s.exec(ctx, fmt.Sprintf("delete teacher %d", id), "DELETE FROM teachers WHERE id = $1", id)
}

// SetTeacherPassword replaces the hash and revokes every session of the
// teacher in one transaction.
func (s *Store) SetTeacherPassword(ctx context.Context, id int64, hash string) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE teachers SET password_hash = $1 WHERE id = $2", hash, id)
		if err != nil {
			return fmt.Errorf("postgres: set password of teacher %d: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("postgres: set password of teacher %d: %w", id, ErrNotFound)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM sessions WHERE teacher_id = $1", id); err != nil {
			return fmt.Errorf("postgres: revoke sessions of teacher %d: %w", id, err)
		}
		return nil
	})
}

// CreateSession saves a session, and drops sessions that have expired.
func (s *Store) CreateSession(ctx context.Context, sess progress.Session) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM sessions WHERE expires_at <= $1", ns(sess.CreatedAt)); err != nil {
			return fmt.Errorf("postgres: drop expired sessions: %w", err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO sessions (token_hash, teacher_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
			sess.TokenHash, sess.TeacherID, ns(sess.CreatedAt), ns(sess.ExpiresAt)); err != nil {
			return fmt.Errorf("postgres: create session: %w", err)
		}
		return nil
	})
}

// FindSession returns a live session and its teacher, or ErrNotFound.
func (s *Store) FindSession(ctx context.Context, tokenHash string, now time.Time) (progress.Session, progress.Teacher, error) {
	var sess progress.Session
	var created, expires int64
	t, err := scanTeacher(s.pool.QueryRow(ctx, "SELECT "+teacherColumns+`, s.token_hash, s.created_at, s.expires_at
		FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = $1 AND s.expires_at > $2`,
		tokenHash, ns(now)), &sess.TokenHash, &created, &expires)
	if err != nil {
		return sess, t, fmt.Errorf("postgres: find session: %w", notFound(err))
	}
	sess.TeacherID, sess.CreatedAt, sess.ExpiresAt = t.ID, fromNS(created), fromNS(expires)
	return sess, t, nil
}

// DeleteSession removes one session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM sessions WHERE token_hash = $1", tokenHash); err != nil {
		return fmt.Errorf("postgres: delete session: %w", err)
	}
	return nil
}

const classColumns = `c.id, c.teacher_id, c.name, coalesce(c.join_code, ''), c.time_zone, c.leaderboard, c.archived_at, c.created_at,
	(SELECT count(*) FROM class_members m WHERE m.class_id = c.id)`

func scanClass(row pgx.Row, extra ...any) (progress.Class, error) {
	var c progress.Class
	var archived *int64
	var created int64
	err := row.Scan(append([]any{&c.ID, &c.TeacherID, &c.Name, &c.JoinCode, &c.TimeZone, &c.Leaderboard, &archived, &created, &c.MemberCount}, extra...)...)
	c.ArchivedAt, c.CreatedAt = fromNullNS(archived), fromNS(created)
	return c, err
}

// CreateClass saves a new class; a join code taken by an active class
// wraps ErrConflict.
func (s *Store) CreateClass(ctx context.Context, c progress.Class) (progress.Class, error) {
	err := s.pool.QueryRow(ctx, `INSERT INTO classes (teacher_id, name, join_code, time_zone, leaderboard, archived_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, c.TeacherID, c.Name, nullText(c.JoinCode), c.TimeZone, c.Leaderboard,
		nullNS(c.ArchivedAt), ns(c.CreatedAt)).Scan(&c.ID)
	if isUnique(err) {
		return c, fmt.Errorf("postgres: create class: %w", ErrConflict)
	}
	if err != nil {
		return c, fmt.Errorf("postgres: create class: %w", err)
	}
	return s.FindClass(ctx, c.ID)
}

// FindClass returns the class with its member count, or ErrNotFound.
func (s *Store) FindClass(ctx context.Context, id int64) (progress.Class, error) {
	c, err := scanClass(s.pool.QueryRow(ctx, "SELECT "+classColumns+" FROM classes c WHERE c.id = $1", id))
	if err != nil {
		return c, fmt.Errorf("postgres: find class %d: %w", id, notFound(err))
	}
	return c, nil
}

// FindClassByCode returns the active class with this join code, or
// ErrNotFound.
func (s *Store) FindClassByCode(ctx context.Context, code string) (progress.Class, error) {
	if code == "" {
		return progress.Class{}, fmt.Errorf("postgres: find class by code: %w", ErrNotFound)
	}
	c, err := scanClass(s.pool.QueryRow(ctx, "SELECT "+classColumns+" FROM classes c WHERE c.join_code = $1 AND c.archived_at IS NULL", code))
	if err != nil {
		return c, fmt.Errorf("postgres: find class by code: %w", notFound(err))
	}
	return c, nil
}

// TeacherClasses returns the teacher's classes, active first.
func (s *Store) TeacherClasses(ctx context.Context, teacherID int64) ([]progress.Class, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+classColumns+` FROM classes c WHERE c.teacher_id = $1
		ORDER BY c.archived_at IS NOT NULL, c.created_at, c.id`, teacherID)
	if err != nil {
		return nil, fmt.Errorf("postgres: teacher classes: %w", err)
	}
	defer rows.Close()
	var out []progress.Class
	for rows.Next() {
		c, err := scanClass(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: teacher classes: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: teacher classes: %w", err)
	}
	return out, nil
}

// UpdateClass writes the class's settings.
func (s *Store) UpdateClass(ctx context.Context, c progress.Class) error {
	err := s.exec(ctx, fmt.Sprintf("update class %d", c.ID), `UPDATE classes SET name = $1, join_code = $2, time_zone = $3,
		leaderboard = $4, archived_at = $5 WHERE id = $6`, c.Name, nullText(c.JoinCode), c.TimeZone, c.Leaderboard, nullNS(c.ArchivedAt), c.ID)
	if isUnique(err) {
		return fmt.Errorf("postgres: update class %d: %w", c.ID, ErrConflict)
	}
	return err
}

// DeleteClass removes the class; memberships and assignments go with it.
func (s *Store) DeleteClass(ctx context.Context, id int64) error {
	return s.exec(ctx, fmt.Sprintf("delete class %d", id), "DELETE FROM classes WHERE id = $1", id)
}

// AddMember adds the learner to the class, creating the learner if needed.
func (s *Store) AddMember(ctx context.Context, m progress.Member) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if err := ensureLearner(ctx, tx, m.LearnerID, m.JoinedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO class_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, m.ClassID, m.LearnerID, m.Name, m.NameKey, m.Secret, m.SecretHash, ns(m.JoinedAt))
		if isUnique(err) {
			return fmt.Errorf("postgres: add member to class %d: %w", m.ClassID, ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: add member to class %d: %w", m.ClassID, err)
		}
		return nil
	})
}

const memberColumns = "m.class_id, m.learner_id, m.name, m.name_key, m.secret, m.secret_hash, m.joined_at"

func scanMember(row pgx.Row, extra ...any) (progress.Member, error) {
	var m progress.Member
	var joined int64
	err := row.Scan(append([]any{&m.ClassID, &m.LearnerID, &m.Name, &m.NameKey, &m.Secret, &m.SecretHash, &joined}, extra...)...)
	m.JoinedAt = fromNS(joined)
	return m, err
}

// FindMember returns the learner's membership of the class, or
// ErrNotFound.
func (s *Store) FindMember(ctx context.Context, classID int64, learnerID string) (progress.Member, error) {
	m, err := scanMember(s.pool.QueryRow(ctx, "SELECT "+memberColumns+
		" FROM class_members m WHERE m.class_id = $1 AND m.learner_id = $2", classID, learnerID))
	if err != nil {
		return m, fmt.Errorf("postgres: find member of class %d: %w", classID, notFound(err))
	}
	return m, nil
}

// FindMemberByName returns the member with this name key, or ErrNotFound.
func (s *Store) FindMemberByName(ctx context.Context, classID int64, nameKey string) (progress.Member, error) {
	m, err := scanMember(s.pool.QueryRow(ctx, "SELECT "+memberColumns+
		" FROM class_members m WHERE m.class_id = $1 AND m.name_key = $2", classID, nameKey))
	if err != nil {
		return m, fmt.Errorf("postgres: find member of class %d by name: %w", classID, notFound(err))
	}
	return m, nil
}

// Members returns the class's members by name, with their time zones.
func (s *Store) Members(ctx context.Context, classID int64) ([]progress.Member, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+memberColumns+`, l.time_zone
		FROM class_members m JOIN learners l ON l.id = m.learner_id WHERE m.class_id = $1 ORDER BY m.name_key`, classID)
	if err != nil {
		return nil, fmt.Errorf("postgres: members of class %d: %w", classID, err)
	}
	defer rows.Close()
	var out []progress.Member
	for rows.Next() {
		var zone string
		m, err := scanMember(rows, &zone)
		if err != nil {
			return nil, fmt.Errorf("postgres: members of class %d: %w", classID, err)
		}
		m.TimeZone = zone
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: members of class %d: %w", classID, err)
	}
	return out, nil
}

// LearnerClasses returns the learner's active classes by name.
func (s *Store) LearnerClasses(ctx context.Context, learnerID string) ([]progress.Membership, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+classColumns+", "+memberColumns+`, t.name
		FROM class_members m JOIN classes c ON c.id = m.class_id JOIN teachers t ON t.id = c.teacher_id
		WHERE m.learner_id = $1 AND c.archived_at IS NULL ORDER BY c.name, c.id`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("postgres: classes of learner: %w", err)
	}
	defer rows.Close()
	var out []progress.Membership
	for rows.Next() {
		var ms progress.Membership
		var joined int64
		m := &ms.Member
		c, err := scanClass(rows, &m.ClassID, &m.LearnerID, &m.Name, &m.NameKey, &m.Secret, &m.SecretHash, &joined, &ms.TeacherName)
		if err != nil {
			return nil, fmt.Errorf("postgres: classes of learner: %w", err)
		}
		m.JoinedAt = fromNS(joined)
		ms.Class = c
		out = append(out, ms)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: classes of learner: %w", err)
	}
	return out, nil
}

// SetMemberSecret replaces a member's secret words.
func (s *Store) SetMemberSecret(ctx context.Context, classID int64, learnerID, secret, hash string) error {
	return s.exec(ctx, fmt.Sprintf("set secret in class %d", classID),
		"UPDATE class_members SET secret = $1, secret_hash = $2 WHERE class_id = $3 AND learner_id = $4", secret, hash, classID, learnerID)
}

// RemoveMember takes the learner out of the class.
func (s *Store) RemoveMember(ctx context.Context, classID int64, learnerID string) error {
	return s.exec(ctx, fmt.Sprintf("remove member of class %d", classID),
		"DELETE FROM class_members WHERE class_id = $1 AND learner_id = $2", classID, learnerID)
}

// SetAssignment assigns a lesson or changes its due time.
func (s *Store) SetAssignment(ctx context.Context, a progress.Assignment) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO assignments (class_id, lesson_slug, due_at, assigned_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (class_id, lesson_slug) DO UPDATE SET due_at = excluded.due_at`,
		a.ClassID, a.LessonSlug, nullNS(a.Due), ns(a.AssignedAt)); err != nil {
		return fmt.Errorf("postgres: assign %q to class %d: %w", a.LessonSlug, a.ClassID, err)
	}
	return nil
}

// DeleteAssignment takes a lesson off a class's assignments.
func (s *Store) DeleteAssignment(ctx context.Context, classID int64, lessonSlug string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM assignments WHERE class_id = $1 AND lesson_slug = $2", classID, lessonSlug); err != nil {
		return fmt.Errorf("postgres: unassign %q from class %d: %w", lessonSlug, classID, err)
	}
	return nil
}

// query runs one class-wide query and hands every row to scan.
func (s *Store) query(ctx context.Context, what string, scan func(pgx.Rows) error, q string, args ...any) error {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("postgres: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("postgres: %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: %s: %w", what, err)
	}
	return nil
}

// Assignments returns the class's assignments by assignment time.
func (s *Store) Assignments(ctx context.Context, classID int64) ([]progress.Assignment, error) {
	var out []progress.Assignment
	err := s.query(ctx, fmt.Sprintf("assignments of class %d", classID), func(rows pgx.Rows) error {
		a := progress.Assignment{ClassID: classID}
		var due *int64
		var at int64
		if err := rows.Scan(&a.LessonSlug, &due, &at); err != nil {
			return err
		}
		a.Due, a.AssignedAt = fromNullNS(due), fromNS(at)
		out = append(out, a)
		return nil
	}, "SELECT lesson_slug, due_at, assigned_at FROM assignments WHERE class_id = $1 ORDER BY assigned_at, lesson_slug", classID)
	return out, err
}

// DeleteLearner removes the learner; every table keyed by learner cascades.
func (s *Store) DeleteLearner(ctx context.Context, learnerID string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM learners WHERE id = $1", learnerID); err != nil {
		return fmt.Errorf("postgres: delete learner: %w", err)
	}
	return nil
}

func nested[V any](m map[string]map[string]V, k1 string) map[string]V {
	inner, ok := m[k1]
	if !ok {
		inner = map[string]V{}
		m[k1] = inner
	}
	return inner
}

// members is the class's learner ids, for the class-wide reads.
const members = `(SELECT m.learner_id FROM class_members m WHERE m.class_id = $1)`

// bucket is how many nanoseconds of activity one kept time stands for.
const bucket = int64(10 * time.Minute)

// parallel runs fns at once and returns their errors joined.
func parallel(fns ...func() error) error {
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() { errs[i] = fn() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// ClassActivity reads every member's lessons, quizzes, widgets, exercises,
// XP and activity times in six queries run side by side.
func (s *Store) ClassActivity(ctx context.Context, classID int64) (progress.ClassActivity, error) {
	act := progress.ClassActivity{
		Lessons: map[string]map[string]progress.LessonProgress{}, Quizzes: map[string]map[string]progress.QuizScore{},
		Exercises: map[string]map[string]progress.ExerciseState{}, WidgetsPassed: map[string]map[string]int{},
		XP: map[string]int{}, Times: map[string][]time.Time{},
	}
	lessons := func() error {
		return s.query(ctx, "class lessons", func(rows pgx.Rows) error {
			var id string
			var p progress.LessonProgress
			var opened int64
			var completed *int64
			if err := rows.Scan(&id, &p.LessonSlug, &opened, &completed); err != nil {
				return err
			}
			p.OpenedAt, p.CompletedAt = fromNS(opened), fromNullNS(completed)
			nested(act.Lessons, id)[p.LessonSlug] = p
			return nil
		}, `SELECT p.learner_id, p.lesson_slug, p.opened_at, p.completed_at FROM lesson_progress p WHERE p.learner_id IN `+members, classID)
	}
	quizzes := func() error {
		return s.query(ctx, "class quizzes", func(rows pgx.Rows) error {
			var id, slug string
			var score, total int
			var passed bool
			var at int64
			if err := rows.Scan(&id, &slug, &score, &total, &passed, &at); err != nil {
				return err
			}
			m := nested(act.Quizzes, id)
			q, seen := m[slug]
			if !seen {
				q = progress.QuizScore{LessonSlug: slug, First: score}
			}
			q.Best, q.Total = max(q.Best, score), max(q.Total, total)
			q.Attempts++
			q.Passed = q.Passed || passed
			q.LastAt = fromNS(at)
			m[slug] = q
			return nil
		}, `SELECT a.learner_id, a.lesson_slug, a.score, a.total, a.passed, a.created_at FROM attempts a
			WHERE a.learner_id IN `+members+` AND a.kind = 'quiz' ORDER BY a.learner_id, a.lesson_slug, a.id`, classID)
	}
	widgets := func() error {
		return s.query(ctx, "class widgets", func(rows pgx.Rows) error {
			var id, slug string
			var n int
			if err := rows.Scan(&id, &slug, &n); err != nil {
				return err
			}
			nested(act.WidgetsPassed, id)[slug] = n
			return nil
		}, `SELECT w.learner_id, w.lesson_slug, count(*) FROM widget_passes w WHERE w.learner_id IN `+members+`
			GROUP BY w.learner_id, w.lesson_slug`, classID)
	}
	exercises := func() error {
		return s.query(ctx, "class exercises", func(rows pgx.Rows) error {
			var id string
			var e progress.ExerciseState
			var solved *int64
			var last int64
			if err := rows.Scan(&id, &e.ExerciseID, &e.Runs, &solved, &last); err != nil {
				return err
			}
			e.SolvedAt, e.LastAt = fromNullNS(solved), fromNS(last)
			nested(act.Exercises, id)[e.ExerciseID] = e
			return nil
		}, `SELECT s.learner_id, s.exercise_id, count(*)::int, min(CASE WHEN s.mode = 'submit' AND s.passed THEN s.created_at END), max(s.created_at)
			FROM submissions s WHERE s.learner_id IN `+members+` GROUP BY s.learner_id, s.exercise_id`, classID)
	}
	xp := func() error {
		return s.query(ctx, "class xp", func(rows pgx.Rows) error {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				return err
			}
			act.XP[id] = n
			return nil
		}, `SELECT x.learner_id, sum(x.amount)::int FROM xp_awards x WHERE x.learner_id IN `+members+` GROUP BY x.learner_id`, classID)
	}
	times := func() error {
		// One time per ten minutes is all a streak of days needs, with each
		// learner's latest exact (see the SQLite backend).
		return s.query(ctx, "class activity", func(rows pgx.Rows) error {
			var id string
			var at int64
			if err := rows.Scan(&id, &at); err != nil {
				return err
			}
			act.Times[id] = append(act.Times[id], fromNS(at))
			return nil
		}, fmt.Sprintf(`SELECT a.learner_id, max(a.created_at) FROM attempts a WHERE a.learner_id IN `+members+`
			GROUP BY a.learner_id, a.created_at / %d`, bucket), classID)
	}
	if err := parallel(lessons, quizzes, widgets, exercises, xp, times); err != nil {
		return act, err
	}
	for _, ts := range act.Times {
		slices.SortFunc(ts, time.Time.Compare)
	}
	return act, nil
}

// WeeklyXP sums each member's XP since since.
func (s *Store) WeeklyXP(ctx context.Context, classID int64, since time.Time) (map[string]int, error) {
	out := map[string]int{}
	err := s.query(ctx, "weekly xp", func(rows pgx.Rows) error {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		out[id] = n
		return nil
	}, `SELECT x.learner_id, sum(x.amount)::int FROM xp_awards x WHERE x.learner_id IN `+members+` AND x.created_at >= $2
		GROUP BY x.learner_id`, classID, ns(since))
	return out, err
}

// ClassFirstTries counts members' first-try answer sets per widget (a
// quiz's per learner: each learner's draw differs).
func (s *Store) ClassFirstTries(ctx context.Context, classID int64) (progress.FirstTries, error) {
	var ft progress.FirstTries
	err := s.query(ctx, "class first tries", func(rows pgx.Rows) error {
		var a progress.AnswerSet
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.LearnerID, &a.Answers, &a.Count); err != nil {
			return err
		}
		ft.Answers = append(ft.Answers, a)
		return nil
	}, `SELECT f.lesson_slug, f.widget_id, f.kind, CASE WHEN f.kind = 'quiz' THEN f.learner_id ELSE '' END AS learner, a.answers, count(*)::int
		FROM first_tries f JOIN attempts a ON a.id = f.attempt_id WHERE f.learner_id IN `+members+`
		GROUP BY f.lesson_slug, f.widget_id, f.kind, learner, a.answers`, classID)
	return ft, err
}

// ClassExerciseStats counts members' submissions and failing cases per
// exercise.
func (s *Store) ClassExerciseStats(ctx context.Context, classID int64) ([]progress.ExerciseStat, []progress.CaseFailure, error) {
	var stats []progress.ExerciseStat
	err := s.query(ctx, "class exercise stats", func(rows pgx.Rows) error {
		var st progress.ExerciseStat
		if err := rows.Scan(&st.ExerciseID, &st.Learners, &st.Solvers, &st.Submits, &st.Failed); err != nil {
			return err
		}
		stats = append(stats, st)
		return nil
	}, `SELECT s.exercise_id, count(DISTINCT s.learner_id)::int, count(DISTINCT CASE WHEN s.passed THEN s.learner_id END)::int,
		count(*)::int, sum(CASE WHEN s.passed THEN 0 ELSE 1 END)::int
		FROM submissions s WHERE s.learner_id IN `+members+` AND s.mode = 'submit' GROUP BY s.exercise_id`, classID)
	if err != nil {
		return nil, nil, err
	}
	var fails []progress.CaseFailure
	err = s.query(ctx, "class case failures", func(rows pgx.Rows) error {
		var f progress.CaseFailure
		if err := rows.Scan(&f.ExerciseID, &f.Case, &f.Verdict, &f.Count); err != nil {
			return err
		}
		fails = append(fails, f)
		return nil
	}, `SELECT f.exercise_id, f.case_name, f.verdict, count(*)::int FROM submission_failures f
		WHERE f.learner_id IN `+members+` GROUP BY f.exercise_id, f.case_name, f.verdict`, classID)
	return stats, fails, err
}

// LearnerAttempts returns the learner's widget, quiz and review attempts,
// oldest first.
func (s *Store) LearnerAttempts(ctx context.Context, learnerID string) ([]progress.Attempt, error) {
	var out []progress.Attempt
	err := s.query(ctx, "learner attempts", func(rows pgx.Rows) error {
		a := progress.Attempt{LearnerID: learnerID}
		var at int64
		if err := rows.Scan(&a.LessonSlug, &a.WidgetID, &a.Kind, &a.Score, &a.Total, &a.Passed, &a.Answers, &at); err != nil {
			return err
		}
		a.At = fromNS(at)
		out = append(out, a)
		return nil
	}, `SELECT lesson_slug, widget_id, kind, score, total, passed, answers, created_at FROM attempts
		WHERE learner_id = $1 AND kind <> 'exercise' ORDER BY created_at, id`, learnerID)
	return out, err
}

// LatestSubmissions returns the learner's latest run or submission of
// each exercise.
func (s *Store) LatestSubmissions(ctx context.Context, learnerID string) (map[string]progress.Submission, error) {
	out := map[string]progress.Submission{}
	err := s.query(ctx, "latest submissions", func(rows pgx.Rows) error {
		sub := progress.Submission{LearnerID: learnerID}
		var at int64
		if err := rows.Scan(&sub.ExerciseID, &sub.Mode, &sub.Code, &sub.Passed, &sub.Report, &at); err != nil {
			return err
		}
		sub.At = fromNS(at)
		out[sub.ExerciseID] = sub
		return nil
	}, `SELECT DISTINCT ON (exercise_id) exercise_id, mode, code, passed, report, created_at FROM submissions
		WHERE learner_id = $1 ORDER BY exercise_id, id DESC`, learnerID)
	return out, err
}
