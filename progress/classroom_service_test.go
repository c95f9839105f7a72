package progress_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/store"
)

// TestClassUseCasesAnswerNotFoundToOthers calls every use case of one
// teacher's class as another teacher and as a learner of the class: each
// answers NotFound and changes nothing.
func TestClassUseCasesAnswerNotFoundToOthers(t *testing.T) {
	ctx := context.Background()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := progress.New(progress.Config{Course: course, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	actor := func(email string) progress.Actor {
		tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: email, Password: "long enough password"}, now)
		if err != nil {
			t.Fatal(err)
		}
		return progress.Actor{ID: "00000000000000000000000000000001", Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID}
	}
	owner, other := actor("owner@school.example"), actor("other@school.example")
	c, err := s.CreateClass(ctx, owner, "Year 9", "Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	learner := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	if _, err := s.Join(ctx, learner, c.JoinCode, "Blue Fox"); err != nil {
		t.Fatal(err)
	}
	name, archive := "Taken", true
	slug := course.Lessons[0].Slug
	calls := map[string]func(a progress.Actor) error{
		"Class":     func(a progress.Actor) error { _, err := s.Class(ctx, a, c.ID); return err },
		"Dashboard": func(a progress.Actor) error { _, err := s.Dashboard(ctx, a, c.ID, ""); return err },
		"ClassLearner": func(a progress.Actor) error {
			_, err := s.ClassLearner(ctx, a, c.ID, learner.ID)
			return err
		},
		"Export": func(a progress.Actor) error { _, _, err := s.Export(ctx, a, c.ID); return err },
		"ChangeClass": func(a progress.Actor) error {
			_, err := s.ChangeClass(ctx, a, c.ID, progress.ClassChange{Name: &name})
			return err
		},
		"Archive": func(a progress.Actor) error {
			_, err := s.ChangeClass(ctx, a, c.ID, progress.ClassChange{Archive: &archive})
			return err
		},
		"DeleteClass":   func(a progress.Actor) error { return s.DeleteClass(ctx, a, c.ID) },
		"Assign":        func(a progress.Actor) error { return s.Assign(ctx, a, c.ID, slug, "") },
		"Unassign":      func(a progress.Actor) error { return s.Unassign(ctx, a, c.ID, slug) },
		"NewSecret":     func(a progress.Actor) error { _, err := s.NewSecret(ctx, a, c.ID, learner.ID); return err },
		"RemoveLearner": func(a progress.Actor) error { return s.RemoveLearner(ctx, a, c.ID, learner.ID) },
	}
	for name, call := range calls {
		for who, a := range map[string]progress.Actor{"another teacher": other, "a learner": learner} {
			var pe *progress.Error
			if err := call(a); !errors.As(err, &pe) || pe.Kind != progress.NotFound {
				t.Errorf("%s by %s = %v, want NotFound", name, who, err)
			}
		}
	}
	d, err := s.Dashboard(ctx, owner, c.ID, "")
	if err != nil || d.Class.Name != "Year 9" || d.Class.Archived() || len(d.Rows) != 1 || len(d.Assignments) != 0 {
		t.Errorf("after the refused calls the class is %+v with %d learners (%v), want it unchanged", d.Class, len(d.Rows), err)
	}
	if _, err := s.Teachers(ctx, owner); err == nil {
		t.Error("a teacher who is not an admin listed the teachers")
	}
}
