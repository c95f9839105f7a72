package progress

// Statistics for authors: how every question, widget item and exercise of
// the course went, across every learner (in a class or not), after
// Moodle's quiz statistics report. Every figure is of first tries: a
// learner's first attempt at a quiz or a widget, and their submissions of
// an exercise.
//
//   - Facility is the share of learners right on their first try.
//   - Discrimination, for a quiz question (and each of its versions), is
//     the point-biserial correlation between being right on it and the
//     score on the rest of the same attempt (the other questions): near 1
//     the learners who know the rest get it right, near 0 it tells
//     nothing, below 0 the learners who know the rest get it wrong, so the
//     question or its key is suspect. It is left out (nil) when either
//     side does not vary.
//   - Flags are given only past MinAnswers answers, where one learner more
//     or less does not turn them on or off.

import (
	"context"
	"fmt"
	"math"
	"slices"

	"learn/lessons"
	"learn/quiz"
)

// DefaultStatsMinAnswers is the fewest answers an item needs before its
// figures are flagged: below it a flag says more about chance than about
// the question.
const DefaultStatsMinAnswers = 20

// Flag thresholds: an item right on the first try more often than
// TooEasyFacility, or less often than TooHardFacility, is flagged.
const (
	TooEasyFacility = 0.9
	TooHardFacility = 0.2
)

// StatsStore reads what every learner did, for the authors' statistics.
type StatsStore interface {
	// CourseFirstTries returns every learner's first-try answer sets per
	// widget and quiz, as ClassFirstTries does for one class.
	CourseFirstTries(ctx context.Context) (FirstTries, error)
	// CourseExerciseStats returns, per exercise, the submissions of every
	// learner and how often each case failed with each verdict.
	CourseExerciseStats(ctx context.Context) ([]ExerciseStat, []CaseFailure, error)
	// ExerciseEfforts returns, per learner and exercise they submitted or
	// took a hint for, the submissions, those it took to solve it and
	// the hints shown.
	ExerciseEfforts(ctx context.Context) ([]ExerciseEffort, error)
}

// ExerciseEffort is one learner's work on one exercise.
type ExerciseEffort struct {
	ExerciseID, LearnerID string
	// Submits counts submissions; SubmitsToSolve those up to and including
	// the first that passed, 0 while none has.
	Submits, SubmitsToSolve int
	HintsShown              int
}

// CourseStats is the authors' report on the whole course.
type CourseStats struct {
	// MinAnswers is the fewest answers an item needs to be flagged.
	MinAnswers int
	Quizzes    []QuizStats
	// Widgets are the classify items and annotate tools.
	Widgets   []ItemStats
	Exercises []ExerciseStats
}

// QuizStats is one lesson quiz: its questions in written order.
type QuizStats struct {
	Lesson, LessonTitle, QuizID string
	// Learners counts the learners with a first attempt.
	Learners  int
	Questions []ItemStats
}

// ItemStats is one quiz question (with its versions), one version, one
// classify item or one annotate tool.
type ItemStats struct {
	Lesson, Widget, ID, Prompt string
	// Answered counts the learners shown it on their first try (an
	// unanswered item counts as wrong); Right those right.
	Answered, Right int
	Facility        float64
	// Discrimination is the point-biserial correlation with the rest of
	// the quiz attempt; nil for a widget item or when undefined.
	Discrimination *float64
	// Choices is how often each option (category, hint value) was chosen.
	Choices []Choice
	// Flags say what looks wrong, past MinAnswers answers.
	Flags []string
	// Versions are a quiz question's versions when it has more than one.
	Versions []ItemStats
}

// Choice is one option of an item and how many learners chose it.
type Choice struct {
	ID, Text string
	Count    int
}

// ExerciseStats is one exercise.
type ExerciseStats struct {
	Lesson, ID, Title string
	// Learners counts those who submitted; Solvers those with a passing
	// submission; SolvedShare is their ratio.
	Learners, Solvers int
	SolvedShare       float64
	// MedianToSolve is the median of the submissions each solver made up
	// to the first that passed (0 without solvers).
	MedianToSolve float64
	// HintLearners counts those who took at least one hint; HintShare is
	// their share of the learners who submitted or took one.
	HintLearners int
	HintShare    float64
	// MostFailing is the case that failed most often (with its verdict and
	// count), "" when none failed.
	MostFailing, MostFailingVerdict string
	MostFailingCount                int
	Submits, Failed                 int
}

