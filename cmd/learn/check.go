package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"strings"

	"learn/grading"
	"learn/lessons"
	"learn/quiz"
	"learn/sandbox"
	"learn/sandbox/mcpschema"
)

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("check", "", stderr)
	skipRun := fs.Bool("no-run", false, "check the files only; do not run exercise solutions and starters in the sandbox")
	var sf sandboxFlags
	sf.add(fs)
	fs.Usage = usageWithArgs(fs, "check [flags] [DIR]", "Check a course folder (the built-in course without DIR) and print every problem as file:line: message.\n"+
		"Every exercise's reference solution must pass all its cases and its starter must fail at least one.\nExit status 1 means problems were found.")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "learn check: give at most one folder")
		return errUsage
	}
	fsys, name := lessons.BuiltIn(), "built-in course"
	if fs.NArg() == 1 {
		dir := fs.Arg(0)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("check: %s is not a folder: give the folder that holds the lesson .md files", dir)
		}
		fsys, name = os.DirFS(dir), dir
	}
	course, err := lessons.Load(fsys)
	var problems lessons.Problems
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Fprintln(stdout, p.String())
		}
		fmt.Fprintf(stdout, "%s: %d problem(s)\n", name, len(problems))
		return errProblems
	}
	if err != nil {
		return err
	}
	if ps := schemaProblems(course); len(ps) > 0 {
		for _, p := range ps {
			fmt.Fprintln(stdout, p.String())
		}
		fmt.Fprintf(stdout, "%s: %d problem(s)\n", name, len(ps))
		return errProblems
	}
	counts := countCourse(course)
	if !*skipRun && counts.exercises > 0 {
		cfg, err := sf.config()
		if err != nil {
			return err
		}
		problems, err := checkExercises(ctx, cfg, course, stderr)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			for _, p := range problems {
				fmt.Fprintln(stdout, p.String())
			}
			fmt.Fprintf(stdout, "%s: %d problem(s)\n", name, len(problems))
			return errProblems
		}
	}
	ran := "solutions and starters run in the sandbox"
	if *skipRun {
		ran = "not run (--no-run)"
	}
	fmt.Fprintf(stdout, "%s: ok — %d lessons, %d widgets (%d classify, %d annotate, %d quizzes), %d quiz questions, %d exercises (%s)\n",
		name, len(course.Lessons), counts.widgets, counts.classify, counts.annotate, counts.quizzes, counts.questions, counts.exercises, ran)
	return nil
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

// checkExercises runs every exercise's solution (it must pass every case)
// and starter (it must fail at least one), drawing a progress bar on
// stderr.
func checkExercises(ctx context.Context, cfg sandbox.Config, course *lessons.Course, stderr io.Writer) ([]lessons.Problem, error) {
	type job struct {
		lesson *lessons.Lesson
		ex     *lessons.Exercise
		plan   *grading.Plan
		line   int
	}
	book, err := grading.Compile(course)
	if err != nil {
		return nil, err
	}
	var jobs []job
	for _, l := range course.Lessons {
		for _, s := range l.Segments {
			if s.Widget != nil && s.Widget.Exercise != nil {
				plan, _ := book.Plan(s.Widget.Exercise.ID)
				jobs = append(jobs, job{l, s.Widget.Exercise, plan, s.Widget.Line})
			}
		}
	}
	bar := newProgress(stderr, 2*len(jobs))
	bar.step("starting the sandbox")
	box, err := startSandbox(ctx, cfg, stderr, true)
	if err != nil {
		return nil, err
	}
	defer box.Close(context.Background())
	var problems []lessons.Problem
	for _, j := range jobs {
		bar.step(j.ex.ID + ": reference solution")
		res, err := j.plan.GradeWaiting(ctx, box, j.ex.Solution, grading.Submit)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", j.ex.ID, err)
		}
		for _, c := range res.Report.Cases {
			if c.Verdict != sandbox.VerdictPassed {
				problems = append(problems, lessons.Problem{File: j.lesson.File, Line: j.line,
					Message: fmt.Sprintf("exercise %s: the reference solution fails case %q (%s): %s", j.ex.ID, c.Name, c.Verdict, c.Message)})
			}
		}
		bar.step(j.ex.ID + ": starter code")
		res, err = j.plan.GradeWaiting(ctx, box, j.ex.Starter, grading.Submit)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", j.ex.ID, err)
		}
		if res.Passed() {
			problems = append(problems, lessons.Problem{File: j.lesson.File, Line: j.line,
				Message: fmt.Sprintf("exercise %s: the starter code already passes every case; give learners something to fix", j.ex.ID)})
		}
	}
	bar.done()
	return problems, nil
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
