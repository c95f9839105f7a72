package progress

// One learner's page for the teacher of their class.

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// LearnerDetail is one learner's page for their teacher.
type LearnerDetail struct {
	Class  Class
	Member Member
	Zone   *time.Location
	XP     int
	// Attempts are every widget, quiz and review attempt, oldest first.
	Attempts []AttemptDetail
	// Exercises are the course's exercises with the learner's latest code.
	Exercises []ExerciseDetail
}

// AttemptDetail is one attempt with its answers in words.
type AttemptDetail struct {
	Attempt
	Lesson *lessons.Lesson
	// Where names the block: "Quiz", a widget id, or "Review".
	Where   string
	Answers []AnswerDetail
}

// AnswerDetail is one item of an attempt: what was asked, what was given.
type AnswerDetail struct {
	Prompt, Given string
	Right         bool
}

// ExerciseDetail is an exercise with the learner's latest code and how
// that run went.
type ExerciseDetail struct {
	Lesson   *lessons.Lesson
	Exercise *lessons.Exercise
	// Latest is the last run or submission; Latest.At is zero when none.
	Latest Submission
	Solved bool
	// Verdicts are the latest run's case verdicts, by case name.
	Verdicts []CaseVerdict
	// HintsShown is how many of the exercise's hints the learner took.
	HintsShown int
}

// CaseVerdict is one case of a stored report.
type CaseVerdict struct {
	Name, Verdict string
}

// ClassLearner returns one learner's page for the teacher of their class.
//
// Errors: NotFound for a class that is not a's or a learner not in it.
func (s *Service) ClassLearner(ctx context.Context, a Actor, classID int64, learnerID string) (LearnerDetail, error) {
	c, err := s.ownClass(ctx, a, classID)
	if err != nil {
		return LearnerDetail{}, err
	}
	m, err := s.classes.FindMember(ctx, c.ID, learnerID)
	if errors.Is(err, ErrNotFound) {
		return LearnerDetail{}, notFound("This learner is not in the class.")
	}
	if err != nil {
		return LearnerDetail{}, err
	}
	d := LearnerDetail{Class: c, Member: m}
	d.Zone, _ = quiz.Zone(c.TimeZone)
	if d.XP, err = s.learning.TotalXP(ctx, learnerID); err != nil {
		return d, err
	}
	attempts, err := s.classes.LearnerAttempts(ctx, learnerID)
	if err != nil {
		return d, err
	}
	tries := map[string]int{}
	for _, at := range attempts {
		n := 1
		if at.Kind == quiz.KindQuiz {
			tries[at.LessonSlug+"/"+at.WidgetID]++
			n = tries[at.LessonSlug+"/"+at.WidgetID]
		}
		d.Attempts = append(d.Attempts, s.attemptDetail(at, n))
	}
	latest, err := s.classes.LatestSubmissions(ctx, learnerID)
	if err != nil {
		return d, err
	}
	states, err := s.learning.ExerciseStates(ctx, learnerID)
	if err != nil {
		return d, err
	}
	hints, err := s.learning.HintsShown(ctx, learnerID)
	if err != nil {
		return d, err
	}
	for _, l := range s.Course().Lessons {
		for _, ex := range l.Exercises() {
			ed := ExerciseDetail{Lesson: l, Exercise: ex, Latest: latest[ex.ID], Solved: states[ex.ID].Solved(), HintsShown: hints[ex.ID]}
			var rep struct {
				Cases []struct {
					Name    string `json:"name"`
					Verdict string `json:"verdict"`
				} `json:"cases"`
			}
			if ed.Latest.Report != "" && json.Unmarshal([]byte(ed.Latest.Report), &rep) == nil {
				for _, c := range rep.Cases {
					ed.Verdicts = append(ed.Verdicts, CaseVerdict{Name: c.Name, Verdict: c.Verdict})
				}
			}
			d.Exercises = append(d.Exercises, ed)
		}
	}
	return d, nil
}

// attemptDetail turns a stored attempt's answers into words, item by item;
// quizAttempt is the attempt's number among the learner's tries at that
// quiz (it fixes which versions of the questions were shown).
func (s *Service) attemptDetail(at Attempt, quizAttempt int) AttemptDetail {
	d := AttemptDetail{Attempt: at, Where: at.WidgetID}
	lesson, w, err := s.lessonWidget(at.LessonSlug, at.WidgetID)
	if err != nil {
		d.Lesson, _ = s.Course().Lesson(at.LessonSlug)
		return d
	}
	d.Lesson = lesson
	if at.Kind == "review" {
		d.Where = "Review"
	} else if w.Kind == quiz.KindQuiz {
		d.Where = "Quiz"
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(at.Answers), &raw) != nil {
		return d
	}
	shown := newGradeCache().shownItems(w, raw, at.LearnerID, quizAttempt)
	if x, ok := w.Value.(*quiz.Quiz); ok && at.Kind == "review" {
		// A review answers one question, named by the version shown.
		shown = nil
		for id, value := range raw {
			if q, ok := x.QuestionByID(id); ok {
				shown = append(shown, shownAnswer{it: item{question: *q}, value: value})
			}
		}
	}
	for _, shown := range shown {
		given := choices(shown.it.question.Kind, string(shown.value))
		fb := quiz.GradeQuestion(&shown.it.question, given)
		d.Answers = append(d.Answers, AnswerDetail{Prompt: prompt(&shown.it.question), Given: describe(&shown.it.question, given), Right: fb.Right})
	}
	return d
}
