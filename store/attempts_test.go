package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"learn/quiz"
)

func TestRecordAttemptAwardsOnceUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	const posts = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	grants := 0
	for range posts {
		wg.Go(func() {
			granted, err := s.RecordAttempt(ctx,
				Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", Kind: "quiz", Score: 6, Total: 6, Passed: true, Answers: "{}", At: t0},
				AttemptEffects{Award: &Award{Key: "quiz:a:quiz", Amount: 50, Reason: "Passed"}, CompleteLesson: true})
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
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 50 {
		t.Errorf("TotalXP = %d, want 50", xp)
	}
	if counts, err := s.AttemptCounts(ctx, "l1"); err != nil || counts["a/quiz"] != posts {
		t.Errorf("AttemptCounts = %v (%v), want a/quiz: %d", counts, err, posts)
	}
	p, _ := s.ProgressByLesson(ctx, "l1")
	if !p["a"].Completed() {
		t.Error("passing the quiz did not complete the lesson")
	}
	scores, err := s.QuizScores(ctx, "l1")
	if err != nil || scores["a"].Best != 6 || !scores["a"].Passed || scores["a"].Attempts != posts {
		t.Errorf("QuizScores = %+v (%v)", scores, err)
	}
	times, err := s.ActivityTimes(ctx, "l1")
	if err != nil || len(times) != posts || !times[0].Equal(t0) {
		t.Errorf("ActivityTimes = %d times (%v)", len(times), err)
	}
}

func TestReviewQueue(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	card := func(key string, due time.Time) ReviewCard {
		c := quiz.MissedCard(t0)
		c.Due = due
		return ReviewCard{Key: key, LessonSlug: "a", WidgetID: "w", ItemID: key, Card: c}
	}
	_, err := s.RecordAttempt(ctx,
		Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "classify", Score: 0, Total: 2, Answers: "{}", At: t0},
		AttemptEffects{Missed: []ReviewCard{card("a/w/1", t0), card("a/w/2", t0.Add(48*time.Hour))}})
	if err != nil {
		t.Fatal(err)
	}
	due, total, err := s.ReviewCounts(ctx, "l1", t0)
	if err != nil || due != 1 || total != 2 {
		t.Fatalf("ReviewCounts = %d due, %d total (%v), want 1 and 2", due, total, err)
	}
	// Missing the later item again makes it due no later than the new card.
	if _, err := s.RecordAttempt(ctx,
		Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "classify", Total: 2, Answers: "{}", At: t0},
		AttemptEffects{Missed: []ReviewCard{card("a/w/2", t0)}}); err != nil {
		t.Fatal(err)
	}
	cards, err := s.DueReviews(ctx, "l1", t0, 10)
	if err != nil || len(cards) != 2 {
		t.Fatalf("DueReviews = %d cards (%v), want 2", len(cards), err)
	}
	before := cards[0]
	after := before
	after.Card = quiz.Schedule(before.Card, quiz.RatingFor(true), t0)
	answer := ReviewAnswer{
		Attempt: Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "w", Kind: "review", Score: 1, Total: 1, Passed: true, Answers: "{}", At: t0},
		Before:  before, After: after,
		Award: &Award{Key: "review:" + before.Key + ":0", Amount: 2, Reason: "Review"},
	}
	for i, want := range []bool{true, false} {
		applied, granted, err := s.AnswerReview(ctx, answer)
		if err != nil || applied != want || granted != want {
			t.Errorf("answer %d: applied=%v granted=%v (%v), want %v", i+1, applied, granted, err, want)
		}
	}
	got, err := s.FindReview(ctx, "l1", before.Key)
	if err != nil || got.Card.Reps != after.Card.Reps || !got.Card.Due.Equal(after.Card.Due) {
		t.Errorf("stored card = %+v (%v), want %+v", got.Card, err, after.Card)
	}
	if _, err := s.FindReview(ctx, "l1", "nope"); err == nil {
		t.Error("FindReview of a missing key succeeded")
	}
}
