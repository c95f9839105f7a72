package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"log/slog"

	"learn/postgres/pgtest"
	"learn/progress"
	"learn/store"
)

// statsCourse is the fixture course the seeded answers are to: a classify
// block (items x: a, y: b), an exercise "sum" and a quiz of three
// single-choice questions (q1: a, q2: b, q3: a).
var statsCourse = filepath.Join("testdata", "stats-course")

// seedStats writes five learners' first tries and submissions:
//
//	quiz      q1  q2  q3  score   classify   x  y
//	L1        a✓  b✓  a✓  3                  a✓ b✓
//	L2        a✓  b✓  b✗  2                  a✓ b✓
//	L3        a✓  a✗  a✓  2                  a✓ a✗
//	L4        b✗  a✗  a✓  1                  a✓ a✗
//	L5        a✓  a✗  b✗  1                  a✓ (none)
//
// and of the exercise: L1 fails twice then passes, L2 passes at once, L3
// fails twice and takes two hints, L4 takes one hint and never submits.
// Each learner also has a later, better try, which must not count.
func seedStats(t testing.TB, st progress.Store, learners int) {
	ctx := context.Background()
	quizAnswers := []string{`{"q1":["a"],"q2":["b"],"q3":["a"]}`, `{"q1":["a"],"q2":["b"],"q3":["b"]}`,
		`{"q1":["a"],"q2":["a"],"q3":["a"]}`, `{"q1":["b"],"q2":["a"],"q3":["a"]}`, `{"q1":["a"],"q2":["a"],"q3":["b"]}`}
	classifyAnswers := []string{`{"x":"a","y":"b"}`, `{"x":"a","y":"b"}`, `{"x":"a","y":"a"}`, `{"x":"a","y":"a"}`, `{"x":"a"}`}
	fail := `{"cases":[{"name":"Small numbers","verdict":"passed"},{"name":"Negative numbers","verdict":"wrong output"}],"passed":false}`
	crash := `{"cases":[{"name":"Small numbers","verdict":"error"},{"name":"Negative numbers","verdict":"wrong output"}],"passed":false}`
	pass := `{"cases":[{"name":"Small numbers","verdict":"passed"},{"name":"Negative numbers","verdict":"passed"}],"passed":true}`
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for n := range learners {
		i := n % 5
		id := fmt.Sprintf("%032x", n+1)
		at := t0.Add(time.Duration(n) * time.Minute)
		if _, err := st.EnsureLearner(ctx, id, at); err != nil {
			t.Fatal(err)
		}
		for _, a := range []progress.Attempt{
			{LearnerID: id, LessonSlug: "sums", WidgetID: "quiz", Kind: "quiz", Total: 3, Answers: quizAnswers[i], At: at},
			{LearnerID: id, LessonSlug: "sums", WidgetID: "quiz", Kind: "quiz", Total: 3, Score: 3, Passed: true, Answers: quizAnswers[0], At: at.Add(time.Second)},
			{LearnerID: id, LessonSlug: "sums", WidgetID: "parity", Kind: "classify", Total: 2, Answers: classifyAnswers[i], At: at},
			{LearnerID: id, LessonSlug: "sums", WidgetID: "parity", Kind: "classify", Total: 2, Score: 2, Passed: true, Answers: classifyAnswers[0], At: at.Add(time.Second)},
		} {
			if _, err := st.RecordAttempt(ctx, a, progress.AttemptEffects{}); err != nil {
				t.Fatal(err)
			}
		}
		reports := [][]string{{fail, fail, pass}, {pass}, {fail, crash}, nil, nil}[i]
		for k, r := range reports {
			if _, err := st.RecordSubmission(ctx, progress.Submission{LearnerID: id, ExerciseID: "sum", Mode: "submit", Code: "print(3)",
				Passed: r == pass, Report: r, At: at.Add(time.Duration(k+2) * time.Second)}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if hints := []int{0, 0, 2, 1, 0}[i]; hints > 0 {
			if _, err := st.RevealHints(ctx, id, "sum", hints, at); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestStatsOnSeededAnswers runs learn stats on the seeded database and
// checks every figure against its value worked out by hand below.
func TestStatsOnSeededAnswers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	seedStats(t, st, 5)
	st.Close()

	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"stats", "--db", db, "--lessons", statsCourse, "--min-answers", "5", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("learn stats: exit %d\n%s", code, errOut.String())
	}
	var r progress.CourseStats
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(r.Quizzes) != 1 || len(r.Quizzes[0].Questions) != 3 || r.Quizzes[0].Learners != 5 || len(r.Widgets) != 2 || len(r.Exercises) != 1 {
		t.Fatalf("report = %s", out.String())
	}
	// Worked by hand. Discrimination is Pearson's r between the 0/1 score
	// on the question and the score on the other two questions:
	//   q1: right 1,1,1,0,1 (mean 0.8); rest 2,1,1,1,0 (mean 1.0);
	//       deviations' products 0.2·1 + 0 + 0 + (−0.8)·0 + 0.2·(−1) = 0, so r = 0.
	//   q2: right 1,1,0,0,0 (mean 0.4); rest 2,1,2,1,1 (mean 1.4);
	//       covariance sum 0.36 − 0.24 − 0.24 + 0.16 + 0.16 = 0.2; sums of squares 1.2 and 1.2;
	//       r = 0.2 / 1.2 = 1/6.
	//   q3: right 1,0,1,1,0 (mean 0.6); rest 2,2,1,0,1 (mean 1.2);
	//       covariance sum 0.32 − 0.48 − 0.08 − 0.48 + 0.12 = −0.6; sums of squares 1.2 and 2.8;
	//       r = −0.6 / √3.36 = −0.3273.
	type want struct {
		answered, right int
		facility, disc  float64
		choices         string
		flags           []string
	}
	check := func(it progress.ItemStats, w want, discriminated bool) {
		t.Helper()
		if it.Answered != w.answered || it.Right != w.right || math.Abs(it.Facility-w.facility) > 1e-9 {
			t.Errorf("%s: answered %d, right %d, facility %v; want %d, %d, %v", it.ID, it.Answered, it.Right, it.Facility, w.answered, w.right, w.facility)
		}
		switch {
		case !discriminated && it.Discrimination != nil:
			t.Errorf("%s: discrimination %v, want none for a widget item", it.ID, *it.Discrimination)
		case discriminated && (it.Discrimination == nil || math.Abs(*it.Discrimination-w.disc) > 1e-4):
			t.Errorf("%s: discrimination %v, want %.4f", it.ID, it.Discrimination, w.disc)
		}
		if got := choiceList(it.Choices); got != w.choices {
			t.Errorf("%s: choices %q, want %q", it.ID, got, w.choices)
		}
		if strings.Join(it.Flags, "\n") != strings.Join(w.flags, "\n") {
			t.Errorf("%s: flags %q, want %q", it.ID, it.Flags, w.flags)
		}
	}
	q := r.Quizzes[0].Questions
	check(q[0], want{5, 4, 0.8, 0, `"2": 4 · "11": 1 · "0": 0`, []string{`nobody chose "0": make it a mistake a learner would make, or drop it`}}, true)
	check(q[1], want{5, 2, 0.4, 1.0 / 6, `"6": 3 · "5": 2`, nil}, true)
	check(q[2], want{5, 3, 0.6, -0.6 / math.Sqrt(3.36), `"0": 3 · "00": 2`, []string{"negative discrimination (-0.33): learners who did well on the rest of the quiz got this wrong more often; check its key and wording"}}, true)
	check(r.Widgets[0], want{5, 5, 1, 0, `"Even": 5 · "Odd": 0`, []string{"too easy: 1.00 right on the first try (over 0.9)", `nobody chose "Odd": make it a mistake a learner would make, or drop it`}}, false)
	check(r.Widgets[1], want{5, 2, 0.4, 0, `"Even": 2 · "Odd": 2`, nil}, false)

	// Exercise: L1, L2 and L3 submitted (3), L1 and L2 solved (2/3); L1 took
	// 3 submissions, L2 1, so the median is 2; L3 and L4 took hints, 2 of
	// the 4 who submitted or took one; "Negative numbers" failed in all 4
	// failed submissions.
	e := r.Exercises[0]
	if e.Learners != 3 || e.Solvers != 2 || math.Abs(e.SolvedShare-2.0/3) > 1e-9 || e.MedianToSolve != 2 || e.HintLearners != 2 || e.HintShare != 0.5 ||
		e.MostFailing != "Negative numbers" || e.MostFailingVerdict != "wrong output" || e.MostFailingCount != 4 || e.Submits != 6 || e.Failed != 4 {
		t.Errorf("exercise = %+v", e)
	}

	// Under the minimum of answers nothing is flagged.
	out.Reset()
	run(context.Background(), []string{"stats", "--db", db, "--lessons", statsCourse, "--json"}, &out, &errOut)
	if strings.Contains(out.String(), `"Flags": [`) {
		t.Errorf("flags under the default minimum of %d answers:\n%s", progress.DefaultStatsMinAnswers, out.String())
	}
	// The text and CSV forms carry the same figures.
	for _, format := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"discrimination 0.17", "discrimination -0.33", `fails most: "Negative numbers" (wrong output, 4 times)`, "median 2 submissions to solve"}},
		{[]string{"--csv"}, []string{"q2,,What is 2 + 3?,5,2,0.4000,0.1667,6: 3 · 5: 2,", ",-0.3273,", ",3,2,0.6667,2,0.5000,Negative numbers,"}},
	} {
		out.Reset()
		if code := run(context.Background(), append([]string{"stats", "--db", db, "--lessons", statsCourse, "--min-answers", "5"}, format.args...), &out, &errOut); code != 0 {
			t.Fatalf("learn stats %v: exit %d\n%s", format.args, code, errOut.String())
		}
		for _, w := range format.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("learn stats %v lacks %q:\n%s", format.args, w, out.String())
			}
		}
	}
}

