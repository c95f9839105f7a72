// Package grading is the one path from a lesson's exercise to a verdict: it
// turns each exercise of a course into a Plan once, when the course loads
// (comparison mode parsed, sandbox cases and MCP calls built), and grades
// code against a plan in the sandbox. The web server's run and submit, and
// the command line's check, grade and run, all grade through here, so the
// command line grades exactly as the server does.
//
// Grading happens on the host: the guest only produces output, and the
// sandbox compares it with the expected result. Results for learners are
// cut by Plan.ForLearner: a hidden case says only passed or failed, with
// its name and the author's message, never anything the program chose.
package grading

import (
	"context"
	"errors"
	"fmt"
	"time"

	"learn/lessons"
	"learn/sandbox"
)

// Mode says which cases a grading runs.
type Mode string

// Modes. Run grades the sample cases only; Submit grades every case,
// hidden ones included, and is the one that can solve an exercise.
const (
	Run    Mode = "run"
	Submit Mode = "submit"
)

// ParseMode returns the mode named s; anything but "submit" is Run.
func ParseMode(s string) Mode {
	if s == string(Submit) {
		return Submit
	}
	return Run
}

// Runner is what grading needs from the sandbox; *sandbox.Sandbox is one.
type Runner interface {
	// Grade runs code on every case and compares its output (see
	// sandbox.Sandbox.Grade for the errors).
	Grade(ctx context.Context, code string, cases []sandbox.Case, cmp sandbox.Comparison) (sandbox.Report, error)
	// GradeMCP runs code as an MCP server and plays the client (see
	// sandbox.Sandbox.GradeMCP).
	GradeMCP(ctx context.Context, code string, calls []sandbox.MCPCall, opt sandbox.MCPOptions) (sandbox.MCPReport, error)
	// Run runs a program once with stdin.
	Run(ctx context.Context, code, stdin string) (sandbox.RunResult, error)
}

// Plan is one exercise made ready to grade.
type Plan struct {
	// Exercise is the exercise the plan grades.
	Exercise *lessons.Exercise

	cmp         sandbox.Comparison
	sample, all []sandbox.Case
	mcp         bool
	mcpSample   []sandbox.MCPCall
	mcpAll      []sandbox.MCPCall
	mcpOptions  sandbox.MCPOptions
}

// NewPlan builds the plan of one exercise. It fails when the exercise's
// comparison mode is not one the sandbox knows.
func NewPlan(ex *lessons.Exercise) (*Plan, error) {
	p := &Plan{Exercise: ex}
	if ex.MCP != nil {
		p.mcp = true
		for _, c := range ex.MCP.Calls {
			call := sandboxCall(c)
			p.mcpAll = append(p.mcpAll, call)
			if !c.Hidden {
				p.mcpSample = append(p.mcpSample, call)
			}
		}
		p.mcpOptions = sandbox.MCPOptions{Version: ex.MCP.Version}
		return p, nil
	}
	cmp, err := sandbox.ParseComparison(ex.Comparison())
	if err != nil {
		return nil, fmt.Errorf("grading: exercise %s: %w", ex.ID, err)
	}
	p.cmp = cmp
	for _, c := range ex.Samples {
		p.sample = append(p.sample, sandboxCase(ex, c, false))
	}
	p.all = append(p.all, p.sample...)
	for _, c := range ex.Hidden {
		p.all = append(p.all, sandboxCase(ex, c, true))
	}
	return p, nil
}

// sandboxCall is the sandbox's form of one of the exercise's MCP calls.
func sandboxCall(c lessons.MCPCall) sandbox.MCPCall {
	return sandbox.MCPCall{Name: c.Name, Hidden: c.Hidden, Method: c.Method, Tool: c.Tool, Arguments: c.Arguments,
		Expect: c.Expect, Code: c.Code, TextContains: c.TextContains, StructuredKeys: c.StructuredKeys, Hints: c.Hints,
		TextChecks: (*sandbox.Checks)(c.TextChecks), SameAs: c.SameAs, OutputSchema: c.OutputSchema, Advice: c.Advice}
}

func sandboxCase(ex *lessons.Exercise, c lessons.ExerciseCase, hidden bool) sandbox.Case {
	return sandbox.Case{Name: c.Name, Stdin: c.Stdin, Expected: c.Expected, Hidden: hidden,
		Schema: ex.Schema, Checks: (*sandbox.Checks)(c.Checks)}
}

// MCP reports whether the exercise is an MCP playground.
func (p *Plan) MCP() bool { return p.mcp }

// MCPCalls returns the host's calls a mode sends, for an MCP exercise.
func (p *Plan) MCPCalls(m Mode) []sandbox.MCPCall {
	if m == Submit {
		return p.mcpAll
	}
	return p.mcpSample
}

// Result is a graded run or submission.
type Result struct {
	Mode   Mode
	Report sandbox.Report
	// MCP is the transcript of an MCP exercise; nil otherwise.
	MCP *sandbox.MCPReport
}

// Passed reports whether every case passed.
func (r Result) Passed() bool { return r.Report.Passed }

