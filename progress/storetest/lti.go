package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"learn/lessons"
	"learn/progress"
)

// testLTILinks checks progress.LTIStore: an LMS user is linked once, gets
// a teacher account once, and an LMS course is one class; deleting the
// teacher unlinks the account, not the learner.
func testLTILinks(t *testing.T, s Backend) {
	ctx := context.Background()
	if _, err := s.EnsureLearner(ctx, "l1", t0); err != nil {
		t.Fatal(err)
	}
	teacher, err := s.CreateTeacher(ctx, progress.Teacher{Email: "t@lti.invalid", Name: "T", PasswordHash: "x", CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindLTIUser(ctx, "iss", "sub"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindLTIUser before: %v, want ErrNotFound", err)
	}
	u := progress.LTIUser{Issuer: "iss", Subject: "sub", LearnerID: "l1", CreatedAt: t0}
	if err := s.CreateLTIUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateLTIUser(ctx, u); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("linking again: %v, want ErrConflict", err)
	}
	if err := s.SetLTIUserTeacher(ctx, "iss", "nobody", teacher.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetLTIUserTeacher of an unlinked user: %v, want ErrNotFound", err)
	}
	if err := s.SetLTIUserTeacher(ctx, "iss", "sub", teacher.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.FindLTIUser(ctx, "iss", "sub"); err != nil || got.LearnerID != "l1" || got.TeacherID != teacher.ID || !got.CreatedAt.Equal(t0) {
		t.Errorf("FindLTIUser = %+v, %v", got, err)
	}
	class, err := s.CreateClass(ctx, progress.Class{TeacherID: teacher.ID, Name: "LMS course", TimeZone: "UTC", CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	c := progress.LTIContext{Issuer: "iss", DeploymentID: "d1", ContextID: "c1"}
	if _, err := s.FindLTIContext(ctx, c); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindLTIContext before: %v, want ErrNotFound", err)
	}
	if err := s.CreateLTIContext(ctx, c, class.ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateLTIContext(ctx, c, class.ID, t0); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("linking the course again: %v, want ErrConflict", err)
	}
	other := c
	other.DeploymentID = "d2"
	if _, err := s.FindLTIContext(ctx, other); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("the same context id from another deployment: %v, want ErrNotFound", err)
	}
	if id, err := s.FindLTIContext(ctx, c); err != nil || id != class.ID {
		t.Errorf("FindLTIContext = %d, %v", id, err)
	}
	if err := s.DeleteTeacher(ctx, teacher.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.FindLTIUser(ctx, "iss", "sub"); err != nil || got.TeacherID != 0 || got.LearnerID != "l1" {
		t.Errorf("after deleting the teacher: %+v, %v", got, err)
	}
	if _, err := s.FindLTIContext(ctx, c); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("after the class went with its teacher: %v, want ErrNotFound", err)
	}
}

// testLTILaunchRace launches several instructors of one new LMS course
// and the same learner at once, through the core: one class, one owner,
// the others its co-teachers, one learner and one membership.
func testLTILaunchRace(t *testing.T, s Backend) {
	ctx := context.Background()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	app, err := progress.New(progress.Config{Course: course, Store: s, LTI: s})
	if err != nil {
		t.Fatal(err)
	}
	course1 := progress.LTIContext{Issuer: "https://lms.example", DeploymentID: "d", ContextID: "c"}
	launch := func(sub string, instructor bool) progress.LTILaunch {
		return progress.LTILaunch{Issuer: course1.Issuer, Subject: sub, Name: "User " + sub, Instructor: instructor, Learner: !instructor,
			Context: course1, ContextTitle: "Year 9 computing"}
	}
	if _, err := app.LaunchLTI(ctx, launch("learner", false)); err == nil {
		t.Error("a learner launched into a course no instructor opened")
	}
	const instructors = 4
	classes := make([]int64, instructors)
	errs := make([]error, instructors)
	var wg sync.WaitGroup
	for i := range instructors {
		wg.Go(func() {
			done, err := app.LaunchLTI(ctx, launch(string(rune('a'+i)), true))
			classes[i], errs[i] = done.ClassID, err
			if err == nil && done.Teacher == nil {
				errs[i] = errors.New("an instructor launch opened no teacher session")
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instructor %d: %v", i, err)
		}
		if classes[i] != classes[0] {
			t.Fatalf("instructors launched into classes %v, want one", classes)
		}
	}
	class, err := s.FindClass(ctx, classes[0])
	if err != nil || class.Name != "Year 9 computing" {
		t.Fatalf("class %+v, %v", class, err)
	}
	co, err := s.CoTeachers(ctx, class.ID)
	if err != nil || len(co) != instructors-1 {
		t.Errorf("co-teachers %+v, %v; want %d", co, err, instructors-1)
	}
	for _, c := range co {
		if c.ID == class.TeacherID {
			t.Errorf("the owner %d is also a co-teacher", c.ID)
		}
	}
	learners := make([]string, 3)
	for i := range learners {
		wg.Go(func() {
			done, err := app.LaunchLTI(ctx, launch("learner", false))
			if err != nil {
				t.Errorf("learner launch %d: %v", i, err)
			}
			learners[i] = done.LearnerID
		})
	}
	wg.Wait()
	if learners[0] == "" || learners[1] != learners[0] || learners[2] != learners[0] {
		t.Errorf("the same LMS user launched as learners %v, want one", learners)
	}
	members, err := s.Members(ctx, class.ID)
	if err != nil || len(members) != 1 || members[0].Name != "User learner" {
		t.Errorf("members %+v, %v; want the one learner", members, err)
	}
	// An instructor's second launch changes nothing.
	again, err := app.LaunchLTI(ctx, launch("a", true))
	if err != nil || again.ClassID != class.ID {
		t.Errorf("an instructor's second launch: %+v, %v", again, err)
	}
	if co2, err := s.CoTeachers(ctx, class.ID); err != nil || len(co2) != len(co) {
		t.Errorf("co-teachers after a second launch: %d, %v", len(co2), err)
	}
	if _, err := app.LaunchLTI(ctx, progress.LTILaunch{Issuer: course1.Issuer, Subject: "x", Context: course1}); err == nil {
		t.Error("a launch with neither role was taken")
	}
}
