package web

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"learn/progress"
)

// dashboardRefresh is how often the dashboard reloads itself, in seconds:
// the script re-fetches it this often, and without JavaScript a
// <noscript> meta refresh reloads the page.
const dashboardRefresh = 10

// DashboardView is the class page.
type DashboardView struct {
	Page
	ID         int64
	Name, Code string
	// ClassCode never changes; learners continue with it on other devices.
	ClassCode   string
	Zone        string
	Archived    bool
	Leaderboard bool
	Members     int
	Sort        string
	Columns     []GridColumn
	Rows        []GridRow
	Assignments []AssignmentView
	Unassigned  []LessonOption
	// Done says what the action just confirmed did ("" after none);
	// Removed are learners whose removal can still be undone.
	Done    string
	Removed []RemovedView
	Stuck   []StuckView
	// StuckMore counts the stuck items past the first stuckShown, offered
	// by "show all"; StuckAll is set when the page lists them all.
	StuckMore      int
	StuckAll       bool
	StuckExercises []StuckExerciseView
	Completion     XPChart
	Spread         SpreadChart
	Leaders        []progress.LeaderRow
	Error          string
	UpdatedAt      string
	RefreshSeconds int
	// Questions are the class's unanswered questions and reported posts
	// (qa_class.go).
	Questions ClassQAView
	// Owner is the class's owner; CoTeachers its co-teachers; IsOwner
	// says whether the reader owns it (only the owner adds and removes
	// co-teachers and deletes the class).
	Owner      TeacherView
	CoTeachers []TeacherView
	IsOwner    bool
	// Grades are the scores learn sends to the LMS's gradebook, per
	// learner and lesson (none for a class that is no LMS course's).
	Grades []GradeView
	// LMSRoster is the class's roster from its LMS, nil for a class
	// without one.
	LMSRoster *LMSRosterView
}

// GradeView is one learner's score for one lesson's LMS line item and
// how sending it stands.
type GradeView struct {
	Name, Lesson string
	// Score is "30 of 55", with "completed" once the lesson is.
	Score string
	// State is pending, sent or failed; Answer the LMS's last answer
	// (status and excerpt) for a score not sent, "" before any.
	State, Answer string
}

// TeacherView is one teacher of a class.
type TeacherView struct {
	ID          int64
	Name, Email string
	// Since is when a co-teacher was added.
	Since string
}

// GridColumn is one sortable column of the roster.
type GridColumn struct {
	Key, Label, Title string
	// Note, under a lesson's number, marks an assigned lesson: "assigned"
	// or "due 5 Dec".
	Note string
	// Sorted is "descending" or "ascending" on the sorted column, else "".
	Sorted string
}

// shortDay writes a due label (progress.DueLabel) short: "5 Dec" or
// "5 Dec 14:00"; anything else as it is.
func shortDay(day string) string {
	if t, err := time.Parse("2006-01-02", day); err == nil {
		return t.Format("2 Jan")
	}
	if t, err := time.Parse("2006-01-02 15:04", day); err == nil {
		return t.Format("2 Jan 15:04")
	}
	return day
}

// URL is the column's sort link.
func (c GridColumn) URL(id int64) string { return classURL(id) + "?sort=" + c.Key }

// GridRow is one learner of the roster.
type GridRow struct {
	LearnerID, Name string
	URL             string
	Cells           []GridCell
	XP, Streak      int
	LastActive      string
	Late            int
}

// GridCell is one learner's state in one lesson.
type GridCell struct {
	Slug  string
	Short string
	// Long says the same in a sentence, for screen readers and the title.
	Long  string
	Class string
	Late  bool
}

// AssignmentView is one assigned lesson with who is late.
type AssignmentView struct {
	Slug, Title string
	DueDay      string
	Done, Of    int
	Late        []string
}

// LessonOption is a lesson that can be assigned.
type LessonOption struct{ Slug, Title string }

