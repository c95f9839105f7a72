// Package storetest is the conformance suite of progress.Store,
// progress.SecretStore and progress.LTIStore: every backend runs it unchanged, through the
// interfaces only, against a real, empty database of its kind. It runs
// part by part (Learning, Classroom, QA, RateLimits, LTI, Secrets), each part
// being one of the core's store interfaces.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Backend { return openTemp(t) })
//	}
package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"learn/progress"
	"learn/quiz"
)

// Backend is every part a database backend implements.
type Backend interface {
	progress.Store
	progress.SecretStore
	progress.LTIStore
}

// Open returns a new, empty backend for one test; the backend closes it in
// t.Cleanup.
type Open func(t *testing.T) Backend

// test is one conformance test of a part.
type test struct {
	name string
	fn   func(t *testing.T, s Backend)
}

// t0 is a whole second, so that stored instants with and without fractions
// meet in the same tests.
var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

// Run runs every conformance test against backends from open, grouped by
// the part of the store each checks.
func Run(t *testing.T, open Open) {
	parts := []struct {
		name  string
		tests []test
	}{
		{"Learning", []test{ // progress.LearningStore
			{"Ping", testPing},
			{"Learners", testLearners},
			{"LessonProgress", testLessonProgress},
			{"AwardOnceUnderConcurrency", testAwardOnceUnderConcurrency},
			{"AwardRejectsBadAward", testAwardRejectsBadAward},
			{"EffectsRollBackWithAttempt", testEffectsRollBack},
			{"QuizScores", testQuizScores},
			{"ReviewQueue", testReviewQueue},
			{"ReviewTimesOrderAcrossFractions", testReviewTimeOrder},
			{"AwardSlotsCapConcurrentAwards", testAwardSlots},
			{"AwardsKeepTheirAttempt", testAwardsKeepAttempt},
			{"QuizAttemptsOnceEach", testQuizAttempts},
			{"Submissions", testSubmissions},
			{"ExerciseStates", testExerciseStates},
			{"LearnersAreApart", testLearnersApart},
			{"LastAttempts", testLastAttempts},
			{"ResultsShowOnce", testResultsShowOnce},
			{"HintsOnlyGrow", testHintsOnlyGrow},
		}},
		{"XPLedger", []test{ // the quiz package's XP rule, through the core (xpmodel.go)
			{"Model", testXPModel},
			{"ReviewLoop", testReviewLoop},
		}},
		{"Classroom", []test{ // progress.ClassroomStore (classroom.go)
			{"Teachers", testTeachers},
			{"Sessions", testSessions},
			{"Classes", testClasses},
			{"JoinCodes", testJoinCodes},
			{"Members", testMembers},
			{"Assignments", testAssignments},
			{"ClassActivity", testClassActivity},
			{"ClassFirstTries", testClassFirstTries},
			{"ClassExerciseStats", testClassExerciseStats},
			{"LearnerAttemptsAndLatest", testLearnerAttemptsAndLatest},
			{"DeleteLearner", testDeleteLearner},
			{"Devices", testDevices},               // devices.go
			{"RemovalsKept", testRemovalsKept},     // removed.go
			{"ClassEffort", testClassEffort},       // removed.go
			{"SignInFailures", testSignInFailures}, // devices.go
			{"CoTeachers", testCoTeachers},         // coteachers.go
			{"ExerciseReset", testExerciseReset},   // coteachers.go
		}},
		{"QA", []test{ // progress.QAStore (qa.go)
			{"Posts", testPosts},
			{"PostModeration", testPostModeration},
			{"LessonPostsScopes", testLessonPostsScopes},
			{"UnansweredQuestions", testUnansweredQuestions},
			{"Notices", testNotices},
			{"PublicNames", testPublicNames},
			{"DeleteLearnerTakesPosts", testDeleteLearnerTakesPosts},
			{"PageGeneration", testPageGeneration}, // generation.go
		}},
		{"RateLimits", []test{{"Suite", testRateLimits}}},   // progress.RateLimiter (ratelimits.go)
		{"Stats", []test{{"CourseStats", testCourseStats}}}, // progress.StatsStore (stats.go)
		{"LTI", []test{ // progress.LTIStore and LaunchLTI through the core (lti.go)
			{"Links", testLTILinks},
			{"LaunchRace", testLTILaunchRace},
			{"LinkWords", testLTILinkWords},
			{"LinkMerge", testLTILinkMerge}, // lti_link.go
			{"LinkRace", testLTILinkRace},   // lti_link.go
		}},
		{"Secrets", []test{ // progress.SecretStore (secrets.go)
			{"Stable", testSecretStable},
			{"Rotation", testSecretRotation},
		}},
	}
	for _, part := range parts {
		t.Run(part.name, func(t *testing.T) {
			for _, tc := range part.tests {
				t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
			}
		})
	}
}

