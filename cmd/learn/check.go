package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"learn/lessons"
)

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("check", "Check a course folder (the built-in course when no folder is given) and print every problem as file:line: message.", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Check a course folder and print every problem as file:line: message.\n\nUsage:\n  learn check [DIR]\n\nWith no DIR, the built-in course is checked. Exit status 1 means problems were found.\n")
	}
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
	widgets := 0
	for _, l := range course.Lessons {
		for _, s := range l.Segments {
			if s.Widget != nil {
				widgets++
			}
		}
	}
	fmt.Fprintf(stdout, "%s: ok — %d lessons, %d widgets checked\n", name, len(course.Lessons), widgets)
	return nil
}
