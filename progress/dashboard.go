package progress

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

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

// maxStuck is how many items each "where the class is stuck" list keeps.
const maxStuck = 8

// Dashboard is everything the class page shows its teacher.
type Dashboard struct {
	Class Class
	Zone  *time.Location
	// Lessons are the course's lessons, in order: the grid's columns.
	Lessons     []*lessons.Lesson
	Assignments []AssignmentStatus
	// Rows are the roster, sorted by Sort.
	Rows []RosterRow
	Sort string
	// Stuck are widget items and quiz questions by first-try miss rate;
	// StuckExercises exercises by failure rate.
	Stuck          []StuckItem
	StuckExercises []StuckExercise
	// Completion is the class's completed lessons over time, one point per
	// day with a completion, in order.
	Completion []CompletionPoint
	// Spread is each quiz's first-try scores.
	Spread []ScoreSpread
	// Leaderboard is this week's XP table when the class shows one.
	Leaderboard []LeaderRow
	Now         time.Time
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
	// LastActive is the latest attempt; zero when none.
	LastActive time.Time
	// Late counts assignments this learner is late with.
	Late int
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
	// Where names the block ("Quiz", or the widget's id) and Prompt the
	// item or question.
	Where, Prompt string
	Tried, Missed int
	// WrongAnswer is the most chosen wrong answer, WrongCount how many
	// chose it ("" when the misses were all different or unanswered).
	WrongAnswer string
	WrongCount  int
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
	c, err := s.ownClass(ctx, a, classID)
	if err != nil {
		return Dashboard{}, err
	}
	now := s.now()
	d := Dashboard{Class: c, Lessons: s.Course().Lessons, Now: now}
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
	)
	err = parallel(
		func() (err error) { members, err = s.store.Members(ctx, c.ID); return },
		func() (err error) { act, err = s.store.ClassActivity(ctx, c.ID); return },
		func() (err error) { assignments, err = s.store.Assignments(ctx, c.ID); return },
		func() (err error) { tries, err = s.store.ClassFirstTries(ctx, c.ID); return },
		func() (err error) { stats, fails, err = s.store.ClassExerciseStats(ctx, c.ID); return },
		func() (err error) {
			if c.Leaderboard {
				week, err = s.store.WeeklyXP(ctx, c.ID, weekStart(now, d.Zone))
			}
			return
		},
	)
	if err != nil {
		return d, err
	}
	d.Rows = s.roster(members, act, assignments, d.Zone, now)
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