// CourseStats is ReadStats over the course served and the service's
// store. Only an admin may read it.
//
// Errors: NotFound for anyone but an admin.
func (s *Service) CourseStats(ctx context.Context, a Actor, minAnswers int) (CourseStats, error) {
	if !a.IsTeacher() || a.Role != RoleAdmin {
		return CourseStats{}, notFound("There is no page at this address.")
	}
	return ReadStats(ctx, s.Course(), s.stats, minAnswers)
}

// ReadStats reads what every learner did from st and computes the
// authors' report on course, flagging items past minAnswers answers
// (DefaultStatsMinAnswers when 0 or less).
func ReadStats(ctx context.Context, course *lessons.Course, st StatsStore, minAnswers int) (CourseStats, error) {
	tries, err := st.CourseFirstTries(ctx)
	if err != nil {
		return CourseStats{}, err
	}
	ex, fails, err := st.CourseExerciseStats(ctx)
	if err != nil {
		return CourseStats{}, err
	}
	efforts, err := st.ExerciseEfforts(ctx)
	if err != nil {
		return CourseStats{}, err
	}
	return ComputeStats(course, tries, ex, fails, efforts, minAnswers), nil
}

// itemTally gathers one item's answers.
type itemTally struct {
	question quiz.Question
	answered int
	right    int
	chosen   map[string]int
	// scores pairs, per learner of a quiz, being right here with the rest
	// of the attempt's score.
	rights []bool
	rest   []float64
}

func newTally(q quiz.Question) *itemTally { return &itemTally{question: q, chosen: map[string]int{}} }

func (t *itemTally) add(right bool, given []string, n int) {
	t.answered += n
	if right {
		t.right += n
	}
	for _, g := range given {
		t.chosen[g] += n
	}
}

// ComputeStats is CourseStats over data already read.
func ComputeStats(course *lessons.Course, tries FirstTries, ex []ExerciseStat, fails []CaseFailure, efforts []ExerciseEffort, minAnswers int) CourseStats {
	if minAnswers <= 0 {
		minAnswers = DefaultStatsMinAnswers
	}
	out := CourseStats{MinAnswers: minAnswers}
	cache := newGradeCache()
	type wkey struct{ lesson, widget string }
	sets := map[wkey][]AnswerSet{}
	for _, a := range tries.Answers {
		k := wkey{a.LessonSlug, a.WidgetID}
		sets[k] = append(sets[k], a)
	}
	for _, l := range course.Lessons {
		for _, seg := range l.Segments {
			w := seg.Widget
			if w == nil || w.Exercise != nil {
				continue
			}
			ws := sets[wkey{l.Slug, w.ID}]
			switch x := w.Value.(type) {
			case *quiz.Quiz:
				out.Quizzes = append(out.Quizzes, quizStats(l, w, x, ws, cache, minAnswers))
			case *quiz.Classify:
				for _, it := range x.Items {
					q, _ := x.ItemQuestion(it.ID)
					out.Widgets = append(out.Widgets, widgetItemStats(l, w, it.ID, q, ws, cache, minAnswers))
				}
			case *quiz.Annotate:
				for _, tool := range x.Tools {
					q, _ := x.ToolQuestion(tool.Name)
					out.Widgets = append(out.Widgets, widgetItemStats(l, w, tool.Name, q, ws, cache, minAnswers))
				}
			}
		}
	}
	out.Exercises = exerciseStats(course, ex, fails, efforts)
	return out
}