// Redacted returns the result without what hidden cases hold: they keep
// only their name, verdict and message, and hidden MCP calls leave the
// transcript. It is what a teacher sees of a learner's submission; a
// learner sees less (Plan.ForLearner).
func (r Result) Redacted() Result {
	out := r
	out.Report = r.Report.Redacted()
	if r.MCP != nil {
		m := r.MCP.Redacted()
		out.MCP = &m
		out.Report = m.Report
	}
	return out
}

// ForLearner returns the result as the learner who sent the code may see
// it. Sample cases keep their whole verdict. A hidden case says only
// whether it passed, under its name, with a message the author wrote (the
// rule of the prompt it checks) or, without one, what kind of answer it
// wanted: never a verdict kind, output or message chosen by the learner's
// program, which could otherwise carry a hidden input out a few bits per
// submission. Hidden MCP calls also leave the transcript.
func (p *Plan) ForLearner(r Result) Result {
	out := r.Redacted()
	rules, calls := map[string]string{}, map[string]sandbox.MCPCall{}
	for _, c := range p.Exercise.Hidden {
		rules[c.Name] = c.Rule
	}
	if p.Exercise.MCP != nil {
		for _, c := range p.Exercise.MCP.Calls {
			rules[c.Name] = c.Rule
		}
		for _, c := range p.mcpAll {
			calls[c.Name] = c
		}
	}
	cases := make([]sandbox.CaseResult, len(out.Report.Cases))
	for i, c := range out.Report.Cases {
		if !c.Hidden {
			cases[i] = c
			continue
		}
		cases[i] = sandbox.CaseResult{Name: c.Name, Hidden: true, Verdict: sandbox.VerdictPassed, Message: "Passed."}
		if c.Verdict != sandbox.VerdictPassed {
			cases[i].Verdict, cases[i].Message = sandbox.VerdictFailed, hiddenFailure(rules[c.Name], calls[c.Name], p.mcp)
		}
	}
	out.Report.Cases = cases
	if out.MCP != nil {
		out.MCP.Report = out.Report
	}
	return out
}

// hiddenFailure is the message of a failed hidden case: the rule its author
// quoted from the prompt, else for an MCP call the kind of answer it
// wanted, else a general pointer. Nothing in it depends on what the
// learner's program did.
func hiddenFailure(rule string, call sandbox.MCPCall, mcp bool) string {
	switch {
	case rule != "":
		return "A hidden case failed. It checks: " + rule
	case !mcp:
		return "A hidden case failed: try inputs the samples do not show, such as edge cases and unusual values."
	case len(call.Hints) > 0:
		return "A hidden check of the tool list failed: some tool's hints do not fit what it does. Look again at each hint of every tool."
	case call.Expect == sandbox.ExpectToolError:
		return "A hidden call should get a tool error (isError: true) whose text tells the model what went wrong and what to do. Try failures the sample calls do not show."
	case call.Expect == sandbox.ExpectProtocolError:
		return "A hidden call should get a protocol error (a JSON-RPC error object). Check which failures belong on that channel."
	}
	return "A hidden call should get a result the model can use, with what the call asks for. Try inputs the sample calls do not show."
}

// Grade grades code against the plan's cases for the mode. Errors are the
// sandbox's: a *sandbox.BusyError (matching sandbox.ErrBusy) when the
// queue is full, sandbox.ErrCodeTooLarge, or a failure of the sandbox
// itself. A learner's broken code is no error: it is a verdict.
func (p *Plan) Grade(ctx context.Context, r Runner, code string, m Mode) (Result, error) {
	res := Result{Mode: m}
	if p.mcp {
		rep, err := r.GradeMCP(ctx, code, p.MCPCalls(m), p.mcpOptions)
		if err != nil {
			return res, err
		}
		res.Report, res.MCP = rep.Report, &rep
		return res, nil
	}
	cases := p.sample
	if m == Submit {
		cases = p.all
	}
	rep, err := r.Grade(ctx, code, cases, p.cmp)
	if err != nil {
		return res, err
	}
	res.Report = rep
	return res, nil
}

// GradeWaiting is Grade for the command line: while the sandbox is busy it
// waits and tries again, until ctx ends.
func (p *Plan) GradeWaiting(ctx context.Context, r Runner, code string, m Mode) (Result, error) {
	for {
		res, err := p.Grade(ctx, r, code, m)
		var busy *sandbox.BusyError
		if !errors.As(err, &busy) {
			return res, err
		}
		wait := busy.RetryAfter
		if wait <= 0 || wait > time.Second {
			wait = 50 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// RunProgram runs code once with stdin under the sandbox's limits, as
// "learn run" does.
func RunProgram(ctx context.Context, r Runner, code, stdin string) (sandbox.RunResult, error) {
	return r.Run(ctx, code, stdin)
}

// Book holds the plans of every exercise of one course.
type Book struct {
	plans map[string]*Plan
}

// Compile builds the plan of every exercise of the course. It fails on the first exercise that cannot be planned.
func Compile(c *lessons.Course) (*Book, error) {
	b := &Book{plans: map[string]*Plan{}}
	for _, l := range c.Lessons {
		for _, ex := range l.Exercises() {
			p, err := NewPlan(ex)
			if err != nil {
				return nil, err
			}
			b.plans[ex.ID] = p
		}
	}
	return b, nil
}

// Plan returns the plan of the exercise with this id.
func (b *Book) Plan(id string) (*Plan, bool) {
	p, ok := b.plans[id]
	return p, ok
}