func testPing(t *testing.T, s Backend) {
	if err := s.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

func testLearners(t *testing.T, s Backend) {
	ctx := context.Background()
	if _, err := s.FindLearner(ctx, "nobody"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindLearner(unknown) = %v, want ErrNotFound", err)
	}
	if err := s.SetTimeZone(ctx, "nobody", "Europe/Paris"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetTimeZone(unknown) = %v, want ErrNotFound", err)
	}
	l, err := s.EnsureLearner(ctx, "l1", t0)
	if err != nil || l.ID != "l1" || l.TimeZone != "UTC" || !l.CreatedAt.Equal(t0) {
		t.Fatalf("EnsureLearner = %+v (%v), want l1 in UTC created %v", l, err, t0)
	}
	if _, err := s.EnsureLearner(ctx, "l1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTimeZone(ctx, "l1", "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	l, err = s.FindLearner(ctx, "l1")
	if err != nil || l.TimeZone != "Asia/Tokyo" || !l.CreatedAt.Equal(t0) {
		t.Errorf("FindLearner = %+v (%v), want Asia/Tokyo and the first creation time", l, err)
	}
	if l.CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt is in %v, want UTC", l.CreatedAt.Location())
	}
}

func testLessonProgress(t *testing.T, s Backend) {
	ctx := context.Background()
	if err := s.MarkLessonOpened(ctx, "ghost", "a", t0); err == nil {
		t.Error("opening a lesson for a learner who does not exist succeeded")
	}
	if _, err := s.EnsureLearner(ctx, "l1", t0); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		do       func() error
		slug     string
		opened   time.Time
		complete bool
	}{
		{"first open", func() error { return s.MarkLessonOpened(ctx, "l1", "a", t0) }, "a", t0, false},
		{"second open keeps the first time", func() error { return s.MarkLessonOpened(ctx, "l1", "a", t0.Add(time.Hour)) }, "a", t0, false},
		{"a passing quiz completes", func() error {
			return record(s, "l1", "a", "quiz", true, t0.Add(2*time.Hour), progress.AttemptEffects{CompleteLesson: true})
		}, "a", t0, true},
		{"completing an unopened lesson opens it", func() error {
			return record(s, "l1", "b", "quiz", true, t0, progress.AttemptEffects{CompleteLesson: true})
		}, "b", t0, true},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := s.ProgressByLesson(ctx, "l1")
		if err != nil {
			t.Fatal(err)
		}
		p, ok := got[st.slug]
		if !ok || !p.OpenedAt.Equal(st.opened) || p.Completed() != st.complete {
			t.Errorf("%s: progress = %+v (present %v), want opened %v completed %v", st.name, p, ok, st.opened, st.complete)
		}
	}
	if got, err := s.ProgressByLesson(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Errorf("ProgressByLesson(unknown) = %v (%v), want none", got, err)
	}
}

func record(s progress.Store, learner, slug, kind string, passed bool, at time.Time, fx progress.AttemptEffects) error {
	score := 0
	if passed {
		score = 1
	}
	_, err := s.RecordAttempt(context.Background(), progress.Attempt{LearnerID: learner, LessonSlug: slug, WidgetID: kind,
		Kind: kind, Score: score, Total: 1, Passed: passed, Answers: "{}", At: at}, fx)
	return err
}