// widgetItemStats tallies one classify item or annotate tool over the
// widget's first-try answer sets; an item a set leaves out is wrong.
func widgetItemStats(l *lessons.Lesson, w *lessons.Widget, id string, q quiz.Question, sets []AnswerSet, cache *gradeCache, minAnswers int) ItemStats {
	t := newTally(q)
	for _, set := range sets {
		answers, ok := cache.decode(set.Answers)
		if !ok {
			continue
		}
		value, given := answers[id]
		if !given {
			t.add(false, nil, set.Count)
			continue
		}
		v := cache.grade(w, &q, value)
		t.add(v.right, choices(q.Kind, string(value)), set.Count)
	}
	return t.stats(l, w, id, minAnswers, false)
}

// quizStats tallies a quiz's questions and versions over its learners'
// first attempts, each graded against what that learner's draw showed.
func quizStats(l *lessons.Lesson, w *lessons.Widget, x *quiz.Quiz, sets []AnswerSet, cache *gradeCache, minAnswers int) QuizStats {
	qs := QuizStats{Lesson: l.Slug, LessonTitle: l.Title, QuizID: w.ID}
	slots := make([]*itemTally, len(x.Questions))
	versions := make([][]*itemTally, len(x.Questions))
	for i := range x.Questions {
		slots[i] = newTally(x.Questions[i].VariantAt(0))
		for v := range x.Questions[i].VariantCount() {
			versions[i] = append(versions[i], newTally(x.Questions[i].VariantAt(v)))
		}
	}
	for _, set := range sets {
		answers, ok := cache.decode(set.Answers)
		if !ok {
			continue
		}
		qs.Learners += set.Count
		draw := QuizDraw(Actor{ID: set.LearnerID}, x, 1)
		rights := make([]bool, len(x.Questions))
		shown := make([]int, len(x.Questions))
		for i := range x.Questions {
			v := 0
			if i < len(draw.Variants) {
				v = draw.Variants[i]
			}
			shown[i] = v
			it := cache.version(x, i, v)
			var given []string
			if value, ok := answers[x.Questions[i].ID]; ok {
				rights[i] = cache.grade(w, &it.question, value).right
				given = choices(it.question.Kind, string(value))
			}
			slots[i].add(rights[i], given, set.Count)
			versions[i][v].add(rights[i], given, set.Count)
		}
		score := 0
		for _, r := range rights {
			if r {
				score++
			}
		}
		for i, r := range rights {
			rest := float64(score)
			if r {
				rest--
			}
			for range set.Count {
				slots[i].rights, slots[i].rest = append(slots[i].rights, r), append(slots[i].rest, rest)
				vt := versions[i][shown[i]]
				vt.rights, vt.rest = append(vt.rights, r), append(vt.rest, rest)
			}
		}
	}
	for i := range x.Questions {
		st := slots[i].stats(l, w, x.Questions[i].ID, minAnswers, true)
		if len(versions[i]) > 1 {
			for _, vt := range versions[i] {
				st.Versions = append(st.Versions, vt.stats(l, w, vt.question.ID, minAnswers, true))
			}
		}
		qs.Questions = append(qs.Questions, st)
	}
	return qs
}

// stats turns a tally into figures and flags.
func (t *itemTally) stats(l *lessons.Lesson, w *lessons.Widget, id string, minAnswers int, discriminate bool) ItemStats {
	st := ItemStats{Lesson: l.Slug, Widget: w.ID, ID: id, Prompt: prompt(&t.question), Answered: t.answered, Right: t.right}
	if t.answered > 0 {
		st.Facility = float64(t.right) / float64(t.answered)
	}
	if discriminate {
		st.Discrimination = pointBiserial(t.rights, t.rest)
	}
	st.Choices = choiceCounts(&t.question, t.chosen)
	if t.answered < minAnswers {
		return st
	}
	switch {
	case st.Facility > TooEasyFacility:
		st.Flags = append(st.Flags, fmt.Sprintf("too easy: %.2f right on the first try (over %.1f)", st.Facility, TooEasyFacility))
	case st.Facility < TooHardFacility:
		st.Flags = append(st.Flags, fmt.Sprintf("too hard: %.2f right on the first try (under %.1f)", st.Facility, TooHardFacility))
	}
	if st.Discrimination != nil && *st.Discrimination < 0 {
		st.Flags = append(st.Flags, fmt.Sprintf("negative discrimination (%.2f): learners who did well on the rest of the quiz got this wrong more often; check its key and wording", *st.Discrimination))
	}
	if t.question.Kind != quiz.QuestionAnnotate {
		for _, c := range st.Choices {
			if c.Count == 0 {
				st.Flags = append(st.Flags, fmt.Sprintf("nobody chose %q: make it a mistake a learner would make, or drop it", c.Text))
			}
		}
	}
	return st
}

