package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"learn/grading"
	"learn/lessons"
	"learn/progress"
	"learn/sandbox"
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

// gradeExercise checks the learner's run rate, then grades the code
// through the core. Errors are *Error (429 over the learner's rate) or the
// core's *progress.Error (404, 413, 503 with Retry-After).
func (s *Server) gradeExercise(r *http.Request, lessonSlug, exerciseID, code string, mode grading.Mode) (progress.ExerciseOutcome, error) {
	if ok, wait := s.runs.allow(rateKey(r), s.now()); !ok {
		return progress.ExerciseOutcome{}, &Error{Status: http.StatusTooManyRequests, RetryAfter: wait,
			Message: fmt.Sprintf("You are running code faster than %d times a minute. Wait %s, then run again.", s.runs.perMin, untilText(wait+time.Second))}
	}
	return s.app.RunExercise(r.Context(), progress.ActorFrom(r.Context()), lessonSlug, exerciseID, code, mode)
}

// exerciseResult summarises a graded result for the panel.
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

// exerciseView builds the panel for an exercise with the code to show.
func (s *Server) exerciseView(lesson *lessons.Lesson, ex *lessons.Exercise, code string) *ExerciseView {
	v := &ExerciseView{
		ID: ex.ID, Title: ex.Title, PromptHTML: ex.PromptHTML, Samples: ex.Samples, HiddenCount: len(ex.Hidden),
		XP: ex.XPValue(), Code: code, Action: "/lessons/" + lesson.Slug + "/exercises/" + ex.ID,
	}
	if ex.MCP != nil {
		if plan, ok := s.app.Plan(ex.ID); ok {
			v.MCPCalls = mcpCallViews(plan.MCPCalls(grading.Run))
		}
		v.HiddenCount = ex.MCP.HiddenCount()
	}
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
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: "The form could not be read; if your code is very long, shorten it.", Err: err}
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
	if a := progress.ActorFrom(r.Context()); a.Known {
		return "learner:" + a.ID
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}
