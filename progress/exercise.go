package progress

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"learn/grading"
	"learn/lessons"
	"learn/quiz"
	"learn/sandbox"
)

// ExerciseOutcome is a graded run or submission of learner code.
type ExerciseOutcome struct {
	Lesson   *lessons.Lesson
	Exercise *lessons.Exercise
	// Result is redacted: hidden cases carry only name, verdict and
	// message.
	Result grading.Result
	// Awarded is the XP this submission granted (0 when already earned).
	Awarded int
	// Summary is the learner's summary after the run.
	Summary Summary
}

// ExerciseFor returns the exercise with this id; with lessonSlug set it
// must belong to that lesson. The error is a NotFound *Error.
func (s *Service) ExerciseFor(lessonSlug, exerciseID string) (*lessons.Lesson, *lessons.Exercise, error) {
	course := s.Course()
	ex, lesson, ok := course.Exercise(exerciseID)
	if !ok || (lessonSlug != "" && lesson.Slug != lessonSlug) {
		return nil, nil, notFound(fmt.Sprintf("There is no exercise %q in this lesson. Reload the lesson to get its current version.", exerciseID))
	}
	return lesson, ex, nil
}

// RunExercise grades a's code for the exercise (the sample cases for
// grading.Run, every case for grading.Submit), saves the run with its code
// as a's latest, and grants the exercise's XP on the first passing
// submission, in one transaction.
//
// Errors are *Error: NotFound for an unknown exercise (or one not in
// lessonSlug, when given); Unavailable when the server has no sandbox, the
// sandbox is not ready, or its queue is full (RetryAfter set); TooLarge
// for code over the sandbox's limit. Nothing is saved on an error.
func (s *Service) RunExercise(ctx context.Context, a Actor, lessonSlug, exerciseID, code string, mode grading.Mode) (ExerciseOutcome, error) {
	lesson, ex, err := s.ExerciseFor(lessonSlug, exerciseID)
	if err != nil {
		return ExerciseOutcome{}, err
	}
	out := ExerciseOutcome{Lesson: lesson, Exercise: ex}
	if s.grader == nil {
		return out, &Error{Kind: Unavailable, Message: "This server runs without the Python sandbox, so code cannot be run here."}
	}
	plan, ok := s.course.Load().book.Plan(ex.ID)
	if !ok {
		return out, notFound(fmt.Sprintf("There is no exercise %q.", ex.ID))
	}
	res, err := plan.Grade(ctx, s.grader, code, mode)
	if err != nil {
		return out, sandboxError(err)
	}
	out.Result = plan.ForLearner(res)
	var award *Award
	if a, ok := quiz.ExerciseAward(ex.ID, ex.Title, ex.XPValue(), mode == grading.Submit && res.Passed()); ok {
		award = &a
	}
	granted, err := s.learning.RecordSubmission(ctx, Submission{
		LearnerID: a.ID, ExerciseID: ex.ID, Mode: string(mode), Code: code, Passed: res.Passed(),
		Report: jsonString(res.Redacted().Report), At: s.now(), Score: submissionScore(lesson, award),
	}, award)
	if err != nil {
		return out, err
	}
	if granted {
		out.Awarded = award.Amount
	}
	s.summaries.forget(a.ID)
	if out.Summary, err = s.Summary(ctx, Actor{ID: a.ID, Role: a.Role, Known: true}); err != nil {
		return out, err
	}
	return out, nil
}

// serverPath matches the folders of an absolute path, which a learner has
// no use for and which may say more than they should about the server.
var serverPath = regexp.MustCompile(`(?:/[^/\s:'"` + "`" + `]+)+/`)

// withoutDirs returns reason with the folders of every absolute path taken
// out, keeping file names.
func withoutDirs(reason string) string { return serverPath.ReplaceAllString(reason, "") }

// endSentence ends s with a full stop unless it already ends a sentence.
func endSentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// sandboxError turns the sandbox's refusals into errors a learner can act
// on; anything else stays an internal failure.
func sandboxError(err error) error {
	var busy *sandbox.BusyError
	var gone *sandbox.UnavailableError
	switch {
	case errors.As(err, &gone):
		return &Error{Kind: Unavailable, Err: err,
			Message: "Code cannot be run on this server right now, and nothing was run: " + endSentence(withoutDirs(gone.Reason)) + " Tell whoever runs the server; your code is still in the editor."}
	case errors.Is(err, sandbox.ErrWarmingUp):
		return &Error{Kind: Unavailable, RetryAfter: 5 * time.Second, Err: err,
			Message: "The Python interpreter is still starting. Your code was not run; try again in a few seconds."}
	case errors.As(err, &busy):
		return &Error{Kind: Unavailable, RetryAfter: busy.RetryAfter,
			Message: "Many programs are running right now. Your code was not run; try again in a few seconds.", Err: err}
	case errors.Is(err, sandbox.ErrCodeTooLarge):
		return &Error{Kind: TooLarge, Message: "Your code is longer than this server accepts. Shorten it and run it again.", Err: err}
	}
	return err
}
