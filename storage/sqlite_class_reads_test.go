package storage

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

// TestClassSummariesBackfilled checks migration 0009 on rows written
// before it: first tries and failing cases of earlier activity are found.
func TestClassSummariesBackfilled(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	for _, q := range []string{
		"DROP TRIGGER attempts_first_try", "DROP TRIGGER submissions_failures", "DROP TRIGGER attempts_widget_pass", "DROP TABLE widget_passes",
		"DROP TABLE first_tries", "DROP TABLE submission_failures",
		"DELETE FROM schema_migrations WHERE version = 9",
		"INSERT INTO teachers (id, email, name, password_hash, created_at) VALUES (1, 't@x', 'T', 'h', '2026-11-29T10:00:00.000000000Z')",
		"INSERT INTO classes (id, teacher_id, name, created_at) VALUES (1, 1, 'C', '2026-11-29T10:00:00.000000000Z')",
		"INSERT INTO learners (id, created_at) VALUES ('l1', '2026-11-29T10:00:00.000000000Z')",
		"INSERT INTO class_members (class_id, learner_id, name, name_key, secret, secret_hash, joined_at) VALUES (1, 'l1', 'A', 'a', 's', 'h', '2026-11-29T10:00:00.000000000Z')",
		`INSERT INTO attempts (learner_id, lesson_slug, widget_id, kind, score, total, passed, answers, created_at) VALUES
			('l1', 'a', 'w', 'classify', 0, 1, 0, '{"i1":"x"}', '2026-11-29T10:00:00.000000000Z'),
			('l1', 'a', 'w', 'classify', 1, 1, 1, '{"i1":"y"}', '2026-11-29T10:01:00.000000000Z')`,
		`INSERT INTO submissions (learner_id, exercise_id, mode, code, passed, report, created_at) VALUES
			('l1', 'ex', 'submit', 'x', 0, '{"cases":[{"name":"one","verdict":"error"},{"name":"two","verdict":"passed"}]}', '2026-11-29T10:00:00.000000000Z'),
			('l1', 'ex', 'submit', 'x', 0, 'not json', '2026-11-29T10:00:00.000000000Z')`,
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s2, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ft, err := s2.ClassFirstTries(ctx, 1)
	if err != nil || len(ft.Answers) != 1 || ft.Answers[0].Answers != `{"i1":"x"}` {
		t.Errorf("first tries after the backfill = %+v (%v), want the first classify try only", ft.Answers, err)
	}
	act, err := s2.ClassActivity(ctx, 1)
	if err != nil || act.WidgetsPassed["l1"]["a"] != 1 {
		t.Errorf("widgets passed after the backfill = %v (%v), want one in lesson a", act.WidgetsPassed, err)
	}
	_, fails, err := s2.ClassExerciseStats(ctx, 1)
	if err != nil || len(fails) != 1 || fails[0].Case != "one" || fails[0].Verdict != "error" {
		t.Errorf("failing cases after the backfill = %+v (%v), want one/error", fails, err)
	}
}
