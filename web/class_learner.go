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
	ClassID   int64
	ClassName string
	ClassURL  string
	LearnerID string
	Name      string
	Secret    string
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
	// Hints says how many of the exercise's hints the learner took, such
	// as "1 of 3 hints taken"; "" when the exercise has none.
	Hints string
	Code  template.HTML
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
	v := LearnerView{Page: s.page(r, d.Member.Name+" · "+d.Class.Name, "classes"), ClassID: d.Class.ID, ClassName: d.Class.Name,
		ClassURL: classURL(d.Class.ID), LearnerID: d.Member.LearnerID, Name: d.Member.Name, Secret: d.Member.Secret, XP: d.XP}
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
	return render(w, r, learnerPage(v))
}
