package progress_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// TestLessonStatusFromAllParts walks a lesson's state from not started to
// completed, one part at a time, and checks what a revisit remembers.
func TestLessonStatusFromAllParts(t *testing.T) {
	s, clk := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	lesson, _ := s.Course().Lesson("two-ways-to-fail")
	status := func() progress.LessonStatus {
		t.Helper()
		sum, err := s.Summary(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return sum.LessonStatus(lesson)
	}
	var widgets []*lessons.Widget
	for _, seg := range lesson.Segments {
		if seg.Widget != nil {
			widgets = append(widgets, seg.Widget)
		}
	}
	if st := status(); st.State != progress.NotStarted || st.Done != 0 || st.Parts != len(widgets) {
		t.Fatalf("before anything: %+v, want not started with %d parts", st, len(widgets))
	}
	if err := s.OpenLesson(ctx, a, lesson.Slug); err != nil {
		t.Fatal(err)
	}
	if st := status(); st.State != progress.Opened {
		t.Fatalf("after opening: %+v, want opened", st)
	}
	var quizWidget *lessons.Widget
	done := 0
	for _, w := range widgets {
		switch {
		case w.Kind == quiz.KindQuiz:
			quizWidget = w
			continue
		case w.Exercise != nil:
			continue // solved in TestLessonWithExerciseNeedsItSolved
		}
		// A wrong check is a check: the try-it block is done.
		post := progress.WidgetPost{LessonSlug: lesson.Slug, WidgetID: w.ID, Answers: allWrong(w)}
		if _, err := s.CheckWidget(ctx, a, post); err != nil {
			t.Fatalf("check %s: %v", w.ID, err)
		}
		done++
		if st := status(); st.State != progress.InProgress || st.Done != done {
			t.Fatalf("after checking %s: %+v, want in progress with %d done", w.ID, st, done)
		}
	}
	if quizWidget == nil {
		t.Fatal("lesson 1 has no quiz")
	}
	sum, _ := s.Summary(ctx, a)
	first := widgets[0]
	last, ok := sum.Widgets[lesson.Slug+"/"+first.ID]
	if !ok || last.Passed || !last.At.Equal(clk.t) {
		t.Fatalf("the summary's last attempt at %s = %+v, want the failed check at %v", first.ID, last, clk.t)
	}
	kept, want := progress.KeptAnswers(first, last.Answers), allWrong(first)
	if len(want.Categories)+len(want.Hints) == 0 {
		t.Fatalf("%s: allWrong answered nothing", first.ID)
	}
	if diff := cmp.Diff(want, kept, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("KeptAnswers (-posted +kept):\n%s", diff)
	}
	clk.t = clk.t.Add(time.Hour)
	q := quizWidget.Value.(*quiz.Quiz)
	attempt := progress.NextQuizAttempt(a, sum, lesson.Slug, q.ID)
	draw := progress.QuizDraw(a, q, attempt)
	answers := progress.Answers{Choices: map[string][]string{}}
	for i := range q.Questions {
		drawn := q.Drawn(draw, i)
		slot := q.Questions[i].ID
		for _, o := range drawn.Options {
			if o.Correct {
				answers.Choices[slot] = append(answers.Choices[slot], o.ID)
			}
		}
		switch drawn.Kind {
		case quiz.QuestionClassify:
			answers.Choices[slot] = []string{drawn.Answer}
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				if k := drawn.Tool.Hints.Get(h); k != nil && k.Value != nil {
					answers.Choices[slot] = append(answers.Choices[slot], quiz.HintChoice(h, *k.Value))
				}
			}
		}
	}
	out, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: lesson.Slug, WidgetID: q.ID, Answers: answers, Attempt: attempt})
	if err != nil || !out.Passed {
		t.Fatalf("the quiz answered right: passed %v, %v", out.Passed, err)
	}
	// The quiz passed completes the lesson; the map still counts the
	// unsolved exercise.
	if st := status(); st.State != progress.Completed || st.Done != st.Parts-len(lesson.Exercises()) {
		t.Fatalf("after passing the quiz: %+v, want completed with only the exercise left", st)
	}
	sum, _ = s.Summary(ctx, a)
	for _, l := range s.Course().Lessons {
		want := progress.NotStarted
		if l == lesson {
			want = progress.Completed
		}
		if got := sum.LessonStatus(l).State; got != want {
			t.Errorf("%s is %q, want %q", l.Slug, got, want)
		}
	}
	if qs := sum.Quizzes[lesson.Slug]; !qs.Passed || qs.Attempts != 1 || qs.First != qs.Total || !qs.LastAt.Equal(clk.t) {
		t.Errorf("the summary's quiz record = %+v, want one passing attempt at %v", qs, clk.t)
	}
}

