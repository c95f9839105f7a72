package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"learn/grading"
	"learn/lessons"
	"learn/quiz"
	"learn/sandbox"
	"learn/sandbox/mcpschema"
	"learn/web"
)

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("check", "", stderr)
	skipRun := fs.Bool("no-run", false, "check the files only; do not run exercise solutions and starters in the sandbox")
	asJSON := fs.Bool("json", false, "print each problem as one JSON object per line (file, line, column, message, severity) for editors and CI; the summary goes to stderr")
	strict := fs.Bool("strict", false, "fail on warnings too (a lesson with no practice, a short quiz, an image without alt text, …)")
	var sf sandboxFlags
	sf.add(fs)
	fs.Usage = usageWithArgs(fs, "check [flags] [DIR]", "Check a course folder (the built-in course without DIR) and print every problem as file:line: message.\n"+
		"Every exercise's reference solution and other_solutions must pass all its cases; its starter and each of its wrong_solutions must fail at least one.\n"+
		"--strict also warns about an exercise with fewer than 5 wrong or 3 other right solutions, and a hidden case that quotes no rule of the prompt.\n"+
		"Warnings are shown but do not fail the check unless --strict.\nExit status 1 means problems were found.")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "learn check: give at most one folder")
		return errUsage
	}
	fsys, name, dir := lessons.BuiltIn(), "built-in course", ""
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
		folder, closer, err := lessons.OpenFolder(dir)
		if err != nil {
			return fmt.Errorf("check: %w", err)
		}
		defer closer.Close()
		fsys, name = folder, dir
	}
	rep := checkReport{out: stdout, errOut: stderr, name: name, dir: dir, json: *asJSON, strict: *strict}
	// The lessons without errors of their own are checked to the end, their
	// exercises run, whatever is wrong elsewhere in the folder.
	course, problems, err := lessons.LoadSound(fsys)
	if err != nil {
		return err
	}
	schema := schemaProblems(course)
	problems = append(problems, schema...)
	if *strict {
		problems = append(problems, graderWarnings(course)...)
	}
	counts := countCourse(course)
	if !*skipRun && counts.exercises > 0 {
		cfg, err := sf.config()
		if err != nil {
			return err
		}
		skip := map[int]bool{}
		for _, p := range schema {
			skip[p.Line] = true
		}
		ps, err := checkExercises(ctx, cfg, course, skip, stderr)
		if err != nil {
			return err
		}
		problems = append(problems, ps...)
	}
	if len(problems.Errors()) > 0 {
		return rep.fail(problems)
	}
	course.Warnings = problems
	if err := rep.warn(course.Warnings); err != nil {
		return err
	}
	ran := "solutions and starters run in the sandbox"
	if *skipRun {
		ran = "not run (--no-run)"
	}
	warned := ""
	if n := len(course.Warnings); n > 0 {
		warned = "; " + web.Plural(n, "warning", "warnings")
	}
	fmt.Fprintf(rep.summaryOut(), "%s: ok — %s, %s (%d classify, %d annotate, %s), %s, %s (%s)%s\n",
		name, web.Plural(len(course.Lessons), "lesson", "lessons"), web.Plural(counts.widgets, "widget", "widgets"), counts.classify, counts.annotate,
		web.Plural(counts.quizzes, "quiz", "quizzes"), web.Plural(counts.questions, "quiz question", "quiz questions"), web.Plural(counts.exercises, "exercise", "exercises"), ran, warned)
	return nil
}

// checkReport prints problems as text lines or JSON lines.
type checkReport struct {
	out, errOut  io.Writer
	name, dir    string
	json, strict bool
}

// problemJSON is one problem as learn check --json prints it. File is the
// path as given on the command line joined with the file's path in the
// folder, so an editor can open it.
type problemJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
	// Detail is what the text form shows below the message, such as a
	// failing case's diff.
	Detail   string `json:"detail,omitempty"`
	Severity string `json:"severity"`
}

