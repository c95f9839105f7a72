package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
	"learn/store"
)

// seedClass fills the store with a class of n learners who each went
// through the whole course: every lesson opened, every widget checked
// (some wrong first), every quiz taken (some twice), every exercise
// submitted (a failing try, then a pass), a few reviews. It returns the
// class's teacher and id.
func seedClass(tb testing.TB, st *store.Store, course *lessons.Course, n int) (progress.Actor, int64) {
	tb.Helper()
	ctx := context.Background()
	t0 := time.Now().Add(-14 * 24 * time.Hour)
	tc, err := st.CreateTeacher(ctx, progress.Teacher{Email: "bench@school.example", Name: "Bench", PasswordHash: "x", CreatedAt: t0})
	if err != nil {
		tb.Fatal(err)
	}
	c, err := st.CreateClass(ctx, progress.Class{TeacherID: tc.ID, Name: "Big class", JoinCode: "BENCH2", TimeZone: "Europe/Paris", CreatedAt: t0})
	if err != nil {
		tb.Fatal(err)
	}
	for i, l := range course.Lessons {
		if i < 3 {
			if err := st.SetAssignment(ctx, progress.Assignment{ClassID: c.ID, LessonSlug: l.Slug, Due: t0.Add(7 * 24 * time.Hour), AssignedAt: t0}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	failing := js(map[string]any{"cases": []map[string]string{{"name": "sample", "verdict": "passed"}, {"name": "hidden edge", "verdict": "wrong output"}}, "passed": false})
	passing := js(map[string]any{"cases": []map[string]string{{"name": "sample", "verdict": "passed"}, {"name": "hidden edge", "verdict": "passed"}}, "passed": true})
	for i := range n {
		id := fmt.Sprintf("%032x", i+1)
		if err := st.AddMember(ctx, progress.Member{ClassID: c.ID, LearnerID: id, Name: fmt.Sprintf("Learner %03d", i), NameKey: fmt.Sprintf("learner %03d", i),
			Secret: "apple river stone", SecretHash: "h", JoinedAt: t0}); err != nil {
			tb.Fatal(err)
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		next := func() time.Time { at = at.Add(17 * time.Minute); return at }
		wrong := i%3 == 0
		for _, l := range course.Lessons {
			if err := st.MarkLessonOpened(ctx, id, l.Slug, next()); err != nil {
				tb.Fatal(err)
			}
			for _, seg := range l.Segments {
				w := seg.Widget
				if w == nil || w.Exercise != nil {
					continue
				}
				tries := []bool{false}
				if wrong {
					tries = []bool{true, false}
				}
				for _, miss := range tries {
					a := progress.Attempt{LearnerID: id, LessonSlug: l.Slug, WidgetID: w.ID, Kind: w.Kind, Total: 1, At: next()}
					var fx progress.AttemptEffects
					switch x := w.Value.(type) {
					case *quiz.Classify:
						ans := quiz.ClassifyAnswers{}
						for k, it := range x.Items {
							ans[it.ID] = it.Answer
							if miss && k == 0 {
								for _, cat := range x.Categories {
									if cat.ID != it.Answer {
										ans[it.ID] = cat.ID
									}
								}
							}
						}
						a.Answers = js(ans)
					case *quiz.Annotate:
						ans := quiz.AnnotateAnswers{}
						for _, tool := range x.Tools {
							ans[tool.Name] = map[quiz.Hint]bool{}
							for _, h := range quiz.AllHints() {
								if k := tool.Hints.Get(h); k != nil && k.Value != nil {
									ans[tool.Name][h] = *k.Value != miss
								}
							}
						}
						a.Answers = js(ans)
					case *quiz.Quiz:
						ans := quiz.QuizAnswers{}
						for k, qn := range x.Questions {
							for _, o := range qn.Options {
								if o.Correct != (miss && k%2 == 0) {
									ans[qn.ID] = append(ans[qn.ID], o.ID)
								}
							}
							if qn.Kind == quiz.QuestionClassify {
								ans[qn.ID] = []string{qn.Answer}
							}
						}
						a.Answers = js(ans)
						a.Total = len(x.Questions)
						if !miss {
							a.Score, a.Passed = a.Total, true
							fx = progress.AttemptEffects{CompleteLesson: true, Award: &progress.Award{Key: "quiz:" + l.Slug, Amount: 50, Reason: "Passed"}}
						} else {
							a.Score = a.Total / 2
						}
					}
					if !miss && a.Kind != quiz.KindQuiz {
						a.Score, a.Passed = 1, true
						fx.Award = &progress.Award{Key: "widget:" + l.Slug + ":" + w.ID, Amount: 5, Reason: "Right"}
					}
					if _, err := st.RecordAttempt(ctx, a, fx); err != nil {
						tb.Fatal(err)
					}
				}
			}
			for _, ex := range l.Exercises() {
				for k, report := range []string{failing, passing} {
					var award *progress.Award
					if k == 1 {
						award = &progress.Award{Key: "exercise:" + ex.ID, Amount: 20, Reason: "Solved"}
					}
					if _, err := st.RecordSubmission(ctx, progress.Submission{LearnerID: id, ExerciseID: ex.ID, Mode: "submit",
						Code: "print('hello')\n", Passed: k == 1, Report: report, At: next()}, award); err != nil {
						tb.Fatal(err)
					}
				}
			}
		}
		for r := range 5 {
			if _, err := st.RecordAttempt(ctx, progress.Attempt{LearnerID: id, LessonSlug: course.Lessons[r].Slug, WidgetID: "review",
				Kind: "review", Score: 1, Total: 1, Passed: true, Answers: "{}", At: next()}, progress.AttemptEffects{}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return progress.Actor{ID: "teacher-learner", Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID, TeacherName: tc.Name}, c.ID
}

// BenchmarkClassDashboard renders /classes/{id} of a class of 200
// learners who each did the whole course, from a real SQLite file. The
// figure to watch is ns/op: the dashboard should draw in well under
// 100 ms. It also reports the page size.
func BenchmarkClassDashboard(b *testing.B) {
	w := newBenchWorld(b)
	course := w.app.Course()
	teacher, id := seedClass(b, w.st, course, 200)
	ctx := progress.WithActor(context.Background(), teacher)
	req := httptest.NewRequest(http.MethodGet, classURL(id), nil).WithContext(ctx)
	req.SetPathValue("id", fmt.Sprint(id))
	var size int
	cpu0 := cpuTime()
	for b.Loop() {
		rec := httptest.NewRecorder()
		if err := w.srv.classShow(rec, req); err != nil || rec.Code != http.StatusOK {
			b.Fatalf("dashboard = %d (%v)", rec.Code, err)
		}
		size = rec.Body.Len()
	}
	// CPU time per render says what the page costs on a machine that is
	// busy with other work, where wall time mostly measures the wait.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(size)/1024, "KiB/page")
}
