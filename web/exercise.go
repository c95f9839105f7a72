package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"

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
	// Hints are the hints the learner has revealed, in order; HintsTotal
	// how many the exercise lists. HintsOpen is true once the learner may
	// take them (a run or submission of theirs failed), and HintAction is
	// where the "Show a hint" form posts.
	Hints      []template.HTML
	HintsTotal int
	HintsOpen  bool
	HintAction string
	// Solution is the reference solution drawn for comparing, set only
	// once the learner has solved the exercise and unless the exercise
	// keeps it hidden (show_solution: false).
	Solution template.HTML
}

// NextHint is the number of the hint the learner can take next, or 0 when
// every hint is shown or none may be taken yet.
func (v *ExerciseView) NextHint() int {
	if !v.HintsOpen || len(v.Hints) >= v.HintsTotal {
		return 0
	}
	return len(v.Hints) + 1
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
	withLearnerHelp(v, lesson, ex, sum)
	return v
}

// withLearnerHelp adds to an exercise's panel what the learner has earned
// the right to see: the hints they took (and whether they may take more)
// and, once they solved it, the reference solution.
func withLearnerHelp(v *ExerciseView, lesson *lessons.Lesson, ex *lessons.Exercise, sum progress.Summary) {
	v.HintsTotal = len(ex.Hints)
	v.HintsOpen = sum.HintsOpen(ex.ID, len(ex.Hints))
	v.HintAction = "/lessons/" + lesson.Slug + "/exercises/" + ex.ID + "/hints"
	v.Hints = ex.HintsHTML[:min(sum.Hints[ex.ID], len(ex.HintsHTML))]
	if sum.Exercises[ex.ID].Solved() && ex.SolutionShown() {
		code, err := lessons.HighlightPython(ex.Solution)
		if err != nil {
			// Unhighlighted, escaped, still readable.
			code = template.HTML("<pre><code>" + template.HTMLEscapeString(ex.Solution) + "</code></pre>")
		}
		v.Solution = code
	}
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
		// The code was not graded; say why in the panel and keep the code
		// (and the hints already taken).
		v.Problem, status = e.Message, e.Status
		withLearnerHelp(v, lesson, ex, summaryFrom(r.Context()))
		if e.RetryAfter > 0 {
			w.Header().Set("Retry-After", retryAfter(e.RetryAfter))
		}
	} else {
		v.Result = exerciseResult(out.Result, out.Awarded)
		r = withSummary(r, out.Summary)
		withLearnerHelp(v, lesson, ex, out.Summary)
	}
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := exercisePanel(v).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render exercise %s: %w", ex.ID, err)
		}
		var finished bytes.Buffer
		if f := s.finished(lesson, summaryFrom(r.Context())); f != nil && v.Result != nil {
			if err := finishedBox(f).Render(r.Context(), &finished); err != nil {
				return fmt.Errorf("web: render the end of %s: %w", lesson.Slug, err)
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, status, exerciseResponse{
			HTML: buf.String(), Passed: v.Result != nil && v.Result.Passed, Awarded: out.Awarded, Problem: v.Problem,
			Learner: s.badgeFrom(r.Context()), MCP: out.Result.MCP, Finished: finished.String(),
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
	// Finished is the box that ends the lesson once it is completed.
	Finished string `json:"finished,omitempty"`
}

// hintButton is the label of the button that shows hint n of total.
func hintButton(n, total int) string {
	if n == 1 {
		return fmt.Sprintf("Stuck? Show a hint (1 of %d)", total)
	}
	return fmt.Sprintf("Show the next hint (%d of %d)", n, total)
}

// hintsLater tells a learner who has not failed yet that hints exist.
func hintsLater(total int) string {
	return fmt.Sprintf("This exercise has %s; they open, one at a time, once a run or submission of yours fails.", Plural(total, "hint", "hints"))
}

// hintResponse is the JSON the page script uses to show a hint in place.
type hintResponse struct {
	// HTML is the exercise's help block redrawn with the new hint.
	HTML    string       `json:"html"`
	Shown   int          `json:"shown"`
	Learner LearnerBadge `json:"learner"`
}

// exerciseHint reveals an exercise's next hint; the form's field hint is
// its number, so a doubled post shows the same one. A plain post is sent
// back to the lesson at the hint; the page script gets the help block.
func (s *Server) exerciseHint(w http.ResponseWriter, r *http.Request) error {
	lesson, ex, err := s.app.ExerciseFor(r.PathValue("slug"), r.PathValue("id"))
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(r.PostForm.Get("hint"))
	if err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The form did not say which hint to show. Reload the lesson and press the hint button again."}
	}
	sum, err := s.app.RevealHint(r.Context(), progress.ActorFrom(r.Context()), lesson.Slug, ex.ID, n)
	if err != nil {
		return err
	}
	r = withSummary(r, sum)
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := exerciseHelp(s.learnerExerciseView(lesson, ex, sum)).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render hints of %s: %w", ex.ID, err)
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, http.StatusOK, hintResponse{HTML: buf.String(), Shown: sum.Hints[ex.ID], Learner: s.badgeFrom(r.Context())})
	}
	http.Redirect(w, r, "/lessons/"+url.PathEscape(lesson.Slug)+"#x-"+ex.ID+"-hint-"+strconv.Itoa(n), http.StatusSeeOther)
	return nil
}