// summaryOut is where the closing summary goes: stdout for people, stderr
// beside JSON lines.
func (r checkReport) summaryOut() io.Writer {
	if r.json {
		return r.errOut
	}
	return r.out
}

func (r checkReport) print(ps lessons.Problems) {
	for _, p := range ps {
		if !r.json {
			fmt.Fprintln(r.out, p.String())
			continue
		}
		file := p.File
		if r.dir != "" {
			file = filepath.Join(r.dir, p.File)
		}
		line, err := json.Marshal(problemJSON{File: file, Line: p.Line, Column: p.Column, Message: p.Message, Detail: p.Detail, Severity: string(p.Level())})
		if err != nil {
			// A struct of strings and ints always marshals.
			panic(err)
		}
		fmt.Fprintln(r.out, string(line))
	}
}

// fail prints the problems and a summary, and returns errProblems.
func (r checkReport) fail(ps lessons.Problems) error {
	r.print(ps)
	fmt.Fprintf(r.summaryOut(), "%s: %d problem(s)%s\n", r.name, len(ps.Errors()), warningCount(ps))
	return errProblems
}

// warn prints the warnings of a course that loaded; with --strict they
// fail the check.
func (r checkReport) warn(ws lessons.Problems) error {
	if len(ws) == 0 {
		return nil
	}
	if r.strict {
		return r.fail(ws)
	}
	r.print(ws)
	return nil
}

func warningCount(ps lessons.Problems) string {
	if n := len(ps.Warnings()); n > 0 {
		s := fmt.Sprintf(" and %d warning(s)", n)
		if len(ps.Errors()) == 0 {
			s += " (--strict)"
		}
		return s
	}
	return ""
}

// courseCounts is what learn check reports having checked.
type courseCounts struct {
	widgets, classify, annotate, quizzes, questions, exercises int
}

func countCourse(c *lessons.Course) courseCounts {
	var n courseCounts
	for _, l := range c.Lessons {
		for _, s := range l.Segments {
			if s.Widget == nil {
				continue
			}
			n.widgets++
			switch s.Widget.Kind {
			case quiz.KindClassify:
				n.classify++
			case quiz.KindAnnotate:
				n.annotate++
			case quiz.KindQuiz:
				n.quizzes++
				n.questions += len(s.Widget.Value.(*quiz.Quiz).Questions)
			case lessons.KindExercise:
				n.exercises++
			}
		}
	}
	return n
}

// schemaProblems names every exercise whose schema is no definition of the
// MCP schema the sandbox embeds (lessons cannot know the schema).
func schemaProblems(c *lessons.Course) []lessons.Problem {
	var ps []lessons.Problem
	for _, l := range c.Lessons {
		for _, s := range l.Segments {
			if s.Widget == nil || s.Widget.Exercise == nil || s.Widget.Exercise.Schema == "" || mcpschema.Has(s.Widget.Exercise.Schema) {
				continue
			}
			ps = append(ps, lessons.Problem{File: l.File, Line: s.Widget.Line, Message: fmt.Sprintf(
				"exercise %s: schema %q is not a definition of the MCP %s schema: use one such as \"JSONRPCResponse\", \"JSONRPCErrorResponse\" or \"CallToolResult\"",
				s.Widget.Exercise.ID, s.Widget.Exercise.Schema, mcpschema.Version)})
		}
	}
	return ps
}

// exerciseJob is one exercise for checkExercises to run.
type exerciseJob struct {
	lesson *lessons.Lesson
	ex     *lessons.Exercise
	plan   *grading.Plan
	line   int
}

// exerciseJobs lists the exercises of course but those whose block starts
// on a line in skip, with a problem for each that cannot be graded.
func exerciseJobs(course *lessons.Course, skip map[int]bool) ([]exerciseJob, []lessons.Problem) {
	var jobs []exerciseJob
	var problems []lessons.Problem
	for _, l := range course.Lessons {
		for _, s := range l.Segments {
			if s.Widget == nil || s.Widget.Exercise == nil || skip[s.Widget.Line] {
				continue
			}
			plan, err := grading.NewPlan(s.Widget.Exercise)
			if err != nil {
				problems = append(problems, lessons.Problem{File: l.File, Line: s.Widget.Line, Message: fmt.Sprintf("exercise %s cannot be graded: %v", s.Widget.Exercise.ID, err)})
				continue
			}
			jobs = append(jobs, exerciseJob{l, s.Widget.Exercise, plan, s.Widget.Line})
		}
	}
	return jobs, problems
}

