package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"learn/progress"
)

// The removals of progress.ClassroomStore kept for the undo.

func testRemovalsKept(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	one := class(t, s, a.ID, "one", "ABCDEF")
	two := class(t, s, a.ID, "two", "GHJKMN")
	member(t, s, one.ID, "l1", "amber")
	amber := progress.Member{ClassID: one.ID, LearnerID: "l1", Name: "amber", NameKey: "amber", Secret: "a b c", SecretHash: "hash-amber", JoinedAt: t0}
	member(t, s, two.ID, "l1", "amber")
	member(t, s, one.ID, "l2", "basil")
	device(t, s, "d1", "l1", one.ID, t0)

	if err := s.RemoveMemberKeeping(ctx, one.ID, "l1", t0, t0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindMember(ctx, one.ID, "l1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a removed member is still in the class (%v)", err)
	}
	if _, err := s.FindDevice(ctx, "l1", "d1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("the removed member's device stayed signed in (%v)", err)
	}
	if err := s.RemoveMemberKeeping(ctx, one.ID, "l1", t0, t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("removing a non-member = %v, want ErrNotFound", err)
	}
	got, err := s.RemovedMembers(ctx, one.ID, t0.Add(-time.Minute))
	if err != nil || len(got) != 1 || got[0].Member != amber || !got[0].RemovedAt.Equal(t0) {
		t.Fatalf("RemovedMembers = %+v, %v; want amber removed at %v", got, err, t0)
	}
	if got, _ := s.RemovedMembers(ctx, one.ID, t0.Add(time.Minute)); len(got) != 0 {
		t.Errorf("RemovedMembers since after the removal = %+v, want none", got)
	}
	if got, _ := s.RemovedMembers(ctx, two.ID, t0.Add(-time.Minute)); len(got) != 0 {
		t.Errorf("another class lists the removal: %+v", got)
	}

	// Too late: the removal is older than since.
	if _, err := s.RestoreMember(ctx, one.ID, "l1", t0.Add(time.Second)); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("restoring past the window = %v, want ErrNotFound", err)
	}
	back, err := s.RestoreMember(ctx, one.ID, "l1", t0.Add(-time.Minute))
	if err != nil || back != amber {
		t.Fatalf("RestoreMember = %+v, %v; want amber as she was", back, err)
	}
	if m, err := s.FindMember(ctx, one.ID, "l1"); err != nil || m != amber {
		t.Errorf("after the undo the member is %+v, %v", m, err)
	}
	if _, err := s.RestoreMember(ctx, one.ID, "l1", t0.Add(-time.Minute)); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("restoring twice = %v, want ErrNotFound", err)
	}

	// The name was taken meanwhile: the undo is refused and the removal kept.
	if err := s.RemoveMemberKeeping(ctx, one.ID, "l1", t0, t0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	member(t, s, one.ID, "l3", "amber")
	if _, err := s.RestoreMember(ctx, one.ID, "l1", t0.Add(-time.Minute)); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("restoring over a taken name = %v, want ErrConflict", err)
	}
	if got, _ := s.RemovedMembers(ctx, one.ID, t0.Add(-time.Minute)); len(got) != 1 {
		t.Errorf("a refused undo lost the removal: %+v", got)
	}

	// Old removals are forgotten at the next removal; a learner's deletion
	// takes theirs.
	if err := s.RemoveMemberKeeping(ctx, one.ID, "l2", t0.Add(8*24*time.Hour), t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.RemovedMembers(ctx, one.ID, t0.Add(-time.Hour)); len(got) != 1 || got[0].LearnerID != "l2" {
		t.Errorf("after a later removal the kept ones are %+v, want only l2's", got)
	}
	if err := s.DeleteLearner(ctx, "l2"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.RemovedMembers(ctx, one.ID, t0.Add(-time.Hour)); len(got) != 0 {
		t.Errorf("a deleted learner's removal was kept: %+v", got)
	}
}

// testClassEffort checks the export's reads: members' actions in order of
// learner and time (answers and submissions), awards with the lesson of
// the attempt that earned them, and nothing of a learner outside the class.
func testClassEffort(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	member(t, s, c.ID, "l2", "basil")
	if err := record(s, "l1", "a", "classify", true, t0.Add(time.Minute), progress.AttemptEffects{Award: &progress.Award{Key: "w:a", Amount: 10, Reason: "r"}}); err != nil {
		t.Fatal(err)
	}
	if err := record(s, "l2", "b", "quiz", false, t0, progress.AttemptEffects{}); err != nil {
		t.Fatal(err)
	}
	if err := record(s, "l9", "a", "classify", true, t0, progress.AttemptEffects{Award: &progress.Award{Key: "w:a", Amount: 10, Reason: "r"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "x", Report: "{}", At: t0}, nil); err != nil {
		t.Fatal(err)
	}
	e, err := s.ClassEffort(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range e.Actions {
		got = append(got, ev.LearnerID+"/"+ev.LessonSlug+"/"+ev.Kind+"/"+ev.WidgetID+"@"+ev.At.Sub(t0).String())
	}
	want := []string{"l1//submission/ex@0s", "l1/a/classify/classify@1m0s", "l2/b/quiz/quiz@0s"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ClassEffort actions = %v, want %v", got, want)
	}
	if len(e.Awards) != 1 || e.Awards[0].LearnerID != "l1" || e.Awards[0].LessonSlug != "a" || e.Awards[0].XP != 10 {
		t.Errorf("ClassEffort awards = %+v, want l1's 10 XP in lesson a", e.Awards)
	}
}