// choiceCounts lists an item's options (categories, hint values) with how
// often each was chosen, in written order.
func choiceCounts(q *quiz.Question, chosen map[string]int) []Choice {
	var out []Choice
	switch q.Kind {
	case quiz.QuestionClassify:
		for _, c := range q.Categories {
			out = append(out, Choice{ID: c.ID, Text: c.Label, Count: chosen[c.ID]})
		}
	case quiz.QuestionAnnotate:
		if q.Tool == nil {
			return nil
		}
		for _, h := range quiz.AllHints() {
			if !q.Tool.Matters(h) {
				continue
			}
			for _, v := range []bool{true, false} {
				c := quiz.HintChoice(h, v)
				out = append(out, Choice{ID: c, Text: c, Count: chosen[c]})
			}
		}
	default:
		for _, o := range q.Options {
			out = append(out, Choice{ID: o.ID, Text: o.Text, Count: chosen[o.ID]})
		}
	}
	return out
}

// pointBiserial is the correlation between the 0/1 item scores x and the
// rest scores y (Pearson's r on them), nil when either does not vary.
func pointBiserial(x []bool, y []float64) *float64 {
	n := float64(len(x))
	if n < 2 {
		return nil
	}
	var sx, sy float64
	for i := range x {
		if x[i] {
			sx++
		}
		sy += y[i]
	}
	mx, my := sx/n, sy/n
	var cov, vx, vy float64
	for i := range x {
		dx := -mx
		if x[i] {
			dx = 1 - mx
		}
		dy := y[i] - my
		cov += dx * dy
		vx += dx * dx
		vy += dy * dy
	}
	if vx == 0 || vy == 0 {
		return nil
	}
	r := cov / math.Sqrt(vx*vy)
	return &r
}

// exerciseStats builds each exercise's figures in course order.
func exerciseStats(course *lessons.Course, ex []ExerciseStat, fails []CaseFailure, efforts []ExerciseEffort) []ExerciseStats {
	byID := map[string]ExerciseStat{}
	for _, e := range ex {
		byID[e.ExerciseID] = e
	}
	var out []ExerciseStats
	for _, l := range course.Lessons {
		for _, e := range l.Exercises() {
			st := ExerciseStats{Lesson: l.Slug, ID: e.ID, Title: e.Title}
			if s, ok := byID[e.ID]; ok {
				st.Learners, st.Solvers, st.Submits, st.Failed = s.Learners, s.Solvers, s.Submits, s.Failed
			}
			if st.Learners > 0 {
				st.SolvedShare = float64(st.Solvers) / float64(st.Learners)
			}
			var toSolve []int
			involved := 0
			for _, ef := range efforts {
				if ef.ExerciseID != e.ID {
					continue
				}
				involved++
				if ef.SubmitsToSolve > 0 {
					toSolve = append(toSolve, ef.SubmitsToSolve)
				}
				if ef.HintsShown > 0 {
					st.HintLearners++
				}
			}
			st.MedianToSolve = median(toSolve)
			if involved > 0 {
				st.HintShare = float64(st.HintLearners) / float64(involved)
			}
			for _, f := range fails {
				if f.ExerciseID == e.ID && (f.Count > st.MostFailingCount || (f.Count == st.MostFailingCount && f.Case < st.MostFailing)) {
					st.MostFailing, st.MostFailingVerdict, st.MostFailingCount = f.Case, f.Verdict, f.Count
				}
			}
			out = append(out, st)
		}
	}
	return out
}

// median is the middle of ns (the mean of the two middle ones for an even
// count), 0 for none.
func median(ns []int) float64 {
	if len(ns) == 0 {
		return 0
	}
	s := slices.Clone(ns)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return float64(s[m])
	}
	return float64(s[m-1]+s[m]) / 2
}
