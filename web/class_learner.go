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
	Lesson, Title string
	Tried, Solved bool
	Mode, When    string
	LastPassed    bool
	Verdicts      []progress.CaseVerdict
	Code          template.HTML
}

// classLearner draws one learner's page.
func (s *Server) classLearner(w http.ResponseWriter, r *http.Request) error {
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
		row := ExerciseRow{Lesson: ex.Lesson.Title, Title: ex.Exercise.Title, Solved: ex.Solved, Tried: !ex.Latest.At.IsZero(),
			Mode: ex.Latest.Mode, LastPassed: ex.Latest.Passed, Verdicts: ex.Verdicts}
		if row.Tried {
			row.When = ex.Latest.At.In(d.Zone).Format("2 Jan 15:04")
			if row.Code, err = lessons.HighlightPython(ex.Latest.Code); err != nil {
				return err
			}
		}
		v.Exercises = append(v.Exercises, row)
	}
	return render(w, r, learnerPage(v))
}