// StuckView is one item the class misses on the first try.
type StuckView struct {
	Lesson, Where, Prompt string
	// Link is the item's block on the lesson page.
	Link          string
	Rate          int // percent
	Missed, Tried int
	Wrong         string
	WrongCount    int
	// Versions are a quiz question's versions, each with its counts.
	Versions []StuckView
}

// RemovedView is a learner removed from the class, with the undo.
type RemovedView struct {
	LearnerID, Name, Until string
}

// stuckShown is how many stuck items the dashboard lists before "show
// all".
const stuckShown = 8

// StuckExerciseView is one exercise whose submissions fail.
type StuckExerciseView struct {
	Lesson, Title     string
	Rate              int
	Failed, Submits   int
	Solvers, Learners int
	Case, Verdict     string
	CaseCount         int
}

// SpreadChart is a dot plot of first-try quiz scores, one row per quiz.
type SpreadChart struct {
	Width, Height int
	Rows          []SpreadRow
	Summary       string
	// Ticks are the score axis labels (fractions of the quiz).
	Ticks []SpreadTick
}

// SpreadRow is one quiz's line of dots.
type SpreadRow struct {
	Label string
	Y     int
	Dots  []SpreadDot
}

// SpreadDot is how many learners got one score.
type SpreadDot struct {
	X, R  float64
	Title string
}

// SpreadTick is one axis label.
type SpreadTick struct {
	X     float64
	Label string
}

// classShow draws the dashboard of one of the teacher's classes.
func (s *Server) classShow(w http.ResponseWriter, r *http.Request) error {
	return s.renderDashboard(w, r, http.StatusOK, "")
}

// renderDashboard draws the class's dashboard under status, with problem
// (if any) above its forms; it is the redrawFunc of every dashboard form.
func (s *Server) renderDashboard(w http.ResponseWriter, r *http.Request, status int, problem string) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	d, err := s.app.Dashboard(r.Context(), progress.ActorFrom(r.Context()), id, r.URL.Query().Get("sort"))
	if err != nil {
		return err
	}
	v := dashboardView(d, r.URL.Query().Get("stuck") == "all")
	v.LMSRoster = lmsRosterView(d.LMSRoster, d.Zone, d.Now)
	if v.Questions, err = s.classQuestions(r, id); err != nil {
		return err
	}
	v.Page = s.page(r, d.Class.Name, "classes")
	v.Page.TeacherView = progress.ActorFrom(r.Context()).TeacherName
	removed, err := s.app.RecentlyRemoved(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	for _, rm := range removed {
		v.Removed = append(v.Removed, RemovedView{LearnerID: rm.LearnerID, Name: rm.Name,
			Until: rm.RemovedAt.Add(progress.RemovalUndoFor).In(d.Zone).Format("2 Jan 15:04")})
	}
	switch r.URL.Query().Get("done") {
	case "removed":
		if len(v.Removed) > 0 {
			v.Done = v.Removed[0].Name + " was removed from the class; their devices signed in with its words were signed out, and their own progress stays theirs. Undo below until " + v.Removed[0].Until + "."
		}
	case "restored":
		v.Done = "The learner is back in the class, with the same name and secret words."
	case "teacher-added":
		if n := len(v.CoTeachers); n > 0 {
			v.Done = "Co-teachers now see and manage this class: " + teacherNames(v.CoTeachers) + "."
		}
	case "teacher-removed":
		v.Done = "The co-teacher no longer sees this class. Nothing in the class changed."
	case "lms-roster":
		if v.LMSRoster != nil && v.LMSRoster.Problem == "" {
			v.Done = "The roster was read from the LMS again: " + Plural(len(v.LMSRoster.Learners), "learner", "learners") + " in the course."
		}
	}
	v.Error = problem
	v.Refresh = dashboardRefresh
	if s.assets.Has("dashboard.js") {
		v.Scripts = append(v.Scripts, s.assets.URL("dashboard.js"))
	}
	return renderStatus(w, r, status, dashboardPage(v))
}

