package progress

import (
	"cmp"
	"context"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"learn/lessons"
	"learn/quiz"
)

// CellState is how far a learner got with one lesson, as the dashboard's
// grid shows it.
type CellState string

// Cell states, in order.
const (
	CellNotStarted  CellState = "not started"
	CellOpened      CellState = "opened"
	CellWidgetsDone CellState = "widgets done"
	CellQuizPassed  CellState = "quiz passed"
)

func (c CellState) rank() int {
	switch c {
	case CellOpened:
		return 1
	case CellWidgetsDone:
		return 2
	case CellQuizPassed:
		return 3
	}
	return 0
}

// Sort orders of the dashboard's roster. A lesson's slug sorts by that
// lesson's state, then first-try score.
const (
	SortName   = "name"
	SortXP     = "xp"
	SortStreak = "streak"
	SortActive = "active"
	SortLate   = "late"
)

// maxStuck is how many exercises the "exercises that fail" list keeps.
const maxStuck = 8

// The stuck list's minimum: an item is listed once StuckMinMissed learners
// missed it on their first try, or, where fewer than StuckSmallClass
// learners answered it, once one did (so a small class still sees its
// misses, and in a large one a single learner's slips do not fill the
// list).
const (
	StuckMinMissed  = 2
	StuckSmallClass = 5
)

// Dashboard is everything the class page shows its teacher.
type Dashboard struct {
	Class Class
	// Teachers are the class's owner and co-teachers; Owner says whether
	// the reader is its owner (only the owner adds or removes
	// co-teachers and deletes the class).
	Teachers TeachingTeam
	Owner    bool
	Zone     *time.Location
	// Lessons are the course's lessons, in order: the grid's columns.
	Lessons     []*lessons.Lesson
	Assignments []AssignmentStatus
	// Rows are the roster, sorted by Sort.
	Rows []RosterRow
	Sort string
	// Stuck are widget items and quiz questions by how many learners
	// missed them on the first try (all of them past the minimum; the page
	// shows the first few with "show all"); StuckExercises exercises by
	// failure rate.
	Stuck          []StuckItem
	StuckExercises []StuckExercise
	// Completion is the class's completed lessons over time, one point per
	// day with a completion, in order.
	Completion []CompletionPoint
	// Spread is each quiz's first-try scores.
	Spread []ScoreSpread
	// Leaderboard is this week's XP table when the class shows one.
	Leaderboard []LeaderRow
	// LMSRoster is the class's roster from its LMS, nil for a class with
	// none (no LMS course's, or its LMS named no roster service).
	LMSRoster *ClassRoster
	Now       time.Time
}

// AssignmentStatus is an assignment with who has done it and who is late.
type AssignmentStatus struct {
	Assignment
	Lesson *lessons.Lesson
	// DueDay is the due date in the class's zone ("" for none).
	DueDay string
	// Done counts members who completed the lesson; Late names those past
	// the due date without completing it by then.
	Done int
	Late []string
}

// RosterRow is one learner of the dashboard.
type RosterRow struct {
	Member Member
	// Cells are one per lesson, in course order.
	Cells      []LessonCell
	XP         int
	StreakDays int
	// LastActive is the latest attempt, lesson opened or completed, run or
	// submission; zero when none.
	LastActive time.Time
	// Late counts assignments this learner is late with.
	Late int
	// Scores are the learner's scores for the LMS's gradebook, by lesson
	// (for a class of an LMS course whose links carry line items).
	Scores []LTIScoreState
}

// LessonCell is one learner's state in one lesson.
type LessonCell struct {
	Lesson *lessons.Lesson
	State  CellState
	// WidgetsDone of Widgets classify and annotate blocks checked right.
	WidgetsDone, Widgets int
	Quiz                 QuizScore
	// Solved of Exercises exercises solved.
	Solved, Exercises int
	// Attempts counts quiz attempts.
	Attempts int
	Assigned bool
	Late     bool
	// LastAt is the learner's latest attempt in the whole course.
	LastAt time.Time
}

// StuckItem is one widget item or quiz question with how often a class
// missed it on the first try.
type StuckItem struct {
	Lesson *lessons.Lesson
	// Where names the block in words ("Lesson quiz", "Try it: …",
	// "Annotate the tools: …"), Prompt the item or question (a quiz
	// question's first version), and Link the block on the lesson page.
	Where, Prompt, Link string
	// Tried and Missed count first tries, over every version of a quiz
	// question.
	Tried, Missed int
	// WrongAnswer is the most chosen wrong answer, WrongCount how many
	// chose it ("" when the misses were all different or unanswered).
	WrongAnswer string
	WrongCount  int
	// Versions, for a quiz question with variants, are its versions that
	// were shown, each with its own counts, in the order written.
	Versions []StuckVersion
}