// statsBenchLearners seeds 10,000 answers: each learner has four attempts
// (a first and a second try at the quiz and at the classify block).
const statsBenchLearners = 2500

// BenchmarkStats measures learn stats' reads and figures over 10,000
// seeded answers (and their submissions) on each engine; the target is
// under a second.
func BenchmarkStats(b *testing.B) {
	course, _, err := loadSoundCourse(statsCourse)
	if err != nil {
		b.Fatal(err)
	}
	engines := []struct {
		name string
		db   func(b *testing.B) string
	}{
		{"SQLite", func(b *testing.B) string { return filepath.Join(b.TempDir(), "learn.db") }},
		{"PostgreSQL", func(b *testing.B) string { return pgtest.Start(b).NewDatabase(b) }},
	}
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			ctx := context.Background()
			st, _, err := openDatabase(ctx, e.db(b), slog.New(slog.DiscardHandler))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			seedStats(b, st, statsBenchLearners)
			b.ResetTimer()
			for b.Loop() {
				r, err := progress.ReadStats(ctx, course, st, 0)
				if err != nil {
					b.Fatal(err)
				}
				if r.Quizzes[0].Learners != statsBenchLearners {
					b.Fatalf("learners = %d", r.Quizzes[0].Learners)
				}
			}
			b.ReportMetric(4*statsBenchLearners, "answers")
		})
	}
}