func testAwardOnceUnderConcurrency(t *testing.T, s Backend) {
	ctx := context.Background()
	const posts = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	grants := 0
	for range posts {
		wg.Go(func() {
			granted, err := s.RecordAttempt(ctx,
				progress.Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", Kind: "quiz", Score: 6, Total: 6, Passed: true, Answers: "{}", At: t0},
				progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a:quiz", Amount: 50, Reason: "Passed"}, CompleteLesson: true})
			if err != nil {
				t.Errorf("RecordAttempt: %v", err)
				return
			}
			if granted {
				mu.Lock()
				grants++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if grants != 1 {
		t.Errorf("%d of %d identical passing posts were awarded, want 1", grants, posts)
	}
	if xp, err := s.TotalXP(ctx, "l1"); err != nil || xp != 50 {
		t.Errorf("TotalXP = %d (%v), want 50", xp, err)
	}
	if counts, err := s.AttemptCounts(ctx, "l1"); err != nil || counts["a/quiz"] != posts {
		t.Errorf("AttemptCounts = %v (%v), want a/quiz: %d", counts, err, posts)
	}
	if times, err := s.ActivityTimes(ctx, "l1"); err != nil || len(times) != posts || !times[0].Equal(t0) {
		t.Errorf("ActivityTimes = %d times (%v), want %d", len(times), err, posts)
	}
	if _, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "classify",
		Score: 1, Total: 1, Passed: true, Answers: "{}", At: t0.Add(time.Minute)},
		progress.AttemptEffects{Award: &progress.Award{Key: "widget:a:w", Amount: 5, Reason: "Sorted"}}); err != nil {
		t.Fatal(err)
	}
	hist, err := s.XPHistory(ctx, "l1")
	if err != nil || len(hist) != 2 || hist[0].Key != "quiz:a:quiz" || hist[1].Amount != 5 || !hist[1].At.Equal(t0.Add(time.Minute)) {
		t.Errorf("XPHistory = %+v (%v), want quiz:a:quiz then widget:a:w", hist, err)
	}
	if xp, _ := s.TotalXP(ctx, "nobody"); xp != 0 {
		t.Errorf("TotalXP(unknown) = %d, want 0", xp)
	}
}

func testAwardRejectsBadAward(t *testing.T, s Backend) {
	for _, a := range []progress.Award{{Key: "", Amount: 5}, {Key: "k", Amount: 0}, {Key: "k", Amount: -3}} {
		err := record(s, "l1", "a", "classify", true, t0, progress.AttemptEffects{Award: &a})
		if err == nil {
			t.Errorf("an attempt with award %+v was saved, want an error", a)
		}
	}
	// The refused awards took their attempts with them.
	if times, err := s.ActivityTimes(context.Background(), "l1"); err != nil || len(times) != 0 {
		t.Errorf("ActivityTimes = %v (%v), want none", times, err)
	}
}

func testEffectsRollBack(t *testing.T, s Backend) {
	ctx := context.Background()
	bad := progress.AttemptEffects{
		CompleteLesson: true,
		Missed:         []progress.ReviewCard{card("a/w/1", t0)},
		Award:          &progress.Award{Key: "", Amount: 5},
	}
	if err := record(s, "l1", "a", "quiz", true, t0, bad); err == nil {
		t.Fatal("an attempt with a bad award was saved")
	}
	if p, _ := s.ProgressByLesson(ctx, "l1"); len(p) != 0 {
		t.Errorf("a failed attempt completed a lesson: %v", p)
	}
	if _, total, _ := s.ReviewCounts(ctx, "l1", t0); total != 0 {
		t.Errorf("a failed attempt queued %d reviews", total)
	}
}

func testQuizScores(t *testing.T, s Backend) {
	ctx := context.Background()
	scores := []int{3, 6, 4}
	for i, sc := range scores {
		_, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", Kind: "quiz",
			Score: sc, Total: 6, Passed: sc >= 5, Answers: "{}", At: t0.Add(time.Duration(i) * time.Minute)}, progress.AttemptEffects{})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := record(s, "l1", "a", "classify", true, t0.Add(time.Hour), progress.AttemptEffects{}); err != nil {
		t.Fatal(err)
	}
	got, err := s.QuizScores(ctx, "l1")
	want := progress.QuizScore{LessonSlug: "a", First: 3, Best: 6, Total: 6, Attempts: 3, Passed: true, LastAt: t0.Add(2 * time.Minute)}
	if err != nil || len(got) != 1 || got["a"] != want {
		t.Errorf("QuizScores = %+v (%v), want only %+v", got, err, want)
	}
}

func card(key string, due time.Time) progress.ReviewCard {
	c := quiz.MissedCard(t0)
	c.Due = due
	return progress.ReviewCard{Key: key, LessonSlug: "a", WidgetID: "w", ItemID: key, Card: c}
}

func testReviewQueue(t *testing.T, s Backend) {
	ctx := context.Background()
	err := record(s, "l1", "a", "classify", false, t0,
		progress.AttemptEffects{Missed: []progress.ReviewCard{card("a/w/1", t0), card("a/w/2", t0.Add(48*time.Hour))}})
	if err != nil {
		t.Fatal(err)
	}
	due, total, err := s.ReviewCounts(ctx, "l1", t0)
	if err != nil || due != 1 || total != 2 {
		t.Fatalf("ReviewCounts = %d due, %d total (%v), want 1 and 2", due, total, err)
	}
	// Missing an item again keeps its card's schedule: the later item stays
	// due in two days, the first stays due now.
	if err := record(s, "l1", "a", "classify", false, t0,
		progress.AttemptEffects{Missed: []progress.ReviewCard{card("a/w/2", t0), card("a/w/1", t0.Add(time.Hour))}}); err != nil {
		t.Fatal(err)
	}
	if later, err := s.FindReview(ctx, "l1", "a/w/2"); err != nil || !later.Card.Due.Equal(t0.Add(48*time.Hour)) {
		t.Errorf("a/w/2 missed again is due %v (%v), want its schedule kept: %v", later.Card.Due, err, t0.Add(48*time.Hour))
	}
	cards, err := s.DueReviews(ctx, "l1", t0, 10)
	if err != nil || len(cards) != 1 || cards[0].Key != "a/w/1" || !cards[0].Card.Due.Equal(t0) {
		t.Fatalf("DueReviews = %+v (%v), want only a/w/1, due at %v", cards, err, t0)
	}
	if few, _ := s.DueReviews(ctx, "l1", t0.Add(72*time.Hour), 1); len(few) != 1 {
		t.Errorf("DueReviews with limit 1 returned %d cards", len(few))
	}
	before := cards[0]
	after := before
	after.Card = quiz.Schedule(before.Card, quiz.RatingFor(true), t0)
	answer := progress.ReviewAnswer{
		Attempt: progress.Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "review", Score: 1, Total: 1, Passed: true, Answers: "{}", At: t0},
		Before:  before, After: after,
		Award: &progress.Award{Key: "review:" + before.Key + ":0", Amount: 2, Reason: "Review"},
	}
	for i, want := range []bool{true, false} {
		applied, granted, err := s.AnswerReview(ctx, answer)
		if err != nil || applied != want || granted != want {
			t.Errorf("answer %d: applied=%v granted=%v (%v), want %v", i+1, applied, granted, err, want)
		}
	}
	got, err := s.FindReview(ctx, "l1", before.Key)
	if err != nil || got.Card.Reps != after.Card.Reps || !got.Card.Due.Equal(after.Card.Due) || !got.Card.LastReview.Equal(after.Card.LastReview) {
		t.Errorf("stored card = %+v (%v), want %+v", got.Card, err, after.Card)
	}
	if _, err := s.FindReview(ctx, "l1", "nope"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindReview of a missing key = %v, want ErrNotFound", err)
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 2 {
		t.Errorf("TotalXP = %d, want 2 (one review award)", xp)
	}
	if times, _ := s.ActivityTimes(ctx, "l1"); len(times) != 3 {
		t.Errorf("%d activities, want 3 (two checks and one review)", len(times))
	}
}

// testReviewTimeOrder checks that instants compare as times, not as their
// text: a card due on a whole second is due half a second later.
func testReviewTimeOrder(t *testing.T, s Backend) {
	ctx := context.Background()
	if err := record(s, "l1", "a", "classify", false, t0, progress.AttemptEffects{Missed: []progress.ReviewCard{
		card("whole", t0), card("fraction", t0.Add(100*time.Millisecond))}}); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(500 * time.Millisecond)
	due, _, err := s.ReviewCounts(ctx, "l1", now)
	if err != nil || due != 2 {
		t.Errorf("ReviewCounts at %v = %d due (%v), want 2", now, due, err)
	}
	cards, err := s.DueReviews(ctx, "l1", now, 10)
	if err != nil || len(cards) != 2 || cards[0].Key != "whole" {
		t.Errorf("DueReviews = %+v (%v), want whole before fraction", cards, err)
	}
	if due, _, _ := s.ReviewCounts(ctx, "l1", t0.Add(50*time.Millisecond)); due != 1 {
		t.Errorf("ReviewCounts between the two = %d, want 1", due)
	}
}

func testSubmissions(t *testing.T, s Backend) {
	ctx := context.Background()
	if codes, err := s.LatestCodes(ctx, "l1"); err != nil || len(codes) != 0 {
		t.Fatalf("LatestCodes before any submission = %v (%v), want none", codes, err)
	}
	award := &progress.Award{Key: "exercise:ex", Amount: 20, Reason: "Solved"}
	steps := []struct {
		name        string
		sub         progress.Submission
		award       *progress.Award
		wantGranted bool
	}{
		{"run", progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "v1", Report: "{}", At: t0}, nil, false},
		{"failing submit", progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "v2", Report: "{}", At: t0}, nil, false},
		{"passing submit", progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "v3", Passed: true, Report: "{}", At: t0.Add(time.Minute)}, award, true},
		{"passing again", progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "v4", Passed: true, Report: "{}", At: t0.Add(2 * time.Minute)}, award, false},
	}
	for _, st := range steps {
		granted, err := s.RecordSubmission(ctx, st.sub, st.award)
		if err != nil || granted != st.wantGranted {
			t.Fatalf("%s: RecordSubmission = %v (%v), want %v", st.name, granted, err, st.wantGranted)
		}
		codes, err := s.LatestCodes(ctx, "l1")
		if err != nil || codes["ex"] != st.sub.Code || len(codes) != 1 {
			t.Errorf("%s: LatestCodes = %v (%v), want ex: %q", st.name, codes, err, st.sub.Code)
		}
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 20 {
		t.Errorf("TotalXP = %d, want 20", xp)
	}
	if times, _ := s.ActivityTimes(ctx, "l1"); len(times) != 3 {
		t.Errorf("%d activities, want 3 (the submissions, not the run)", len(times))
	}
	if counts, _ := s.AttemptCounts(ctx, "l1"); len(counts) != 0 {
		t.Errorf("AttemptCounts = %v: submissions are not widget attempts", counts)
	}
}