// StuckVersion is one version of a quiz question in the stuck list.
type StuckVersion struct {
	Prompt        string
	Tried, Missed int
	WrongAnswer   string
	WrongCount    int
}

// MissRate returns Missed/Tried as a fraction.
func (s StuckItem) MissRate() float64 { return float64(s.Missed) / float64(max(s.Tried, 1)) }

// StuckExercise is one exercise with how its submissions failed.
type StuckExercise struct {
	Lesson   *lessons.Lesson
	Exercise *lessons.Exercise
	ExerciseStat
	// Case and Verdict are the most common failing case and its verdict.
	Case, Verdict string
	CaseCount     int
}

// FailRate returns Failed/Submits as a fraction.
func (s StuckExercise) FailRate() float64 { return float64(s.Failed) / float64(max(s.Submits, 1)) }

// CompletionPoint is the class's completed lessons by the end of a day.
type CompletionPoint struct {
	Day   time.Time
	Total int
}

// ScoreSpread is one quiz's first-try scores: Counts[k] members scored k
// of Total.
type ScoreSpread struct {
	Lesson *lessons.Lesson
	Total  int
	Counts []int
}

// LeaderRow is one line of the weekly XP table.
type LeaderRow struct {
	Rank int
	Name string
	XP   int
}

// Dashboard returns the class page of one of a's classes, the roster
// sorted by sort (SortName when empty or unknown).
//
// Errors: NotFound for a class that is not a's.
func (s *Service) Dashboard(ctx context.Context, a Actor, classID int64, sort string) (Dashboard, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return Dashboard{}, err
	}
	now := s.now()
	d := Dashboard{Class: c, Owner: c.TeacherID == a.TeacherID, Lessons: s.Course().Lessons, Now: now}
	d.Zone, _ = quiz.Zone(c.TimeZone)
	// The reads are independent: run them side by side, each on its own
	// connection, so the page costs the slowest of them, not their sum.
	var (
		members     []Member
		act         ClassActivity
		assignments []Assignment
		tries       FirstTries
		stats       []ExerciseStat
		fails       []CaseFailure
		week        map[string]int
		scores      map[string][]LTIScoreState
	)
	// The reads are independent: run them at once.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { members, err = s.classes.Members(gctx, c.ID); return })
	g.Go(func() (err error) { act, err = s.classes.ClassActivity(gctx, c.ID); return })
	g.Go(func() (err error) { assignments, err = s.classes.Assignments(gctx, c.ID); return })
	g.Go(func() (err error) { tries, err = s.classes.ClassFirstTries(gctx, c.ID); return })
	g.Go(func() (err error) { stats, fails, err = s.classes.ClassExerciseStats(gctx, c.ID); return })
	if c.Leaderboard {
		g.Go(func() (err error) { week, err = s.classes.WeeklyXP(gctx, c.ID, weekStart(now, d.Zone)); return })
	}
	g.Go(func() (err error) { d.Teachers, err = s.classTeachers(gctx, c); return })
	g.Go(func() (err error) { scores, err = s.classScores(gctx, c.ID); return })
	err = g.Wait()
	if err != nil {
		return d, err
	}
	d.Rows = s.roster(members, act, assignments, d.Zone, now)
	inClass := map[string]bool{}
	for _, m := range members {
		inClass[m.LearnerID] = true
	}
	if d.LMSRoster, err = s.classRoster(ctx, c.ID, inClass); err != nil {
		return d, err
	}
	for i := range d.Rows {
		d.Rows[i].Scores = scores[d.Rows[i].Member.LearnerID]
	}
	d.Assignments = s.assignmentStatus(assignments, members, act, c.TimeZone, now)
	d.Sort = sortRoster(d.Rows, sort, d.Lessons)
	d.Stuck = s.stuckItems(tries)
	d.StuckExercises = s.stuckExercises(stats, fails)
	d.Completion = completion(act, d.Zone)
	d.Spread = spread(d.Rows, d.Lessons)
	if c.Leaderboard {
		d.Leaderboard = leaderRows(members, week)
	}
	return d, nil
}

// lastActive is the learner's latest action the class can see: an
// attempt, a lesson opened or completed, or a run or submission; zero when
// there is none.
func lastActive(act ClassActivity, learnerID string) time.Time {
	var last time.Time
	later := func(t time.Time) {
		if t.After(last) {
			last = t
		}
	}
	if times := act.Times[learnerID]; len(times) > 0 {
		later(times[len(times)-1])
	}
	for _, lp := range act.Lessons[learnerID] {
		later(lp.OpenedAt)
		later(lp.CompletedAt)
	}
	for _, ex := range act.Exercises[learnerID] {
		later(ex.LastAt)
	}
	return last
}

