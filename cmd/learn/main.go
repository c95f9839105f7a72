// Command learn serves the MCP errors course, checks course folders, and
// runs Python in the sandbox from the command line.
//
//	learn serve    run the web app
//	learn check    validate a course folder
//	learn new      start a course folder or add a lesson
//
// Every flag has a LEARN_* environment variable; a flag given on the
// command line wins over the variable.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"syscall"
	"time"

	"learn/sandbox"
)

const usage = `learn teaches how MCP servers report failures and describe their tools.

Usage:
  learn <command> [flags]

Commands:
  serve   run the web app: the course, quizzes and the Python sandbox
  check   validate a course folder and print every problem as file:line: message;
          runs every exercise's reference solution and starter in the sandbox
  new     start a course folder (new course DIR) or add a lesson to one
          (new lesson DIR --title "…"); never overwrites a file
  run     run a Python file in the sandbox with the server's limits
  grade   grade a Python file against all cases of an exercise
  backup  copy the database to a file, safely while the server runs
  rotate-keys
          replace the key that signs learner cookies (old cookies keep
          working for a grace period)
  migrate-db
          copy a SQLite database into an empty PostgreSQL one and check the
          counts (migrate-db --from learn.db --to postgres://…)
  teacher add, list or remove the teachers who sign in to follow classes
  lti     register the LMSs (LTI 1.3 platforms) that may launch learn: invite
          one to register by dynamic registration, or add, list, remove
  stats   report how each quiz question, widget item and exercise went across
          every learner: facility, discrimination, choices, flags (--json, --csv)
  version print the version of this program

Run "learn <command> --help" for the flags of a command. Flags may come
before or after a command's arguments; "--" ends the flags.
`

func main() {
	// A sandbox worker is this same binary started by the sandbox: it runs
	// learners' code and never returns.
	sandbox.WorkerMain()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the process exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = runServe(ctx, args[1:], stdout, stderr)
	case "check":
		err = runCheck(ctx, args[1:], stdout, stderr)
	case "new":
		err = runNew(args[1:], stdout, stderr)
	case "run":
		err = runRun(ctx, args[1:], stdout, stderr)
	case "grade":
		err = runGrade(ctx, args[1:], stdout, stderr)
	case "backup":
		err = runBackup(ctx, args[1:], stdout, stderr)
	case "rotate-keys":
		err = runRotateKeys(ctx, args[1:], stdout, stderr)
	case "migrate-db":
		err = runMigrateDB(ctx, args[1:], stdout, stderr)
	case "lti":
		err = runLTI(ctx, args[1:], stdout, stderr)
	case "teacher":
		err = runTeacher(ctx, args[1:], os.Stdin, stdout, stderr)
	case "stats":
		err = runStats(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, version())
		return 0
	default:
		fmt.Fprintf(stderr, "learn: unknown command %q\nRun \"learn help\" to see the commands.\n", args[0])
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errProblems):
		return 1
	default:
		fmt.Fprintf(stderr, "learn: %v\n", err)
		return 1
	}
}

// errUsage marks a command-line mistake already reported to the user.
var errUsage = errors.New("usage")

// errProblems marks a check that found problems it already printed.
var errProblems = errors.New("problems found")

// flagSet returns a flag set whose usage text starts with the summary.
func flagSet(name, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nUsage:\n  learn %s [flags]\n\nFlags (each also read from the environment variable shown):\n", summary, name)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, whose flags may come before, between or after
// the other arguments (see flagsFirst), then fills every flag not given on
// the command line from its LEARN_* environment variable. The other
// arguments are fs.Args() afterwards. A mistake is told in one line, with
// where to read the flags, so that it does not scroll away under them.
func parseFlags(fs *flag.FlagSet, args []string, env map[string]string) error {
	out := fs.Output()
	mistake := func(msg string) error {
		fmt.Fprintf(out, "learn %s: %s\nRun \"learn %s -h\" to see its flags.\n", fs.Name(), msg, fs.Name())
		return errUsage
	}
	ordered, err := flagsFirst(fs, args)
	if err != nil {
		return mistake(err.Error())
	}
	fs.SetOutput(io.Discard)
	err = fs.Parse(ordered)
	fs.SetOutput(out)
	if errors.Is(err, flag.ErrHelp) {
		fs.Usage()
		return err
	}
	if err != nil {
		return mistake(flagMistake(fs, err))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, variable := range env {
		v, ok := os.LookupEnv(variable)
		if !ok || given[name] {
			continue
		}
		if err := fs.Set(name, v); err != nil {
			return fmt.Errorf("environment variable %s=%q: %s", variable, v, valueAdvice(fs.Lookup(name), v))
		}
	}
	return nil
}

var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	invalidValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for flag -+([^:]*): `)
)

// flagMistake rewords an error of the flag package for a person.
func flagMistake(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown flag --%s", m[1])
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			return fmt.Sprintf("--%s %s: %s", m[2], m[1], valueAdvice(f, m[1]))
		}
	}
	return msg
}

// valueAdvice says what a value of flag f looks like, for a value v it
// does not take.
func valueAdvice(f *flag.Flag, v string) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "not a valid value"
	}
	switch g.Get().(type) {
	case time.Duration:
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return fmt.Sprintf("a duration needs its unit: write %ss (seconds), or such as 500ms, 2m or 1h30m", v)
		}
		return "not a duration: write one such as 5s, 500ms, 2m or 1h30m"
	case int, int64, uint, uint64:
		return "not a whole number: write one such as " + f.DefValue
	case bool:
		return "write true or false, or give the flag alone for true"
	}
	return "not a valid value (the default is " + f.DefValue + ")"
}

// envName returns the environment variable for a flag: LEARN_ and the flag
// name in capitals with hyphens as underscores.
func envName(flagName string) string {
	b := []byte("LEARN_")
	for _, c := range []byte(flagName) {
		switch {
		case c == '-':
			b = append(b, '_')
		case c >= 'a' && c <= 'z':
			b = append(b, c-'a'+'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// withEnv appends the environment variable to each flag's usage line and
// returns the flag -> variable map for parseFlags.
func withEnv(fs *flag.FlagSet) map[string]string {
	env := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		env[f.Name] = envName(f.Name)
		f.Usage += " [" + env[f.Name] + "]"
	})
	return env
}
