package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"learn/postgres"
	"learn/postgres/pgtest"
	"learn/progress"
	"learn/store"
)

// TestMigrateDBKeepsClasses moves a class from SQLite to PostgreSQL: the
// teacher, class, member and assignment arrive, and the dashboard's
// derived rows (first tries, widgets passed, failing cases) are rebuilt by
// the target as it copies attempts and submissions.
func TestMigrateDBKeepsClasses(t *testing.T) {
	ctx := context.Background()
	cluster := pgtest.Start(t)
	from := filepath.Join(t.TempDir(), "learn.db")
	st, err := store.Open(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: "t@school.example", Password: "long enough password"}, now)
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.CreateClass(ctx, progress.Class{TeacherID: tc.ID, Name: "Year 9", JoinCode: "ABCDEF", TimeZone: "UTC", CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	const l = "0123456789abcdef0123456789abcdef"
	steps := []error{
		st.AddMember(ctx, progress.Member{ClassID: c.ID, LearnerID: l, Name: "Blue Fox", NameKey: "blue fox", Secret: "a b c", SecretHash: "h", JoinedAt: now}),
		st.SetAssignment(ctx, progress.Assignment{ClassID: c.ID, LessonSlug: "a", Due: now.Add(time.Hour), AssignedAt: now}),
	}
	_, err = st.RecordAttempt(ctx, progress.Attempt{LearnerID: l, LessonSlug: "a", WidgetID: "w", Kind: "classify", Score: 1, Total: 1, Passed: true, Answers: `{"i":"x"}`, At: now}, progress.AttemptEffects{})
	steps = append(steps, err)
	_, err = st.RecordSubmission(ctx, progress.Submission{LearnerID: l, ExerciseID: "ex", Mode: "submit", Code: "x",
		Report: `{"cases":[{"name":"edge","verdict":"error"}],"passed":false}`, At: now}, nil)
	steps = append(steps, err)
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	to := cluster.NewDatabase(t)
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"migrate-db", "--from", from, "--to", to}, &stdout, &stderr); code != 0 {
		t.Fatalf("migrate-db exited %d: %s", code, &stderr)
	}
	pg, err := postgres.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if got, err := pg.FindClassByCode(ctx, "ABCDEF"); err != nil || got.Name != "Year 9" || got.TeacherID != tc.ID || got.MemberCount != 1 {
		t.Errorf("class on PostgreSQL = %+v (%v)", got, err)
	}
	if as, err := pg.Assignments(ctx, c.ID); err != nil || len(as) != 1 || !as[0].Due.Equal(now.Add(time.Hour)) {
		t.Errorf("assignments on PostgreSQL = %+v (%v)", as, err)
	}
	ft, err := pg.ClassFirstTries(ctx, c.ID)
	if err != nil || len(ft.Answers) != 1 || ft.Answers[0].Answers != `{"i":"x"}` {
		t.Errorf("first tries on PostgreSQL = %+v (%v), want the one classify try", ft, err)
	}
	act, err := pg.ClassActivity(ctx, c.ID)
	if err != nil || act.WidgetsPassed[l]["a"] != 1 {
		t.Errorf("widgets passed on PostgreSQL = %v (%v), want 1", act.WidgetsPassed, err)
	}
	if _, fails, err := pg.ClassExerciseStats(ctx, c.ID); err != nil || len(fails) != 1 || fails[0].Case != "edge" {
		t.Errorf("failing cases on PostgreSQL = %+v (%v), want edge", fails, err)
	}
	// A class created on PostgreSQL after the copy takes the next id.
	if c2, err := pg.CreateClass(ctx, progress.Class{TeacherID: tc.ID, Name: "Year 10", TimeZone: "UTC", CreatedAt: now}); err != nil || c2.ID <= c.ID {
		t.Errorf("a new class after the copy = %+v (%v), want an id past %d", c2, err, c.ID)
	}
}
