package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"learn/progress"
)

func teacher(t *testing.T, s progress.Store, email string) progress.Teacher {
	t.Helper()
	tc, err := s.CreateTeacher(context.Background(), progress.Teacher{Email: email, Name: "T " + email, PasswordHash: "h", CreatedAt: t0})
	if err != nil {
		t.Fatalf("CreateTeacher(%s): %v", email, err)
	}
	return tc
}

func class(t *testing.T, s progress.Store, teacherID int64, name, code string) progress.Class {
	t.Helper()
	c, err := s.CreateClass(context.Background(), progress.Class{TeacherID: teacherID, Name: name, JoinCode: code, TimeZone: "UTC", CreatedAt: t0})
	if err != nil {
		t.Fatalf("CreateClass(%s): %v", name, err)
	}
	return c
}

func member(t *testing.T, s progress.Store, classID int64, learner, name string) {
	t.Helper()
	if err := s.AddMember(context.Background(), progress.Member{ClassID: classID, LearnerID: learner, Name: name, NameKey: name,
		Secret: "a b c", SecretHash: "hash-" + name, JoinedAt: t0}); err != nil {
		t.Fatalf("AddMember(%s): %v", name, err)
	}
}

func testTeachers(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	if a.ID == 0 || !a.CreatedAt.Equal(t0) {
		t.Errorf("created teacher = %+v, want an id and the creation time", a)
	}
	if _, err := s.CreateTeacher(ctx, progress.Teacher{Email: "a@school.example", Name: "again", PasswordHash: "h", CreatedAt: t0}); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("a second teacher with the same e-mail: %v, want ErrConflict", err)
	}
	b := teacher(t, s, "b@school.example")
	if got, err := s.FindTeacherByEmail(ctx, "b@school.example"); err != nil || got.ID != b.ID || got.PasswordHash != "h" {
		t.Errorf("FindTeacherByEmail = %+v (%v)", got, err)
	}
	if _, err := s.FindTeacher(ctx, 999); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindTeacher(unknown) = %v, want ErrNotFound", err)
	}
	class(t, s, a.ID, "A's class", "AAAAAA")
	list, err := s.ListTeachers(ctx)
	if err != nil || len(list) != 2 || list[0].Email != "a@school.example" || list[0].ClassCount != 1 || list[1].ClassCount != 0 {
		t.Errorf("ListTeachers = %+v (%v), want a (1 class) then b (0)", list, err)
	}
	if err := s.DeleteTeacher(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTeacher(ctx, a.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("deleting a deleted teacher: %v, want ErrNotFound", err)
	}
	if cs, err := s.TeacherClasses(ctx, a.ID); err != nil || len(cs) != 0 {
		t.Errorf("a deleted teacher's classes = %v (%v), want none", cs, err)
	}
	if _, err := s.FindClassByCode(ctx, "AAAAAA"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a deleted teacher's class is still found by code (%v)", err)
	}
}

