package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"learn/lessons"
	"learn/sandbox"
	"learn/store"
)

// Grader is what the server needs from the Python sandbox.
type Grader interface {
	Grade(ctx context.Context, code string, cases []sandbox.Case, cmp sandbox.Comparison) (sandbox.Report, error)
	Ready() bool
}

// Run modes: "run" grades the sample cases, "submit" every case.
const (
	modeRun    = "run"
	modeSubmit = "submit"
)

// Per-learner run rate defaults: a burst for quick fixes, then a steady
// rate that no honest learner reaches by hand.
const (
	DefaultRunsPerMinute = 30
	DefaultRunBurst      = 10
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

// runLimiter limits how often each learner may run code.
type runLimiter struct {
	mu       sync.Mutex
	perMin   int
	burst    int
	limiters map[string]*rate.Limiter
}

// allow reports whether the learner may run code now, and if not how long
// to wait.
func (l *runLimiter) allow(id string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.limiters == nil || len(l.limiters) > 50_000 {
		l.limiters = map[string]*rate.Limiter{}
	}
	lim, ok := l.limiters[id]
	if !ok {
		lim = rate.NewLimiter(rate.Limit(float64(l.perMin)/60), l.burst)
		l.limiters[id] = lim
	}
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// gradeOutcome is a graded run or submission.
type gradeOutcome struct {
	result  *ExerciseResult
	awarded int
	mcp     *sandbox.MCPReport // redacted, for an MCP exercise
}

// gradeExercise runs the learner's code on the exercise's cases, records it
// and awards XP for a first passing submission. Errors are *Error with a
// status the caller can show: 429 over the learner's rate, 503 while the
// sandbox is busy or starting, 413 for code over the size limit.
func (s *Server) gradeExercise(r *http.Request, ex *lessons.Exercise, code, mode string) (gradeOutcome, error) {
	ctx := r.Context()
	learnerID := learnerFrom(ctx).ID
	if s.grader == nil {
		return gradeOutcome{}, &Error{Status: http.StatusServiceUnavailable, Message: "This server runs without the Python sandbox, so code cannot be run here."}
	}
	if ok, wait := s.runs.allow(rateKey(r), s.now()); !ok {
		return gradeOutcome{}, &Error{Status: http.StatusTooManyRequests, RetryAfter: wait,
			Message: fmt.Sprintf("You are running code faster than %d times a minute. Wait %s, then run again.", s.runs.perMin, untilText(wait+time.Second))}
	}
	cmp, err := sandbox.ParseComparison(ex.Comparison())
	if err != nil {
		return gradeOutcome{}, err
	}
	var cases []sandbox.Case
	for _, c := range ex.Samples {
		cases = append(cases, sandbox.Case{Name: c.Name, Stdin: c.Stdin, Expected: c.Expected, Schema: ex.Schema, Checks: (*sandbox.Checks)(c.Checks)})
	}
	if mode == modeSubmit {
		for _, c := range ex.Hidden {
			cases = append(cases, sandbox.Case{Name: c.Name, Stdin: c.Stdin, Expected: c.Expected, Hidden: true, Schema: ex.Schema, Checks: (*sandbox.Checks)(c.Checks)})
		}
	}
	var report sandbox.Report
	var mcpReport *sandbox.MCPReport
	if mg, ok := s.grader.(MCPGrader); ok && ex.MCP != nil {
		var r sandbox.MCPReport
		r, err = mg.GradeMCP(ctx, code, mcpCalls(ex.MCP, mode), sandbox.MCPOptions{Version: ex.MCP.Version})
		r = r.Redacted()
		report, mcpReport = r.Report, &r
	} else {
		report, err = s.grader.Grade(ctx, code, cases, cmp)
	}
	var busy *sandbox.BusyError
	switch {
	case errors.As(err, &busy):
		return gradeOutcome{}, &Error{Status: http.StatusServiceUnavailable, RetryAfter: busy.RetryAfter,
			Message: "Many programs are running right now. Your code was not run; try again in a few seconds.", Err: err}
	case errors.Is(err, sandbox.ErrCodeTooLarge):
		return gradeOutcome{}, &Error{Status: http.StatusRequestEntityTooLarge, Message: "Your code is longer than this server accepts. Shorten it and run it again.", Err: err}
	case err != nil:
		return gradeOutcome{}, err
	}
	report = report.Redacted()
	out := gradeOutcome{result: exerciseResult(mode, report)}
	if mcpReport != nil {
		out.mcp = mcpReport
		out.result.MCP = mcpPanel(*mcpReport)
	}
	var award *store.Award
	if mode == modeSubmit && report.Passed && ex.XPValue() > 0 {
		award = &store.Award{Key: "exercise:" + ex.ID, Amount: ex.XPValue(), Reason: "Solved " + ex.Title}
	}
	granted, err := s.store.RecordSubmission(ctx, store.Submission{
		LearnerID: learnerID, ExerciseID: ex.ID, Mode: mode, Code: code, Passed: report.Passed,
		Report: jsonString(report), At: s.now(),
	}, award)
	if err != nil {
		return out, err
	}
	s.summaries.forget(learnerID)
	if granted {
		out.awarded = award.Amount
		out.result.Summary += fmt.Sprintf(" +%d XP.", award.Amount)
	}
	return out, nil
}

// exerciseResult summarises a report for the panel.
func exerciseResult(mode string, r sandbox.Report) *ExerciseResult {
	passed := 0
	for _, c := range r.Cases {
		if c.Verdict == sandbox.VerdictPassed {
			passed++
		}
	}
	res := &ExerciseResult{Mode: mode, Passed: r.Passed, Cases: r.Cases}
	res.Summary = fmt.Sprintf("%d of %d sample cases passed.", passed, len(r.Cases))
	if mode == modeSubmit {
		res.Summary = fmt.Sprintf("%d of %d cases passed, hidden ones included.", passed, len(r.Cases))
	}
	switch {
	case r.Passed && mode == modeSubmit:
		res.Summary += " Solved."
	case r.Passed:
		res.Summary += " Submit to run the hidden cases too."
	}
	return res
}

// exerciseView builds the panel for an exercise with the code to show.
func exerciseView(lesson *lessons.Lesson, ex *lessons.Exercise, code string) *ExerciseView {
	v := &ExerciseView{
		ID: ex.ID, Title: ex.Title, PromptHTML: ex.PromptHTML, Samples: ex.Samples, HiddenCount: len(ex.Hidden),
		XP: ex.XPValue(), Code: code, Action: "/lessons/" + lesson.Slug + "/exercises/" + ex.ID,
	}
	if ex.MCP != nil {
		v.MCPCalls = mcpCallViews(ex.MCP)
		v.HiddenCount = ex.MCP.HiddenCount()
	}
	return v
}

// learnerCode returns the learner's last code for the exercise, or its
// starter.
func learnerCode(l learner, ex *lessons.Exercise) string {
	if code, ok := l.sum.codes[ex.ID]; ok && l.Known {
		return code
	}
	return ex.Starter
}

// exerciseForm handles the exercise panel's form: Run or Submit.
func (s *Server) exerciseForm(w http.ResponseWriter, r *http.Request) error {
	course := s.course.Load()
	lesson, ok := course.Lesson(r.PathValue("slug"))
	if !ok {
		return notFoundError("There is no such lesson. The course home lists every lesson.")
	}
	ex, exLesson, ok := course.Exercise(r.PathValue("id"))
	if !ok || exLesson != lesson {
		return notFoundError("This lesson has no such exercise. Reload the lesson to get its current version.")
	}
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: "The form could not be read; if your code is very long, shorten it.", Err: err}
	}
	mode := r.PostForm.Get("mode")
	if mode != modeRun && mode != modeSubmit {
		mode = modeRun
	}
	code := r.PostForm.Get("code")
	v := exerciseView(lesson, ex, code)
	out, err := s.gradeExercise(r, ex, code, mode)
	var e *Error
	switch {
	case errors.As(err, &e) && (e.Status < 500 || e.Status == http.StatusServiceUnavailable):
		// The code was not graded; say why in the panel and keep the code.
		v.Problem = e.Message
		if e.RetryAfter > 0 {
			w.Header().Set("Retry-After", retryAfter(e.RetryAfter))
		}
	case err != nil:
		return err
	default:
		v.Result = out.result
	}
	r, badge, err := s.reloadLearner(r)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if e != nil {
		status = e.Status
	}
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := exercisePanel(v).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render exercise %s: %w", ex.ID, err)
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, status, exerciseResponse{
			HTML: buf.String(), Passed: v.Result != nil && v.Result.Passed, Awarded: out.awarded, Problem: v.Problem, Learner: badge,
			MCP: out.mcp,
		})
	}
	return s.renderLesson(w, r, lesson, lessonOverrides{exercise: v, status: status})
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

// rateKey is whom a run counts against: the learner when their cookie is
// known, else the client's address, so dropping the cookie gains nothing.
func rateKey(r *http.Request) string {
	if l := learnerFrom(r.Context()); l.Known {
		return "learner:" + l.ID
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}
