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
	// Quizzes are the lessons whose quiz the learner attempted, with the
	// wait before their next attempt, for the teacher's reset.
	Quizzes []QuizStanding
	// Resets are the teacher's resets of the learner's quiz attempts,
	// oldest first.
	Resets []ResetDetail
	// Assignments are the class's, extensions included (Assignment.DueFor
	// gives this learner's due time).
	Assignments []Assignment
}

// QuizStanding is where a learner stands with one lesson's quiz.
type QuizStanding struct {
	Lesson *lessons.Lesson
	// FailedInRow counts the failed attempts since the last pass or
	// reset; OpensAt is when the next attempt opens (zero or past when it
	// is open now).
	FailedInRow int
	Passed      bool
	OpensAt     time.Time
}

// ResetDetail is a reset with the lesson it was for.
type ResetDetail struct {
	Reset
	Lesson *lessons.Lesson
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
	c, err := s.teachClass(ctx, a, classID)
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
	// The attempt counts are read once for every quiz's turn.
	var counts map[string]int
	for _, l := range s.Course().Lessons {
		x, ok := l.Quiz()
		if !ok || tries[l.Slug+"/"+x.ID] == 0 {
			continue
		}
		if counts == nil {
			if counts, err = s.learning.AttemptCounts(ctx, learnerID); err != nil {
				return d, err
			}
		}
		turn, err := s.quizTurnCounted(ctx, Actor{ID: learnerID, Known: true}, l.Slug, x, counts)
		if err != nil {
			return d, err
		}
		d.Quizzes = append(d.Quizzes, QuizStanding{Lesson: l, FailedInRow: turn.FailedInRow, Passed: turn.Passed, OpensAt: turn.OpensAt})
	}
	if d.Assignments, err = s.classes.Assignments(ctx, c.ID); err != nil {
		return d, err
	}
	resets, err := s.learning.Resets(ctx, learnerID)
	if err != nil {
		return d, err
	}
	for _, r := range resets {
		if r.ClassID == c.ID {
			lesson, _ := s.Course().Lesson(r.LessonSlug)
			d.Resets = append(d.Resets, ResetDetail{Reset: r, Lesson: lesson})
		}
	}
	return d, nil
}

// ResetQuiz lets a learner of a's class try a lesson's quiz afresh: their
// attempts so far no longer count towards the wait after failures in a
// row or the falling XP of a pass (quiz.QuizPassXP), so the next attempt
// opens now and a first pass after it earns the full XP if none was
// earned yet. XP already earned stays; the reset is recorded and listed on
// the learner's page. Errors: NotFound for a class not a's, a learner not
// in it, or a lesson without a quiz.
func (s *Service) ResetQuiz(ctx context.Context, a Actor, classID int64, learnerID, lessonSlug string) (*lessons.Lesson, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return nil, err
	}
	if _, err := s.classes.FindMember(ctx, c.ID, learnerID); errors.Is(err, ErrNotFound) {
		return nil, notFound("This learner is not in the class.")
	} else if err != nil {
		return nil, err
	}
	l, ok := s.Course().Lesson(lessonSlug)
	if !ok {
		return nil, notFound("There is no such lesson in the course.")
	}
	x, ok := l.Quiz()
	if !ok {
		return nil, notFound("This lesson has no quiz to reset.")
	}
	if err := s.learning.AddReset(ctx, Reset{ClassID: c.ID, LearnerID: learnerID, LessonSlug: l.Slug, WidgetID: x.ID, Kind: ResetQuizKind, At: s.now()}); err != nil {
		return nil, err
	}
	s.summaries.forget(learnerID)
	return l, nil
}

// ResetExercise lets a learner of a's class start an exercise afresh:
// their submissions so far no longer count for it, so it shows as not
// tried on their lesson page and the dashboard, the editor opens on the
// starter code, hints open again only after a failed run, and the
// reference solution hides until they solve it again. XP already earned
// stays (solving again earns no more), hints already taken stay shown,
// and every earlier submission stays in the class's statistics and time
// on task. The reset is recorded and listed on the learner's page.
// Errors: NotFound for a class a neither owns nor co-teaches, a learner
// not in it, or an exercise not in the course.
func (s *Service) ResetExercise(ctx context.Context, a Actor, classID int64, learnerID, exerciseID string) (*lessons.Lesson, *lessons.Exercise, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return nil, nil, err
	}
	if _, err := s.classes.FindMember(ctx, c.ID, learnerID); errors.Is(err, ErrNotFound) {
		return nil, nil, notFound("This learner is not in the class.")
	} else if err != nil {
		return nil, nil, err
	}
	l, ex, err := s.ExerciseFor("", exerciseID)
	if err != nil {
		return nil, nil, err
	}
	if err := s.learning.AddReset(ctx, Reset{ClassID: c.ID, LearnerID: learnerID, LessonSlug: l.Slug, WidgetID: ex.ID,
		Kind: ResetExerciseKind, At: s.now()}); err != nil {
		return nil, nil, err
	}
	s.summaries.forget(learnerID)
	return l, ex, nil
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