// dashboardView turns the core's dashboard into what the page draws.
func dashboardView(d progress.Dashboard, allStuck bool) DashboardView {
	c := d.Class
	v := DashboardView{ID: c.ID, Name: c.Name, Code: c.JoinCode, ClassCode: progress.ClassCode(c.ID), Zone: c.TimeZone, Archived: c.Archived(), Leaderboard: c.Leaderboard,
		Members: len(d.Rows), Sort: d.Sort, Leaders: d.Leaderboard, RefreshSeconds: dashboardRefresh,
		UpdatedAt: d.Now.In(d.Zone).Format("15:04:05"), IsOwner: d.Owner,
		Owner: TeacherView{ID: d.Teachers.Owner.ID, Name: d.Teachers.Owner.Name, Email: d.Teachers.Owner.Email}}
	for _, t := range d.Teachers.Co {
		v.CoTeachers = append(v.CoTeachers, TeacherView{ID: t.ID, Name: t.Name, Email: t.Email, Since: t.AddedAt.In(d.Zone).Format("2 Jan 2006")})
	}
	col := func(key, label, title string, desc bool) GridColumn {
		g := GridColumn{Key: key, Label: label, Title: title}
		if key == d.Sort {
			g.Sorted = "ascending"
			if desc {
				g.Sorted = "descending"
			}
		}
		return g
	}
	v.Columns = append(v.Columns, col(progress.SortName, "Name", "Learner", false))
	due := map[string]progress.AssignmentStatus{}
	for _, as := range d.Assignments {
		due[as.LessonSlug] = as
	}
	for i, l := range d.Lessons {
		title := l.Title
		note := ""
		if as, ok := due[l.Slug]; ok {
			title, note = title+" (assigned)", "assigned"
			if as.DueDay != "" {
				title, note = l.Title+" (assigned, due "+as.DueDay+")", "due "+shortDay(as.DueDay)
			}
		}
		g := col(l.Slug, fmt.Sprint(i+1), title, true)
		g.Note = note
		v.Columns = append(v.Columns, g)
	}
	v.Columns = append(v.Columns, col(progress.SortXP, "XP", "XP", true), col(progress.SortStreak, "Streak", "Streak in days", true),
		col(progress.SortActive, "Last active", "Last active", true), col(progress.SortLate, "Late", "Assignments late", true))
	lessonTitles := map[string]string{}
	for _, l := range d.Lessons {
		lessonTitles[l.Slug] = l.Title
	}
	for _, row := range d.Rows {
		g := GridRow{LearnerID: row.Member.LearnerID, Name: row.Member.Name, XP: row.XP, Streak: row.StreakDays, Late: row.Late,
			URL: classURL(c.ID) + "/learners/" + row.Member.LearnerID, LastActive: "never"}
		if !row.LastActive.IsZero() {
			g.LastActive = ago(d.Now.Sub(row.LastActive))
		}
		for _, cell := range row.Cells {
			g.Cells = append(g.Cells, gridCell(cell))
		}
		v.Rows = append(v.Rows, g)
		for _, sc := range row.Scores {
			v.Grades = append(v.Grades, gradeView(row.Member.Name, lessonTitles[sc.LessonSlug], sc))
		}
	}
	assigned := map[string]bool{}
	for _, as := range d.Assignments {
		assigned[as.LessonSlug] = true
		v.Assignments = append(v.Assignments, AssignmentView{Slug: as.LessonSlug, Title: as.Lesson.Title, DueDay: as.DueDay,
			Done: as.Done, Of: len(d.Rows), Late: as.Late})
	}
	for _, l := range d.Lessons {
		if !assigned[l.Slug] {
			v.Unassigned = append(v.Unassigned, LessonOption{Slug: l.Slug, Title: l.Title})
		}
	}
	for i, st := range d.Stuck {
		if i == stuckShown && !allStuck {
			v.StuckMore = len(d.Stuck) - stuckShown
			break
		}
		sv := StuckView{Lesson: st.Lesson.Title, Where: st.Where, Prompt: st.Prompt, Link: st.Link,
			Rate: int(math.Round(100 * st.MissRate())), Missed: st.Missed, Tried: st.Tried, Wrong: st.WrongAnswer, WrongCount: st.WrongCount}
		for _, ver := range st.Versions {
			sv.Versions = append(sv.Versions, StuckView{Prompt: ver.Prompt, Rate: int(math.Round(100 * float64(ver.Missed) / float64(max(ver.Tried, 1)))),
				Missed: ver.Missed, Tried: ver.Tried, Wrong: ver.WrongAnswer, WrongCount: ver.WrongCount})
		}
		v.Stuck = append(v.Stuck, sv)
	}
	v.StuckAll = allStuck && len(d.Stuck) > stuckShown
	for _, st := range d.StuckExercises {
		v.StuckExercises = append(v.StuckExercises, StuckExerciseView{Lesson: st.Lesson.Title, Title: st.Exercise.Title,
			Rate: int(math.Round(100 * st.FailRate())), Failed: st.Failed, Submits: st.Submits, Solvers: st.Solvers, Learners: st.Learners,
			Case: st.Case, Verdict: st.Verdict, CaseCount: st.CaseCount})
	}
	v.Completion = completionChart(d.Completion, d.Now.In(d.Zone))
	v.Spread = spreadChart(d.Spread)
	return v
}

