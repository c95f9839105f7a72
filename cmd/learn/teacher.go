package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"learn/progress"
)

const teacherUsage = `Manage the teachers who sign in at /signin.

Usage:
  learn teacher add EMAIL [--name NAME] [--admin] [--db FILE]
        asks for the password (twice, without echo), or reads one line
        from standard input when it is not a terminal
  learn teacher list [--db FILE]
  learn teacher remove EMAIL [--db FILE]
        removes the teacher, their sessions and their classes; learners
        keep their own progress

Flags (--db is also read from LEARN_DB):
`

// teacherArgsMistake says what is wrong with the arguments of learn
// teacher, or "" when they are an action with what it needs.
func teacherArgsMistake(pos []string) string {
	switch {
	case pos[0] == "list" && len(pos) > 1:
		return fmt.Sprintf("list takes no argument, but got %q", strings.Join(pos[1:], " "))
	case pos[0] == "list":
		return ""
	case pos[0] != "add" && pos[0] != "remove":
		return fmt.Sprintf("unknown action %q: use add EMAIL, list or remove EMAIL", pos[0])
	case len(pos) == 1:
		return fmt.Sprintf("give the teacher's e-mail address, such as \"learn teacher %s you@school.example\"", pos[0])
	case len(pos) > 2:
		return fmt.Sprintf("%s takes one e-mail address, but got %d arguments: %q (put a name with spaces in quotes after --name)", pos[0], len(pos)-1, strings.Join(pos[1:], " "))
	}
	return ""
}

// runTeacher is "learn teacher": it opens the database directly, so it
// works while the server runs (SQLite's WAL lets both write).
func runTeacher(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("teacher", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "learn.db", "the database: a SQLite `file`, or a postgres:// URL shared by several servers")
	// Only --db has an environment variable: a name or admin right taken
	// from the environment would surprise.
	env := withEnv(fs)
	name := fs.String("name", "", "the teacher's display `name` (default: the part of the e-mail before @)")
	admin := fs.Bool("admin", false, "let the teacher see the list of teachers")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), teacherUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	pos := fs.Args()
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
	}
	if msg := teacherArgsMistake(pos); msg != "" {
		fmt.Fprintf(stderr, "learn teacher: %s\n", msg)
		return errUsage
	}
	// The same database the server uses: a SQLite file, or PostgreSQL for
	// a postgres:// URL.
	st, _, err := openDatabase(ctx, *db, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer st.Close()
	switch pos[0] {
	case "add":
		pw, err := readPassword(stdin, stderr)
		if err != nil {
			return err
		}
		t, err := progress.AddTeacher(ctx, st, progress.TeacherInput{Email: pos[1], Name: *name, Password: pw, Admin: *admin}, time.Now())
		if err != nil {
			return userError(err)
		}
		fmt.Fprintf(stdout, "added teacher %s (%s); they sign in at /signin\n", t.Email, t.Name)
	case "list":
		list, err := progress.ListTeachers(ctx, st)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(stdout, `no teachers yet; add one with "learn teacher add EMAIL"`)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EMAIL\tNAME\tCLASSES\tADMIN")
		for _, t := range list {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%v\n", t.Email, t.Name, t.ClassCount, t.Admin)
		}
		return tw.Flush()
	case "remove":
		t, err := progress.RemoveTeacher(ctx, st, pos[1])
		if err != nil {
			return userError(err)
		}
		fmt.Fprintf(stdout, "removed teacher %s with their classes\n", t.Email)
	}
	return nil
}

// userError keeps only the message of a core error a user can act on.
func userError(err error) error {
	var pe *progress.Error
	if errors.As(err, &pe) && pe.Kind != progress.Internal {
		return errors.New(pe.Message)
	}
	return err
}

// readPassword asks twice without echo on a terminal, or reads one line
// from a pipe.
func readPassword(stdin io.Reader, stderr io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(stderr, "Password (at least 10 characters): ")
		first, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		fmt.Fprint(stderr, "Again: ")
		again, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		if string(first) != string(again) {
			return "", errors.New("the two passwords differ; nothing was added")
		}
		return string(first), nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		return "", errors.New("no password on standard input: pipe one line, or run in a terminal to be asked")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