// roster builds one row per member.
func (s *Service) roster(members []Member, act ClassActivity, assignments []Assignment, zone *time.Location, now time.Time) []RosterRow {
	course := s.Course()
	assigned := map[string]Assignment{}
	for _, as := range assignments {
		assigned[as.LessonSlug] = as
	}
	rows := make([]RosterRow, 0, len(members))
	for _, m := range members {
		id := m.LearnerID
		times := act.Times[id]
		row := RosterRow{Member: m, XP: act.XP[id], LastActive: lastActive(act, id)}
		if len(times) > 0 {
			loc := zone
			if l, ok := quiz.Zone(m.TimeZone); ok && m.TimeZone != "" {
				loc = l
			}
			row.StreakDays = quiz.Streak(times, now, loc).Days
		}
		for _, l := range course.Lessons {
			cell := LessonCell{Lesson: l, State: CellNotStarted, Quiz: act.Quizzes[id][l.Slug],
				WidgetsDone: act.WidgetsPassed[id][l.Slug], LastAt: row.LastActive}
			cell.Attempts = cell.Quiz.Attempts
			for _, seg := range l.Segments {
				if w := seg.Widget; w != nil && (w.Kind == quiz.KindClassify || w.Kind == quiz.KindAnnotate) {
					cell.Widgets++
				}
			}
			for _, ex := range l.Exercises() {
				cell.Exercises++
				if act.Exercises[id][ex.ID].Solved() {
					cell.Solved++
				}
			}
			lp, opened := act.Lessons[id][l.Slug]
			for _, ex := range l.Exercises() {
				opened = opened || act.Exercises[id][ex.ID].Runs > 0
			}
			switch {
			case cell.Quiz.Passed || lp.Completed():
				cell.State = CellQuizPassed
			case cell.Widgets > 0 && cell.WidgetsDone >= cell.Widgets:
				cell.State = CellWidgetsDone
			case opened || cell.Attempts > 0 || cell.WidgetsDone > 0:
				cell.State = CellOpened
			}
			if as, ok := assigned[l.Slug]; ok {
				cell.Assigned = true
				cell.Late = late(as, id, lp, now)
				if cell.Late {
					row.Late++
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		rows = append(rows, row)
	}
	return rows
}

// late reports whether a learner is late with an assignment: past its due
// time and the lesson not completed by then.
func late(as Assignment, learnerID string, lp LessonProgress, now time.Time) bool {
	due := as.DueFor(learnerID)
	if due.IsZero() || now.Before(due) {
		return false
	}
	return !lp.Completed() || lp.CompletedAt.After(due)
}

func (s *Service) assignmentStatus(assignments []Assignment, members []Member, act ClassActivity, zone string, now time.Time) []AssignmentStatus {
	var out []AssignmentStatus
	for _, as := range assignments {
		l, ok := s.Course().Lesson(as.LessonSlug)
		if !ok {
			continue // the course changed; the assignment waits for the lesson to return
		}
		st := AssignmentStatus{Assignment: as, Lesson: l, DueDay: DueDay(as, zone)}
		for _, m := range members {
			lp := act.Lessons[m.LearnerID][as.LessonSlug]
			if lp.Completed() {
				st.Done++
			}
			if late(as, m.LearnerID, lp, now) {
				st.Late = append(st.Late, m.Name)
			}
		}
		out = append(out, st)
	}
	return out
}

// sortRoster sorts rows by key and returns the key used.
func sortRoster(rows []RosterRow, key string, ls []*lessons.Lesson) string {
	byName := func(a, b RosterRow) int { return cmp.Compare(a.Member.NameKey, b.Member.NameKey) }
	lessonAt := -1
	for i, l := range ls {
		if key == l.Slug {
			lessonAt = i
		}
	}
	var f func(a, b RosterRow) int
	switch {
	case key == SortXP:
		f = func(a, b RosterRow) int { return cmp.Compare(b.XP, a.XP) }
	case key == SortStreak:
		f = func(a, b RosterRow) int { return cmp.Compare(b.StreakDays, a.StreakDays) }
	case key == SortActive:
		f = func(a, b RosterRow) int { return b.LastActive.Compare(a.LastActive) }
	case key == SortLate:
		f = func(a, b RosterRow) int { return cmp.Compare(b.Late, a.Late) }
	case lessonAt >= 0:
		f = func(a, b RosterRow) int {
			ca, cb := a.Cells[lessonAt], b.Cells[lessonAt]
			return cmp.Or(cmp.Compare(cb.State.rank(), ca.State.rank()), cmp.Compare(cb.Quiz.First, ca.Quiz.First))
		}
	default:
		key = SortName
		f = byName
	}
	slices.SortStableFunc(rows, func(a, b RosterRow) int { return cmp.Or(f(a, b), byName(a, b)) })
	return key
}