func testExerciseStates(t *testing.T, s Backend) {
	ctx := context.Background()
	subs := []progress.Submission{
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "a", Passed: false, Report: "{}", At: t0},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "b", Passed: true, Report: "{}", At: t0.Add(time.Minute)},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "c", Passed: true, Report: "{}", At: t0.Add(2 * time.Minute)},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "d", Passed: false, Report: "{}", At: t0.Add(3 * time.Minute)},
		{LearnerID: "l1", ExerciseID: "other", Mode: "run", Code: "e", Passed: true, Report: "{}", At: t0},
	}
	for _, sub := range subs {
		if _, err := s.RecordSubmission(ctx, sub, nil); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ExerciseStates(ctx, "l1")
	if err != nil {
		t.Fatal(err)
	}
	ex := got["ex"]
	if ex.Failures != 2 {
		t.Errorf("ex has %d failures, want 2 (a failed submission and a failed run)", ex.Failures)
	}
	if ex.Runs != 4 || !ex.Solved() || !ex.SolvedAt.Equal(t0.Add(2*time.Minute)) || ex.LastPassed || ex.LastMode != "run" || !ex.LastAt.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("ex = %+v, want 4 runs, solved at +2m, last a failing run at +3m", ex)
	}
	if o := got["other"]; o.Solved() || o.Runs != 1 || !o.LastPassed {
		t.Errorf("other = %+v: a passing run of the samples does not solve an exercise", o)
	}
}

