package store

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestClassQueryPlans checks that every class-wide read of the dashboard
// finds the class's members by index and each member's rows by index:
// no full scan of a table that grows with activity.
func TestClassQueryPlans(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	// Statistics as a real class would have them make the planner choose
	// as it would in use.
	if _, err := s.db.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	queries := map[string]struct {
		q    string
		args []any
	}{
		"lessons":   {classLessonsQuery, []any{1}},
		"quizzes":   {classQuizzesQuery, []any{1}},
		"widgets":   {classWidgetsQuery, []any{1}},
		"exercises": {classExercisesQuery, []any{1}},
		"xp":        {classXPQuery, []any{1}},
		"times":     {classTimesQuery, []any{1}},
		"weekly xp": {weeklyXPQuery, []any{"2026-01-01", 1}},
		"answers":   {classAnswersQuery, []any{1}},
		"submits":   {classSubmitsQuery, []any{1}},
		"failures":  {classFailuresQuery, []any{1}},
	}
	growing := regexp.MustCompile(`\bSCAN (attempts|submissions|xp_awards|lesson_progress|class_members|[a-z])\b`)
	for name, tc := range queries {
		rows, err := s.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+tc.q, tc.args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		t.Logf("%s:\n%s", name, text)
		for _, line := range plan {
			// The CTE's own rows and json_each's are not tables.
			if growing.MatchString(line) && !strings.Contains(line, "SCAN f") && !strings.Contains(line, "SCAN j") && !strings.Contains(line, "SCAN c VIRTUAL") {
				t.Errorf("%s scans a whole table: %q\nplan:\n%s", name, line, text)
			}
		}
		if !strings.Contains(text, "class_members") && !strings.Contains(text, "INDEX") {
			t.Errorf("%s uses no index:\n%s", name, text)
		}
	}
}
