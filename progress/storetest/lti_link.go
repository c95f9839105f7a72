package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
)

// linkWorld is a class joined with secret words and an LMS course whose
// learners launch, through the core.
type linkWorld struct {
	app    *progress.Service
	s      Backend
	words  progress.Class
	course progress.LTIContext
	lms    int64
}

func newLinkWorld(t *testing.T, s Backend) *linkWorld {
	t.Helper()
	ctx := context.Background()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	app, err := progress.New(progress.Config{Course: course, Store: s, LTI: s})
	if err != nil {
		t.Fatal(err)
	}
	w := &linkWorld{app: app, s: s, course: progress.LTIContext{Issuer: "https://lms.example", DeploymentID: "d", ContextID: "c"}}
	w.words = class(t, s, teacher(t, s, "words@example.com").ID, "Year 8 words", "WORDS8")
	done, err := app.LaunchLTI(ctx, progress.LTILaunch{Issuer: w.course.Issuer, Subject: "teacher", Name: "Ms T", Instructor: true,
		Context: w.course, ContextTitle: "Year 9 LMS"})
	if err != nil {
		t.Fatal(err)
	}
	w.lms = done.ClassID
	return w
}

// joiner joins the words class as name and earns xp; it returns the
// learner and their words.
func (w *linkWorld) joiner(t *testing.T, id, name string, xp int) (string, string) {
	t.Helper()
	ctx := context.Background()
	if _, err := w.s.EnsureLearner(ctx, id, t0); err != nil {
		t.Fatal(err)
	}
	j, err := w.app.Join(ctx, progress.Actor{ID: id, Known: true}, "WORDS8", name)
	if err != nil {
		t.Fatal(err)
	}
	if xp > 0 {
		if err := record(w.s, id, "a", "quiz", true, t0, progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a", Amount: xp, Reason: "Passed"}, CompleteLesson: true}); err != nil {
			t.Fatal(err)
		}
	}
	return id, j.Secret
}

// launch launches the LMS user sub as a learner; it returns their learner.
func (w *linkWorld) launch(t *testing.T, sub string) progress.Actor {
	t.Helper()
	done, err := w.app.LaunchLTI(context.Background(), progress.LTILaunch{Issuer: w.course.Issuer, Subject: sub, Name: "Student " + sub, Learner: true, Context: w.course})
	if err != nil {
		t.Fatal(err)
	}
	return progress.Actor{ID: done.LearnerID, Known: true}
}

// words is the sign-in of a member of the words class.
func (w *linkWorld) words8(name, secret string) progress.LearnerSignIn {
	return progress.LearnerSignIn{Code: progress.ClassCode(w.words.ID), Name: name, Secret: secret, Address: "192.0.2.1"}
}

// link proves the words and links.
func (w *linkWorld) link(a progress.Actor, in progress.LearnerSignIn) (progress.WordsLearner, error) {
	ctx := context.Background()
	proven, err := w.app.ProveWordsLearner(ctx, a, in)
	if err != nil {
		return proven, fmt.Errorf("prove: %w", err)
	}
	return w.app.LinkWordsLearner(ctx, a, proven.ClassID, proven.LearnerID)
}

func kindOf(err error) progress.Kind {
	if pe, ok := errors.AsType[*progress.Error](err); ok {
		return pe.Kind
	}
	return -1
}

