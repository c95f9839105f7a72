package storetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"learn/progress"
)

// testCourseStats checks the reads of the authors' statistics: first
// tries of every learner (a class or none), grouped as for a class; every
// learner's submissions and failing cases; and each learner's effort on an
// exercise: submissions, those up to the first pass, hints shown.
func testCourseStats(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	for i, at := range []struct {
		learner, kind, answers string
	}{
		{"l1", "classify", `{"x":"a"}`},
		{"l2", "classify", `{"x":"a"}`},
		{"l3", "classify", `{"x":"b"}`},
		{"l1", "classify", `{"x":"b"}`}, // a second try: not a first one
		{"l1", "quiz", `{"q1":["a"]}`},
		{"l2", "quiz", `{"q1":["a"]}`},
	} {
		if _, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: at.learner, LessonSlug: "one", WidgetID: at.kind,
			Kind: at.kind, Total: 1, Answers: at.answers, At: t0.Add(time.Duration(i) * time.Minute)}, progress.AttemptEffects{}); err != nil {
			t.Fatal(err)
		}
	}
	ft, err := s.CourseFirstTries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range ft.Answers {
		got = append(got, strings.Join([]string{a.WidgetID, a.LearnerID, a.Answers}, " ")+" ×"+string(rune('0'+a.Count)))
	}
	slices.Sort(got)
	want := []string{`classify  {"x":"a"} ×2`, `classify  {"x":"b"} ×1`, `quiz l1 {"q1":["a"]} ×1`, `quiz l2 {"q1":["a"]} ×1`}
	if !slices.Equal(got, want) {
		t.Errorf("first tries = %q, want %q", got, want)
	}

	failing := `{"cases":[{"name":"sample","verdict":"passed"},{"name":"empty","verdict":"wrong output"}],"passed":false}`
	passing := `{"cases":[],"passed":true}`
	for i, sub := range []progress.Submission{
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Report: failing},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Report: failing},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Report: failing},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Passed: true, Report: passing},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Passed: true, Report: passing},
		{LearnerID: "l2", ExerciseID: "ex", Mode: "submit", Report: failing},
	} {
		sub.At = t0.Add(time.Duration(i) * time.Minute)
		if _, err := s.RecordSubmission(ctx, sub, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RevealHints(ctx, "l2", "ex", 2, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RevealHints(ctx, "l3", "ex", 1, t0); err != nil {
		t.Fatal(err)
	}
	stats, fails, err := s.CourseExerciseStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(stats) != 1 || stats[0] != (progress.ExerciseStat{ExerciseID: "ex", Learners: 2, Solvers: 1, Submits: 5, Failed: 3}) {
		t.Errorf("exercise stats = %+v, want ex: 2 learners, 1 solver, 5 submissions, 3 failed", stats)
	}
	if len(fails) != 1 || fails[0] != (progress.CaseFailure{ExerciseID: "ex", Case: "empty", Verdict: "wrong output", Count: 3}) {
		t.Errorf("case failures = %+v, want empty/wrong output 3", fails)
	}
	efforts, err := s.ExerciseEfforts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(efforts, func(a, b progress.ExerciseEffort) int { return strings.Compare(a.LearnerID, b.LearnerID) })
	wantEfforts := []progress.ExerciseEffort{
		{ExerciseID: "ex", LearnerID: "l1", Submits: 4, SubmitsToSolve: 3},
		{ExerciseID: "ex", LearnerID: "l2", Submits: 1, HintsShown: 2},
		{ExerciseID: "ex", LearnerID: "l3", HintsShown: 1},
	}
	if !slices.Equal(efforts, wantEfforts) {
		t.Errorf("efforts = %+v\nwant %+v", efforts, wantEfforts)
	}
}
