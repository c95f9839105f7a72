package storetest

import (
	"context"
	"testing"
	"time"

	"learn/progress"
)

// testPageGeneration checks that every write a lesson page can show of
// others' doing moves the page generation, on its own, and that the
// learner's own progress does not: a step that leaves it where it was
// fails, as does one that moves it without need.
func testPageGeneration(t *testing.T, s Backend) {
	ctx := context.Background()
	gen := func() int64 {
		t.Helper()
		n, err := s.PageGeneration(ctx)
		if err != nil {
			t.Fatalf("PageGeneration: %v", err)
		}
		return n
	}
	if n := gen(); n != 0 {
		t.Fatalf("PageGeneration of an empty database = %d, want 0", n)
	}
	tc := teacher(t, s, "gen@school.example")
	if n := gen(); n != 0 {
		t.Errorf("a new teacher moved the page generation to %d", n)
	}
	co := teacher(t, s, "co-gen@school.example")
	var c progress.Class
	var q, a progress.Post
	for _, step := range []struct {
		name  string
		moves bool
		do    func() error
	}{
		{"a class is made", true, func() (err error) {
			c, err = s.CreateClass(ctx, progress.Class{TeacherID: tc.ID, Name: "Room 9", JoinCode: "GENGEN", TimeZone: "UTC", CreatedAt: t0})
			return err
		}},
		{"the learner opens a lesson", false, func() error {
			if _, err := s.EnsureLearner(ctx, "g1", t0); err != nil {
				return err
			}
			return s.MarkLessonOpened(ctx, "g1", "lesson-a", t0)
		}},
		{"a learner joins", true, func() error {
			return s.AddMember(ctx, progress.Member{ClassID: c.ID, LearnerID: "g1", Name: "Gil", NameKey: "gil", Secret: "a b c", SecretHash: "h", JoinedAt: t0})
		}},
		{"the class is renamed", true, func() error { c.Name = "Room 10"; return s.UpdateClass(ctx, c) }},
		{"new secret words", true, func() error { return s.SetMemberSecret(ctx, c.ID, "g1", "d e f", "h2") }},
		{"a lesson is assigned", true, func() error {
			return s.SetAssignment(ctx, progress.Assignment{ClassID: c.ID, LessonSlug: "lesson-a", AssignedAt: t0})
		}},
		{"an extension", true, func() error { return s.SetExtension(ctx, c.ID, "lesson-a", "g1", t0.Add(48*time.Hour)) }},
		{"the extension is taken back", true, func() error { return s.DeleteExtension(ctx, c.ID, "lesson-a", "g1") }},
		{"the lesson is unassigned", true, func() error { return s.DeleteAssignment(ctx, c.ID, "lesson-a") }},
		{"a question", true, func() (err error) {
			q, err = s.CreatePost(ctx, progress.Post{LessonSlug: "lesson-a", ClassID: c.ID, AuthorID: "g1", AuthorName: "Gil", Body: "why?", HTML: "<p>why?</p>", CreatedAt: t0}, nil)
			return err
		}},
		{"an answer", true, func() (err error) {
			a, err = s.CreatePost(ctx, progress.Post{LessonSlug: "lesson-a", ClassID: c.ID, QuestionID: q.ID, AuthorID: "g1", AuthorName: "Gil", Body: "so", HTML: "<p>so</p>", CreatedAt: t0}, nil)
			return err
		}},
		{"an edit", true, func() error { return s.EditPost(ctx, q.ID, "why not?", "<p>why not?</p>", t0.Add(time.Minute)) }},
		{"an accepted answer", true, func() error { return s.SetAccepted(ctx, q.ID, a.ID, nil) }},
		{"a helpful mark", true, func() error { _, err := s.MarkHelpful(ctx, a.ID, "g1", t0); return err }},
		{"a report", true, func() error { _, err := s.ReportPost(ctx, a.ID, "g1", "rude", t0); return err }},
		{"a post hidden", true, func() error { return s.SetHidden(ctx, a.ID, t0.Add(time.Hour), "rude", t0.Add(time.Hour)) }},
		{"a post deleted", true, func() error { return s.DeletePost(ctx, q.ID, t0.Add(time.Hour)) }},
		{"a public name", true, func() error { return s.SetPublicName(ctx, "g2", "Gwen", "gwen", t0) }},
		{"a co-teacher is added", true, func() error { return s.AddCoTeacher(ctx, c.ID, co.ID, t0) }},
		{"the co-teacher is removed", true, func() error { return s.RemoveCoTeacher(ctx, c.ID, co.ID) }},
		{"the learner is removed", true, func() error { return s.RemoveMember(ctx, c.ID, "g1") }},
		{"the class is deleted", true, func() error { return s.DeleteClass(ctx, c.ID) }},
		{"a learner with a public name deletes their data", true, func() error { return s.DeleteLearner(ctx, "g2") }},
	} {
		before := gen()
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if after := gen(); (after != before) != step.moves {
			t.Errorf("%s: page generation %d → %d; want it moved: %v", step.name, before, after, step.moves)
		}
	}
}
