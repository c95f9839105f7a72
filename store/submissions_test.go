package store

import (
	"context"
	"testing"
	"time"
)

func TestSubmissions(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if codes, err := s.LatestCodes(ctx, "l1"); err != nil || len(codes) != 0 {
		t.Fatalf("LatestCodes before any submission = %v (%v), want none", codes, err)
	}
	award := &Award{Key: "exercise:ex", Amount: 20, Reason: "Solved"}
	steps := []struct {
		name        string
		sub         Submission
		award       *Award
		wantGranted bool
	}{
		{"run", Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "v1", Report: "{}", At: t0}, nil, false},
		{"failing submit", Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "v2", Report: "{}", At: t0}, nil, false},
		{"passing submit", Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "v3", Passed: true, Report: "{}", At: t0.Add(time.Minute)}, award, true},
		{"passing again", Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "v4", Passed: true, Report: "{}", At: t0.Add(2 * time.Minute)}, award, false},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			granted, err := s.RecordSubmission(ctx, st.sub, st.award)
			if err != nil || granted != st.wantGranted {
				t.Fatalf("RecordSubmission = %v (%v), want %v", granted, err, st.wantGranted)
			}
			codes, err := s.LatestCodes(ctx, "l1")
			if err != nil || codes["ex"] != st.sub.Code {
				t.Errorf("LatestCodes = %v (%v), want ex: %q", codes, err, st.sub.Code)
			}
		})
	}
	if codes, err := s.LatestCodes(ctx, "l1"); err != nil || codes["ex"] != "v4" || len(codes) != 1 {
		t.Errorf("LatestCodes = %v (%v), want ex: v4", codes, err)
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 20 {
		t.Errorf("TotalXP = %d, want 20", xp)
	}
	if times, _ := s.ActivityTimes(ctx, "l1"); len(times) != 3 {
		t.Errorf("%d activities, want 3 (the submissions, not the run)", len(times))
	}
}