// parallel runs fns at once and returns the first error.
func parallel(fns ...func() error) error {
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() { errs[i] = fn() })
	}
	wg.Wait()
	return errors.Join(errs...)
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
		row := RosterRow{Member: m, XP: act.XP[id]}
		if len(times) > 0 {
			row.LastActive = times[len(times)-1]
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
				cell.Late = late(as, lp, now)
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
func late(as Assignment, lp LessonProgress, now time.Time) bool {
	if as.Due.IsZero() || now.Before(as.Due) {
		return false
	}
	return !lp.Completed() || lp.CompletedAt.After(as.Due)
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
			if late(as, lp, now) {
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

// item is one gradable item of a widget: a classify item, an annotate
// tool, or a quiz question, as a question GradeQuestion can grade.
type item struct {
	question quiz.Question
	// always is true when every try shows the item (a classify item, a
	// tool, a quiz question without variants), so an absent answer is a
	// miss; false for a variant shown to some tries only.
	always bool
}

// widgetItem finds the item id of a classify or annotate widget as a
// question.
func widgetItem(w *lessons.Widget, itemID string) (item, bool) {
	switch x := w.Value.(type) {
	case *quiz.Classify:
		q, ok := x.ItemQuestion(itemID)
		return item{q, true}, ok
	case *quiz.Annotate:
		q, ok := x.ToolQuestion(itemID)
		return item{q, true}, ok
	}
	return item{}, false
}

// shownAnswer is one item of an attempt as the learner saw it, with the
// stored answer to it.
type shownAnswer struct {
	it    item
	value json.RawMessage
}

// shownItems pairs a stored attempt's answers with the items they answer.
// A quiz's answers are keyed by question slot; the version each slot
// showed is the learner's draw for that attempt, so the answer is graded
// against the question they saw (its id is the version's). The order of
// options does not change a grade, so versions come from the cache.
func (c *gradeCache) shownItems(w *lessons.Widget, answers map[string]json.RawMessage, learnerID string, attempt int) []shownAnswer {
	var out []shownAnswer
	if x, ok := w.Value.(*quiz.Quiz); ok {
		draw := QuizDraw(Actor{ID: learnerID}, x, attempt)
		for i := range x.Questions {
			value, ok := answers[x.Questions[i].ID]
			if !ok {
				continue
			}
			v := 0
			if i < len(draw.Variants) {
				v = draw.Variants[i]
			}
			out = append(out, shownAnswer{it: c.version(x, i, v), value: value})
		}
		return out
	}
	ids := make([]string, 0, len(answers))
	for id := range answers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if it, ok := widgetItem(w, id); ok {
			out = append(out, shownAnswer{it: it, value: answers[id]})
		}
	}
	return out
}

// gradeCache remembers, for one page, the question versions built, the
// answer sets decoded and each distinct answer's grade: a class gives the
// same few answers, so each is graded once.
type gradeCache struct {
	versions map[versionKey]item
	decoded  map[string]map[string]json.RawMessage
	verdicts map[verdictKey]verdict
}

// versionKey names version v of slot i of one quiz; verdictKey one answer
// to one question of one widget. Widgets are compared by identity: two
// lessons may both have a widget called "quiz".
type versionKey struct {
	quiz *quiz.Quiz
	i, v int
}

type verdictKey struct {
	widget           *lessons.Widget
	question, answer string
}

// verdict is one answer to one question, graded and put in words.
type verdict struct {
	right bool
	given string
}

func newGradeCache() *gradeCache {
	return &gradeCache{versions: map[versionKey]item{}, decoded: map[string]map[string]json.RawMessage{}, verdicts: map[verdictKey]verdict{}}
}

// version returns version v of slot i of a quiz as an item.
func (c *gradeCache) version(x *quiz.Quiz, i, v int) item {
	key := versionKey{x, i, v}
	it, ok := c.versions[key]
	if !ok {
		it = item{question: x.Questions[i].VariantAt(v), always: x.Questions[i].VariantCount() == 1}
		c.versions[key] = it
	}
	return it
}

// decode parses a stored answer set once.
func (c *gradeCache) decode(answers string) (map[string]json.RawMessage, bool) {
	if m, ok := c.decoded[answers]; ok {
		return m, m != nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(answers), &m) != nil {
		m = nil
	}
	c.decoded[answers] = m
	return m, m != nil
}

// grade grades one stored answer to q once.
func (c *gradeCache) grade(w *lessons.Widget, q *quiz.Question, value json.RawMessage) verdict {
	key := verdictKey{w, q.ID, string(value)}
	if v, ok := c.verdicts[key]; ok {
		return v
	}
	given := choices(q.Kind, string(value))
	v := verdict{right: quiz.GradeQuestion(q, given).Right, given: describe(q, given)}
	c.verdicts[key] = v
	return v
}

// choices turns an item's stored answer (JSON, see AnswerCount) into the
// choices GradeQuestion takes.
func choices(kind, value string) []string {
	switch kind {
	case quiz.QuestionClassify:
		var v string
		if json.Unmarshal([]byte(value), &v) == nil && v != "" {
			return []string{v}
		}
		var list []string
		if json.Unmarshal([]byte(value), &list) == nil {
			return list
		}
	case quiz.QuestionAnnotate:
		var hints map[quiz.Hint]bool
		if json.Unmarshal([]byte(value), &hints) == nil {
			var out []string
			for _, h := range quiz.AllHints() {
				if v, ok := hints[h]; ok {
					out = append(out, quiz.HintChoice(h, v))
				}
			}
			return out
		}
		var list []string
		if json.Unmarshal([]byte(value), &list) == nil {
			return list
		}
	default:
		var list []string
		if json.Unmarshal([]byte(value), &list) == nil {
			return list
		}
	}
	return nil
}

// describe says in words what a learner chose for q.
func describe(q *quiz.Question, given []string) string {
	if len(given) == 0 {
		return "no answer"
	}
	switch q.Kind {
	case quiz.QuestionClassify:
		for _, c := range q.Categories {
			if len(given) == 1 && c.ID == given[0] {
				return c.Label
			}
		}
	case quiz.QuestionAnnotate:
		hints, _ := quiz.ParseHintChoices(given)
		var wrong []string
		for _, h := range quiz.AllHints() {
			v, ok := hints[h]
			if !ok || q.Tool == nil || !q.Tool.Matters(h) {
				continue
			}
			if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil && *k.Value != v {
				wrong = append(wrong, fmt.Sprintf("%s %t", h, v))
			}
		}
		if len(wrong) > 0 {
			return strings.Join(wrong, ", ")
		}
	default:
		var texts []string
		for _, g := range given {
			for _, o := range q.Options {
				if o.ID == g {
					texts = append(texts, o.Text)
				}
			}
		}
		if len(texts) > 0 {
			return strings.Join(texts, " + ")
		}
	}
	return strings.Join(given, ", ")
}

// prompt is how an item is named in the stuck list.
func prompt(q *quiz.Question) string {
	switch q.Kind {
	case quiz.QuestionClassify:
		return q.Text
	case quiz.QuestionAnnotate:
		if q.Tool != nil {
			return "Annotations of " + q.Tool.Name
		}
	}
	return q.Prompt
}

// stuckItems grades the class's first-try answers against the course and
// ranks items by miss rate.
func (s *Service) stuckItems(t FirstTries) []StuckItem {
	type key struct{ lesson, widget, item string }
	type agg struct {
		it              item
		lesson          *lessons.Lesson
		where           string
		answered, right int
		wrong           map[string]int
	}
	tried := map[[2]string]int{}
	items := map[key]*agg{}
	var order []key
	cache := newGradeCache()
	for _, set := range t.Answers {
		lesson, w, err := s.lessonWidget(set.LessonSlug, set.WidgetID)
		if err != nil {
			continue // the course changed; old answers no longer name its items
		}
		tried[[2]string{set.LessonSlug, set.WidgetID}] += set.Count
		answers, ok := cache.decode(set.Answers)
		if !ok {
			continue
		}
		for _, shown := range cache.shownItems(w, answers, set.LearnerID, 1) {
			k := key{set.LessonSlug, set.WidgetID, shown.it.question.ID}
			a, ok := items[k]
			if !ok {
				where := w.ID
				if w.Kind == quiz.KindQuiz {
					where = "Quiz"
				}
				a = &agg{it: shown.it, lesson: lesson, where: where, wrong: map[string]int{}}
				items[k] = a
				order = append(order, k)
			}
			v := cache.grade(w, &a.it.question, shown.value)
			a.answered += set.Count
			if v.right {
				a.right += set.Count
			} else {
				a.wrong[v.given] += set.Count
			}
		}
	}
	var out []StuckItem
	for _, k := range order {
		a := items[k]
		total := a.answered
		if a.it.always && a.it.question.ID == k.item {
			// An item every try shows and a try left unanswered is a miss.
			total = max(total, tried[[2]string{k.lesson, k.widget}])
		}
		st := StuckItem{Lesson: a.lesson, Where: a.where, Prompt: prompt(&a.it.question), Tried: total, Missed: total - a.right}
		for ans, n := range a.wrong {
			if n > st.WrongCount || (n == st.WrongCount && ans < st.WrongAnswer) {
				st.WrongAnswer, st.WrongCount = ans, n
			}
		}
		if st.Missed > 0 {
			out = append(out, st)
		}
	}
	slices.SortStableFunc(out, func(a, b StuckItem) int {
		return cmp.Or(cmp.Compare(b.MissRate(), a.MissRate()), cmp.Compare(b.Missed, a.Missed),
			cmp.Compare(a.Lesson.Order, b.Lesson.Order), cmp.Compare(a.Prompt, b.Prompt))
	})
	if len(out) > maxStuck {
		out = out[:maxStuck]
	}
	return out
}

func (s *Service) stuckExercises(stats []ExerciseStat, fails []CaseFailure) []StuckExercise {
	worst := map[string]CaseFailure{}
	for _, f := range fails {
		w, ok := worst[f.ExerciseID]
		if !ok || f.Count > w.Count || (f.Count == w.Count && f.Case < w.Case) {
			worst[f.ExerciseID] = f
		}
	}
	var out []StuckExercise
	for _, st := range stats {
		ex, lesson, ok := s.Course().Exercise(st.ExerciseID)
		if !ok || st.Failed == 0 {
			continue
		}
		w := worst[st.ExerciseID]
		out = append(out, StuckExercise{Lesson: lesson, Exercise: ex, ExerciseStat: st, Case: w.Case, Verdict: w.Verdict, CaseCount: w.Count})
	}
	slices.SortStableFunc(out, func(a, b StuckExercise) int {
		return cmp.Or(cmp.Compare(b.FailRate(), a.FailRate()), cmp.Compare(b.Failed, a.Failed), cmp.Compare(a.ExerciseID, b.ExerciseID))
	})
	if len(out) > maxStuck {
		out = out[:maxStuck]
	}
	return out
}

// completion counts the class's completed lessons by the end of each day
// that had one.
func completion(act ClassActivity, zone *time.Location) []CompletionPoint {
	perDay := map[time.Time]int{}
	for _, ls := range act.Lessons {
		for _, lp := range ls {
			if lp.Completed() {
				t := lp.CompletedAt.In(zone)
				perDay[time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, zone)]++
			}
		}
	}
	days := make([]time.Time, 0, len(perDay))
	for d := range perDay {
		days = append(days, d)
	}
	slices.SortFunc(days, func(a, b time.Time) int { return a.Compare(b) })
	out := make([]CompletionPoint, 0, len(days))
	total := 0
	for _, d := range days {
		total += perDay[d]
		out = append(out, CompletionPoint{Day: d, Total: total})
	}
	return out
}

// spread gathers first-try quiz scores per lesson.
func spread(rows []RosterRow, ls []*lessons.Lesson) []ScoreSpread {
	var out []ScoreSpread
	for i, l := range ls {
		q, ok := l.Quiz()
		if !ok {
			continue
		}
		sp := ScoreSpread{Lesson: l, Total: len(q.Questions), Counts: make([]int, len(q.Questions)+1)}
		for _, r := range rows {
			qs := r.Cells[i].Quiz
			if qs.Attempts > 0 && qs.First >= 0 && qs.First < len(sp.Counts) {
				sp.Counts[qs.First]++
			}
		}
		out = append(out, sp)
	}
	return out
}

// weekStart is Monday 00:00 of now's week in zone.
func weekStart(now time.Time, zone *time.Location) time.Time {
	t := now.In(zone)
	back := (int(t.Weekday()) + 6) % 7
	return time.Date(t.Year(), t.Month(), t.Day()-back, 0, 0, 0, 0, zone)
}

func (s *Service) leaderboard(ctx context.Context, c Class, members []Member, now time.Time) ([]LeaderRow, error) {
	zone, _ := quiz.Zone(c.TimeZone)
	xp, err := s.store.WeeklyXP(ctx, c.ID, weekStart(now, zone))
	if err != nil {
		return nil, err
	}
	return leaderRows(members, xp), nil
}

// leaderRows ranks members by this week's XP; members with none are left
// out, and ties share a rank.
func leaderRows(members []Member, xp map[string]int) []LeaderRow {
	var rows []LeaderRow
	for _, m := range members {
		if xp[m.LearnerID] > 0 {
			rows = append(rows, LeaderRow{Name: m.Name, XP: xp[m.LearnerID]})
		}
	}
	slices.SortStableFunc(rows, func(a, b LeaderRow) int { return cmp.Or(cmp.Compare(b.XP, a.XP), cmp.Compare(a.Name, b.Name)) })
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && rows[i].XP == rows[i-1].XP {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	return rows
}

// LearnerDetail is one learner's page for their teacher.
type LearnerDetail struct {
	Class  Class
	Member Member
	Zone   *time.Location
	XP     int
	// Attempts are every widget, quiz and review attempt, oldest first.
	Attempts []AttemptDetail
	// Exercises are the course's exercises with the learner's latest code.
	Exercises []ExerciseDetail
}

// AttemptDetail is one attempt with its answers in words.
type AttemptDetail struct {
	Attempt
	Lesson *lessons.Lesson
	// Where names the block: "Quiz", a widget id, or "Review".
	Where   string
	Answers []AnswerDetail
}

// AnswerDetail is one item of an attempt: what was asked, what was given.
type AnswerDetail struct {
	Prompt, Given string
	Right         bool
}

// ExerciseDetail is an exercise with the learner's latest code and how
// that run went.
type ExerciseDetail struct {
	Lesson   *lessons.Lesson
	Exercise *lessons.Exercise
	// Latest is the last run or submission; Latest.At is zero when none.
	Latest Submission
	Solved bool
	// Verdicts are the latest run's case verdicts, by case name.
	Verdicts []CaseVerdict
}

// CaseVerdict is one case of a stored report.
type CaseVerdict struct {
	Name, Verdict string
}

// ClassLearner returns one learner's page for the teacher of their class.
//
// Errors: NotFound for a class that is not a's or a learner not in it.
func (s *Service) ClassLearner(ctx context.Context, a Actor, classID int64, learnerID string) (LearnerDetail, error) {
	c, err := s.ownClass(ctx, a, classID)
	if err != nil {
		return LearnerDetail{}, err
	}
	m, err := s.store.FindMember(ctx, c.ID, learnerID)
	if errors.Is(err, ErrNotFound) {
		return LearnerDetail{}, notFound("This learner is not in the class.")
	}
	if err != nil {
		return LearnerDetail{}, err
	}
	d := LearnerDetail{Class: c, Member: m}
	d.Zone, _ = quiz.Zone(c.TimeZone)
	if d.XP, err = s.store.TotalXP(ctx, learnerID); err != nil {
		return d, err
	}
	attempts, err := s.store.LearnerAttempts(ctx, learnerID)
	if err != nil {
		return d, err
	}
	tries := map[string]int{}
	for _, at := range attempts {
		n := 1
		if at.Kind == quiz.KindQuiz {
			tries[at.LessonSlug+"/"+at.WidgetID]++
			n = tries[at.LessonSlug+"/"+at.WidgetID]
		}
		d.Attempts = append(d.Attempts, s.attemptDetail(at, n))
	}
	latest, err := s.store.LatestSubmissions(ctx, learnerID)
	if err != nil {
		return d, err
	}
	states, err := s.store.ExerciseStates(ctx, learnerID)
	if err != nil {
		return d, err
	}
	for _, l := range s.Course().Lessons {
		for _, ex := range l.Exercises() {
			ed := ExerciseDetail{Lesson: l, Exercise: ex, Latest: latest[ex.ID], Solved: states[ex.ID].Solved()}
			var rep struct {
				Cases []struct {
					Name    string `json:"name"`
					Verdict string `json:"verdict"`
				} `json:"cases"`
			}
			if ed.Latest.Report != "" && json.Unmarshal([]byte(ed.Latest.Report), &rep) == nil {
				for _, c := range rep.Cases {
					ed.Verdicts = append(ed.Verdicts, CaseVerdict{Name: c.Name, Verdict: c.Verdict})
				}
			}
			d.Exercises = append(d.Exercises, ed)
		}
	}
	return d, nil
}

// attemptDetail turns a stored attempt's answers into words, item by item;
// quizAttempt is the attempt's number among the learner's tries at that
// quiz (it fixes which versions of the questions were shown).
func (s *Service) attemptDetail(at Attempt, quizAttempt int) AttemptDetail {
	d := AttemptDetail{Attempt: at, Where: at.WidgetID}
	lesson, w, err := s.lessonWidget(at.LessonSlug, at.WidgetID)
	if err != nil {
		d.Lesson, _ = s.Course().Lesson(at.LessonSlug)
		return d
	}
	d.Lesson = lesson
	if at.Kind == "review" {
		d.Where = "Review"
	} else if w.Kind == quiz.KindQuiz {
		d.Where = "Quiz"
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(at.Answers), &raw) != nil {
		return d
	}
	shown := newGradeCache().shownItems(w, raw, at.LearnerID, quizAttempt)
	if x, ok := w.Value.(*quiz.Quiz); ok && at.Kind == "review" {
		// A review answers one question, named by the version shown.
		shown = nil
		for id, value := range raw {
			if q, ok := x.QuestionByID(id); ok {
				shown = append(shown, shownAnswer{it: item{question: *q}, value: value})
			}
		}
	}
	for _, shown := range shown {
		given := choices(shown.it.question.Kind, string(shown.value))
		fb := quiz.GradeQuestion(&shown.it.question, given)
		d.Answers = append(d.Answers, AnswerDetail{Prompt: prompt(&shown.it.question), Given: describe(&shown.it.question, given), Right: fb.Right})
	}
	return d
}

// ExportRow is one line of a class's export: one learner and one lesson.
type ExportRow struct {
	Name, Lesson string
	State        CellState
	// FirstTry and Best are quiz scores of Total; Quizzed is false when
	// the quiz was never tried.
	FirstTry, Best, Total int
	Quizzed               bool
	Attempts              int
	XP                    int
	Solved, Exercises     int
	LastActive            time.Time
}

// Export returns one row per learner and lesson of a's class, in roster
// order (by name) and course order.
//
// Errors: NotFound for a class that is not a's.
func (s *Service) Export(ctx context.Context, a Actor, classID int64) (Class, []ExportRow, error) {
	d, err := s.Dashboard(ctx, a, classID, SortName)
	if err != nil {
		return Class{}, nil, err
	}
	var out []ExportRow
	for _, r := range d.Rows {
		for _, c := range r.Cells {
			out = append(out, ExportRow{
				Name: r.Member.Name, Lesson: c.Lesson.Title, State: c.State,
				FirstTry: c.Quiz.First, Best: c.Quiz.Best, Total: c.Quiz.Total, Quizzed: c.Quiz.Attempts > 0,
				Attempts: c.Attempts, XP: r.XP, Solved: c.Solved, Exercises: c.Exercises, LastActive: r.LastActive,
			})
		}
	}
	return d.Class, out, nil
}

// MyClass is one of a learner's classes as their home shows it.
type MyClass struct {
	Membership
	Assignments []MyAssignment
	// Leaderboard is set when the class shows this week's XP table.
	Leaderboard []LeaderRow
}

// MyAssignment is one assigned lesson with the learner's state in it.
type MyAssignment struct {
	Lesson *lessons.Lesson
	DueDay string
	Done   bool
	Late   bool
}

// MyClasses returns a's classes with their assignments (and weekly
// leaderboards where the teacher turned one on). A first visit has none.
func (s *Service) MyClasses(ctx context.Context, a Actor) ([]MyClass, error) {
	if !a.Known {
		return nil, nil
	}
	ms, err := s.store.LearnerClasses(ctx, a.ID)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	progress, err := s.store.ProgressByLesson(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out []MyClass
	for _, m := range ms {
		mc := MyClass{Membership: m}
		assignments, err := s.store.Assignments(ctx, m.Class.ID)
		if err != nil {
			return nil, err
		}
		for _, as := range assignments {
			l, ok := s.Course().Lesson(as.LessonSlug)
			if !ok {
				continue
			}
			lp := progress[as.LessonSlug]
			mc.Assignments = append(mc.Assignments, MyAssignment{Lesson: l, DueDay: DueDay(as, m.Class.TimeZone), Done: lp.Completed(), Late: late(as, lp, now)})
		}
		if m.Class.Leaderboard {
			members, err := s.store.Members(ctx, m.Class.ID)
			if err != nil {
				return nil, err
			}
			if mc.Leaderboard, err = s.leaderboard(ctx, m.Class, members, now); err != nil {
				return nil, err
			}
		}
		out = append(out, mc)
	}
	return out, nil
}
