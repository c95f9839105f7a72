package web

import (
	"fmt"
	"html/template"
	"net/http"

	"learn/lessons"
	"learn/progress"
)

// LearnerView is one learner's page for their teacher.
type LearnerView struct {
	Page
	// Done says what the action just confirmed did.
	Done      string
	ClassID   int64
	ClassName string
	ClassURL  string
	LearnerID string
	Name      string
	Secret    string
	// ClassCode is what the learner types, with their name and words, to
	// continue on another device.
	ClassCode string
	XP        int
	Attempts  []AttemptRow
	Exercises []ExerciseRow
	// Quizzes are the quizzes the learner attempted, each with a reset;
	// Resets the resets made, in words.
	Quizzes []QuizRow
	Resets  []string
	// Assignments are the class's assignments with this learner's due
	// time; Error redraws a refused extension.
	Assignments []LearnerAssignmentRow
	Error       string
}

// LearnerAssignmentRow is one assignment on a learner's page: the class's
// due time and the learner's extension, if any.
type LearnerAssignmentRow struct {
	Slug, Lesson, Due, Extended string
}

// QuizRow is one lesson's quiz on the learner's page.
type QuizRow struct {
	Slug, Lesson string
	// State says where the learner stands: "passed", "2 failed in a row",
	// "waits until 14:05".
	State string
}

// learnerResetQuiz resets a learner's attempts at one lesson's quiz, once
// confirmed.
func (s *Server) learnerResetQuiz(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	learner, slug := r.PathValue("learner"), r.PathValue("slug")
	a := progress.ActorFrom(r.Context())
	_, m, err := s.app.ClassMember(r.Context(), a, id, learner)
	if err != nil {
		return err
	}
	page := classURL(id) + "/learners/" + learner
	l, ok := s.app.Course().Lesson(slug)
	if !ok {
		return &progress.Error{Kind: progress.NotFound, Message: "There is no such lesson in the course."}
	}
	if ok, err := s.confirmed(w, r, ConfirmView{Title: "Reset " + m.Name + "'s quiz of " + l.Title + "?",
		Question: resetQuizQuestion(m.Name, l.Title),
		Action:   page + "/quiz/" + slug + "/reset", Button: "Reset the quiz", Cancel: page}); !ok || err != nil {
		return err
	}
	if _, err := s.app.ResetQuiz(r.Context(), a, id, learner, slug); err != nil {
		return err
	}
	http.Redirect(w, r, page+"?done=reset", http.StatusSeeOther)
	return nil
}

// learnerResetExercise resets a learner's submissions to one exercise,
// once confirmed.
func (s *Server) learnerResetExercise(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	learner, exercise := r.PathValue("learner"), r.PathValue("exercise")
	a := progress.ActorFrom(r.Context())
	_, m, err := s.app.ClassMember(r.Context(), a, id, learner)
	if err != nil {
		return err
	}
	_, ex, err := s.app.ExerciseFor("", exercise)
	if err != nil {
		return err
	}
	page := classURL(id) + "/learners/" + learner
	if ok, err := s.confirmed(w, r, ConfirmView{Title: "Reset " + m.Name + "'s exercise " + ex.Title + "?",
		Question: resetExerciseQuestion(m.Name, ex.Title),
		Action:   page + "/exercise/" + ex.ID + "/reset", Button: "Reset the exercise", Cancel: page}); !ok || err != nil {
		return err
	}
	if _, _, err := s.app.ResetExercise(r.Context(), a, id, learner, ex.ID); err != nil {
		return err
	}
	http.Redirect(w, r, page+"?done=exercise-reset", http.StatusSeeOther)
	return nil
}

// AttemptRow is one attempt in time order.
type AttemptRow struct {
	When, Lesson, Where string
	Score               string
	Passed              bool
	Answers             []progress.AnswerDetail
}

// ExerciseRow is an exercise with the learner's latest code, highlighted.
type ExerciseRow struct {
	ID, Lesson, Title string
	// ResetAt is when the teacher last reset it ("" if never): tries
	// before it no longer count.
	ResetAt       string
	Tried, Solved bool
	Mode, When    string
	LastPassed    bool
	Verdicts      []progress.CaseVerdict
	// Hints says how many of the exercise's hints the learner took, such
	// as "1 of 3 hints taken"; "" when the exercise has none.
	Hints string
	Code  template.HTML
}

// classLearner draws one learner's page.
func (s *Server) classLearner(w http.ResponseWriter, r *http.Request) error {
	return s.renderLearner(w, r, http.StatusOK, "")
}