// checkExercises runs every exercise's solution (it must pass every case)
// and starter (it must fail at least one), but those whose block starts on
// a line in skip, in a sandbox of its own, drawing a progress bar on
// stderr.
func checkExercises(ctx context.Context, cfg sandbox.Config, course *lessons.Course, skip map[int]bool, stderr io.Writer) ([]lessons.Problem, error) {
	jobs, problems := exerciseJobs(course, skip)
	steps := 0
	for _, j := range jobs {
		steps += 2 + len(j.ex.WrongSolutions) + len(j.ex.OtherSolutions)
	}
	bar := newProgress(stderr, steps)
	bar.step("starting the sandbox")
	box, err := startSandbox(ctx, cfg, stderr, true)
	if err != nil {
		return nil, err
	}
	defer box.Close(context.Background())
	ps, err := runExercises(ctx, box, jobs, true, bar.step)
	bar.done()
	return append(problems, ps...), err
}

// runExercises grades each job's reference solution (it must pass every
// case) and starter (it must fail one) with r, and with all its wrong and
// other solutions too, calling step before each. A failing case's problem
// shows its expected and actual output as a diff.
func runExercises(ctx context.Context, r grading.Runner, jobs []exerciseJob, all bool, step func(string)) ([]lessons.Problem, error) {
	var problems []lessons.Problem
	for _, j := range jobs {
		step(j.ex.ID + ": reference solution")
		res, err := j.plan.GradeWaiting(ctx, r, j.ex.Solution, grading.Submit)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", j.ex.ID, err)
		}
		for _, c := range res.Report.Cases {
			if c.Verdict != sandbox.VerdictPassed {
				problems = append(problems, lessons.Problem{File: j.lesson.File, Line: j.line, Detail: caseDetail(c),
					Message: fmt.Sprintf("exercise %s: the reference solution fails case %q (%s): %s", j.ex.ID, c.Name, c.Verdict, c.Message)})
			}
		}
		step(j.ex.ID + ": starter code")
		res, err = j.plan.GradeWaiting(ctx, r, j.ex.Starter, grading.Submit)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", j.ex.ID, err)
		}
		if res.Passed() {
			problems = append(problems, lessons.Problem{File: j.lesson.File, Line: j.line, Detail: passedDetail(res.Report.Cases),
				Message: fmt.Sprintf("exercise %s: the starter code already passes every case; give learners something to fix", j.ex.ID)})
		}
		if !all {
			continue
		}
		for i, sol := range j.ex.WrongSolutions {
			step(fmt.Sprintf("%s: wrong solution %d", j.ex.ID, i+1))
			res, err := j.plan.GradeWaiting(ctx, r, sol.Code, grading.Submit)
			if err != nil {
				return nil, fmt.Errorf("check %s: wrong solution %d: %w", j.ex.ID, i+1, err)
			}
			if res.Passed() {
				problems = append(problems, lessons.Problem{File: j.lesson.File, Line: j.line,
					Message: fmt.Sprintf("exercise %s: wrong solution %d (%s) passes every case: add a case that it fails", j.ex.ID, i+1, sol.Note)})
			}
		}
		for i, sol := range j.ex.OtherSolutions {
			step(fmt.Sprintf("%s: other solution %d", j.ex.ID, i+1))
			res, err := j.plan.GradeWaiting(ctx, r, sol.Code, grading.Submit)
			if err != nil {
				return nil, fmt.Errorf("check %s: other solution %d: %w", j.ex.ID, i+1, err)
			}
			for _, c := range res.Report.Cases {
				if c.Verdict != sandbox.VerdictPassed {
					problems = append(problems, lessons.Problem{File: j.lesson.File, Line: j.line, Detail: caseDetail(c),
						Message: fmt.Sprintf("exercise %s: other solution %d (%s) fails case %q (%s): %s", j.ex.ID, i+1, sol.Note, c.Name, c.Verdict, c.Message)})
				}
			}
		}
	}
	return problems, nil
}