func testSessions(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	live := progress.Session{TokenHash: "live", TeacherID: a.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	for _, sess := range []progress.Session{live, {TokenHash: "other", TeacherID: a.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}} {
		if err := s.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
	}
	got, tc, err := s.FindSession(ctx, "live", t0.Add(time.Minute))
	if err != nil || got.TeacherID != a.ID || tc.Email != a.Email || !got.ExpiresAt.Equal(live.ExpiresAt) {
		t.Fatalf("FindSession = %+v, %+v (%v)", got, tc, err)
	}
	if _, _, err := s.FindSession(ctx, "live", t0.Add(time.Hour)); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("an expired session was found (%v)", err)
	}
	if _, _, err := s.FindSession(ctx, "nope", t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("an unknown session was found (%v)", err)
	}
	if err := s.DeleteSession(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.FindSession(ctx, "other", t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a deleted session was found (%v)", err)
	}
	if err := s.DeleteSession(ctx, "other"); err != nil {
		t.Errorf("deleting a missing session: %v, want nil", err)
	}
	if err := s.SetTeacherPassword(ctx, a.ID, "new-hash"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.FindSession(ctx, "live", t0); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a session outlived a password change (%v)", err)
	}
	if tc, _ := s.FindTeacher(ctx, a.ID); tc.PasswordHash != "new-hash" {
		t.Errorf("password hash = %q, want new-hash", tc.PasswordHash)
	}
	if err := s.SetTeacherPassword(ctx, 999, "x"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetTeacherPassword(unknown) = %v, want ErrNotFound", err)
	}
}

func testClasses(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	b := teacher(t, s, "b@school.example")
	c1 := class(t, s, a.ID, "Year 9", "ABCDEF")
	c2 := class(t, s, a.ID, "Year 10", "")
	class(t, s, b.ID, "B's", "GHJKMN")
	if c1.ID == 0 || c1.JoinCode != "ABCDEF" || c1.TimeZone != "UTC" || c1.Archived() || c1.MemberCount != 0 {
		t.Errorf("created class = %+v", c1)
	}
	if got, err := s.FindClass(ctx, c2.ID); err != nil || got.JoinCode != "" || got.Name != "Year 10" {
		t.Errorf("FindClass = %+v (%v), want Year 10 with no code", got, err)
	}
	if _, err := s.FindClass(ctx, 999); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindClass(unknown) = %v, want ErrNotFound", err)
	}
	c1.Name, c1.TimeZone, c1.Leaderboard, c1.ArchivedAt = "Year 9 blue", "Europe/Paris", true, t0.Add(time.Hour)
	if err := s.UpdateClass(ctx, c1); err != nil {
		t.Fatal(err)
	}
	got, err := s.FindClass(ctx, c1.ID)
	if err != nil || got.Name != "Year 9 blue" || got.TimeZone != "Europe/Paris" || !got.Leaderboard || !got.ArchivedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("after UpdateClass: %+v (%v)", got, err)
	}
	list, err := s.TeacherClasses(ctx, a.ID)
	if err != nil || len(list) != 2 || list[0].ID != c2.ID || list[1].ID != c1.ID {
		t.Errorf("TeacherClasses = %+v (%v), want the active Year 10 before the archived one", list, err)
	}
	if err := s.UpdateClass(ctx, progress.Class{ID: 999, Name: "x", TimeZone: "UTC"}); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("UpdateClass(unknown) = %v, want ErrNotFound", err)
	}
	member(t, s, c2.ID, "l1", "amber")
	if err := s.SetAssignment(ctx, progress.Assignment{ClassID: c2.ID, LessonSlug: "a", AssignedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteClass(ctx, c2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindClass(ctx, c2.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a deleted class was found (%v)", err)
	}
	if ms, _ := s.LearnerClasses(ctx, "l1"); len(ms) != 0 {
		t.Errorf("a deleted class's membership stayed: %+v", ms)
	}
	if _, err := s.FindLearner(ctx, "l1"); err != nil {
		t.Errorf("deleting a class deleted its learner (%v)", err)
	}
	if err := s.DeleteClass(ctx, c2.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("DeleteClass twice = %v, want ErrNotFound", err)
	}
}

func testJoinCodes(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c1 := class(t, s, a.ID, "one", "ABCDEF")
	if _, err := s.CreateClass(ctx, progress.Class{TeacherID: a.ID, Name: "two", JoinCode: "ABCDEF", TimeZone: "UTC", CreatedAt: t0}); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("a second active class with the same code: %v, want ErrConflict", err)
	}
	c2 := class(t, s, a.ID, "two", "")
	c2.JoinCode = "ABCDEF"
	if err := s.UpdateClass(ctx, c2); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("taking an active class's code: %v, want ErrConflict", err)
	}
	if got, err := s.FindClassByCode(ctx, "ABCDEF"); err != nil || got.ID != c1.ID {
		t.Errorf("FindClassByCode = %+v (%v), want class one", got, err)
	}
	if _, err := s.FindClassByCode(ctx, ""); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("an empty code found a class (%v)", err)
	}
	c1.ArchivedAt = t0
	if err := s.UpdateClass(ctx, c1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindClassByCode(ctx, "ABCDEF"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("an archived class was found by its code (%v)", err)
	}
	if err := s.UpdateClass(ctx, c2); err != nil {
		t.Errorf("an archived class's code is not free again: %v", err)
	}
}