// renderLearner draws a learner's page under status with problem (if any)
// above its forms: the redrawFunc of the page's forms.
func (s *Server) renderLearner(w http.ResponseWriter, r *http.Request, status int, problem string) error {
	plainBody(w) // secret words beside the learner's code (BREACH)
	id, err := classID(r)
	if err != nil {
		return err
	}
	d, err := s.app.ClassLearner(r.Context(), progress.ActorFrom(r.Context()), id, r.PathValue("learner"))
	if err != nil {
		return err
	}
	page := s.page(r, d.Member.Name+" · "+d.Class.Name, "classes")
	page.TeacherView = progress.ActorFrom(r.Context()).TeacherName
	v := LearnerView{Page: page, ClassID: d.Class.ID, ClassName: d.Class.Name,
		ClassURL: classURL(d.Class.ID), LearnerID: d.Member.LearnerID, Name: d.Member.Name, Secret: d.Member.Secret, ClassCode: progress.ClassCode(d.Class.ID), XP: d.XP}
	v.Error = problem
	now := s.app.Now()
	for _, as := range d.Assignments {
		l, ok := s.app.Course().Lesson(as.LessonSlug)
		if !ok {
			continue
		}
		row := LearnerAssignmentRow{Slug: l.Slug, Lesson: l.Title, Due: progress.DueLabel(as.Due, d.Class.TimeZone)}
		if ext, ok := as.Extensions[d.Member.LearnerID]; ok {
			row.Extended = progress.DueLabel(ext, d.Class.TimeZone)
		}
		v.Assignments = append(v.Assignments, row)
	}
	for _, q := range d.Quizzes {
		state := "open"
		switch {
		case q.OpensAt.After(now):
			state = fmt.Sprintf("%d failed in a row; waits until %s", q.FailedInRow, q.OpensAt.In(d.Zone).Format("15:04"))
		case q.FailedInRow > 0:
			state = fmt.Sprintf("%d failed in a row", q.FailedInRow)
		case q.Passed:
			state = "passed"
		}
		v.Quizzes = append(v.Quizzes, QuizRow{Slug: q.Lesson.Slug, Lesson: q.Lesson.Title, State: state})
	}
	exerciseReset := map[string]string{} // exercise id → when it was last reset
	for _, rs := range d.Resets {
		title := rs.LessonSlug
		if rs.Lesson != nil {
			title = rs.Lesson.Title
		}
		when := rs.At.In(d.Zone).Format("2 Jan 15:04")
		if rs.Kind == progress.ResetExerciseKind {
			name := rs.WidgetID
			if ex, _, ok := s.app.Course().Exercise(rs.WidgetID); ok {
				name = ex.Title
			}
			exerciseReset[rs.WidgetID] = when
			v.Resets = append(v.Resets, "Exercise "+name+" ("+title+") reset on "+when)
			continue
		}
		v.Resets = append(v.Resets, "Quiz of "+title+" reset on "+when)
	}
	switch r.URL.Query().Get("done") {
	case "reset":
		v.Done = "The quiz was reset: the next attempt opens now, and a first pass after it earns the full XP. XP already earned stays."
	case "exercise-reset":
		v.Done = "The exercise was reset: " + d.Member.Name + " starts it again from the starter code. XP already earned stays, and the earlier submissions still count in the class's statistics."
	case "extended":
		v.Done = "The due time for " + d.Member.Name + " was changed; \"late\" counts from it on the dashboard, their classes page and the export."
	}
	if r.URL.Query().Get("done") == "words" {
		v.Done = "New secret words made: " + d.Member.Secret + ". The old ones no longer work, and the devices signed in with them were signed out."
	}
	for _, at := range d.Attempts {
		row := AttemptRow{When: at.At.In(d.Zone).Format("2 Jan 15:04"), Where: at.Where, Passed: at.Passed,
			Score: fmt.Sprintf("%d of %d", at.Score, at.Total), Answers: at.Answers}
		if at.Lesson != nil {
			row.Lesson = at.Lesson.Title
		}
		v.Attempts = append(v.Attempts, row)
	}
	for _, ex := range d.Exercises {
		row := ExerciseRow{ID: ex.Exercise.ID, Lesson: ex.Lesson.Title, Title: ex.Exercise.Title, Solved: ex.Solved, Tried: !ex.Latest.At.IsZero(),
			Mode: ex.Latest.Mode, LastPassed: ex.Latest.Passed, Verdicts: ex.Verdicts, ResetAt: exerciseReset[ex.Exercise.ID]}
		if n := len(ex.Exercise.Hints); n > 0 {
			row.Hints = fmt.Sprintf("%d of %s taken", ex.HintsShown, Plural(n, "hint", "hints"))
		}
		if row.Tried {
			row.When = ex.Latest.At.In(d.Zone).Format("2 Jan 15:04")
			if row.Code, err = lessons.HighlightPython(ex.Latest.Code); err != nil {
				return err
			}
		}
		v.Exercises = append(v.Exercises, row)
	}
	return renderStatus(w, r, status, learnerPage(v))
}
