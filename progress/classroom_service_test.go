package progress_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
	"learn/store"
)

// classService is a service on a real SQLite file, with its store.
func classService(t *testing.T) (*progress.Service, *store.Store) {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := progress.New(progress.Config{Course: course, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// TestClassUseCasesAnswerNotFoundToOthers calls every use case of one
// teacher's class as another teacher and as a learner of the class: each
// answers NotFound and changes nothing.
func TestClassUseCasesAnswerNotFoundToOthers(t *testing.T) {
	ctx := context.Background()
	s, st := classService(t)
	course := s.Course()
	now := time.Now()
	actor := func(email string) progress.Actor {
		tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: email, Password: "long enough password"}, now)
		if err != nil {
			t.Fatal(err)
		}
		return progress.Actor{ID: "00000000000000000000000000000001", Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID}
	}
	owner, other := actor("owner@school.example"), actor("other@school.example")
	c, err := s.CreateClass(ctx, owner, "Year 9", "Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	learner := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	if _, err := s.Join(ctx, learner, c.JoinCode, "Blue Fox"); err != nil {
		t.Fatal(err)
	}
	name, archive := "Taken", true
	slug := course.Lessons[0].Slug
	calls := map[string]func(a progress.Actor) error{
		"Class":     func(a progress.Actor) error { _, err := s.Class(ctx, a, c.ID); return err },
		"Dashboard": func(a progress.Actor) error { _, err := s.Dashboard(ctx, a, c.ID, ""); return err },
		"ClassLearner": func(a progress.Actor) error {
			_, err := s.ClassLearner(ctx, a, c.ID, learner.ID)
			return err
		},
		"Export": func(a progress.Actor) error { _, _, err := s.Export(ctx, a, c.ID); return err },
		"ChangeClass": func(a progress.Actor) error {
			_, err := s.ChangeClass(ctx, a, c.ID, progress.ClassChange{Name: &name})
			return err
		},
		"Archive": func(a progress.Actor) error {
			_, err := s.ChangeClass(ctx, a, c.ID, progress.ClassChange{Archive: &archive})
			return err
		},
		"DeleteClass":     func(a progress.Actor) error { return s.DeleteClass(ctx, a, c.ID) },
		"Assign":          func(a progress.Actor) error { return s.Assign(ctx, a, c.ID, slug, "") },
		"Unassign":        func(a progress.Actor) error { return s.Unassign(ctx, a, c.ID, slug) },
		"NewSecret":       func(a progress.Actor) error { _, err := s.NewSecret(ctx, a, c.ID, learner.ID); return err },
		"RemoveLearner":   func(a progress.Actor) error { _, err := s.RemoveLearner(ctx, a, c.ID, learner.ID); return err },
		"ClassMember":     func(a progress.Actor) error { _, _, err := s.ClassMember(ctx, a, c.ID, learner.ID); return err },
		"RecentlyRemoved": func(a progress.Actor) error { _, err := s.RecentlyRemoved(ctx, a, c.ID); return err },
		"UndoRemoval":     func(a progress.Actor) error { _, err := s.UndoRemoval(ctx, a, c.ID, learner.ID); return err },
		"ResetQuiz":       func(a progress.Actor) error { _, err := s.ResetQuiz(ctx, a, c.ID, learner.ID, slug); return err },
		"ClassMembers":    func(a progress.Actor) error { _, _, err := s.ClassMembers(ctx, a, c.ID); return err },
		"ExtendAssignment": func(a progress.Actor) error {
			return s.ExtendAssignment(ctx, a, c.ID, learner.ID, slug, "2099-01-01")
		},
		"TakeBackExtension": func(a progress.Actor) error { return s.TakeBackExtension(ctx, a, c.ID, learner.ID, slug) },
		"ResetExercise": func(a progress.Actor) error {
			_, _, err := s.ResetExercise(ctx, a, c.ID, learner.ID, "report-a-failure")
			return err
		},
		"ClassTeachers": func(a progress.Actor) error { _, err := s.ClassTeachers(ctx, a, c.ID); return err },
		"AddCoTeacher": func(a progress.Actor) error {
			_, err := s.AddCoTeacher(ctx, a, c.ID, "other@school.example")
			return err
		},
		"RemoveCoTeacher": func(a progress.Actor) error { _, err := s.RemoveCoTeacher(ctx, a, c.ID, owner.TeacherID); return err },
	}
	for name, call := range calls {
		for who, a := range map[string]progress.Actor{"another teacher": other, "a learner": learner} {
			var pe *progress.Error
			if err := call(a); !errors.As(err, &pe) || pe.Kind != progress.NotFound {
				t.Errorf("%s by %s = %v, want NotFound", name, who, err)
			}
		}
	}
	d, err := s.Dashboard(ctx, owner, c.ID, "")
	if err != nil || d.Class.Name != "Year 9" || d.Class.Archived() || len(d.Rows) != 1 || len(d.Assignments) != 0 {
		t.Errorf("after the refused calls the class is %+v with %d learners (%v), want it unchanged", d.Class, len(d.Rows), err)
	}
	if _, err := s.Teachers(ctx, owner); err == nil {
		t.Error("a teacher who is not an admin listed the teachers")
	}
}

// quizForm answers every question of the quiz as a's first attempt draws
// it, right or wrong.
func quizForm(a progress.Actor, x *quiz.Quiz, right bool) progress.Answers {
	draw := progress.QuizDraw(a, x, 1)
	form := progress.Answers{Choices: map[string][]string{}}
	for i := range x.Questions {
		q := x.Drawn(draw, i)
		field := x.Questions[i].ID
		switch q.Kind {
		case quiz.QuestionClassify:
			for _, c := range q.Categories {
				if (c.ID == q.Answer) == right {
					form.Choices[field] = []string{c.ID}
					break
				}
			}
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
					v := *k.Value
					if !right && q.Tool.Matters(h) {
						v = !v
					}
					form.Choices[field] = append(form.Choices[field], quiz.HintChoice(h, v))
				}
			}
		default:
			for _, o := range q.Options {
				if o.Correct == right {
					form.Choices[field] = append(form.Choices[field], o.ID)
					if !right {
						break
					}
				}
			}
		}
	}
	return form
}

