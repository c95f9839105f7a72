package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"learn/progress"
)

// exportHeader is the first line of a class export.
var exportHeader = []string{"name", "lesson", "state", "first_try_score", "best_score", "quiz_questions",
	"quiz_attempts", "total_xp", "exercises_solved", "exercises", "last_active", "lesson_xp", "minutes_on_lesson", "due", "late"}

// classExport sends the class as CSV: one row per learner and lesson.
func (s *Server) classExport(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	c, rows, err := s.app.Export(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := writeExport(&buf, rows); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", exportName(c.Name)))
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("%w: %v", errClientGone, err)
	}
	return nil
}

// writeExport writes rows as RFC 4180 CSV with every cell made safe for a
// spreadsheet.
func writeExport(w *bytes.Buffer, rows []progress.ExportRow) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(exportHeader); err != nil {
		return fmt.Errorf("web: export: %w", err)
	}
	for _, r := range rows {
		first, best, total := "", "", ""
		if r.Quizzed {
			first, best, total = strconv.Itoa(r.FirstTry), strconv.Itoa(r.Best), strconv.Itoa(r.Total)
		}
		last := ""
		if !r.LastActive.IsZero() {
			last = r.LastActive.UTC().Format("2006-01-02T15:04:05Z")
		}
		rec := []string{r.Name, r.Lesson, string(r.State), first, best, total, strconv.Itoa(r.Attempts),
			strconv.Itoa(r.XP), strconv.Itoa(r.Solved), strconv.Itoa(r.Exercises), last,
			strconv.Itoa(r.LessonXP), strconv.FormatFloat(r.TimeOnTask.Minutes(), 'f', 1, 64), r.Due, strconv.FormatBool(r.Late)}
		for i := range rec {
			rec[i] = safeCell(rec[i])
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("web: export: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("web: export: %w", err)
	}
	return nil
}

// safeCell neutralises a cell a spreadsheet would run as a formula: one
// that starts with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe, which spreadsheets show as text. Numbers are never touched
// (the export writes no negative ones).
func safeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// exportName is the download's file name, made from the class name.
func exportName(class string) string {
	name := strings.Trim(unsafeFileChars.ReplaceAllString(class, "-"), "-")
	if name == "" {
		name = "class"
	}
	return name + ".csv"
}
