package progress_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"learn/grading"
	"learn/lessons"
	"learn/progress"
	"learn/quiz"
	"learn/store"
)

// clock is a settable time source for the service.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newService(t *testing.T) (*progress.Service, *clock) {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	s, err := progress.New(progress.Config{Course: course, Store: st, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// classifyAnswers returns the right (or, with wrong, a wrong) answer to
// every item of a classify widget.
func classifyAnswers(t *testing.T, s *progress.Service, slug, id string, wrong bool) progress.Answers {
	t.Helper()
	lesson, _ := s.Course().Lesson(slug)
	w, ok := lesson.Widget(id)
	if !ok {
		t.Fatalf("no widget %s in %s", id, slug)
	}
	c := w.Value.(*quiz.Classify)
	out := progress.Answers{Categories: map[string]string{}}
	for _, item := range c.Items {
		answer := item.Answer
		if wrong {
			for _, cat := range c.Categories {
				if cat.ID != item.Answer {
					answer = cat.ID
					break
				}
			}
		}
		out.Categories[item.ID] = answer
	}
	return out
}

func TestCheckWidgetAwardsOnce(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	post := progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "which-channel",
		Answers: classifyAnswers(t, s, "two-ways-to-fail", "which-channel", false)}
	first, err := s.CheckWidget(ctx, a, post)
	if err != nil {
		t.Fatal(err)
	}
	if !first.Passed || first.Awarded != quiz.WidgetXP || first.Summary.XP != quiz.WidgetXP {
		t.Fatalf("first right check: passed %v, awarded %d, XP %d; want passed and %d XP", first.Passed, first.Awarded, first.Summary.XP, quiz.WidgetXP)
	}
	again, err := s.CheckWidget(ctx, a, post)
	if err != nil || again.Awarded != 0 || again.Summary.XP != quiz.WidgetXP {
		t.Errorf("second right check: awarded %d, XP %d (%v); want nothing more", again.Awarded, again.Summary.XP, err)
	}
	if again.Summary.Attempts["two-ways-to-fail/which-channel"] != 2 {
		t.Errorf("attempts = %v, want 2 for the widget", again.Summary.Attempts)
	}
}

func TestCheckWidgetKeepsOnlyOfferedChoices(t *testing.T) {
	s, _ := newService(t)
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Known: true}
	answers := classifyAnswers(t, s, "two-ways-to-fail", "which-channel", false)
	for item := range answers.Categories {
		answers.Categories[item] = strings.Repeat("x", 10_000)
		break
	}
	answers.Categories["not-an-item"] = "protocol"
	out, err := s.CheckWidget(context.Background(), a, progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "which-channel", Answers: answers})
	var pe *progress.Error
	if !errors.As(err, &pe) || pe.Kind != progress.Invalid || !strings.Contains(pe.Message, "not answered") {
		t.Fatalf("err = %v: a junk answer leaves its item unanswered, and the post must be refused as Invalid", err)
	}
	if out.Classify != nil || out.Awarded != 0 {
		t.Errorf("a refused post carries feedback or XP: %+v", out)
	}
	for item, v := range out.Kept.Categories {
		if len(v) > 100 {
			t.Errorf("kept %s = %d bytes of posted text; only offered choices may be kept", item, len(v))
		}
		if item == "not-an-item" {
			t.Error("kept an answer that names no item")
		}
	}
	if sum, _ := s.Summary(context.Background(), a); len(sum.Attempts) != 0 {
		t.Errorf("a refused post was saved as an attempt: %v", sum.Attempts)
	}
}