// TestLessonStatusWithoutTheQuiz checks that a solved exercise puts a
// lesson in progress (it used to stay "opened"), that only the quiz
// completes it, and that every part counts.
func TestLessonStatusWithoutTheQuiz(t *testing.T) {
	s, _ := newService(t)
	var lesson *lessons.Lesson
	for _, l := range s.Course().Lessons {
		if len(l.Exercises()) > 0 {
			lesson = l
			break
		}
	}
	if lesson == nil {
		t.Fatal("no lesson has an exercise")
	}
	sum := progress.Summary{
		Opened:    map[string]bool{lesson.Slug: true},
		Widgets:   map[string]progress.Attempt{},
		Quizzes:   map[string]progress.QuizScore{},
		Exercises: map[string]progress.ExerciseState{},
	}
	for _, ex := range lesson.Exercises() {
		sum.Exercises[ex.ID] = progress.ExerciseState{ExerciseID: ex.ID, Runs: 1, SolvedAt: time.Now()}
	}
	for _, seg := range lesson.Segments {
		if w := seg.Widget; w != nil && w.Exercise == nil && w.Kind != quiz.KindQuiz {
			sum.Widgets[lesson.Slug+"/"+w.ID] = progress.Attempt{WidgetID: w.ID}
		}
	}
	if st := sum.LessonStatus(lesson); st.State != progress.InProgress || st.Done != st.Parts-1 {
		t.Errorf("every part but the quiz done: %+v, want in progress with one part left", st)
	}
	sum.Quizzes[lesson.Slug] = progress.QuizScore{Passed: true, Attempts: 1}
	if st := sum.LessonStatus(lesson); st.State != progress.Completed || st.Done != st.Parts {
		t.Errorf("everything done: %+v, want completed", st)
	}
	if st := (progress.Summary{}).LessonStatus(lesson); st.State != progress.NotStarted || st.Done != 0 {
		t.Errorf("nothing done: %+v, want not started", st)
	}
}

// TestResultsShowOnce keeps a result and takes it back once.
func TestResultsShowOnce(t *testing.T) {
	s, clk := newService(t)
	ctx := context.Background()
	a := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	if err := s.KeepResult(ctx, a, "two-ways-to-fail", "quiz", "<p>5 of 6</p>"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.TakeResult(ctx, progress.Actor{ID: a.ID}, "two-ways-to-fail"); ok || err != nil {
		t.Errorf("an actor not yet known took a result (%v, %v)", ok, err)
	}
	r, ok, err := s.TakeResult(ctx, a, "two-ways-to-fail")
	if !ok || err != nil || r.PartID != "quiz" || r.Body != "<p>5 of 6</p>" {
		t.Fatalf("TakeResult = %+v, %v, %v", r, ok, err)
	}
	if _, ok, _ := s.TakeResult(ctx, a, "two-ways-to-fail"); ok {
		t.Error("a result showed twice")
	}
	if err := s.KeepResult(ctx, a, "two-ways-to-fail", "quiz", "late"); err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(progress.ResultTTL)
	if _, ok, _ := s.TakeResult(ctx, a, "two-ways-to-fail"); ok {
		t.Error("a result showed after it expired")
	}
}

// allWrong answers every item of a classify or annotate widget wrong.
func allWrong(w *lessons.Widget) progress.Answers {
	out := progress.Answers{Categories: map[string]string{}, Hints: map[string]map[quiz.Hint]bool{}}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, item := range x.Items {
			for _, c := range x.Categories {
				if c.ID != item.Answer {
					out.Categories[item.ID] = c.ID
					break
				}
			}
		}
	case *quiz.Annotate:
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				k := tool.Hints.Get(h)
				if out.Hints[tool.Name] == nil {
					out.Hints[tool.Name] = map[quiz.Hint]bool{}
				}
				out.Hints[tool.Name][h] = !(k != nil && k.Value != nil && *k.Value)
			}
		}
	}
	return out
}
