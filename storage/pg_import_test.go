package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"learn/progress"
)

// memSource is a source database held in memory: tables of rows in the
// form the SQLite backend exports them.
type memSource struct {
	tables map[string]memTable
}

type memTable struct {
	columns []string
	rows    [][]any
}

func (m memSource) Tables(ctx context.Context) ([]string, error) {
	var out []string
	for name := range m.tables {
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

func (m memSource) CountRows(ctx context.Context, table string) (int64, error) {
	return int64(len(m.tables[table].rows)), nil
}

func (m memSource) ExportRows(ctx context.Context, table string, fn func([]string, []any) error) error {
	t, ok := m.tables[table]
	if !ok {
		return fmt.Errorf("no table %s", table)
	}
	for _, r := range t.rows {
		if err := fn(t.columns, r); err != nil {
			return err
		}
	}
	return nil
}

const srcTime = "2026-11-29T10:00:00.123456789Z"

// oneLearner is a source with a learner, an award and a review card, in
// SQLite's types (text instants, integer booleans).
func oneLearner() memSource {
	return memSource{tables: map[string]memTable{
		"learners": {[]string{"id", "created_at", "time_zone"}, [][]any{{"l1", srcTime, "Europe/Paris"}}},
		"xp_awards": {[]string{"id", "learner_id", "award_key", "amount", "reason", "created_at"}, [][]any{
			{int64(7), "l1", "quiz:a", int64(50), "Passed", srcTime}}},
		"attempts": {[]string{"id", "learner_id", "lesson_slug", "widget_id", "kind", "score", "total", "passed", "answers", "created_at"}, [][]any{
			{int64(3), "l1", "a", "quiz", "quiz", int64(6), int64(6), int64(1), "{}", srcTime}}},
		"review_cards": {[]string{"learner_id", "item_key", "lesson_slug", "widget_id", "item_id", "state", "step", "stability",
			"difficulty", "due", "last_review", "reps", "lapses", "created_at"}, [][]any{
			{"l1", "a/w/1", "a", "w", "1", int64(1), int64(0), 2.5, int64(5), srcTime, nil, int64(0), int64(0), srcTime}}},
		"settings": {[]string{"name", "value"}, [][]any{{"cookie-hash-key", []byte{1, 2, 3}}}},
	}}
}

func testImport(t *testing.T, open func(t *testing.T) *DB) {
	ctx := context.Background()
	t.Run("copies and converts", func(t *testing.T) {
		s := open(t)
		counts, err := s.Import(ctx, oneLearner())
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, c := range counts {
			got[c.Table] = c.Rows
		}
		want := map[string]int64{"learners": 1, "xp_awards": 1, "attempts": 1, "review_cards": 1, "settings": 1}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("counts = %v, want %v", got, want)
		}
		at, _ := time.Parse(time.RFC3339Nano, srcTime)
		l, err := s.FindLearner(ctx, "l1")
		if err != nil || !l.CreatedAt.Equal(at) || l.TimeZone != "Europe/Paris" {
			t.Errorf("learner = %+v (%v), want created at %v to the nanosecond", l, err, at)
		}
		if q, _ := s.QuizScores(ctx, "l1"); !q["a"].Passed || q["a"].Best != 6 {
			t.Errorf("QuizScores = %+v, want a passed with 6", q)
		}
		if c, err := s.FindReview(ctx, "l1", "a/w/1"); err != nil || c.Card.Stability != 2.5 || c.Card.Difficulty != 5 || !c.Card.LastReview.IsZero() {
			t.Errorf("review card = %+v (%v)", c, err)
		}
		if key, err := s.Secret(ctx, "cookie-hash-key", 64); err != nil || string(key) != "\x01\x02\x03" {
			t.Errorf("the cookie key was not carried over: %v (%v)", key, err)
		}
		// New rows get ids past the copied ones, and the award stays once.
		granted, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: "l1", LessonSlug: "a", WidgetID: "quiz", Kind: "quiz",
			Score: 6, Total: 6, Passed: true, Answers: "{}", At: at}, progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a", Amount: 50, Reason: "Passed"}})
		if err != nil || granted {
			t.Errorf("after the import, RecordAttempt granted=%v (%v), want the copied award to hold its key", granted, err)
		}
		var maxID int64
		if err := s.row(ctx, "SELECT max(id) FROM attempts").Scan(&maxID); err != nil || maxID != 4 {
			t.Errorf("new attempt id = %d (%v), want 4", maxID, err)
		}
	})
	refusals := []struct {
		name string
		prep func(t *testing.T, s *DB)
		src  func() memSource
		want string
	}{
		{"a non-empty target", func(t *testing.T, s *DB) {
			if _, err := s.EnsureLearner(ctx, "already", time.Now()); err != nil {
				t.Fatal(err)
			}
		}, oneLearner, "not empty"},
		{"a table the schema lacks", nil, func() memSource {
			m := oneLearner()
			m.tables["gradebook"] = memTable{[]string{"id"}, [][]any{{"c1"}}}
			return m
		}, `table "gradebook"`},
		{"a column the schema lacks", nil, func() memSource {
			m := oneLearner()
			m.tables["settings"] = memTable{[]string{"name", "value", "colour"}, [][]any{{"k", []byte("v"), "red"}}}
			return m
		}, `column "colour"`},
		{"a time that does not parse", nil, func() memSource {
			m := oneLearner()
			m.tables["learners"] = memTable{[]string{"id", "created_at", "time_zone"}, [][]any{{"l1", "yesterday", "UTC"}}}
			return m
		}, `column created_at: "yesterday"`},
		{"a value of the wrong type", nil, func() memSource {
			m := oneLearner()
			m.tables["settings"] = memTable{[]string{"name", "value"}, [][]any{{"k", 3.5}}}
			return m
		}, "float64"},
	}
	for _, tc := range refusals {
		t.Run("refuses "+tc.name, func(t *testing.T) {
			s := open(t)
			if tc.prep != nil {
				tc.prep(t, s)
			}
			_, err := s.Import(ctx, tc.src())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Import = %v, want an error mentioning %s", err, tc.want)
			}
			// Nothing of the source was copied.
			if _, err := s.FindLearner(ctx, "l1"); err == nil {
				t.Error("a refused import left the source's learner behind")
			}
		})
	}
}

func TestParentsFirst(t *testing.T) {
	tables := map[string]map[string]column{"a": nil, "b": nil, "c": nil, "d": nil}
	order, err := parentsFirst(tables, map[string][]string{"a": {"c"}, "c": {"d", "c"}, "b": {"a"}})
	if err != nil || strings.Join(order, ",") != "d,c,a,b" {
		t.Errorf("order = %v (%v), want d,c,a,b", order, err)
	}
	if _, err := parentsFirst(tables, map[string][]string{"a": {"b"}, "b": {"a"}}); err == nil {
		t.Error("a cycle was ordered")
	}
}
