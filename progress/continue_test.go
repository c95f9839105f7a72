package progress

import (
	"testing"
	"time"

	"learn/lessons"
)

// TestResume picks where a learner continues: nowhere for a new visitor,
// the first unfinished part of the lesson last worked in, the next lesson
// with work left once that one is done, and "done" at the end.
func TestResume(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	l1, l2 := course.Lessons[0], course.Lessons[1]
	parts := func(l *lessons.Lesson) []*lessons.Widget {
		var out []*lessons.Widget
		for _, seg := range l.Segments {
			if seg.Widget != nil {
				out = append(out, seg.Widget)
			}
		}
		return out
	}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	// done marks every part of l finished at at.
	done := func(sum Summary, l *lessons.Lesson, at time.Time) {
		for _, w := range parts(l) {
			switch {
			case w.Exercise != nil:
				sum.Exercises[w.Exercise.ID] = ExerciseState{ExerciseID: w.Exercise.ID, Runs: 1, SolvedAt: at, LastAt: at, LastPassed: true}
			case w.Kind == "quiz":
				sum.Quizzes[l.Slug] = QuizScore{LessonSlug: l.Slug, Attempts: 1, Passed: true, LastAt: at}
			default:
				sum.Widgets[l.Slug+"/"+w.ID] = Attempt{LessonSlug: l.Slug, WidgetID: w.ID, At: at}
			}
		}
	}
	tests := []struct {
		name     string
		set      func(Summary)
		ok, all  bool
		lesson   *lessons.Lesson
		partWant *lessons.Widget
	}{
		{"new visitor", func(Summary) {}, false, false, nil, nil},
		{"opened lesson 2 only", func(s Summary) { s.OpenedAt[l2.Slug] = t0 }, true, false, l2, parts(l2)[0]},
		{"first part of lesson 1 done", func(s Summary) {
			s.OpenedAt[l1.Slug] = t0
			w := parts(l1)[0]
			s.Widgets[l1.Slug+"/"+w.ID] = Attempt{At: t0.Add(time.Minute)}
		}, true, false, l1, parts(l1)[1]},
		{"an exercise run counts as working in its lesson", func(s Summary) {
			s.OpenedAt[l1.Slug], s.OpenedAt[l2.Slug] = t0, t0.Add(time.Minute)
			ex := l1.Exercises()[0]
			s.Exercises[ex.ID] = ExerciseState{Runs: 1, Failures: 1, LastAt: t0.Add(2 * time.Minute)}
		}, true, false, l1, parts(l1)[0]},
		{"lesson 1 done leads to lesson 2", func(s Summary) {
			s.OpenedAt[l1.Slug] = t0
			done(s, l1, t0.Add(time.Minute))
		}, true, false, l2, parts(l2)[0]},
		{"the last lesson done leads back to the first with work left", func(s Summary) {
			last := course.Lessons[len(course.Lessons)-1]
			s.OpenedAt[l1.Slug], s.OpenedAt[last.Slug] = t0, t0.Add(time.Minute)
			done(s, last, t0.Add(2*time.Minute))
		}, true, false, l1, parts(l1)[0]},
		{"everything done", func(s Summary) {
			for i, l := range course.Lessons {
				s.OpenedAt[l.Slug] = t0
				done(s, l, t0.Add(time.Duration(i)*time.Minute))
			}
		}, true, true, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := newSummary()
			tt.set(sum)
			r, ok, all := sum.Resume(course)
			if ok != tt.ok || all != tt.all || r.Lesson != tt.lesson || r.Part != tt.partWant {
				t.Errorf("Resume = %v %v lesson %v part %v; want %v %v lesson %v part %v",
					ok, all, slugOf(r.Lesson), idOf(r.Part), tt.ok, tt.all, slugOf(tt.lesson), idOf(tt.partWant))
			}
		})
	}
}

func slugOf(l *lessons.Lesson) string {
	if l == nil {
		return "none"
	}
	return l.Slug
}

func idOf(w *lessons.Widget) string {
	if w == nil {
		return "none"
	}
	return w.ID
}
