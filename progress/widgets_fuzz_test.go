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
	"learn/quiz"
	"learn/store"
)

// FuzzCheckWidget posts arbitrary answers to every widget of the built-in
// course, on a real database: an id and a value, as a classify item's
// category, an annotate tool's hint and a quiz question's choices.
// CheckWidget may not fail or panic, and keeps only what was posted and
// the widget offers.
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
		{"x", "a"}, {"lookup", "readOnlyHint"}, {"q1", "a"},
		{"q1", "readOnlyHint=true"}, {"", ""}, {"\x00", "\xff"},
	} {
		f.Add(uint16(0), seed[0], seed[1], 1)
		f.Add(uint16(len(widgets)-1), seed[0], seed[1], -5)
	}
	f.Fuzz(func(t *testing.T, which uint16, id, value string, attempt int) {
		w := widgets[int(which)%len(widgets)]
		answers := progress.Answers{
			Categories: map[string]string{id: value},
			Hints:      map[string]map[quiz.Hint]bool{id: {quiz.Hint(value): true}},
			Choices:    map[string][]string{id: {value, value + value}},
		}
		out, err := svc.CheckWidget(context.Background(), progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner},
			progress.WidgetPost{LessonSlug: w.slug, WidgetID: w.id, Answers: answers, Attempt: attempt, TimeZone: value})
		var pe *progress.Error
		if errors.As(err, &pe) && pe.Message != "" && (pe.Kind == progress.Invalid || pe.Kind == progress.Gone || pe.Kind == progress.TooMany) {
			return // an incomplete post, or a quiz attempt that is not open, refused with what is open
		}
		if err != nil {
			t.Fatalf("%s/%s: %v", w.slug, w.id, err)
		}
		if out.Score < 0 || out.Score > out.Total {
			t.Errorf("score %d of %d", out.Score, out.Total)
		}
		for k, v := range out.Kept.Categories {
			if k != id || v != value {
				t.Errorf("kept category %q = %q that was not posted", k, v)
			}
		}
		for k, hints := range out.Kept.Hints {
			for h := range hints {
				if k != id || string(h) != value {
					t.Errorf("kept hint %q.%s that was not posted", k, h)
				}
			}
		}
		for k, vs := range out.Kept.Choices {
			for _, v := range vs {
				if k != id || !slices.Contains(answers.Choices[id], v) {
					t.Errorf("kept choice %q = %q that was not posted", k, v)
				}
			}
		}
	})
}