func testMembers(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	other := class(t, s, a.ID, "two", "GHJKMN")
	member(t, s, c.ID, "l2", "zinc")
	member(t, s, c.ID, "l1", "amber")
	member(t, s, other.ID, "l1", "amber")
	if err := s.AddMember(ctx, progress.Member{ClassID: c.ID, LearnerID: "l3", Name: "Amber", NameKey: "amber", Secret: "x", SecretHash: "y", JoinedAt: t0}); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("a taken name: %v, want ErrConflict", err)
	}
	if err := s.AddMember(ctx, progress.Member{ClassID: c.ID, LearnerID: "l1", Name: "Other", NameKey: "other", Secret: "x", SecretHash: "y", JoinedAt: t0}); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("joining twice: %v, want ErrConflict", err)
	}
	if _, err := s.FindLearner(ctx, "l2"); err != nil {
		t.Errorf("AddMember did not create the learner: %v", err)
	}
	if err := s.SetTimeZone(ctx, "l1", "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Members(ctx, c.ID)
	if err != nil || len(ms) != 2 || ms[0].Name != "amber" || ms[1].Name != "zinc" || ms[0].Secret != "a b c" || !ms[0].JoinedAt.Equal(t0) ||
		ms[0].TimeZone != "Asia/Tokyo" || ms[1].TimeZone != "UTC" {
		t.Errorf("Members = %+v (%v), want amber then zinc", ms, err)
	}
	if got, err := s.FindClass(ctx, c.ID); err != nil || got.MemberCount != 2 {
		t.Errorf("MemberCount = %d (%v), want 2", got.MemberCount, err)
	}
	if m, err := s.FindMemberByName(ctx, c.ID, "zinc"); err != nil || m.LearnerID != "l2" || m.SecretHash != "hash-zinc" {
		t.Errorf("FindMemberByName = %+v (%v)", m, err)
	}
	if _, err := s.FindMemberByName(ctx, c.ID, "nobody"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindMemberByName(unknown) = %v, want ErrNotFound", err)
	}
	if err := s.SetMemberSecret(ctx, c.ID, "l1", "new words here", "new-hash"); err != nil {
		t.Fatal(err)
	}
	if m, err := s.FindMember(ctx, c.ID, "l1"); err != nil || m.Secret != "new words here" || m.SecretHash != "new-hash" {
		t.Errorf("after SetMemberSecret: %+v (%v)", m, err)
	}
	if err := s.SetMemberSecret(ctx, c.ID, "l9", "x", "y"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetMemberSecret(not a member) = %v, want ErrNotFound", err)
	}
	lc, err := s.LearnerClasses(ctx, "l1")
	if err != nil || len(lc) != 2 || lc[0].Class.Name != "one" || lc[0].TeacherName != a.Name || lc[0].Member.Name != "amber" {
		t.Errorf("LearnerClasses = %+v (%v), want one and two taught by %s", lc, err, a.Name)
	}
	other.ArchivedAt = t0
	if err := s.UpdateClass(ctx, other); err != nil {
		t.Fatal(err)
	}
	if lc, _ := s.LearnerClasses(ctx, "l1"); len(lc) != 1 {
		t.Errorf("LearnerClasses lists an archived class: %+v", lc)
	}
	if err := s.RemoveMember(ctx, c.ID, "l1"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveMember(ctx, c.ID, "l1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("RemoveMember twice = %v, want ErrNotFound", err)
	}
	if _, err := s.FindMember(ctx, c.ID, "l1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a removed member was found (%v)", err)
	}
}