// gridCell says one lesson state in a few characters and in a sentence.
func gridCell(c progress.LessonCell) GridCell {
	g := GridCell{Slug: c.Lesson.Slug, Late: c.Late}
	var long []string
	switch c.State {
	case progress.CellQuizPassed:
		g.Short, g.Class = "passed", "cell cell-passed"
		long = append(long, "quiz passed")
	case progress.CellWidgetsDone:
		g.Short, g.Class = "widgets", "cell cell-widgets"
		long = append(long, "widgets done")
	case progress.CellOpened:
		g.Short, g.Class = "opened", "cell cell-opened"
		long = append(long, "opened")
	default:
		g.Short, g.Class = "·", "cell"
		long = append(long, "not started")
	}
	if c.Quiz.Attempts > 0 {
		g.Short += fmt.Sprintf(" %d/%d", c.Quiz.First, c.Quiz.Total)
		long = append(long, fmt.Sprintf("first try %d of %d, best %d, %s", c.Quiz.First, c.Quiz.Total, c.Quiz.Best, Plural(c.Quiz.Attempts, "quiz attempt", "quiz attempts")))
	}
	if c.Exercises > 0 && c.Solved > 0 {
		g.Short += " ✓" + fmt.Sprint(c.Solved)
		long = append(long, fmt.Sprintf("%d of %d exercises solved", c.Solved, c.Exercises))
	}
	if c.Late {
		g.Class += " cell-late"
		long = append(long, "late")
	}
	g.Long = strings.Join(long, "; ")
	return g
}

// ago says how long ago in one short phrase.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return Plural(int(d/(24*time.Hour)), "day", "days") + " ago"
}

