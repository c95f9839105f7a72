package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"learn/grading"
	"learn/sandbox"
)

// startSandbox builds and warms a sandbox for a command-line run, with
// progress on stderr.
func startSandbox(ctx context.Context, cfg sandbox.Config, stderr io.Writer, quiet bool) (*sandbox.Sandbox, error) {
	cfg.PoolSize = 0
	box, err := sandbox.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	progress := func(msg string) {
		if !quiet {
			fmt.Fprintln(stderr, "sandbox: "+msg)
		}
	}
	if err := box.Warm(ctx, progress); err != nil {
		box.Close(context.Background())
		return nil, err
	}
	return box, nil
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("run", "Run a Python file in the sandbox with the server's limits and print its output.", stderr)
	stdinFile := fs.String("stdin", "", "`file` whose contents are the program's standard input")
	var sf sandboxFlags
	sf.add(fs)
	fs.Usage = usageWithArgs(fs, "run [flags] FILE.py", "Run a Python file in the sandbox with the server's limits and print its output.")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	cfg, err := sf.config()
	if err != nil {
		return err
	}
	code, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	var stdin []byte
	if *stdinFile != "" {
		if stdin, err = os.ReadFile(*stdinFile); err != nil {
			return fmt.Errorf("run: --stdin: %w", err)
		}
	}
	box, err := startSandbox(ctx, cfg, stderr, true)
	if err != nil {
		return err
	}
	defer box.Close(context.Background())
	res, err := grading.RunProgram(ctx, box, string(code), string(stdin))
	if err != nil {
		return fmt.Errorf("run %s: %w", fs.Arg(0), err)
	}
	io.WriteString(stdout, res.Stdout)
	io.WriteString(stderr, res.Stderr)
	if res.Message != "" {
		fmt.Fprintln(stderr, "learn run: "+res.Message)
	}
	if res.ExitCode != 0 || res.Limit != sandbox.LimitNone {
		return errProblems
	}
	return nil
}

func runGrade(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("grade", "", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	lessonsDir := fs.String("lessons", "", "course `folder` holding the exercise (default: the built-in course)")
	var sf sandboxFlags
	sf.add(fs)
	fs.Usage = usageWithArgs(fs, "grade [flags] EXERCISE_ID FILE.py", "Grade a Python file against every case of an exercise, hidden ones included. Exit status 0 only if all pass.")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errUsage
	}
	cfg, err := sf.config()
	if err != nil {
		return err
	}
	course, name, err := loadSoundCourse(*lessonsDir)
	if err != nil {
		return err
	}
	book, err := grading.Compile(course)
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	plan, ok := book.Plan(fs.Arg(0))
	if !ok {
		var ids []string
		for _, l := range course.Lessons {
			for _, e := range l.Exercises() {
				ids = append(ids, e.ID)
			}
		}
		return fmt.Errorf("grade: no exercise %q in the %s; exercises: %s", fs.Arg(0), name, strings.Join(ids, ", "))
	}
	code, err := os.ReadFile(fs.Arg(1))
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	box, err := startSandbox(ctx, cfg, stderr, *asJSON)
	if err != nil {
		return err
	}
	defer box.Close(context.Background())
	res, err := plan.GradeWaiting(ctx, box, string(code), grading.Submit)
	report := res.Report
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else {
		printReport(stdout, report)
	}
	if !report.Passed {
		return errProblems
	}
	return nil
}

// printReport writes one line per case and the detail of failures.
func printReport(w io.Writer, r sandbox.Report) {
	passed := 0
	for _, c := range r.Cases {
		mark := "FAIL"
		if c.Verdict == sandbox.VerdictPassed {
			mark, passed = "ok  ", passed+1
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, c.Name, c.Verdict)
		if c.Verdict != sandbox.VerdictPassed {
			fmt.Fprintf(w, "     %s\n", c.Message)
			for _, part := range []string{c.Diff, c.Error} {
				if part != "" {
					fmt.Fprintln(w, indent(part, "     "))
				}
			}
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, len(r.Cases)-passed)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

// usageWithArgs returns a usage function for a command with arguments.
func usageWithArgs(fs interface {
	Output() io.Writer
	PrintDefaults()
}, synopsis, summary string) func() {
	return func() {
		fmt.Fprintf(fs.Output(), "%s\n\nUsage:\n  learn %s\n\nFlags (each also read from the environment variable shown):\n", summary, synopsis)
		fs.PrintDefaults()
	}
}