// TestDashboardStuckQuestions has learners answer two lessons' quizzes
// (both blocks called the same in their lessons) through the use case:
// each missed question is listed under its own lesson, counted for the
// learners who were shown that version, with the wrong answer chosen.
func TestDashboardStuckQuestions(t *testing.T) {
	s, st := classService(t)
	ctx := context.Background()
	tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: "t@school.example", Password: "long enough password"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	teacher := progress.Actor{ID: "00000000000000000000000000000009", Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID}
	c, err := s.CreateClass(ctx, teacher, "Year 9", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	lessonsUsed := s.Course().Lessons[:2]
	learners := []progress.Actor{
		{ID: "11111111111111111111111111111111", Role: progress.RoleLearner, Known: true},
		{ID: "22222222222222222222222222222222", Role: progress.RoleLearner, Known: true},
	}
	for i, a := range learners {
		if _, err := s.Join(ctx, a, c.JoinCode, fmt.Sprint("Learner ", i)); err != nil {
			t.Fatal(err)
		}
		for _, l := range lessonsUsed {
			x, _ := l.Quiz()
			out, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: l.Slug, WidgetID: x.ID, Attempt: 1, Answers: quizForm(a, x, i == 0)})
			if err != nil {
				t.Fatal(err)
			}
			if out.Passed != (i == 0) {
				t.Fatalf("learner %d on %s: passed %v", i, l.Slug, out.Passed)
			}
		}
	}
	d, err := s.Dashboard(ctx, teacher, c.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Stuck) == 0 {
		t.Fatal("no stuck questions after a learner failed two quizzes")
	}
	seen := map[string]bool{}
	for _, st := range d.Stuck {
		x, _ := st.Lesson.Quiz()
		found := false
		for i := range x.Questions {
			for v := range x.Questions[i].VariantCount() {
				// A classify question is listed by its item's text.
				if qv := x.Questions[i].VariantAt(v); qv.Prompt == st.Prompt || (qv.Kind == quiz.QuestionClassify && qv.Text == st.Prompt) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("stuck question %q is listed under %s, whose quiz does not ask it", st.Prompt, st.Lesson.Slug)
		}
		if key := st.Lesson.Slug + st.Prompt; seen[key] {
			t.Errorf("question %q of %s is listed twice", st.Prompt, st.Lesson.Slug)
		} else {
			seen[key] = true
		}
		if st.Missed != 1 || (st.Tried != 1 && st.Tried != 2) || st.WrongAnswer == "" || st.WrongCount != 1 {
			t.Errorf("stuck %+v: want one miss of one or two shown, with the wrong answer", st)
		}
	}
	row := d.Rows[0]
	if row.Member.Name != "Learner 0" || row.Cells[0].State != progress.CellQuizPassed || row.Cells[0].Quiz.First != row.Cells[0].Quiz.Total {
		t.Errorf("roster row %+v: want Learner 0 with the first quiz passed on the first try", row.Cells[0])
	}
}