// completionChart draws the class's completed lessons against time.
func completionChart(points []progress.CompletionPoint, now time.Time) XPChart {
	c := XPChart{Width: 640, Height: 200, Summary: "No lesson completed yet."}
	if len(points) == 0 {
		return c
	}
	const left, right, top, bottom = 40.0, 10.0, 10.0, 24.0
	start := points[0].Day
	end := now
	if !end.After(start) {
		end = start.Add(24 * time.Hour)
	}
	span := end.Sub(start)
	total := points[len(points)-1].Total
	c.MaxXP = total
	x := func(t time.Time) float64 {
		return left + (float64(c.Width)-left-right)*float64(t.Sub(start))/float64(span)
	}
	y := func(n int) float64 { return top + (float64(c.Height)-top-bottom)*(1-float64(n)/float64(max(total, 1))) }
	pts := []string{fmt.Sprintf("%.1f,%.1f", x(start), y(0))}
	prev := 0
	for _, p := range points {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.Day), y(prev)), fmt.Sprintf("%.1f,%.1f", x(p.Day), y(p.Total)))
		prev = p.Total
	}
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(end), y(prev)))
	c.Line = strings.Join(pts, " ")
	c.Area = c.Line + fmt.Sprintf(" %.1f,%.1f %.1f,%.1f", x(end), y(0), x(start), y(0))
	c.From, c.To = start.Format("2 Jan"), now.Format("2 Jan")
	c.Summary = fmt.Sprintf("The class completed %s between %s and %s.", Plural(total, "lesson", "lessons"), c.From, c.To)
	return c
}

// spreadChart draws one row of dots per quiz: a dot per score, its area
// by how many learners got that score on their first try.
func spreadChart(sp []progress.ScoreSpread) SpreadChart {
	const left, right, rowH, top = 200.0, 20.0, 28, 24
	c := SpreadChart{Width: 640}
	most, tried := 0, 0
	for _, s := range sp {
		for _, n := range s.Counts {
			most = max(most, n)
			tried += n
		}
	}
	if tried == 0 {
		c.Summary = "No quiz tried yet."
		return c
	}
	width := float64(c.Width) - left - right
	for i := 0; i <= 4; i++ {
		c.Ticks = append(c.Ticks, SpreadTick{X: left + width*float64(i)/4, Label: fmt.Sprintf("%d%%", i*25)})
	}
	var parts []string
	for _, s := range sp {
		row := SpreadRow{Label: s.Lesson.Title, Y: top + len(c.Rows)*rowH + rowH/2}
		if len(row.Label) > 30 {
			row.Label = row.Label[:29] + "…"
		}
		n := 0
		for score, count := range s.Counts {
			if count == 0 {
				continue
			}
			n += count
			row.Dots = append(row.Dots, SpreadDot{
				X: left + width*float64(score)/float64(max(s.Total, 1)), R: 3 + 9*math.Sqrt(float64(count)/float64(most)),
				Title: fmt.Sprintf("%s: %s scored %d of %d on the first try", s.Lesson.Title, Plural(count, "learner", "learners"), score, s.Total),
			})
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d tried", s.Lesson.Title, n))
		}
		c.Rows = append(c.Rows, row)
	}
	c.Height = top + len(c.Rows)*rowH + 8
	c.Summary = "First-try quiz scores, one row per lesson quiz. " + strings.Join(parts, "; ") + "."
	return c
}

// teacherNames lists the teachers' names, "A, B and C".
func teacherNames(ts []TeacherView) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// gradeView shows one score of the outbox; the LMS's answer is shown for
// a score not accepted (yet).
func gradeView(name, lesson string, sc progress.LTIScoreState) GradeView {
	if lesson == "" {
		lesson = sc.LessonSlug
	}
	g := GradeView{Name: name, Lesson: lesson, State: sc.State, Score: fmt.Sprintf("%d of %d", sc.Given, sc.Maximum)}
	if sc.Completed {
		g.Score += ", completed"
	}
	if sc.State != progress.LMSScoreSent && (sc.Status != 0 || sc.Answer != "") {
		g.Answer = sc.Answer // an excerpt already (lti.Excerpt)
		if sc.Status != 0 && !strings.Contains(sc.Answer, strconv.Itoa(sc.Status)) {
			g.Answer = strconv.Itoa(sc.Status) + ": " + g.Answer
		}
		if sc.Attempts > 1 {
			g.Answer += fmt.Sprintf(" (%d tries)", sc.Attempts)
		}
	}
	return g
}
