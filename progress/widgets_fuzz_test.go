package progress_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/store"
)

// FuzzCheckWidget posts arbitrary form fields to every widget of the
// built-in course, on a real database: CheckWidget may not fail or panic,
// and keeps only fields and values that were posted, never more than the
// widget offers.
func FuzzCheckWidget(f *testing.F) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		f.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(f.TempDir(), "learn.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	svc, err := progress.New(progress.Config{Course: course, Store: st, Now: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		f.Fatal(err)
	}
	type target struct{ slug, id string }
	var widgets []target
	for _, l := range course.Lessons {
		for _, seg := range l.Segments {
			if w := seg.Widget; w != nil && w.Exercise == nil {
				widgets = append(widgets, target{l.Slug, w.ID})
			}
		}
	}
	if len(widgets) == 0 {
		f.Fatal("the course has no widgets")
	}
	for _, seed := range [][2]string{
		{"item.x", "a"}, {"hint.lookup.readOnlyHint", "true"}, {"q.q1", "a"},
		{"q.q1.readOnlyHint", "true"}, {"", ""}, {"item.\x00", "\xff"},
	} {
		f.Add(uint16(0), seed[0], seed[1], 1)
		f.Add(uint16(len(widgets)-1), seed[0], seed[1], -5)
	}
	f.Fuzz(func(t *testing.T, which uint16, field, value string, attempt int) {
		w := widgets[int(which)%len(widgets)]
		answers := progress.Answers{field: {value, value + value}, "tz": {value}}
		out, err := svc.CheckWidget(context.Background(), progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner},
			progress.WidgetPost{LessonSlug: w.slug, WidgetID: w.id, Answers: answers, Attempt: attempt, TimeZone: value})
		var pe *progress.Error
		if errors.As(err, &pe) && pe.Kind == progress.Invalid && pe.Message != "" {
			return // an incomplete quiz, refused with what is open
		}
		if err != nil {
			t.Fatalf("%s/%s: %v", w.slug, w.id, err)
		}
		if out.Score < 0 || out.Score > out.Total {
			t.Errorf("score %d of %d", out.Score, out.Total)
		}
		for k, vs := range out.Kept {
			if k != field {
				t.Errorf("kept field %q that was not posted (posted %q)", k, field)
			}
			for _, v := range vs {
				if !slices.Contains(answers[field], v) {
					t.Errorf("kept value %q that was not posted", v)
				}
			}
		}
	})
}