// caseDetail shows why a case failed: its expected and actual output as a
// diff ("- " a line only expected has, "+ " one only the program printed),
// else its error or what the program printed.
func caseDetail(c sandbox.CaseResult) string {
	switch {
	case c.Diff != "":
		return "- expected\n+ actual\n" + c.Diff
	case c.Error != "":
		return c.Error
	case c.Actual != "" || c.Expected != "":
		return fmt.Sprintf("expected: %q\nactual:   %q", c.Expected, c.Actual)
	}
	return ""
}

// passedDetail lists each case with its expected and actual output, for a
// program that passes every case and should not.
func passedDetail(cases []sandbox.CaseResult) string {
	var b strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&b, "case %q: expected %q, actual %q\n", c.Name, c.Expected, c.Actual)
	}
	return b.String()
}

// Fewest grader solutions an exercise should list, below which learn check
// --strict warns.
const (
	minWrongSolutions = 5
	minOtherSolutions = 3
)

// graderWarnings are the warnings of --strict about exercises whose grader
// is tested too little: fewer wrong or other right solutions than the
// minimums, and hidden cases (or hidden MCP calls) that quote no rule of the
// prompt.
func graderWarnings(c *lessons.Course) []lessons.Problem {
	var ps []lessons.Problem
	for _, l := range c.Lessons {
		for _, s := range l.Segments {
			if s.Widget == nil || s.Widget.Exercise == nil {
				continue
			}
			ex := s.Widget.Exercise
			warn := func(format string, args ...any) {
				ps = append(ps, lessons.Problem{File: l.File, Line: s.Widget.Line, Severity: lessons.SeverityWarning,
					Message: fmt.Sprintf("exercise %s: ", ex.ID) + fmt.Sprintf(format, args...)})
			}
			if n := len(ex.WrongSolutions); n < minWrongSolutions {
				warn("it lists %d wrong solution(s): give at least %d, one for each rule of the prompt, one at the edge of each threshold and the lesson's common mistakes", n, minWrongSolutions)
			}
			if n := len(ex.OtherSolutions); n < minOtherSolutions {
				warn("it lists %d other right solution(s): give at least %d in other styles (other control flow, other SDK calls, other wording)", n, minOtherSolutions)
			}
			for _, h := range ex.Hidden {
				if strings.TrimSpace(h.Rule) == "" {
					warn("hidden case %q names no rule: quote, as its rule, the words of the prompt it checks", h.Name)
				}
			}
			if ex.MCP != nil {
				for _, call := range ex.MCP.Calls {
					if call.Hidden && strings.TrimSpace(call.Rule) == "" {
						warn("hidden call %q names no rule: quote, as its rule, the words of the prompt it checks", call.Name)
					}
				}
			}
		}
	}
	return ps
}

// progressBar draws "[#####-----] 3/10 what" on a terminal, or one line per
// step elsewhere (logs, CI).
type progressBar struct {
	w     io.Writer
	total int
	n     int
	tty   bool
}

func newProgress(w io.Writer, total int) *progressBar {
	p := &progressBar{w: w, total: total}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progressBar) step(what string) {
	const width = 24
	filled := 0
	if p.total > 0 {
		filled = width * p.n / p.total
	}
	line := fmt.Sprintf("[%s%s] %d/%d %s", strings.Repeat("#", filled), strings.Repeat("-", width-filled), p.n, p.total, what)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
	if what != "starting the sandbox" {
		p.n++
	}
}

func (p *progressBar) done() {
	p.n = p.total
	p.step("done")
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