func TestMissedItemsComeBackOnceEach(t *testing.T) {
	s, clk := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Known: true}
	if _, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "which-channel",
		Answers: classifyAnswers(t, s, "two-ways-to-fail", "which-channel", true)}); err != nil {
		t.Fatal(err)
	}
	q, err := s.Reviews(ctx, a)
	if err != nil || q.Next == nil || q.Due == 0 {
		t.Fatalf("after a wrong check: queue %+v (%v), want due items", q, err)
	}
	item := q.Next
	post := progress.ReviewPost{Key: item.Key, Version: strconv.Itoa(item.Version), Choices: []string{item.Question.Answer}}
	out, err := s.AnswerReview(ctx, a, post)
	if err != nil || !out.Counted || !out.Feedback.Right || out.Awarded != quiz.ReviewXP {
		t.Fatalf("first right review: %+v (%v); want counted, right, %d XP", out, err, quiz.ReviewXP)
	}
	// Answering the same card again and again before it is due again earns
	// nothing, whatever version the form claims.
	for i := range 20 {
		post.Version = ""
		if i%2 == 0 {
			post.Version = strconv.Itoa(out.After.Reps)
		}
		again, err := s.AnswerReview(ctx, a, post)
		if err != nil {
			t.Fatal(err)
		}
		if again.Counted || again.Awarded != 0 {
			t.Fatalf("answer %d to a card not due: counted %v, awarded %d", i+2, again.Counted, again.Awarded)
		}
	}
	if sum, _ := s.Summary(ctx, a); sum.XP != quiz.ReviewXP {
		t.Errorf("XP = %d after 21 answers to one card, want %d", sum.XP, quiz.ReviewXP)
	}
	// Once due again, it earns again.
	clk.t = out.After.Due.Add(time.Second)
	post.Version = strconv.Itoa(out.After.Reps)
	later, err := s.AnswerReview(ctx, a, post)
	if err != nil || !later.Counted || later.Awarded != quiz.ReviewXP {
		t.Errorf("the due review: counted %v, awarded %d (%v); want %d XP", later.Counted, later.Awarded, err, quiz.ReviewXP)
	}
}

func TestUseCaseErrors(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Known: true}
	tests := []struct {
		name string
		do   func() error
		kind progress.Kind
	}{
		{"unknown lesson", func() error {
			_, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: "nope", WidgetID: "quiz"})
			return err
		}, progress.NotFound},
		{"unknown widget", func() error {
			_, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "nope"})
			return err
		}, progress.NotFound},
		{"an exercise is not a widget", func() error {
			_, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "report-a-failure"})
			return err
		}, progress.NotFound},
		{"unknown exercise", func() error {
			_, err := s.RunExercise(ctx, a, "", "nope", "print(1)", grading.Run)
			return err
		}, progress.NotFound},
		{"exercise of another lesson", func() error {
			_, err := s.RunExercise(ctx, a, "tool-annotations", "report-a-failure", "print(1)", grading.Run)
			return err
		}, progress.NotFound},
		{"no sandbox", func() error {
			_, err := s.RunExercise(ctx, a, "", "report-a-failure", "print(1)", grading.Submit)
			return err
		}, progress.Unavailable},
		{"review not queued", func() error {
			_, err := s.AnswerReview(ctx, a, progress.ReviewPost{Key: "two-ways-to-fail/quiz/nope"})
			return err
		}, progress.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			var pe *progress.Error
			if !errors.As(err, &pe) || pe.Kind != tt.kind || pe.Message == "" {
				t.Errorf("err = %v, want a *progress.Error of kind %d with a message", err, tt.kind)
			}
		})
	}
	if sum, _ := s.Summary(ctx, a); sum.XP != 0 || len(sum.Attempts) != 0 || len(sum.Codes) != 0 {
		t.Errorf("failed use cases wrote something: %+v", sum)
	}
}

func TestFirstVisitWritesNothing(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	visitor := progress.Actor{ID: "0123456789abcdef0123456789abcdef"}
	if err := s.OpenLesson(ctx, visitor, "two-ways-to-fail"); err != nil {
		t.Fatal(err)
	}
	known := visitor
	known.Known = true
	lesson, _ := s.Course().Lesson("two-ways-to-fail")
	state := func() progress.LessonState {
		sum, err := s.Summary(ctx, known)
		if err != nil {
			t.Fatal(err)
		}
		return sum.LessonStatus(lesson).State
	}
	if st := state(); st != progress.NotStarted {
		t.Errorf("a first visit opened the lesson: %q", st)
	}
	if err := s.OpenLesson(ctx, known, "two-ways-to-fail"); err != nil {
		t.Fatal(err)
	}
	if st := state(); st != progress.Opened {
		t.Errorf("state = %q, want the lesson opened", st)
	}
}
