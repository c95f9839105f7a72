package progress_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"learn/progress"
)

// TestCoTeacherPermissions calls every use case of a class as its owner,
// a co-teacher, another teacher, a learner of the class and a stranger,
// each on a class of its own made for the call: the owner may do
// everything; a co-teacher everything but deleting the class and adding
// or removing co-teachers (Forbidden); anyone else gets NotFound, as for a
// class that does not exist.
func TestCoTeacherPermissions(t *testing.T) {
	ctx := context.Background()
	s, st := classService(t)
	slug := s.Course().Lessons[0].Slug
	now := time.Now()
	n := 0
	teacherActor := func() progress.Actor {
		n++
		tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: fmt.Sprintf("t%d@school.example", n), Name: fmt.Sprintf("Teacher %d", n), Password: "long enough password"}, now)
		if err != nil {
			t.Fatal(err)
		}
		return progress.Actor{ID: fmt.Sprintf("%032x", n), Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID, TeacherName: tc.Name}
	}
	owner, co, other := teacherActor(), teacherActor(), teacherActor()
	teacherActor() // an account nobody adds but the owner's AddCoTeacher
	spareEmail := fmt.Sprintf("t%d@school.example", 4)
	learner := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	stranger := progress.Actor{ID: "fedcba9876543210fedcba9876543210", Role: progress.RoleLearner, Known: true}

	// newClass makes an archived-or-not class of owner's with co as
	// co-teacher, learner in it, one lesson assigned, and one quiz
	// attempt, so that every call has something to act on.
	newClass := func(archived bool) int64 {
		c, err := s.CreateClass(ctx, owner, "Year 9", "UTC")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Join(ctx, learner, c.JoinCode, "Blue Fox"); err != nil {
			t.Fatal(err)
		}
		if err := s.Assign(ctx, owner, c.ID, slug, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddCoTeacher(ctx, owner, c.ID, fmt.Sprintf("t%d@school.example", 2)); err != nil {
			t.Fatal(err)
		}
		if archived {
			on := true
			if _, err := s.ChangeClass(ctx, owner, c.ID, progress.ClassChange{Archive: &on}); err != nil {
				t.Fatal(err)
			}
		}
		return c.ID
	}
	name, archive := "Renamed", true
	const (
		all       = "all"       // owner and co-teacher
		ownerOnly = "ownerOnly" // co-teacher Forbidden
	)
	calls := []struct {
		name     string
		who      string
		archived bool
		call     func(a progress.Actor, id int64) error
	}{
		{"Class", all, false, func(a progress.Actor, id int64) error { _, err := s.Class(ctx, a, id); return err }},
		{"Dashboard", all, false, func(a progress.Actor, id int64) error { _, err := s.Dashboard(ctx, a, id, ""); return err }},
		{"ClassLearner", all, false, func(a progress.Actor, id int64) error { _, err := s.ClassLearner(ctx, a, id, learner.ID); return err }},
		{"Export", all, false, func(a progress.Actor, id int64) error { _, _, err := s.Export(ctx, a, id); return err }},
		{"ChangeClass", all, false, func(a progress.Actor, id int64) error {
			_, err := s.ChangeClass(ctx, a, id, progress.ClassChange{Name: &name})
			return err
		}},
		{"Archive", all, false, func(a progress.Actor, id int64) error {
			_, err := s.ChangeClass(ctx, a, id, progress.ClassChange{Archive: &archive})
			return err
		}},
		{"Assign", all, false, func(a progress.Actor, id int64) error { return s.Assign(ctx, a, id, s.Course().Lessons[1].Slug, "") }},
		{"Unassign", all, false, func(a progress.Actor, id int64) error { return s.Unassign(ctx, a, id, slug) }},
		{"NewSecret", all, false, func(a progress.Actor, id int64) error { _, err := s.NewSecret(ctx, a, id, learner.ID); return err }},
		{"RemoveLearner", all, false, func(a progress.Actor, id int64) error { _, err := s.RemoveLearner(ctx, a, id, learner.ID); return err }},
		{"ClassMembers", all, false, func(a progress.Actor, id int64) error { _, _, err := s.ClassMembers(ctx, a, id); return err }},
		{"RecentlyRemoved", all, false, func(a progress.Actor, id int64) error { _, err := s.RecentlyRemoved(ctx, a, id); return err }},
		{"ResetQuiz", all, false, func(a progress.Actor, id int64) error {
			_, err := s.ResetQuiz(ctx, a, id, learner.ID, slug)
			return err
		}},
		{"ResetExercise", all, false, func(a progress.Actor, id int64) error {
			_, _, err := s.ResetExercise(ctx, a, id, learner.ID, "report-a-failure")
			return err
		}},
		{"ExtendAssignment", all, false, func(a progress.Actor, id int64) error {
			return s.ExtendAssignment(ctx, a, id, learner.ID, slug, "2099-01-01")
		}},
		{"ClassTeachers", all, false, func(a progress.Actor, id int64) error { _, err := s.ClassTeachers(ctx, a, id); return err }},
		{"DeleteClass", ownerOnly, true, func(a progress.Actor, id int64) error { return s.DeleteClass(ctx, a, id) }},
		{"AddCoTeacher", ownerOnly, false, func(a progress.Actor, id int64) error { _, err := s.AddCoTeacher(ctx, a, id, spareEmail); return err }},
		{"RemoveCoTeacher", ownerOnly, false, func(a progress.Actor, id int64) error {
			_, err := s.RemoveCoTeacher(ctx, a, id, co.TeacherID)
			return err
		}},
	}
	actors := []struct {
		name string
		a    progress.Actor
	}{{"owner", owner}, {"co-teacher", co}, {"another teacher", other}, {"a learner of the class", learner}, {"a stranger", stranger}}
	for _, c := range calls {
		for _, who := range actors {
			id := newClass(c.archived)
			err := c.call(who.a, id)
			var pe *progress.Error
			switch {
			case who.name == "owner" || (who.name == "co-teacher" && c.who == all):
				if err != nil {
					t.Errorf("%s by %s = %v, want it done", c.name, who.name, err)
				}
			case who.name == "co-teacher":
				if !errors.As(err, &pe) || pe.Kind != progress.Forbidden {
					t.Errorf("%s by %s = %v, want Forbidden", c.name, who.name, err)
				}
			default:
				if !errors.As(err, &pe) || pe.Kind != progress.NotFound {
					t.Errorf("%s by %s = %v, want NotFound", c.name, who.name, err)
				}
			}
		}
	}

	// Refused calls changed nothing: the co-teacher is still there, the
	// class still exists, and the spare account was never added.
	id := newClass(true)
	s.DeleteClass(ctx, co, id)
	s.RemoveCoTeacher(ctx, co, id, co.TeacherID)
	s.AddCoTeacher(ctx, co, id, spareEmail)
	team, err := s.ClassTeachers(ctx, owner, id)
	if err != nil || len(team.Co) != 1 || team.Co[0].ID != co.TeacherID || team.Owner.ID != owner.TeacherID {
		t.Errorf("after a co-teacher's refused calls the team is %+v (%v), want the owner and the one co-teacher", team, err)
	}
	// The co-teacher lists the class among theirs; another teacher does not.
	if cs, err := s.Classes(ctx, co); err != nil || len(cs) == 0 {
		t.Errorf("the co-teacher's classes = %d (%v), want the classes they co-teach", len(cs), err)
	}
	if cs, _ := s.Classes(ctx, other); len(cs) != 0 {
		t.Errorf("another teacher lists %d classes, want none", len(cs))
	}
}

