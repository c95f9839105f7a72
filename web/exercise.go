package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"

	"learn/grading"
	"learn/lessons"
	"learn/progress"
	"learn/sandbox"
)

// ExerciseView is an exercise panel on a lesson page.
type ExerciseView struct {
	ID, Title   string
	PromptHTML  template.HTML
	Samples     []lessons.ExerciseCase
	HiddenCount int
	XP          int
	Code        string
	Action      string
	Result      *ExerciseResult
	// Problem is a message when the code could not be graded (busy
	// sandbox, rate limit, code too large).
	Problem string
	// MCPCalls are the grader's calls Run sends, for an MCP exercise.
	MCPCalls []MCPCallView
	// Status is how the learner's runs went, on a revisit; nil before any.
	Status *PartStatus
}

// ExerciseResult is a graded run or submission as the panel shows it.
type ExerciseResult struct {
	Mode    string
	Passed  bool
	Summary string
	Cases   []sandbox.CaseResult
	// MCP is the transcript view of an MCP exercise.
	MCP *MCPPanel
}

// gradeExercise takes a run try, then grades the code through the core.
// Errors are the core's *progress.Error (429 over a rate, 404, 413, 503
// with Retry-After), or errClientGone when the client left
// while the run waited (the sandbox then drops it from its queue).
func (s *Server) gradeExercise(r *http.Request, lessonSlug, exerciseID, code string, mode grading.Mode) (progress.ExerciseOutcome, error) {
	if err := s.app.TakeRunTry(r.Context(), progress.ActorFrom(r.Context()), clientAddress(r)); err != nil {
		return progress.ExerciseOutcome{}, err
	}
	out, err := s.app.RunExercise(r.Context(), progress.ActorFrom(r.Context()), lessonSlug, exerciseID, code, mode)
	if err != nil && r.Context().Err() != nil {
		return out, fmt.Errorf("%w: %v", errClientGone, err)
	}
	return out, err
}

// exerciseResult summarises a graded result for the panel; the result is
// already cut to what the learner may see (grading's Plan.ForLearner).
func exerciseResult(res grading.Result, awarded int) *ExerciseResult {
	mode, r := string(res.Mode), res.Report
	passed := 0
	for _, c := range r.Cases {
		if c.Verdict == sandbox.VerdictPassed {
			passed++
		}
	}
	out := &ExerciseResult{Mode: mode, Passed: r.Passed, Cases: r.Cases}
	out.Summary = fmt.Sprintf("%d of %d sample cases passed.", passed, len(r.Cases))
	if res.Mode == grading.Submit {
		out.Summary = fmt.Sprintf("%d of %d cases passed, hidden ones included.", passed, len(r.Cases))
	}
	switch {
	case r.Passed && res.Mode == grading.Submit:
		out.Summary += " Solved."
	case r.Passed:
		out.Summary += " Submit to run the hidden cases too."
	}
	if awarded > 0 {
		out.Summary += fmt.Sprintf(" +%d XP.", awarded)
	}
	if res.MCP != nil {
		out.MCP = mcpPanel(*res.MCP)
	}
	return out
}

// exerciseView builds the panel for an exercise of a lesson being served,
// with the code to show.
func (s *Server) exerciseView(lesson *lessons.Lesson, ex *lessons.Exercise, code string) *ExerciseView {
	plan, _ := s.app.Plan(ex.ID)
	return newExerciseView(ex, plan, code, "/lessons/"+lesson.Slug+"/exercises/"+ex.ID)
}

// newExerciseView builds an exercise's panel, on a lesson page or in the
// guide: plan is its grading plan (nil when there is none), code what the
// editor shows, action where the form posts.
func newExerciseView(ex *lessons.Exercise, plan *grading.Plan, code, action string) *ExerciseView {
	v := &ExerciseView{
		ID: ex.ID, Title: ex.Title, PromptHTML: ex.PromptHTML, Samples: ex.Samples, HiddenCount: len(ex.Hidden),
		XP: ex.XPValue(), Code: code, Action: action,
	}
	if ex.MCP != nil {
		if plan != nil {
			v.MCPCalls = mcpCallViews(plan.MCPCalls(grading.Run))
		}
		v.HiddenCount = ex.MCP.HiddenCount()
	}
	return v
}

// learnerExerciseView is an exercise as the learner finds it: their last
// code and how their runs went.
func (s *Server) learnerExerciseView(lesson *lessons.Lesson, ex *lessons.Exercise, sum progress.Summary) *ExerciseView {
	v := s.exerciseView(lesson, ex, learnerCode(sum, ex))
	v.Status = exerciseStatus(sum, ex)
	return v
}

// learnerCode returns the learner's last code for the exercise, or its
// starter.
func learnerCode(sum progress.Summary, ex *lessons.Exercise) string {
	if code, ok := sum.Codes[ex.ID]; ok {
		return code
	}
	return ex.Starter
}

// exerciseForm handles the exercise panel's form: Run or Submit.
func (s *Server) exerciseForm(w http.ResponseWriter, r *http.Request) error {
	lesson, ex, err := s.app.ExerciseFor(r.PathValue("slug"), r.PathValue("id"))
	if err != nil {
		return err
	}
	mode := grading.ParseMode(r.PostForm.Get("mode"))
	code := r.PostForm.Get("code")
	v := s.exerciseView(lesson, ex, code)
	out, err := s.gradeExercise(r, lesson.Slug, ex.ID, code, mode)
	status := http.StatusOK
	if err != nil {
		e := webError(err)
		if e.Status >= 500 && e.Status != http.StatusServiceUnavailable {
			return err
		}
		// The code was not graded; say why in the panel and keep the code.
		v.Problem, status = e.Message, e.Status
		if e.RetryAfter > 0 {
			w.Header().Set("Retry-After", retryAfter(e.RetryAfter))
		}
	} else {
		v.Result = exerciseResult(out.Result, out.Awarded)
		r = withSummary(r, out.Summary)
	}
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := exercisePanel(v).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render exercise %s: %w", ex.ID, err)
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, status, exerciseResponse{
			HTML: buf.String(), Passed: v.Result != nil && v.Result.Passed, Awarded: out.Awarded, Problem: v.Problem,
			Learner: badgeFrom(r.Context()), MCP: out.Result.MCP,
		})
	}
	if v.Problem != "" {
		// Not graded (busy, over a limit): the lesson again with the reason
		// and the status, the code kept.
		return s.renderLesson(w, r, lesson, lessonOverrides{exercise: v, status: status})
	}
	return s.keepResult(w, r, lesson.Slug, ex.ID, exercisePanel(v), "x-"+ex.ID+"-results")
}

// exerciseResponse is the JSON the page script uses to show results in place.
type exerciseResponse struct {
	HTML    string       `json:"html"`
	Passed  bool         `json:"passed"`
	Awarded int          `json:"awarded"`
	Problem string       `json:"problem,omitempty"`
	Learner LearnerBadge `json:"learner"`
	// MCP is, for an MCP exercise, the graded calls with the transcripts
	// of the grader's calls and of the learner's own Client calls.
	MCP *sandbox.MCPReport `json:"mcp,omitempty"`
}
