package storage

import (
	"context"
	"sync"
	"testing"
	"time"

	"learn/lti"
	"learn/progress"
)

// testLTIScores runs the tests of the score outbox (lti.ScoreStore and
// the queueing in RecordAttempt and RecordSubmission) on one engine.
func testLTIScores(t *testing.T, open func(t *testing.T) *DB) {
	ctx := context.Background()
	now := time.Date(2026, 12, 3, 7, 0, 0, 123456789, time.UTC)
	const lesson = "two-ways-to-fail"
	// setup makes a learner launched from a class's resource link with a
	// line item.
	setup := func(t *testing.T) (*DB, lti.Platform, int64) {
		s := open(t)
		p, err := s.AddPlatform(ctx, lti.Platform{Issuer: "https://lms.example", ClientID: "c", AuthURL: "https://lms.example/auth",
			TokenURL: "https://lms.example/token", JWKSURL: "https://lms.example/jwks", DeploymentIDs: []string{"d"}, CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		teacher, err := s.CreateTeacher(ctx, progress.Teacher{Email: "t@lti.invalid", Name: "T", PasswordHash: "!lti", CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		class, err := s.CreateClass(ctx, progress.Class{TeacherID: teacher.ID, Name: "Course", TimeZone: "UTC", CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []string{"l1", "l2"} {
			if _, err := s.EnsureLearner(ctx, l, now); err != nil {
				t.Fatal(err)
			}
			if err := s.SaveLTILineItem(ctx, progress.LTILineItem{LearnerID: l, PlatformID: p.ID, ResourceLinkID: "link-1", LessonSlug: lesson,
				ClassID: class.ID, LineItem: "https://lms.example/lineitems/1", Subject: "sub-" + l, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
		}
		return s, p, class.ID
	}
	score := &progress.LMSScore{LessonSlug: lesson, Maximum: 60, AwardKeys: []string{"widget:" + lesson + ":w1", "quiz:" + lesson + ":q", "exercise:e1"}}
	widget := func(s *DB, learner, id string, at time.Time) bool {
		t.Helper()
		granted, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: learner, LessonSlug: lesson, WidgetID: id, Kind: "classify", Score: 1, Total: 1, Passed: true, Answers: "{}", At: at},
			progress.AttemptEffects{Award: &progress.Award{Key: "widget:" + lesson + ":" + id, Amount: 5, Reason: "r"}, Score: score})
		if err != nil {
			t.Fatal(err)
		}
		return granted
	}
	claim := func(s *DB, at time.Time, lease string) []lti.Score {
		t.Helper()
		got, err := s.ClaimScores(ctx, at, at.Add(lti.ScoreLease), lease, 10)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	t.Run("QueuedWithTheAward", func(t *testing.T) {
		s, p, classID := setup(t)
		if len(claim(s, now, "x")) != 0 {
			t.Fatal("an empty outbox gave a score")
		}
		widget(s, "l1", "w1", now)
		// An award outside the lesson's keys counts nothing.
		widget(s, "l1", "other", now.Add(time.Second))
		got := claim(s, now.Add(time.Second), "lease-1")
		if len(got) != 1 {
			t.Fatalf("claimed %d scores, want 1", len(got))
		}
		sc := got[0]
		if sc.LearnerID != "l1" || sc.PlatformID != p.ID || sc.UserID != "sub-l1" || sc.Given != 5 || sc.Maximum != 60 || sc.Completed ||
			!sc.At.Equal(now.Add(time.Second)) || sc.Lease != "lease-1" || sc.Attempts != 0 {
			t.Errorf("claimed %+v", sc)
		}
		// Leased: nobody else gets it.
		if again := claim(s, now.Add(2*time.Second), "lease-2"); len(again) != 0 {
			t.Errorf("a leased score was claimed again: %+v", again)
		}
		if err := s.FinishScore(ctx, sc, lti.ScoreResult{State: lti.ScoreSent, Status: 200, Answer: "200 OK", At: now.Add(2 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		states, err := s.ClassLTIScores(ctx, classID)
		if err != nil || len(states) != 1 || states[0].State != lti.ScoreSent || states[0].Attempts != 1 || states[0].Status != 200 || states[0].Given != 5 {
			t.Errorf("ClassLTIScores = %+v, %v", states, err)
		}
		if again := claim(s, now.Add(time.Hour), "lease-3"); len(again) != 0 {
			t.Errorf("a sent score was claimed again: %+v", again)
		}
		// A doubled post grants nothing and queues nothing.
		if widget(s, "l1", "w1", now.Add(time.Minute)) {
			t.Error("the award was granted twice")
		}
		if again := claim(s, now.Add(time.Hour), "lease-4"); len(again) != 0 {
			t.Errorf("a doubled post queued a score: %+v", again)
		}
	})

	t.Run("LinkQueuesTheMergedScore", func(t *testing.T) {
		// l1 is an LMS user's first learner with a line item and a widget
		// award, sent; "words" made 40 XP in the lesson with secret words
		// before. The link queues the merged score (45) at once.
		s, p, classID := setup(t)
		widget(s, "l1", "w1", now)
		sent := claim(s, now, "lease-1")
		if len(sent) != 1 {
			t.Fatalf("claimed %d scores, want 1", len(sent))
		}
		if err := s.FinishScore(ctx, sent[0], lti.ScoreResult{State: lti.ScoreSent, Status: 200, Answer: "200 OK", At: now}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnsureLearner(ctx, "words", now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: "words", LessonSlug: lesson, WidgetID: "q", Kind: "quiz", Score: 5, Total: 5, Passed: true, Answers: "{}", At: now.Add(-time.Hour)},
			progress.AttemptEffects{Award: &progress.Award{Key: "quiz:" + lesson + ":q", Amount: 40, Reason: "r"}, CompleteLesson: true}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateLTIUser(ctx, progress.LTIUser{Issuer: p.Issuer, Subject: "sub-l1", LearnerID: "l1", CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		linkedAt := now.Add(time.Minute)
		if err := s.LinkLTIUser(ctx, progress.LTILink{Issuer: p.Issuer, Subject: "sub-l1", LearnerID: "words", FromLearnerID: "l1", LinkedAt: linkedAt,
			Scores: []progress.LMSScore{*score}}); err != nil {
			t.Fatal(err)
		}
		got := claim(s, linkedAt, "lease-2")
		if len(got) != 1 || got[0].LearnerID != "words" || got[0].Given != 45 || !got[0].Completed || !got[0].At.Equal(linkedAt) || got[0].UserID != "sub-l1" {
			t.Fatalf("after the link, claimed %+v; want the merged score 45 of the linked learner, completed, at the link", got)
		}
		states, err := s.ClassLTIScores(ctx, classID)
		if err != nil || len(states) != 1 || states[0].LearnerID != "words" {
			t.Errorf("ClassLTIScores after the link = %+v, %v", states, err)
		}
	})

	t.Run("CompletionAndSubmission", func(t *testing.T) {
		s, _, _ := setup(t)
		_, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: "l2", LessonSlug: lesson, WidgetID: "q", Kind: "quiz", Score: 5, Total: 5, Passed: true, Answers: "{}", At: now},
			progress.AttemptEffects{Award: &progress.Award{Key: "quiz:" + lesson + ":q", Amount: 40, Reason: "r"}, CompleteLesson: true, Score: score})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l2", ExerciseID: "e1", Mode: "submit", Code: "x", Passed: true, Report: "{}",
			At: now.Add(time.Second), Score: score}, &progress.Award{Key: "exercise:e1", Amount: 15, Reason: "r"}); err != nil {
			t.Fatal(err)
		}
		got := claim(s, now.Add(time.Second), "l")
		if len(got) != 1 || got[0].Given != 55 || !got[0].Completed || !got[0].At.Equal(now.Add(time.Second)) {
			t.Errorf("claimed %+v; want 55 XP, completed, at the submission", got)
		}
	})

	t.Run("NewerWhileSending", func(t *testing.T) {
		s, _, classID := setup(t)
		widget(s, "l1", "w1", now)
		sending := claim(s, now, "lease-1")
		if len(sending) != 1 {
			t.Fatalf("claimed %d", len(sending))
		}
		// A newer score arrives while the older is in flight: it is not
		// claimed before the older one's send ends (no overtaking) …
		if _, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: "l1", LessonSlug: lesson, WidgetID: "q", Kind: "quiz", Score: 1, Total: 1, Passed: true, Answers: "{}", At: now.Add(time.Second)},
			progress.AttemptEffects{Award: &progress.Award{Key: "quiz:" + lesson + ":q", Amount: 40, Reason: "r"}, CompleteLesson: true, Score: score}); err != nil {
			t.Fatal(err)
		}
		if got := claim(s, now.Add(2*time.Second), "lease-2"); len(got) != 0 {
			t.Fatalf("the newer score was claimed while the older was in flight: %+v", got)
		}
		// … and the older one's success does not mark the newer sent.
		if err := s.FinishScore(ctx, sending[0], lti.ScoreResult{State: lti.ScoreSent, Status: 200, At: now.Add(2 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		next := claim(s, now.Add(2*time.Second), "lease-3")
		if len(next) != 1 || next[0].Given != 45 || !next[0].Completed || !next[0].At.Equal(now.Add(time.Second)) {
			t.Fatalf("after the older send: %+v; want the newer score", next)
		}
		// An older score (a clock behind, another server) never replaces
		// the newer one.
		widget(s, "l1", "w2", now.Add(-time.Minute))
		if err := s.FinishScore(ctx, next[0], lti.ScoreResult{State: lti.ScoreSent, Status: 200, At: now.Add(3 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		states, err := s.ClassLTIScores(ctx, classID)
		if err != nil || len(states) != 1 || states[0].State != lti.ScoreSent || !states[0].At.Equal(now.Add(time.Second)) {
			t.Errorf("ClassLTIScores = %+v, %v; want the newer score, sent", states, err)
		}
	})

	t.Run("BackoffAndFailure", func(t *testing.T) {
		s, _, classID := setup(t)
		widget(s, "l1", "w1", now)
		sc := claim(s, now, "a")[0]
		if err := s.FinishScore(ctx, sc, lti.ScoreResult{State: lti.ScorePending, NextTry: now.Add(4 * time.Second), Status: 503, Answer: "down\xff", At: now}); err != nil {
			t.Fatal(err)
		}
		if got := claim(s, now.Add(3*time.Second), "b"); len(got) != 0 {
			t.Fatalf("claimed before its next try: %+v", got)
		}
		sc = claim(s, now.Add(4*time.Second), "c")[0]
		if sc.Attempts != 1 {
			t.Errorf("attempts = %d, want 1", sc.Attempts)
		}
		if err := s.FinishScore(ctx, sc, lti.ScoreResult{State: lti.ScoreFailed, Status: 400, Answer: "bad score", At: now.Add(4 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		if got := claim(s, now.Add(time.Hour), "d"); len(got) != 0 {
			t.Fatalf("a failed score was claimed: %+v", got)
		}
		states, _ := s.ClassLTIScores(ctx, classID)
		if len(states) != 1 || states[0].State != lti.ScoreFailed || states[0].Status != 400 || states[0].Answer != "bad score" || states[0].Attempts != 2 {
			t.Errorf("ClassLTIScores = %+v; want failed with the LMS's answer", states)
		}
		// The learner's next score is tried again.
		widget(s, "l1", "w2", now.Add(5*time.Second))
		if got := claim(s, now.Add(5*time.Second), "e"); len(got) != 1 || got[0].Given != 5 || got[0].Attempts != 0 {
			t.Errorf("after a new score: %+v", got)
		}
	})

	t.Run("ExpiredLeaseIsClaimedAgain", func(t *testing.T) {
		s, _, _ := setup(t)
		widget(s, "l1", "w1", now)
		first := claim(s, now, "dead-server")
		if len(first) != 1 {
			t.Fatal("nothing claimed")
		}
		// The server that claimed it was killed: once its lease ends,
		// another sends it (at least once).
		again := claim(s, now.Add(lti.ScoreLease), "alive")
		if len(again) != 1 || again[0].ID != first[0].ID {
			t.Fatalf("after the lease: %+v", again)
		}
		// The dead server's late finish changes nothing.
		if err := s.FinishScore(ctx, first[0], lti.ScoreResult{State: lti.ScoreFailed, Status: 400, At: now}); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishScore(ctx, again[0], lti.ScoreResult{State: lti.ScoreSent, Status: 200, At: now}); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("ConcurrentClaims", func(t *testing.T) {
		s, _, _ := setup(t)
		widget(s, "l1", "w1", now)
		widget(s, "l2", "w1", now)
		var mu sync.Mutex
		seen := map[int64]int{}
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				got, err := s.ClaimScores(ctx, now, now.Add(time.Minute), "lease-"+string(rune('a'+i)), 10)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				for _, sc := range got {
					seen[sc.ID]++
				}
			})
		}
		wg.Wait()
		if len(seen) != 2 {
			t.Errorf("claimed %v; want both scores", seen)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("score %d was claimed %d times", id, n)
			}
		}
	})
}