// testLTILinkWords links an LMS user to the learner they made with words:
// nothing changes before the link, the next launch is the word-made
// learner with their XP and the LMS course's class, and a second link is
// refused either way.
func testLTILinkWords(t *testing.T, s Backend) {
	ctx := context.Background()
	w := newLinkWorld(t, s)
	ada, secret := w.joiner(t, "ada-words", "Ada", 30)
	stu := w.launch(t, "stu")
	if st, err := w.app.LTILinkStatus(ctx, stu); err != nil || !st.LMS || st.Linked {
		t.Fatalf("status before = %+v, %v; want an LMS learner not linked", st, err)
	}
	if st, err := w.app.LTILinkStatus(ctx, progress.Actor{ID: ada, Known: true}); err != nil || st.LMS {
		t.Errorf("status of a word-made learner = %+v, %v", st, err)
	}
	refusals := []struct {
		name string
		a    progress.Actor
		in   progress.LearnerSignIn
		want progress.Kind
	}{
		{"wrong words", stu, w.words8("Ada", "not the words"), progress.Denied},
		{"unknown name", stu, w.words8("Bea", secret), progress.Denied},
		{"a learner no LMS made", progress.Actor{ID: ada, Known: true}, w.words8("Ada", secret), progress.Forbidden},
	}
	for _, r := range refusals {
		if _, err := w.app.ProveWordsLearner(ctx, r.a, r.in); kindOf(err) != r.want {
			t.Errorf("%s: %v, want kind %d", r.name, err, r.want)
		}
	}
	proven, err := w.app.ProveWordsLearner(ctx, stu, w.words8("Ada", secret))
	if err != nil {
		t.Fatal(err)
	}
	if proven.LearnerID != ada || proven.XP != 30 || proven.Lessons != 1 || proven.Name != "Ada" || proven.Class != "Year 8 words" {
		t.Errorf("proven = %+v", proven)
	}
	if again := w.launch(t, "stu"); again.ID != stu.ID {
		t.Fatalf("a proof alone changed the launch's learner to %s", again.ID)
	}
	linked, err := w.app.LinkWordsLearner(ctx, stu, proven.ClassID, proven.LearnerID)
	if err != nil || linked.LearnerID != ada || linked.XP != 30 {
		t.Fatalf("LinkWordsLearner = %+v, %v", linked, err)
	}
	next := w.launch(t, "stu")
	if next.ID != ada {
		t.Fatalf("the next launch is learner %s, want the linked %s", next.ID, ada)
	}
	if xp, err := s.TotalXP(ctx, next.ID); err != nil || xp != 30 {
		t.Errorf("XP under the LMS account = %d, %v; want 30", xp, err)
	}
	if _, err := s.FindMember(ctx, w.lms, ada); err != nil {
		t.Errorf("the linked learner is not in the LMS course's class: %v", err)
	}
	if _, err := s.FindMember(ctx, w.lms, stu.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("the LMS-made learner stayed in the class: %v", err)
	}
	if members, err := s.Members(ctx, w.lms); err != nil || len(members) != 1 || members[0].Name != "Student stu" {
		t.Errorf("LMS class members = %+v, %v; want the one, under their LMS name", members, err)
	}
	if _, err := s.FindMember(ctx, w.words.ID, ada); err != nil {
		t.Errorf("the linked learner left the words class: %v", err)
	}
	if st, err := w.app.LTILinkStatus(ctx, next); err != nil || !st.LMS || !st.Linked {
		t.Errorf("status after = %+v, %v; want linked", st, err)
	}
	// Once, either way.
	bea, beaSecret := w.joiner(t, "bea-words", "Bea", 0)
	if _, err := w.link(next, w.words8("Bea", beaSecret)); kindOf(err) != progress.Forbidden {
		t.Errorf("a second link of the LMS user: %v, want Forbidden", err)
	}
	if _, err := w.app.LinkWordsLearner(ctx, next, w.words.ID, bea); kindOf(err) != progress.Forbidden {
		t.Errorf("a second link past the proof: %v, want Forbidden", err)
	}
	other := w.launch(t, "other")
	if _, err := w.link(other, w.words8("Ada", secret)); kindOf(err) != progress.Forbidden {
		t.Errorf("linking a learner linked already: %v, want Forbidden", err)
	}
	if _, err := w.app.LinkWordsLearner(ctx, other, w.words.ID, ada); kindOf(err) != progress.Forbidden {
		t.Errorf("linking a learner linked already, past the proof: %v, want Forbidden", err)
	}
	// An LMS user's own membership is no word-made progress.
	lmsMember, err := s.FindMember(ctx, w.lms, other.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.link(other, progress.LearnerSignIn{Code: progress.ClassCode(w.lms), Name: lmsMember.Name, Secret: lmsMember.Secret, Address: "192.0.2.1"}); kindOf(err) != progress.Forbidden {
		t.Errorf("linking to the account's own learner: %v, want Forbidden", err)
	}
}

// testLTILinkMerge links an LMS user whose own learner earned progress
// since its first launch: the two learners' work joins, what both did
// counts once (the word-made learner's record), a lesson keeps the
// earlier completion, and quiz attempts are numbered after the word-made
// learner's.
func testLTILinkMerge(t *testing.T, s Backend) {
	ctx := context.Background()
	w := newLinkWorld(t, s)
	bea, secret := w.joiner(t, "bea-words", "Bea", 0)
	lms := w.launch(t, "bea-lms")
	quiz := func(learner string, number int, passed bool, at time.Time, award *progress.Award, complete bool) {
		t.Helper()
		q := &progress.QuizAttempt{LearnerID: learner, LessonSlug: "a", QuizID: "quiz", Number: number, Draw: "{}", Passed: passed, StartedAt: at, FinishedAt: at}
		if err := record(s, learner, "a", "quiz", passed, at, progress.AttemptEffects{Award: award, CompleteLesson: complete, Quiz: q}); err != nil {
			t.Fatal(err)
		}
	}
	// The word-made learner: two attempts at lesson a's quiz, the second
	// passed (30 XP), lesson a completed at t0+2h.
	quiz(bea, 1, false, t0.Add(time.Hour), nil, false)
	quiz(bea, 2, true, t0.Add(2*time.Hour), &progress.Award{Key: "quiz:a", Amount: 30, Reason: "Passed"}, true)
	// The LMS-made learner, since: one attempt at the same quiz, passed,
	// with the same award (it must not count twice), an award of lesson
	// b (5 XP) that completes b, and b's saved code.
	quiz(lms.ID, 1, true, t0.Add(3*time.Hour), &progress.Award{Key: "quiz:a", Amount: 30, Reason: "Passed"}, true)
	if err := record(s, lms.ID, "b", "quiz", true, t0.Add(4*time.Hour), progress.AttemptEffects{Award: &progress.Award{Key: "quiz:b", Amount: 5, Reason: "Passed"}, CompleteLesson: true}); err != nil {
		t.Fatal(err)
	}
	proven, err := w.app.ProveWordsLearner(ctx, lms, w.words8("Bea", secret))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.app.LinkWordsLearner(ctx, lms, proven.ClassID, proven.LearnerID); err != nil {
		t.Fatalf("linking an LMS learner with progress of its own: %v", err)
	}
	next := w.launch(t, "bea-lms")
	if next.ID != bea {
		t.Fatalf("the next launch is learner %s, want %s", next.ID, bea)
	}
	if xp, err := s.TotalXP(ctx, bea); err != nil || xp != 35 {
		t.Errorf("XP after the merge = %d, %v; want 35 (30 once, and 5)", xp, err)
	}
	lessons, err := s.ProgressByLesson(ctx, bea)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	for _, p := range lessons {
		if p.Completed() {
			done[p.LessonSlug] = true
		}
	}
	if !done["a"] || !done["b"] {
		t.Errorf("completed lessons after the merge = %v, want a and b", done)
	}
	attempts, err := s.QuizAttempts(ctx, bea, "a", "quiz")
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, q := range attempts {
		numbers = append(numbers, q.Number)
	}
	if fmt.Sprint(numbers) != "[1 2 3]" || !attempts[2].FinishedAt.Equal(t0.Add(3*time.Hour)) {
		t.Errorf("quiz attempts after the merge = %v (%+v), want 1 and 2 the word-made learner's, 3 the LMS one's", numbers, attempts)
	}
	if _, err := s.FindMember(ctx, w.lms, bea); err != nil {
		t.Errorf("the merged learner is not in the LMS course's class: %v", err)
	}
	if xp, err := s.TotalXP(ctx, lms.ID); err != nil || xp != 0 {
		t.Errorf("the LMS-made learner kept XP %d, %v", xp, err)
	}
}

// testLTILinkRace links at once: two LMS users to one word-made learner,
// and one LMS user to two word-made learners; exactly one link wins each
// time.
func testLTILinkRace(t *testing.T, s Backend) {
	ctx := context.Background()
	w := newLinkWorld(t, s)
	race := func(name string, links []func() error) {
		t.Helper()
		errs := make([]error, len(links))
		var wg sync.WaitGroup
		for i, link := range links {
			wg.Go(func() { errs[i] = link() })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case kindOf(err) != progress.Forbidden:
				t.Errorf("%s: a losing link failed with %v, want a Forbidden refusal", name, err)
			}
		}
		if won != 1 {
			t.Errorf("%s: %d links won (%v), want exactly 1", name, won, errs)
		}
	}
	cy, _ := w.joiner(t, "cy-words", "Cy", 10)
	a, b := w.launch(t, "a"), w.launch(t, "b")
	race("two LMS users, one learner", []func() error{
		func() error { _, err := w.app.LinkWordsLearner(ctx, a, w.words.ID, cy); return err },
		func() error { _, err := w.app.LinkWordsLearner(ctx, b, w.words.ID, cy); return err },
	})
	if l, err := s.FindLTILinkByLearner(ctx, cy); err != nil || (l.Subject != "a" && l.Subject != "b") {
		t.Errorf("the link of cy = %+v, %v", l, err)
	}
	dee, _ := w.joiner(t, "dee-words", "Dee", 0)
	eve, _ := w.joiner(t, "eve-words", "Eve", 0)
	c := w.launch(t, "c")
	race("one LMS user, two learners", []func() error{
		func() error { _, err := w.app.LinkWordsLearner(ctx, c, w.words.ID, dee); return err },
		func() error { _, err := w.app.LinkWordsLearner(ctx, c, w.words.ID, eve); return err },
	})
	next := w.launch(t, "c")
	if next.ID != dee && next.ID != eve {
		t.Errorf("after the race the LMS user launches as %s, want dee or eve", next.ID)
	}
}
