package progress_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/progress"
	"learn/quiz"
)

// quizOf returns the lesson's quiz.
func quizOf(t *testing.T, s *progress.Service, slug string) *quiz.Quiz {
	t.Helper()
	lesson, ok := s.Course().Lesson(slug)
	if !ok {
		t.Fatalf("no lesson %s", slug)
	}
	q, ok := lesson.Quiz()
	if !ok {
		t.Fatalf("lesson %s has no quiz", slug)
	}
	return q
}

// quizPost answers the quiz as attempt n draws it, right or wrong.
func quizPost(a progress.Actor, slug string, x *quiz.Quiz, n int, right bool) progress.WidgetPost {
	draw := progress.QuizDraw(a, x, n)
	form := progress.Answers{Choices: map[string][]string{}}
	for i := range x.Questions {
		q := x.Drawn(draw, i)
		field := x.Questions[i].ID
		switch q.Kind {
		case quiz.QuestionClassify:
			for _, c := range q.Categories {
				if (c.ID == q.Answer) == right {
					form.Choices[field] = []string{c.ID}
					break
				}
			}
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
					v := *k.Value
					if !right && q.Tool.Matters(h) {
						v = !v
					}
					form.Choices[field] = append(form.Choices[field], quiz.HintChoice(h, v))
				}
			}
		default:
			for _, o := range q.Options {
				if o.Correct == right {
					form.Choices[field] = append(form.Choices[field], o.ID)
					if !right {
						break
					}
				}
			}
		}
	}
	return progress.WidgetPost{LessonSlug: slug, WidgetID: x.ID, Attempt: n, Answers: form}
}

func kindOf(err error) progress.Kind {
	var pe *progress.Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return -1
}

func TestQuizAttemptIsTheServers(t *testing.T) {
	s, c := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	slug := s.Course().Lessons[0].Slug
	x := quizOf(t, s, slug)
	if _, err := s.CheckWidget(ctx, a, quizPost(a, slug, x, 1, false)); err != nil {
		t.Fatalf("first attempt: %v", err)
	}
	// Pinning the number keeps nothing: the same attempt again is over.
	out, err := s.CheckWidget(ctx, a, quizPost(a, slug, x, 1, false))
	if kindOf(err) != progress.Gone || out.Attempt != 2 || out.Quiz != nil || !strings.Contains(err.Error(), "attempt is over") {
		t.Fatalf("attempt 1 posted again: attempt %d, feedback %v, %v; want refused, showing attempt 2", out.Attempt, out.Quiz != nil, err)
	}
	for _, n := range []int{0, 3, 99, -1} {
		if _, err := s.CheckWidget(ctx, a, quizPost(a, slug, x, n, true)); kindOf(err) != progress.Gone {
			t.Errorf("attempt %d when 2 is open: %v, want refused", n, err)
		}
	}
	turn, err := s.QuizTurn(ctx, a, slug, x)
	if err != nil || turn.Next != 2 || turn.Failed != 1 {
		t.Fatalf("turn %+v (%v), want attempt 2 after one failure", turn, err)
	}
	// Every retry shows another version of every question that has one.
	d1, d2 := progress.QuizDraw(a, x, 1), turn.Draw
	for i, q := range x.Questions {
		if q.VariantCount() > 1 && d1.Variants[i] == d2.Variants[i] {
			t.Errorf("question %s shows version %d twice in a row", q.ID, d1.Variants[i])
		}
	}
	// Two more failures in a row: the next attempt waits 10 minutes.
	for n := 2; n <= 3; n++ {
		c.t = c.t.Add(time.Minute)
		if _, err := s.CheckWidget(ctx, a, quizPost(a, slug, x, n, false)); err != nil {
			t.Fatalf("attempt %d: %v", n, err)
		}
	}
	c.t = c.t.Add(9 * time.Minute)
	_, err = s.CheckWidget(ctx, a, quizPost(a, slug, x, 4, true))
	var pe *progress.Error
	if !errors.As(err, &pe) || pe.Kind != progress.TooMany || pe.RetryAfter != time.Minute || !strings.Contains(pe.Message, "opens at") {
		t.Fatalf("attempt 4 nine minutes after 3 failures: %v, want a wait of a minute more", err)
	}
	c.t = c.t.Add(time.Minute)
	out, err = s.CheckWidget(ctx, a, quizPost(a, slug, x, 4, true))
	if err != nil || !out.Passed {
		t.Fatalf("attempt 4 after the wait: %v, passed %v", err, out.Passed)
	}
	// Three failures before the pass: two fifths of the quiz's XP.
	if want := quiz.QuizPassXP(x.XPValue(), 3); out.Awarded != want {
		t.Errorf("pass after 3 failures earned %d XP, want %d", out.Awarded, want)
	}
}

func TestQuizAttemptPostedTwiceAtOnce(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "fedcba9876543210fedcba9876543210", Role: progress.RoleLearner, Known: true}
	slug := s.Course().Lessons[0].Slug
	x := quizOf(t, s, slug)
	var wg sync.WaitGroup
	kinds := make([]progress.Kind, 4)
	for i := range kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.CheckWidget(ctx, a, quizPost(a, slug, x, 1, false))
			kinds[i] = kindOf(err)
			if err == nil {
				kinds[i] = 100
			}
		}()
	}
	wg.Wait()
	graded := 0
	for _, k := range kinds {
		switch k {
		case 100:
			graded++
		case progress.Gone:
		default:
			t.Errorf("a doubled post failed with kind %d", k)
		}
	}
	sum, err := s.Summary(ctx, a)
	if err != nil || graded != 1 || sum.Attempts[slug+"/"+x.ID] != 1 {
		t.Errorf("%d posts graded, %d attempts recorded (%v); want 1 and 1", graded, sum.Attempts[slug+"/"+x.ID], err)
	}
	if !slices.Contains(kinds, progress.Gone) {
		t.Error("no doubled post was refused")
	}
}
