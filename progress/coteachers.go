package progress

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// MaxCoTeachers is how many co-teachers one class may have: enough for a
// department sharing a class, few enough that the list stays readable.
const MaxCoTeachers = 10

// TeachingTeam is who teaches a class: its owner and co-teachers.
type TeachingTeam struct {
	Class Class
	Owner Teacher
	Co    []CoTeacher
}

// ClassTeachers returns the class's owner and co-teachers, for a who owns or
// co-teaches it. Errors: NotFound for anyone else.
func (s *Service) ClassTeachers(ctx context.Context, a Actor, classID int64) (TeachingTeam, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return TeachingTeam{}, err
	}
	return s.classTeachers(ctx, c)
}

func (s *Service) classTeachers(ctx context.Context, c Class) (TeachingTeam, error) {
	owner, err := s.classes.FindTeacher(ctx, c.TeacherID)
	if err != nil {
		return TeachingTeam{}, fmt.Errorf("progress: the owner of class %d: %w", c.ID, err)
	}
	owner.PasswordHash = ""
	co, err := s.classes.CoTeachers(ctx, c.ID)
	if err != nil {
		return TeachingTeam{}, err
	}
	return TeachingTeam{Class: c, Owner: owner, Co: co}, nil
}

// AddCoTeacher makes the teacher account with this e-mail (one made with
// "learn teacher add") a co-teacher of a's class: they then see and
// manage it as a does, but may not delete it or remove a co-teacher.
// Adding one already there changes nothing and is not an error, so a
// doubled post is harmless.
//
// Errors: NotFound for a class a neither owns nor co-teaches; Forbidden
// for a co-teacher (only the owner adds co-teachers); Invalid for an
// e-mail no teacher account has, the owner's own, or past MaxCoTeachers.
func (s *Service) AddCoTeacher(ctx context.Context, a Actor, classID int64, email string) (CoTeacher, error) {
	c, err := s.ownerClass(ctx, a, classID, "Only the class's owner can add co-teachers; ask them.")
	if err != nil {
		return CoTeacher{}, err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return CoTeacher{}, invalid("Give the e-mail address of the teacher to add.")
	}
	t, err := s.classes.FindTeacherByEmail(ctx, email)
	if errors.Is(err, ErrNotFound) {
		return CoTeacher{}, invalid(fmt.Sprintf("No teacher account has the e-mail %s. An administrator makes one with \"learn teacher add %s\"; then add it here.", email, email))
	}
	if err != nil {
		return CoTeacher{}, err
	}
	if t.ID == c.TeacherID {
		return CoTeacher{}, invalid("This is your own account: you already teach this class as its owner.")
	}
	co, err := s.classes.CoTeachers(ctx, c.ID)
	if err != nil {
		return CoTeacher{}, err
	}
	for _, x := range co {
		if x.ID == t.ID {
			return x, nil
		}
	}
	if len(co) >= MaxCoTeachers {
		return CoTeacher{}, invalid(fmt.Sprintf("A class can have at most %d co-teachers; remove one first.", MaxCoTeachers))
	}
	at := s.now()
	if err := s.classes.AddCoTeacher(ctx, c.ID, t.ID, at); err != nil && !errors.Is(err, ErrConflict) {
		return CoTeacher{}, err
	}
	t.PasswordHash = ""
	return CoTeacher{Teacher: t, AddedAt: at}, nil
}

// RemoveCoTeacher ends a co-teacher's access to a's class; the class and
// everything in it stay. Removing one already gone is not an error.
//
// Errors: NotFound for a class a neither owns nor co-teaches; Forbidden
// for a co-teacher (only the owner removes co-teachers).
func (s *Service) RemoveCoTeacher(ctx context.Context, a Actor, classID, teacherID int64) (Teacher, error) {
	c, err := s.ownerClass(ctx, a, classID, "Only the class's owner can remove a co-teacher; ask them.")
	if err != nil {
		return Teacher{}, err
	}
	t, err := s.classes.FindTeacher(ctx, teacherID)
	if errors.Is(err, ErrNotFound) {
		return Teacher{}, nil
	}
	if err != nil {
		return Teacher{}, err
	}
	t.PasswordHash = ""
	if err := s.classes.RemoveCoTeacher(ctx, c.ID, teacherID); err != nil && !errors.Is(err, ErrNotFound) {
		return Teacher{}, err
	}
	return t, nil
}