// TestStuckRankedByLearnersWhoMissed: the stuck list ranks by how many
// learners missed an item on the first try, so one learner's misses
// (each "1 of 1") come after a quiz question three learners missed; an
// item one of five missed is under the minimum and not listed; a quiz
// question's versions are one row with a line each; a widget item is
// named by its widget's title with a link to it.
func TestStuckRankedByLearnersWhoMissed(t *testing.T) {
	s, st := classService(t)
	ctx := context.Background()
	tc, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: "t@school.example", Password: "long enough password"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	teacher := progress.Actor{ID: "00000000000000000000000000000009", Role: progress.RoleTeacher, Known: true, TeacherID: tc.ID}
	c, err := s.CreateClass(ctx, teacher, "Year 9", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	var classifies []*lessons.Widget
	var classifyLessons []string
	for _, l := range s.Course().Lessons {
		for _, seg := range l.Segments {
			if w := seg.Widget; w != nil && w.Kind == quiz.KindClassify && len(classifies) < 2 {
				classifies, classifyLessons = append(classifies, w), append(classifyLessons, l.Slug)
				break
			}
		}
	}
	if len(classifies) < 2 {
		t.Fatal("the course needs two lessons with a classify widget")
	}
	right := func(w *lessons.Widget) progress.Answers {
		out := progress.Answers{Categories: map[string]string{}}
		for _, item := range w.Value.(*quiz.Classify).Items {
			out.Categories[item.ID] = item.Answer
		}
		return out
	}
	quizLesson := s.Course().Lessons[1]
	x, _ := quizLesson.Quiz()
	post := func(a progress.Actor, slug string, w string, ans progress.Answers) {
		t.Helper()
		if _, err := s.CheckWidget(ctx, a, progress.WidgetPost{LessonSlug: slug, WidgetID: w, Attempt: 1, Answers: ans}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 6 {
		a := progress.Actor{ID: fmt.Sprintf("%032d", i+1), Role: progress.RoleLearner, Known: true}
		if _, err := s.Join(ctx, a, c.JoinCode, fmt.Sprint("Learner ", i)); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			// Alone on the second classify widget, all wrong: 1 of 1 each.
			post(a, classifyLessons[1], classifies[1].ID, allWrong(classifies[1]))
			continue
		}
		// Five on the first classify widget, one of them wrong: 1 of 5.
		if i == 1 {
			post(a, classifyLessons[0], classifies[0].ID, allWrong(classifies[0]))
		} else {
			post(a, classifyLessons[0], classifies[0].ID, right(classifies[0]))
		}
		// Five on the quiz, three of them wrong: 3 of 5 each question.
		post(a, quizLesson.Slug, x.ID, quizForm(a, x, i > 3))
	}
	d, err := s.Dashboard(ctx, teacher, c.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	var lastMissed = 1 << 30
	quizRows, loneRows := 0, 0
	for i, item := range d.Stuck {
		if item.Missed > lastMissed {
			t.Errorf("row %d (%q, %d missed) ranks below one with %d", i, item.Prompt, item.Missed, lastMissed)
		}
		lastMissed = item.Missed
		switch item.Where {
		case "Lesson quiz":
			quizRows++
			if item.Missed != 3 || item.Tried != 5 {
				t.Errorf("quiz row %q: %d of %d missed, want 3 of 5 over its versions", item.Prompt, item.Missed, item.Tried)
			}
			if n := x.Questions[0].VariantCount(); n > 1 && item.Prompt == x.Questions[0].Prompt && len(item.Versions) < 2 {
				t.Errorf("quiz row %q has %d version lines, want one per version shown", item.Prompt, len(item.Versions))
			}
		case "Try it: " + classifies[1].Value.(*quiz.Classify).Prompt:
			loneRows++
			if item.Missed != 1 || item.Tried != 1 || item.Link != "/lessons/"+classifyLessons[1]+"#w-"+classifies[1].ID {
				t.Errorf("lone learner's row %+v: want 1 of 1 with a link to the widget", item)
			}
		case "Try it: " + classifies[0].Value.(*quiz.Classify).Prompt:
			t.Errorf("an item one of five missed is listed: %+v", item)
		default:
			t.Errorf("row %d is named %q, not by its widget's title", i, item.Where)
		}
	}
	if quizRows != len(x.Questions) || loneRows != len(classifies[1].Value.(*quiz.Classify).Items) {
		t.Errorf("%d quiz rows (want %d, one per question) and %d of the lone learner's (want %d)", quizRows, len(x.Questions), loneRows, len(classifies[1].Value.(*quiz.Classify).Items))
	}
	if quizRows > 0 && loneRows > 0 && d.Stuck[0].Where != "Lesson quiz" {
		t.Errorf("the first row is %q: one learner's misses outrank three learners'", d.Stuck[0].Prompt)
	}
}
