package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"learn/progress"
)

// Co-teachers (progress.ClassroomStore) and exercise resets
// (progress.LearningStore.AddReset of kind ResetExerciseKind).

func testCoTeachers(t *testing.T, s Backend) {
	ctx := context.Background()
	owner := teacher(t, s, "owner@school.example")
	co := teacher(t, s, "co@school.example")
	other := teacher(t, s, "other@school.example")
	year10 := class(t, s, owner.ID, "Year 10", "ABCDEF")
	theirs := class(t, s, other.ID, "Theirs", "GHJKMN")

	if yes, err := s.IsCoTeacher(ctx, year10.ID, co.ID); err != nil || yes {
		t.Fatalf("IsCoTeacher before adding = %v, %v; want false", yes, err)
	}
	if err := s.AddCoTeacher(ctx, year10.ID, co.ID, t0); err != nil {
		t.Fatalf("AddCoTeacher: %v", err)
	}
	if err := s.AddCoTeacher(ctx, year10.ID, co.ID, t0.Add(time.Minute)); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("adding the same co-teacher twice = %v, want ErrConflict", err)
	}
	if err := s.AddCoTeacher(ctx, year10.ID, 999_999, t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("adding an unknown teacher = %v, want ErrNotFound", err)
	}
	if err := s.AddCoTeacher(ctx, 999_999, co.ID, t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("adding to an unknown class = %v, want ErrNotFound", err)
	}
	if yes, err := s.IsCoTeacher(ctx, year10.ID, co.ID); err != nil || !yes {
		t.Errorf("IsCoTeacher after adding = %v, %v; want true", yes, err)
	}
	if yes, _ := s.IsCoTeacher(ctx, theirs.ID, co.ID); yes {
		t.Error("a co-teacher of one class co-teaches another")
	}
	list, err := s.CoTeachers(ctx, year10.ID)
	if err != nil || len(list) != 1 || list[0].ID != co.ID || list[0].Email != co.Email || !list[0].AddedAt.Equal(t0) || list[0].PasswordHash != "" {
		t.Fatalf("CoTeachers = %+v, %v; want co added at %v, without a password hash", list, err, t0)
	}
	// The co-teacher's list of classes holds the class; the owner's too;
	// another teacher's does not.
	ids := func(teacherID int64) []int64 {
		cs, err := s.TeacherClasses(ctx, teacherID)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	if got := ids(co.ID); len(got) != 1 || got[0] != year10.ID {
		t.Errorf("the co-teacher's classes = %v, want [%d]", got, year10.ID)
	}
	if got := ids(owner.ID); len(got) != 1 || got[0] != year10.ID {
		t.Errorf("the owner's classes = %v, want [%d]", got, year10.ID)
	}
	if got := ids(other.ID); len(got) != 1 || got[0] != theirs.ID {
		t.Errorf("another teacher's classes = %v, want only their own %d", got, theirs.ID)
	}
	if c, _ := s.FindClass(ctx, year10.ID); c.TeacherID != owner.ID {
		t.Errorf("adding a co-teacher changed the owner to %d", c.TeacherID)
	}

	if err := s.RemoveCoTeacher(ctx, year10.ID, co.ID); err != nil {
		t.Fatalf("RemoveCoTeacher: %v", err)
	}
	if err := s.RemoveCoTeacher(ctx, year10.ID, co.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("removing a co-teacher twice = %v, want ErrNotFound", err)
	}
	if got := ids(co.ID); len(got) != 0 {
		t.Errorf("after the removal the co-teacher still lists %v", got)
	}

	// Deleting the co-teacher's account or the class takes the row.
	if err := s.AddCoTeacher(ctx, year10.ID, co.ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.AddCoTeacher(ctx, theirs.ID, co.ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteClass(ctx, theirs.ID); err != nil {
		t.Fatal(err)
	}
	if got := ids(co.ID); len(got) != 1 || got[0] != year10.ID {
		t.Errorf("after deleting a class the co-teacher lists %v, want [%d]", got, year10.ID)
	}
	if err := s.DeleteTeacher(ctx, co.ID); err != nil {
		t.Fatal(err)
	}
	if list, err := s.CoTeachers(ctx, year10.ID); err != nil || len(list) != 0 {
		t.Errorf("after deleting the co-teacher's account CoTeachers = %+v, %v", list, err)
	}
	if _, err := s.FindClass(ctx, year10.ID); err != nil {
		t.Errorf("deleting a co-teacher's account took the class: %v", err)
	}
}

func testExerciseReset(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	award := &progress.Award{Key: "exercise:ex", Amount: 20, Reason: "Solved"}
	sub := func(code string, passed bool, at time.Time, aw *progress.Award) {
		t.Helper()
		if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: code,
			Passed: passed, Report: "{}", At: at}, aw); err != nil {
			t.Fatal(err)
		}
	}
	sub("wrong", false, t0, nil)
	sub("right", true, t0.Add(time.Minute), award)
	if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "other", Mode: "run", Code: "o", Report: "{}", At: t0}, nil); err != nil {
		t.Fatal(err)
	}
	reset := progress.Reset{ClassID: c.ID, LearnerID: "l1", LessonSlug: "l2", WidgetID: "ex", Kind: progress.ResetExerciseKind, At: t0.Add(2 * time.Minute)}
	if err := s.AddReset(ctx, reset); err != nil {
		t.Fatal(err)
	}
	// A quiz reset of the same id is a different kind and changes nothing
	// here.
	if err := s.AddReset(ctx, progress.Reset{ClassID: c.ID, LearnerID: "l1", LessonSlug: "l2", WidgetID: "other", Kind: progress.ResetQuizKind, At: t0.Add(2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}

	states, err := s.ExerciseStates(ctx, "l1")
	if err != nil {
		t.Fatal(err)
	}
	if ex, ok := states["ex"]; ok {
		t.Errorf("after the reset ExerciseStates has ex = %+v, want nothing", ex)
	}
	if o := states["other"]; o.Runs != 1 {
		t.Errorf("a quiz reset of the same id changed the exercise: %+v", o)
	}
	codes, _ := s.LatestCodes(ctx, "l1")
	if _, ok := codes["ex"]; ok || codes["other"] != "o" {
		t.Errorf("LatestCodes after the reset = %v, want only other's", codes)
	}
	latest, _ := s.LatestSubmissions(ctx, "l1")
	if _, ok := latest["ex"]; ok {
		t.Errorf("LatestSubmissions after the reset has ex: %+v", latest["ex"])
	}
	act, err := s.ClassActivity(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ex, ok := act.Exercises["l1"]["ex"]; ok {
		t.Errorf("the class's activity still has ex after the reset: %+v", ex)
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 20 {
		t.Errorf("TotalXP after the reset = %d, want the 20 earned", xp)
	}
	stats, _, err := s.ClassExerciseStats(ctx, c.ID)
	if err != nil || len(stats) != 1 || stats[0].Submits != 2 {
		t.Errorf("ClassExerciseStats after the reset = %+v, %v; want both submissions still counted", stats, err)
	}
	resets, err := s.Resets(ctx, "l1")
	if err != nil || len(resets) != 2 || resets[0].Kind != progress.ResetExerciseKind || resets[0].WidgetID != "ex" {
		t.Errorf("Resets = %+v, %v; want the exercise's reset first", resets, err)
	}

	// Tries after the reset count again, and solving again earns nothing
	// more.
	sub("again", false, t0.Add(3*time.Minute), nil)
	sub("again right", true, t0.Add(4*time.Minute), award)
	states, _ = s.ExerciseStates(ctx, "l1")
	if ex := states["ex"]; ex.Runs != 2 || ex.Failures != 1 || !ex.SolvedAt.Equal(t0.Add(4*time.Minute)) {
		t.Errorf("after trying again ExerciseStates ex = %+v, want 2 runs, 1 failure, solved at +4m", ex)
	}
	if codes, _ := s.LatestCodes(ctx, "l1"); codes["ex"] != "again right" {
		t.Errorf("LatestCodes after trying again = %v", codes)
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 20 {
		t.Errorf("TotalXP after solving again = %d, want still 20", xp)
	}
}