// TestAddCoTeacherRefusals checks the words of each refused addition.
func TestAddCoTeacherRefusals(t *testing.T) {
	ctx := context.Background()
	s, st := classService(t)
	now := time.Now()
	tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: "owner@school.example", Password: "long enough password"}, now)
	if err != nil {
		t.Fatal(err)
	}
	owner := progress.Actor{ID: fmt.Sprintf("%032x", 1), Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID}
	c, err := s.CreateClass(ctx, owner, "Year 9", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	for i := range progress.MaxCoTeachers + 1 {
		if _, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: fmt.Sprintf("co%d@school.example", i), Password: "long enough password"}, now); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ email, want string }{
		{"", "Give the e-mail"},
		{"nobody@school.example", `learn teacher add nobody@school.example`},
		{"OWNER@school.example", "your own account"},
	} {
		_, err := s.AddCoTeacher(ctx, owner, c.ID, tc.email)
		var pe *progress.Error
		if !errors.As(err, &pe) || pe.Kind != progress.Invalid || !strings.Contains(pe.Message, tc.want) {
			t.Errorf("AddCoTeacher(%q) = %v, want Invalid saying %q", tc.email, err, tc.want)
		}
	}
	for i := range progress.MaxCoTeachers {
		if _, err := s.AddCoTeacher(ctx, owner, c.ID, fmt.Sprintf(" Co%d@School.example ", i)); err != nil {
			t.Fatalf("adding co-teacher %d: %v", i, err)
		}
	}
	// Adding one already there is no error and adds nothing.
	if got, err := s.AddCoTeacher(ctx, owner, c.ID, "co0@school.example"); err != nil || got.Email != "co0@school.example" {
		t.Errorf("adding a co-teacher again = %+v, %v; want them, no error", got, err)
	}
	_, err = s.AddCoTeacher(ctx, owner, c.ID, fmt.Sprintf("co%d@school.example", progress.MaxCoTeachers))
	var pe *progress.Error
	if !errors.As(err, &pe) || pe.Kind != progress.Invalid || !strings.Contains(pe.Message, "at most") {
		t.Errorf("adding past the limit = %v, want Invalid", err)
	}
	team, _ := s.ClassTeachers(ctx, owner, c.ID)
	if len(team.Co) != progress.MaxCoTeachers {
		t.Errorf("the class has %d co-teachers, want %d", len(team.Co), progress.MaxCoTeachers)
	}
}