// testHintsOnlyGrow reveals hints one at a time, posts one twice and an
// older one again, and keeps learners and exercises apart.
func testHintsOnlyGrow(t *testing.T, s Backend) {
	ctx := context.Background()
	for _, id := range []string{"l1", "l2"} {
		if _, err := s.EnsureLearner(ctx, id, t0); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.HintsShown(ctx, "l1"); err != nil || len(got) != 0 {
		t.Fatalf("HintsShown before any = %v (%v), want none", got, err)
	}
	steps := []struct {
		name     string
		exercise string
		n, want  int
	}{
		{"first hint", "ex", 1, 1},
		{"second hint", "ex", 2, 2},
		{"the second again (a doubled post)", "ex", 2, 2},
		{"the first again (an old page)", "ex", 1, 2},
		{"another exercise", "other", 1, 1},
	}
	for i, st := range steps {
		got, err := s.RevealHints(ctx, "l1", st.exercise, st.n, t0.Add(time.Duration(i)*time.Minute))
		if err != nil || got != st.want {
			t.Errorf("%s: RevealHints(%d) = %d (%v), want %d", st.name, st.n, got, err, st.want)
		}
	}
	if _, err := s.RevealHints(ctx, "l1", "ex", 0, t0); err == nil {
		t.Error("RevealHints(0) succeeded; n must be 1 or more")
	}
	got, err := s.HintsShown(ctx, "l1")
	if err != nil || len(got) != 2 || got["ex"] != 2 || got["other"] != 1 {
		t.Errorf("HintsShown(l1) = %v (%v), want ex 2 and other 1", got, err)
	}
	if other, err := s.HintsShown(ctx, "l2"); err != nil || len(other) != 0 {
		t.Errorf("HintsShown(l2) = %v (%v): another learner's hints leaked", other, err)
	}
}

func testLearnersApart(t *testing.T, s Backend) {
	ctx := context.Background()
	if err := record(s, "l1", "a", "quiz", true, t0, progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a", Amount: 50, Reason: "Passed"},
		CompleteLesson: true, Missed: []progress.ReviewCard{card("a/w/1", t0)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "x", Report: "{}", At: t0}, nil); err != nil {
		t.Fatal(err)
	}
	// The same award key is another learner's to earn.
	if err := record(s, "l2", "b", "quiz", true, t0, progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a", Amount: 50, Reason: "Passed"}}); err != nil {
		t.Fatal(err)
	}
	if xp, _ := s.TotalXP(ctx, "l2"); xp != 50 {
		t.Errorf("l2 TotalXP = %d, want 50: award keys are per learner", xp)
	}
	// l2's own answer opened lesson b; l1's lesson a is not l2's.
	if p, _ := s.ProgressByLesson(ctx, "l2"); len(p) != 1 || p["b"].Completed() {
		t.Errorf("l2's lessons = %v, want only b, opened by l2's answer and not completed", p)
	}
	if _, total, _ := s.ReviewCounts(ctx, "l2", t0); total != 0 {
		t.Errorf("l2 sees %d of l1's reviews", total)
	}
	if codes, _ := s.LatestCodes(ctx, "l2"); len(codes) != 0 {
		t.Errorf("l2 sees l1's code: %v", codes)
	}
	if _, err := s.FindReview(ctx, "l2", "a/w/1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("l2 found l1's review card (%v)", err)
	}
}

func testLastAttempts(t *testing.T, s Backend) {
	ctx := context.Background()
	steps := []progress.Attempt{
		{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "classify", Score: 1, Total: 3, Answers: `{"i1":"c1"}`, At: t0},
		{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "classify", Score: 3, Total: 3, Passed: true, Answers: `{"i1":"c2"}`, At: t0.Add(time.Minute)},
		{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", Kind: "quiz", Score: 5, Total: 6, Passed: true, Answers: `{"q1":["o1"]}`, At: t0.Add(time.Minute)},
		// The same instant as the one before: the one recorded last wins.
		{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", Kind: "quiz", Score: 2, Total: 6, Answers: `{"q1":["o2"]}`, At: t0.Add(time.Minute)},
		{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "review", Score: 0, Total: 1, Answers: `{}`, At: t0.Add(time.Hour)},
		{LearnerID: "l2", LessonSlug: "a", WidgetID: "w", Kind: "classify", Score: 0, Total: 3, Answers: `{}`, At: t0.Add(time.Hour)},
	}
	for _, a := range steps {
		if _, err := s.RecordAttempt(ctx, a, progress.AttemptEffects{}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LastAttempts(ctx, "l1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]progress.Attempt{"a/w": steps[1], "a/quiz": steps[3]}
	if len(got) != len(want) {
		t.Fatalf("LastAttempts = %+v, want only %v (reviews and other learners left out)", got, want)
	}
	for k, w := range want {
		g := got[k]
		if g.Kind != w.Kind || g.Score != w.Score || g.Total != w.Total || g.Passed != w.Passed || g.Answers != w.Answers || !g.At.Equal(w.At) {
			t.Errorf("LastAttempts[%s] = %+v, want %+v", k, g, w)
		}
	}
	if none, err := s.LastAttempts(ctx, "nobody"); err != nil || len(none) != 0 {
		t.Errorf("LastAttempts(nobody) = %v, %v; want none", none, err)
	}
}

func testResultsShowOnce(t *testing.T, s Backend) {
	ctx := context.Background()
	keep := func(learner, lesson, part, body string, expires time.Time) {
		t.Helper()
		if err := s.KeepResult(ctx, progress.ResultToShow{LearnerID: learner, LessonSlug: lesson, PartID: part, Body: body, Expires: expires}, t0); err != nil {
			t.Fatal(err)
		}
	}
	keep("l1", "a", "w1", "first", t0.Add(time.Minute))
	keep("l1", "a", "quiz", "<p>second</p>", t0.Add(time.Minute)) // replaces the first
	keep("l1", "b", "ex", "other lesson", t0.Add(time.Minute))
	keep("l2", "a", "w1", "other learner", t0.Add(time.Minute))
	got, err := s.TakeResult(ctx, "l1", "a", t0.Add(30*time.Second))
	if err != nil || got.PartID != "quiz" || got.Body != "<p>second</p>" || !got.Expires.Equal(t0.Add(time.Minute)) {
		t.Errorf("TakeResult = %+v, %v; want the second result", got, err)
	}
	if _, err := s.TakeResult(ctx, "l1", "a", t0.Add(30*time.Second)); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a second TakeResult = %v, want ErrNotFound: a result shows once", err)
	}
	if _, err := s.TakeResult(ctx, "l1", "b", t0.Add(time.Minute)); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("TakeResult at its expiry = %v, want ErrNotFound", err)
	}
	if _, err := s.TakeResult(ctx, "l1", "b", t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("an expired result came back after it was taken: %v", err)
	}
	if got, err := s.TakeResult(ctx, "l2", "a", t0); err != nil || got.Body != "other learner" {
		t.Errorf("the other learner's result = %+v, %v", got, err)
	}
}

// testAwardSlots checks the numbered keys of an award with Slots: posted
// from many goroutines at once, for more cards than slots, exactly Slots
// awards are granted and each takes its own key.
func testAwardSlots(t *testing.T, s Backend) {
	ctx := context.Background()
	if _, err := s.EnsureLearner(ctx, "l1", t0); err != nil {
		t.Fatal(err)
	}
	const slots, posts = 3, 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	errs := make(chan error, posts)
	for i := range posts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := "a/w/" + string(rune('a'+i))
			if err := record(s, "l1", "a", "classify", false, t0, progress.AttemptEffects{Missed: []progress.ReviewCard{card(key, t0)}}); err != nil {
				errs <- err
				return
			}
			c, err := s.FindReview(ctx, "l1", key)
			if err != nil {
				errs <- err
				return
			}
			after := c
			after.Card = quiz.Schedule(c.Card, quiz.Good, t0)
			_, ok, err := s.AnswerReview(ctx, progress.ReviewAnswer{
				Attempt: progress.Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "review", Score: 1, Total: 1, Passed: true, Answers: "{}", At: t0},
				Before:  c, After: after,
				Award: &progress.Award{Key: "review:day:2026-11-29:", Amount: 2, Reason: "Review", Slots: slots},
			})
			if err != nil {
				errs <- err
				return
			}
			if ok {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if granted != slots {
		t.Errorf("%d awards granted of %d slots", granted, slots)
	}
	hist, err := s.XPHistory(ctx, "l1")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, e := range hist {
		keys[e.Key] = true
	}
	if len(hist) != slots || !keys["review:day:2026-11-29:1"] || !keys["review:day:2026-11-29:3"] {
		t.Errorf("ledger %+v, want the keys review:day:2026-11-29:1 to 3", hist)
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 2*slots {
		t.Errorf("TotalXP = %d, want %d", xp, 2*slots)
	}
}

// testAwardsKeepAttempt checks that every award is read back with the
// attempt that earned it: a widget check and an exercise submission.
func testAwardsKeepAttempt(t *testing.T, s Backend) {
	ctx := context.Background()
	at := t0.Add(time.Minute)
	if err := record(s, "l1", "a", "classify", true, at, progress.AttemptEffects{Award: &progress.Award{Key: "widget:a:w", Amount: 5, Reason: "w"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "x", Passed: true, Report: "{}", At: at.Add(time.Second)},
		&progress.Award{Key: "exercise:ex", Amount: 30, Reason: "Solved"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "run", Code: "x", Passed: true, Report: "{}", At: at},
		&progress.Award{Key: "exercise:other", Amount: 30, Reason: "Solved"}); err == nil {
		t.Error("a run (not a submission) was granted an award")
	}
	hist, err := s.XPHistory(ctx, "l1")
	if err != nil || len(hist) != 2 {
		t.Fatalf("XPHistory = %+v (%v), want 2 awards", hist, err)
	}
	if e := hist[0].Earned; e.Kind != "classify" || e.LessonSlug != "a" || !e.Passed || !e.At.Equal(at) {
		t.Errorf("widget award earned by %+v, want the passed classify attempt at %v", e, at)
	}
	if e := hist[1].Earned; e.Kind != "exercise" || e.WidgetID != "ex" || !e.Passed {
		t.Errorf("exercise award earned by %+v, want the passing submission", e)
	}
}

// testQuizAttempts checks that each quiz attempt is kept once under its
// number with its draw, and that a second post of a number writes nothing.
func testQuizAttempts(t *testing.T, s Backend) {
	ctx := context.Background()
	qa := func(n int, passed bool, at time.Time) *progress.QuizAttempt {
		return &progress.QuizAttempt{LearnerID: "l1", LessonSlug: "a", QuizID: "quiz", Number: n, Draw: `{"Slots":[1,0]}`, Passed: passed, StartedAt: at.Add(-time.Minute), FinishedAt: at}
	}
	for i, passed := range []bool{false, true} {
		if err := record(s, "l1", "a", "quiz", passed, t0.Add(time.Duration(i)*time.Hour), progress.AttemptEffects{Quiz: qa(i+1, passed, t0.Add(time.Duration(i)*time.Hour))}); err != nil {
			t.Fatal(err)
		}
	}
	err := record(s, "l1", "a", "quiz", true, t0, progress.AttemptEffects{Quiz: qa(2, true, t0), Award: &progress.Award{Key: "quiz:a:quiz", Amount: 50, Reason: "q"}})
	if !errors.Is(err, progress.ErrConflict) {
		t.Errorf("attempt 2 recorded twice: %v, want ErrConflict", err)
	}
	got, err := s.QuizAttempts(ctx, "l1", "a", "quiz")
	if err != nil || len(got) != 2 || got[0].Number != 1 || got[0].Passed || !got[1].Passed || got[1].Draw != `{"Slots":[1,0]}` ||
		!got[1].FinishedAt.Equal(t0.Add(time.Hour)) || !got[1].StartedAt.Equal(t0.Add(59*time.Minute)) {
		t.Fatalf("QuizAttempts = %+v (%v), want attempts 1 (failed) and 2 (passed)", got, err)
	}
	if counts, _ := s.AttemptCounts(ctx, "l1"); counts["a/quiz"] != 2 {
		t.Errorf("the refused post left an attempt: %d attempts, want 2", counts["a/quiz"])
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 0 {
		t.Errorf("the refused post granted %d XP", xp)
	}
	if other, _ := s.QuizAttempts(ctx, "l2", "a", "quiz"); len(other) != 0 {
		t.Errorf("another learner has %d attempts", len(other))
	}

	// A reset marks the attempts finished at or before it, of that quiz
	// and learner only; later attempts are not marked.
	if err := s.AddReset(ctx, progress.Reset{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", At: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReset(ctx, progress.Reset{LearnerID: "l1", LessonSlug: "b", WidgetID: "quiz", At: t0.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := record(s, "l1", "a", "quiz", false, t0.Add(3*time.Hour), progress.AttemptEffects{Quiz: qa(3, false, t0.Add(3*time.Hour))}); err != nil {
		t.Fatal(err)
	}
	got, err = s.QuizAttempts(ctx, "l1", "a", "quiz")
	if err != nil || len(got) != 3 || !got[0].Reset || !got[1].Reset || got[2].Reset {
		t.Errorf("after a reset at +1h the attempts are %+v (%v), want 1 and 2 reset, 3 not", got, err)
	}
	resets, err := s.Resets(ctx, "l1")
	if err != nil || len(resets) != 2 || resets[0].LessonSlug != "a" || !resets[0].At.Equal(t0.Add(time.Hour)) || resets[1].LessonSlug != "b" || resets[0].ClassID != 0 {
		t.Errorf("Resets = %+v (%v), want a's then b's, without a class", resets, err)
	}
	if other, _ := s.Resets(ctx, "l2"); len(other) != 0 {
		t.Errorf("another learner has resets: %+v", other)
	}
}