func testAssignments(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	due := t0.Add(48 * time.Hour)
	for _, as := range []progress.Assignment{
		{ClassID: c.ID, LessonSlug: "b", Due: due, AssignedAt: t0},
		{ClassID: c.ID, LessonSlug: "a", AssignedAt: t0.Add(time.Minute)},
	} {
		if err := s.SetAssignment(ctx, as); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetAssignment(ctx, progress.Assignment{ClassID: c.ID, LessonSlug: "b", AssignedAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Assignments(ctx, c.ID)
	if err != nil || len(got) != 2 || got[0].LessonSlug != "b" || !got[0].Due.IsZero() || !got[0].AssignedAt.Equal(t0) || got[1].LessonSlug != "a" {
		t.Errorf("Assignments = %+v (%v), want b (due removed, first assigned at t0) then a", got, err)
	}
	if err := s.SetAssignment(ctx, progress.Assignment{ClassID: c.ID, LessonSlug: "a", Due: due, AssignedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAssignment(ctx, c.ID, "b"); err != nil {
		t.Fatal(err)
	}
	got, err = s.Assignments(ctx, c.ID)
	if err != nil || len(got) != 1 || got[0].LessonSlug != "a" || !got[0].Due.Equal(due) {
		t.Errorf("after changes: %+v (%v), want only a, due %v", got, err, due)
	}
}

func testClassActivity(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	member(t, s, c.ID, "l2", "basil")
	// An outsider's activity never shows.
	if err := record(s, "out", "a", "quiz", true, t0, progress.AttemptEffects{Award: &progress.Award{Key: "quiz:a", Amount: 50, Reason: "x"}, CompleteLesson: true}); err != nil {
		t.Fatal(err)
	}
	quizAt := func(learner string, score int, at time.Time, fx progress.AttemptEffects) {
		t.Helper()
		if _, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: learner, LessonSlug: "a", WidgetID: "quiz", Kind: "quiz",
			Score: score, Total: 6, Passed: score >= 5, Answers: "{}", At: at}, fx); err != nil {
			t.Fatal(err)
		}
	}
	quizAt("l1", 3, t0, progress.AttemptEffects{})
	quizAt("l1", 6, t0.Add(time.Minute), progress.AttemptEffects{CompleteLesson: true, Award: &progress.Award{Key: "quiz:a", Amount: 50, Reason: "Passed"}})
	if err := record(s, "l1", "a", "classify", true, t0.Add(2*time.Minute), progress.AttemptEffects{Award: &progress.Award{Key: "w", Amount: 5, Reason: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := record(s, "l1", "a", "classify", true, t0.Add(3*time.Minute), progress.AttemptEffects{}); err != nil {
		t.Fatal(err)
	}
	if err := record(s, "l2", "a", "annotate", false, t0.Add(24*time.Hour), progress.AttemptEffects{}); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkLessonOpened(ctx, "l2", "b", t0); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []progress.Submission{
		{LearnerID: "l2", ExerciseID: "ex", Mode: "submit", Code: "x", Passed: false, Report: "{}", At: t0.Add(time.Hour)},
		{LearnerID: "l2", ExerciseID: "ex", Mode: "submit", Code: "y", Passed: true, Report: "{}", At: t0.Add(2 * time.Hour)},
	} {
		if _, err := s.RecordSubmission(ctx, sub, nil); err != nil {
			t.Fatal(err)
		}
	}
	act, err := s.ClassActivity(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := act.XP["out"]; ok {
		t.Errorf("an outsider's XP is in the class's activity")
	}
	if act.XP["l1"] != 55 || act.XP["l2"] != 0 {
		t.Errorf("XP = %v, want l1 55, l2 none", act.XP)
	}
	q := act.Quizzes["l1"]["a"]
	if q.First != 3 || q.Best != 6 || q.Attempts != 2 || !q.Passed || q.Total != 6 {
		t.Errorf("l1's quiz = %+v, want first 3, best 6, 2 attempts, passed", q)
	}
	if !act.Lessons["l1"]["a"].Completed() || act.Lessons["l2"]["b"].Completed() || act.Lessons["l2"]["b"].OpenedAt.IsZero() {
		t.Errorf("lessons = %+v", act.Lessons)
	}
	if act.WidgetsPassed["l1"]["a"] != 1 || act.WidgetsPassed["l2"]["a"] != 0 {
		t.Errorf("WidgetsPassed = %v, want l1 one widget (checked right twice), l2 none", act.WidgetsPassed)
	}
	ex := act.Exercises["l2"]["ex"]
	if ex.Runs != 2 || !ex.SolvedAt.Equal(t0.Add(2*time.Hour)) || !ex.LastAt.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("l2's exercise = %+v, want 2 runs solved at +2h", ex)
	}
	times := act.Times["l2"]
	if len(times) != 3 || !times[0].Equal(t0.Add(time.Hour)) || !times[2].Equal(t0.Add(24*time.Hour)) {
		t.Errorf("l2's activity times = %v, want the two submissions then the annotate a day later", times)
	}
	if lt := act.Times["l1"]; len(lt) == 0 || !lt[len(lt)-1].Equal(t0.Add(3*time.Minute)) {
		t.Errorf("l1's latest activity = %v, want %v last", lt, t0.Add(3*time.Minute))
	}
	week, err := s.WeeklyXP(ctx, c.ID, t0.Add(90*time.Second))
	if err != nil || week["l1"] != 5 || len(week) != 1 {
		t.Errorf("WeeklyXP since +90s = %v (%v), want l1 5 only", week, err)
	}
}

func testClassFirstTries(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	member(t, s, c.ID, "l2", "basil")
	try := func(learner, widget, kind, answers string, at time.Time) {
		t.Helper()
		if _, err := s.RecordAttempt(ctx, progress.Attempt{LearnerID: learner, LessonSlug: "a", WidgetID: widget, Kind: kind,
			Score: 0, Total: 1, Answers: answers, At: at}, progress.AttemptEffects{}); err != nil {
			t.Fatal(err)
		}
	}
	try("l1", "sort", "classify", `{"i1":"tool","i2":"protocol"}`, t0)
	try("l1", "sort", "classify", `{"i1":"protocol","i2":"protocol"}`, t0.Add(time.Minute)) // a retry: not a first try
	try("l2", "sort", "classify", `{"i1":"tool"}`, t0)
	try("l1", "quiz", "quiz", `{"q1":["b","c"]}`, t0)
	try("l2", "quiz", "quiz", `{"q1":["b","c"]}`, t0)
	try("l1", "hints", "annotate", `{"get_user":{"readOnlyHint":true}}`, t0)
	try("l1", "sort", "review", `{"i1":"protocol"}`, t0.Add(time.Hour))
	try("outsider", "sort", "classify", `{"i1":"tool"}`, t0)
	ft, err := s.ClassFirstTries(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, set := range ft.Answers {
		got[set.WidgetID+"/"+set.Kind+"/"+set.LearnerID+"="+set.Answers] = set.Count
	}
	want := map[string]int{
		`sort/classify/={"i1":"tool","i2":"protocol"}`:       1,
		`sort/classify/={"i1":"tool"}`:                       1,
		`quiz/quiz/l1={"q1":["b","c"]}`:                      1,
		`quiz/quiz/l2={"q1":["b","c"]}`:                      1,
		`hints/annotate/={"get_user":{"readOnlyHint":true}}`: 1,
	}
	if len(got) != len(want) {
		t.Errorf("answer sets = %v, want %v (retries, reviews and outsiders not counted; quizzes per learner)", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("answer set %s counted %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
}

func testClassExerciseStats(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	member(t, s, c.ID, "l2", "basil")
	failing := `{"cases":[{"name":"sample","verdict":"passed"},{"name":"empty","verdict":"wrong output"}],"passed":false}`
	crash := `{"cases":[{"name":"sample","verdict":"error"},{"name":"empty","verdict":"wrong output"}],"passed":false}`
	for _, sub := range []progress.Submission{
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Report: failing, At: t0},
		{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Passed: true, Report: `{"cases":[],"passed":true}`, At: t0.Add(time.Minute)},
		{LearnerID: "l2", ExerciseID: "ex", Mode: "submit", Report: crash, At: t0},
		{LearnerID: "l2", ExerciseID: "ex", Mode: "run", Report: crash, At: t0},
		{LearnerID: "out", ExerciseID: "ex", Mode: "submit", Report: crash, At: t0},
		// A report that is not JSON is still saved, and names no case.
		{LearnerID: "l2", ExerciseID: "other", Mode: "submit", Report: "not json", At: t0},
	} {
		if _, err := s.RecordSubmission(ctx, sub, nil); err != nil {
			t.Fatal(err)
		}
	}
	stats, fails, err := s.ClassExerciseStats(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]progress.ExerciseStat{
		"ex":    {ExerciseID: "ex", Learners: 2, Solvers: 1, Submits: 3, Failed: 2},
		"other": {ExerciseID: "other", Learners: 1, Solvers: 0, Submits: 1, Failed: 1},
	}
	if len(stats) != len(want) {
		t.Errorf("stats = %+v, want %+v (runs and outsiders not counted)", stats, want)
	}
	for _, st := range stats {
		if st != want[st.ExerciseID] {
			t.Errorf("stats of %s = %+v, want %+v", st.ExerciseID, st, want[st.ExerciseID])
		}
	}
	got := map[string]int{}
	for _, f := range fails {
		got[f.Case+"/"+f.Verdict] = f.Count
	}
	if len(got) != 2 || got["empty/wrong output"] != 2 || got["sample/error"] != 1 {
		t.Errorf("case failures = %v, want empty/wrong output 2 and sample/error 1", got)
	}
}

func testLearnerAttemptsAndLatest(t *testing.T, s Backend) {
	ctx := context.Background()
	if err := record(s, "l1", "a", "quiz", false, t0.Add(time.Minute), progress.AttemptEffects{}); err != nil {
		t.Fatal(err)
	}
	if err := record(s, "l1", "a", "classify", true, t0, progress.AttemptEffects{}); err != nil {
		t.Fatal(err)
	}
	for i, code := range []string{"one", "two"} {
		if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: code,
			Passed: i == 1, Report: `{"n":` + code[:0] + `1}`, At: t0.Add(time.Duration(i) * time.Hour)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	at, err := s.LearnerAttempts(ctx, "l1")
	if err != nil || len(at) != 2 || at[0].Kind != "classify" || at[1].Kind != "quiz" || at[0].Answers != "{}" || !at[1].At.Equal(t0.Add(time.Minute)) {
		t.Errorf("LearnerAttempts = %+v (%v), want the classify then the quiz (submissions left out)", at, err)
	}
	latest, err := s.LatestSubmissions(ctx, "l1")
	if err != nil || len(latest) != 1 || latest["ex"].Code != "two" || !latest["ex"].Passed || latest["ex"].Mode != "submit" {
		t.Errorf("LatestSubmissions = %+v (%v), want ex: two, passed", latest, err)
	}
}

func testDeleteLearner(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	c := class(t, s, a.ID, "one", "ABCDEF")
	member(t, s, c.ID, "l1", "amber")
	member(t, s, c.ID, "l2", "basil")
	if err := record(s, "l1", "a", "quiz", false, t0, progress.AttemptEffects{Award: &progress.Award{Key: "k", Amount: 5, Reason: "x"},
		Missed: []progress.ReviewCard{card("a/w/1", t0)}, CompleteLesson: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordSubmission(ctx, progress.Submission{LearnerID: "l1", ExerciseID: "ex", Mode: "submit", Code: "x", Report: "{}", At: t0}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteLearner(ctx, "l1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindLearner(ctx, "l1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a deleted learner was found (%v)", err)
	}
	if xp, _ := s.TotalXP(ctx, "l1"); xp != 0 {
		t.Errorf("a deleted learner has %d XP", xp)
	}
	if codes, _ := s.LatestCodes(ctx, "l1"); len(codes) != 0 {
		t.Errorf("a deleted learner's code stayed: %v", codes)
	}
	if _, total, _ := s.ReviewCounts(ctx, "l1", t0); total != 0 {
		t.Errorf("a deleted learner's reviews stayed: %d", total)
	}
	if at, _ := s.LearnerAttempts(ctx, "l1"); len(at) != 0 {
		t.Errorf("a deleted learner's attempts stayed: %d", len(at))
	}
	if ms, _ := s.Members(ctx, c.ID); len(ms) != 1 || ms[0].LearnerID != "l2" {
		t.Errorf("members after deleting l1 = %+v, want only l2", ms)
	}
	if err := s.DeleteLearner(ctx, "l1"); err != nil {
		t.Errorf("deleting a missing learner: %v, want nil", err)
	}
}
