package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"learn/progress"
	"learn/quiz"
)

// calendarWeeks is how many weeks the streak calendar shows.
const calendarWeeks = 12

// ProgressView is the learner's progress page.
type ProgressView struct {
	Page
	Level, IntoLevel, LevelSize int
	Chart                       XPChart
	Calendar                    []CalendarCell
	ActiveDays                  int
	Lessons                     []LessonProgressRow
	Exercises                   []ExerciseProgressRow
	ReviewsDue, ReviewsTotal    int
	// CompletedMeans says when a lesson is completed.
	CompletedMeans string
}

// ExerciseProgressRow is one exercise on the progress page.
type ExerciseProgressRow struct {
	Title, LessonTitle, Anchor string
	// State is "solved", "tried" or "not tried"; Detail says when and how.
	State, Detail string
	Solved        bool
}

// XPChart is a server-drawn SVG line of total XP over time.
type XPChart struct {
	Width, Height int
	// Line and Area are SVG point lists; empty when there is no XP yet.
	Line, Area string
	MaxXP      int
	From, To   string
	// Summary describes the chart for screen readers.
	Summary string
}

// CalendarCell is one day of the streak calendar.
type CalendarCell struct {
	Label string
	Class string
}

// LessonProgressRow is one lesson on the progress page.
type LessonProgressRow struct {
	Title, Slug string
	State       progress.LessonState
	// Parts says how many parts are done: "2 of 5".
	Parts    string
	Score    string // "5 of 6", or "—"
	Attempts int
	// Unfinished links each part not done yet, in reading order; Fresh
	// marks a lesson not opened yet, which "Still to do" names without
	// listing every part.
	Unfinished []PartLink
	Fresh      bool
}

// PartLink is a link to one part of a lesson.
type PartLink struct {
	Title, Href string
}

func (s *Server) progressShow(w http.ResponseWriter, r *http.Request) error {
	rep, err := s.app.Progress(r.Context(), progress.ActorFrom(r.Context()), calendarWeeks)
	if err != nil {
		return err
	}
	v := ProgressView{Page: s.page(r, "Your progress", "progress"), ReviewsDue: rep.ReviewsDue, ReviewsTotal: rep.ReviewsTotal}
	v.Level, v.IntoLevel, v.LevelSize = quiz.Level(v.Learner.XP)
	v.Chart = xpChart(rep.History, s.now().In(rep.Zone))
	for _, d := range rep.Calendar {
		c := CalendarCell{Label: d.Day.String() + ": no activity"}
		var classes []string
		if d.Count > 0 {
			classes = append(classes, "active")
			c.Label = fmt.Sprintf("%s: %s", d.Day.String(), Plural(d.Count, "activity", "activities"))
			v.ActiveDays++
		}
		if d.Today {
			classes = append(classes, "today")
		}
		if d.Future {
			classes = append(classes, "future")
		}
		c.Class = strings.Join(classes, " ")
		v.Calendar = append(v.Calendar, c)
	}
	for _, lr := range rep.Lessons {
		row := LessonProgressRow{Title: lr.Lesson.Title, Slug: lr.Lesson.Slug, State: lr.State, Score: "—", Parts: fmt.Sprintf("%d of %d", lr.Done, lr.Parts), Fresh: lr.Done == 0 && lr.State == progress.NotStarted}
		if lr.Quiz.Attempts > 0 {
			row.Score = fmt.Sprintf("%d of %d", lr.Quiz.Best, lr.Quiz.Total)
			row.Attempts = lr.Quiz.Attempts
		}
		for _, seg := range lr.Lesson.Segments {
			if w := seg.Widget; w != nil && !rep.Summary.PartDone(lr.Lesson, w) {
				title, anchor := partTitle(w)
				row.Unfinished = append(row.Unfinished, PartLink{Title: title, Href: "/lessons/" + lr.Lesson.Slug + "#" + anchor})
			}
		}
		v.Lessons = append(v.Lessons, row)
	}
	for _, er := range rep.Exercises {
		row := ExerciseProgressRow{Title: er.Exercise.Title, LessonTitle: er.Lesson.Title,
			Anchor: "/lessons/" + er.Lesson.Slug + "#x-" + er.Exercise.ID, State: "not tried", Detail: "—"}
		zone := rep.Summary.Zone
		switch st := er.State; {
		case st.Solved():
			row.State, row.Solved = "solved", true
			row.Detail = fmt.Sprintf("on %s (%s)", dateText(st.SolvedAt, zone), Plural(st.Runs, "run", "runs"))
		case st.Runs > 0:
			row.State = "tried"
			row.Detail = fmt.Sprintf("%s, the last on %s", Plural(st.Runs, "run", "runs"), dateText(st.LastAt, zone))
		}
		v.Exercises = append(v.Exercises, row)
	}
	v.CompletedMeans = progress.CompletedMeans
	return render(w, r, progressPage(v))
}

// xpChart draws cumulative XP against time.
func xpChart(history []progress.XPEntry, now time.Time) XPChart {
	c := XPChart{Width: 640, Height: 200, Summary: "No XP yet."}
	if len(history) == 0 {
		return c
	}
	const left, right, top, bottom = 40.0, 10.0, 10.0, 24.0
	start := history[0].At
	span := now.Sub(start)
	if span < time.Hour {
		// Under an hour of activity: show the last hour, ending now, so
		// the right end of the axis is the time it says.
		start, span = now.Add(-time.Hour), time.Hour
	}
	total := 0
	for _, e := range history {
		total += e.Amount
	}
	c.MaxXP = total
	x := func(t time.Time) float64 {
		return left + (float64(c.Width)-left-right)*float64(t.Sub(start))/float64(span)
	}
	y := func(xp int) float64 {
		return top + (float64(c.Height)-top-bottom)*(1-float64(xp)/float64(total))
	}
	var pts []string
	running := 0
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(start), y(0)))
	for _, e := range history {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(e.At), y(running)))
		running += e.Amount
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(e.At), y(running)))
	}
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(start.Add(span)), y(running)))
	c.Line = strings.Join(pts, " ")
	c.Area = c.Line + fmt.Sprintf(" %.1f,%.1f %.1f,%.1f", x(start.Add(span)), y(0), x(start), y(0))
	c.From, c.To = axisLabels(start.In(now.Location()), now)
	c.Summary = fmt.Sprintf("Total XP rose from 0 at %s to %d by %s, over %s.", c.From, total, c.To, Plural(len(history), "award", "awards"))
	return c
}

// axisLabels names the chart's two ends: clock times when both fall on
// one day (a day's activity would otherwise read "1 Dec … 1 Dec"), else
// dates, with the year when the years differ.
func axisLabels(from, to time.Time) (string, string) {
	fy, fm, fd := from.Date()
	ty, tm, td := to.Date()
	switch {
	case fy == ty && fm == tm && fd == td:
		return from.Format("15:04"), to.Format("15:04 on 2 Jan")
	case fy == ty:
		return from.Format("2 Jan"), to.Format("2 Jan")
	}
	return from.Format("2 Jan 2006"), to.Format("2 Jan 2006")
}

// hasUnfinished reports whether any lesson has a part left to do.
func hasUnfinished(rows []LessonProgressRow) bool {
	for _, r := range rows {
		if len(r.Unfinished) > 0 {
			return true
		}
	}
	return false
}
