package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"learn/progress"
)

// runStats is "learn stats": the authors' report on every quiz question,
// widget item and exercise, across every learner of the database.
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("stats", "", stderr)
	db := fs.String("db", "learn.db", "the database: a SQLite `file`, or a postgres:// URL shared by several servers")
	lessonsDir := fs.String("lessons", "", "the course `folder` the server serves (default: the built-in course)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	asCSV := fs.Bool("csv", false, "print the report as CSV, one row per question, version, widget item and exercise")
	minAnswers := fs.Int("min-answers", progress.DefaultStatsMinAnswers, "fewest answers (a `number`) an item needs before it is flagged")
	fs.Usage = usageWithArgs(fs, "stats [flags]", "Report how every quiz question (and each of its versions), widget item and exercise went, across every learner:\n"+
		"answered, facility (the share right on the first try), discrimination (the point-biserial correlation of a quiz question with the rest of the attempt),\n"+
		"how often each option was chosen, and for exercises the share solved, the median submissions to solve, hint use and the case that fails most.\n"+
		fmt.Sprintf("Flags an item too easy (facility over %.1f), too hard (under %.1f), with a negative discrimination or an option nobody chose, once it has --min-answers answers.", progress.TooEasyFacility, progress.TooHardFacility))
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "learn stats: unexpected argument %q\nRun \"learn stats -h\" to see its flags.\n", fs.Arg(0))
		return errUsage
	}
	if *asJSON && *asCSV {
		fmt.Fprintln(stderr, "learn stats: give --json or --csv, not both")
		return errUsage
	}
	course, _, err := loadSoundCourse(*lessonsDir)
	if err != nil {
		return err
	}
	st, _, err := openDatabase(ctx, *db, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer st.Close()
	report, err := progress.ReadStats(ctx, course, st, *minAnswers)
	if err != nil {
		return fmt.Errorf("stats: %w", err)
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	case *asCSV:
		return writeStatsCSV(stdout, report)
	}
	writeStatsText(stdout, report)
	return nil
}

// writeStatsText prints the report for a person, a table per quiz.
func writeStatsText(w io.Writer, r progress.CourseStats) {
	fmt.Fprintf(w, "Facility: share right on the first try. Discrimination: point-biserial correlation with the rest of the quiz attempt.\nFlags need %d answers.\n", r.MinAnswers)
	for _, q := range r.Quizzes {
		fmt.Fprintf(w, "\nQuiz %s/%s (%s), %d learners\n", q.Lesson, q.QuizID, q.LessonTitle, q.Learners)
		for _, it := range q.Questions {
			writeItemText(w, it, "  ", true)
			for _, v := range it.Versions {
				writeItemText(w, v, "    version ", true)
			}
		}
	}
	if len(r.Widgets) > 0 {
		fmt.Fprintln(w, "\nWidget items")
		for _, it := range r.Widgets {
			writeItemText(w, it, "  "+it.Lesson+"/"+it.Widget+" ", false)
		}
	}
	if len(r.Exercises) > 0 {
		fmt.Fprintln(w, "\nExercises")
		for _, e := range r.Exercises {
			fmt.Fprintf(w, "  %s/%s: %d learners, solved %d (%.2f), median %s submissions to solve, hints taken by %d (%.2f)",
				e.Lesson, e.ID, e.Learners, e.Solvers, e.SolvedShare, strconv.FormatFloat(e.MedianToSolve, 'f', -1, 64), e.HintLearners, e.HintShare)
			if e.MostFailing != "" {
				fmt.Fprintf(w, "; fails most: %q (%s, %d times)", e.MostFailing, e.MostFailingVerdict, e.MostFailingCount)
			}
			fmt.Fprintln(w)
		}
	}
}

// writeItemText prints one item's figures, its choices and its flags; a
// quiz item's discrimination too.
func writeItemText(w io.Writer, it progress.ItemStats, prefix string, quizItem bool) {
	fmt.Fprintf(w, "%s%s %q: %d answered, facility %.2f", prefix, it.ID, it.Prompt, it.Answered, it.Facility)
	if quizItem {
		fmt.Fprintf(w, ", discrimination %s", discrimination(it.Discrimination))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s    chosen: %s\n", strings.Repeat(" ", len(prefix)), choiceList(it.Choices))
	for _, f := range it.Flags {
		fmt.Fprintf(w, "%s    flag: %s\n", strings.Repeat(" ", len(prefix)), f)
	}
}

func discrimination(d *float64) string {
	if d == nil {
		return "—"
	}
	return strconv.FormatFloat(*d, 'f', 2, 64)
}

func choiceList(cs []progress.Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%q: %d", c.Text, c.Count)
	}
	return strings.Join(parts, " · ")
}

// csvChoices lists choices as "text: count" joined by " · ", unquoted: a
// CSV cell is quoted as a whole.
func csvChoices(cs []progress.Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s: %d", c.Text, c.Count)
	}
	return strings.Join(parts, " · ")
}

// writeStatsCSV prints one row per quiz question, version, widget item
// and exercise.
func writeStatsCSV(w io.Writer, r progress.CourseStats) error {
	cw := csv.NewWriter(w)
	rows := [][]string{{"kind", "lesson", "widget", "item", "version", "prompt", "answered", "right", "facility", "discrimination", "choices",
		"learners", "solved", "solved_share", "median_submissions_to_solve", "hint_share", "most_failing_case", "flags"}}
	item := func(kind string, it progress.ItemStats, version string) []string {
		d := ""
		if it.Discrimination != nil {
			d = strconv.FormatFloat(*it.Discrimination, 'f', 4, 64)
		}
		id := it.ID
		if version != "" {
			id, version = version, it.ID
		}
		return []string{kind, it.Lesson, it.Widget, id, version, csvSafe(it.Prompt), strconv.Itoa(it.Answered), strconv.Itoa(it.Right),
			strconv.FormatFloat(it.Facility, 'f', 4, 64), d, csvSafe(csvChoices(it.Choices)), "", "", "", "", "", "", csvSafe(strings.Join(it.Flags, "; "))}
	}
	for _, q := range r.Quizzes {
		for _, it := range q.Questions {
			rows = append(rows, item("quiz question", it, ""))
			for _, v := range it.Versions {
				rows = append(rows, item("quiz version", v, it.ID))
			}
		}
	}
	for _, it := range r.Widgets {
		rows = append(rows, item("widget item", it, ""))
	}
	for _, e := range r.Exercises {
		rows = append(rows, []string{"exercise", e.Lesson, "", e.ID, "", csvSafe(e.Title), "", "", "", "", "",
			strconv.Itoa(e.Learners), strconv.Itoa(e.Solvers), strconv.FormatFloat(e.SolvedShare, 'f', 4, 64),
			strconv.FormatFloat(e.MedianToSolve, 'f', -1, 64), strconv.FormatFloat(e.HintShare, 'f', 4, 64), csvSafe(e.MostFailing), ""})
	}
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("stats: write CSV: %w", err)
	}
	return nil
}

// csvSafe keeps a spreadsheet from running a cell as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
