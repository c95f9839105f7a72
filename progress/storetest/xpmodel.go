package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/grading"
	"learn/lessons"
	"learn/progress"
	"learn/quiz"
	"learn/sandbox"
)

// The XP ledger's model-based tests drive the core (progress.Service) over
// a backend with the built-in course, and check the rule of package quiz
// after every step: a learner's XP never exceeds the course's earnable XP
// plus quiz.ReviewDailyCapXP for each local date the steps could fall on,
// each day's review awards stay within their slots, and every award row
// has the passed attempt that earned it.

// SeedEnv names the environment variable that replays a model run: set it
// to the seed a failing run printed.
const SeedEnv = "LEARN_XP_SEED"

// passGrader is a grading.Runner that runs nothing: code containing "pass"
// passes every case, anything else fails. The model needs exercise
// submissions by the hundred, which the real sandbox is too slow for on a
// shared machine; what is under test is the ledger, not the grading.
type passGrader struct{}

func (passGrader) report(code string) sandbox.Report {
	ok := strings.Contains(code, "pass")
	v := sandbox.VerdictPassed
	if !ok {
		v = sandbox.VerdictWrongOutput
	}
	return sandbox.Report{Passed: ok, Cases: []sandbox.CaseResult{{Name: "case", Verdict: v}}}
}

func (g passGrader) Grade(_ context.Context, code string, _ []sandbox.Case, _ sandbox.Comparison) (sandbox.Report, error) {
	return g.report(code), nil
}

func (g passGrader) GradeMCP(_ context.Context, code string, _ []sandbox.MCPCall, _ sandbox.MCPOptions) (sandbox.MCPReport, error) {
	return sandbox.MCPReport{Report: g.report(code)}, nil
}

func (passGrader) Run(context.Context, string, string) (sandbox.RunResult, error) {
	return sandbox.RunResult{}, nil
}

var _ grading.Runner = passGrader{}

// modelClock is the service's clock, moved by the model.
type modelClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *modelClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *modelClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// model is one run: the service, its clock and the course's widgets.
type model struct {
	s       *progress.Service
	store   Backend
	clock   *modelClock
	start   time.Time
	widgets []widgetRef // classify, annotate and quiz blocks
	exs     []*lessons.Exercise
	// earnable is the course's XP outside review: every widget's, quiz's
	// and exercise's once.
	earnable int
}

type widgetRef struct {
	lesson *lessons.Lesson
	w      *lessons.Widget
}

func newModel(t *testing.T, s Backend) *model {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	m := &model{store: s, clock: &modelClock{t: t0}, start: t0}
	many := 1_000_000
	m.s, err = progress.New(progress.Config{Course: course, Store: s, Grader: passGrader{}, Now: m.clock.now,
		Limits: progress.Limits{RunsPerMinute: many, RunBurst: many, RunsPerMinutePerAddress: -1, AnswersPerMinute: many, AnswersPerMinutePerAddress: -1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range course.Lessons {
		for _, seg := range l.Segments {
			w := seg.Widget
			switch {
			case w == nil:
			case w.Exercise != nil:
				m.exs = append(m.exs, w.Exercise)
				m.earnable += w.Exercise.XPValue()
			default:
				m.widgets = append(m.widgets, widgetRef{l, w})
				if x, ok := w.Value.(*quiz.Quiz); ok {
					m.earnable += x.XPValue()
				} else {
					m.earnable += quiz.WidgetXP
				}
			}
		}
	}
	if len(m.widgets) == 0 || len(m.exs) == 0 {
		t.Fatal("the built-in course has no widgets or no exercises")
	}
	return m
}

// bound is the most XP the rule allows by now: the course's earnable XP
// plus the review cap for every local date any zone (UTC−12 to UTC+14)
// gives an instant between the start and now.
func (m *model) bound() int {
	first := m.start.Add(-12 * time.Hour).Format(time.DateOnly)
	last := m.clock.now().Add(14 * time.Hour).Format(time.DateOnly)
	a, _ := time.Parse(time.DateOnly, first)
	b, _ := time.Parse(time.DateOnly, last)
	days := int(b.Sub(a).Hours()/24) + 1
	return m.earnable + days*quiz.ReviewDailyCapXP
}

// check asserts the rule on the learner's ledger.
func (m *model) check(ctx context.Context, learner string) error {
	total, err := m.s.Summary(ctx, progress.Actor{ID: learner, Role: progress.RoleLearner, Known: true})
	if err != nil {
		return err
	}
	if b := m.bound(); total.XP > b {
		return fmt.Errorf("XP %d exceeds the bound %d", total.XP, b)
	}
	hist, err := m.ledger(ctx, learner)
	if err != nil {
		return err
	}
	sum := 0
	perDay := map[string]int{}
	for _, e := range hist {
		sum += e.Amount
		if err := earnedBy(e); err != nil {
			return err
		}
		if day, ok := strings.CutPrefix(e.Key, "review:day:"); ok {
			date, n, _ := strings.Cut(day, ":")
			if k, err := strconv.Atoi(n); err != nil || k < 1 || k > quiz.ReviewCardsPerDay {
				return fmt.Errorf("review award %q is outside the day's %d slots", e.Key, quiz.ReviewCardsPerDay)
			}
			perDay[date] += e.Amount
		}
	}
	for date, xp := range perDay {
		if xp > quiz.ReviewDailyCapXP {
			return fmt.Errorf("review earned %d XP on %s, over the cap %d", xp, date, quiz.ReviewDailyCapXP)
		}
	}
	if sum != total.XP {
		return fmt.Errorf("the ledger sums to %d but the summary shows %d XP", sum, total.XP)
	}
	return nil
}

// ledger reads the learner's awards from the store the service writes.
func (m *model) ledger(ctx context.Context, learner string) ([]progress.XPEntry, error) {
	return m.store.XPHistory(ctx, learner)
}

// earnedBy checks that an award row has the passed attempt that earned it,
// of the kind and thing its key names, made when it was granted.
func earnedBy(e progress.XPEntry) error {
	a := e.Earned
	if a.Kind == "" {
		return fmt.Errorf("award %q has no attempt", e.Key)
	}
	if !a.Passed || !a.At.Equal(e.At) {
		return fmt.Errorf("award %q at %v was earned by %+v, not a passed attempt of that time", e.Key, e.At, a)
	}
	kind, rest, _ := strings.Cut(e.Key, ":")
	switch kind {
	case "widget", "quiz":
		if rest != a.LessonSlug+":"+a.WidgetID || (kind == "quiz") != (a.Kind == quiz.KindQuiz) {
			return fmt.Errorf("award %q was earned by a %s attempt at %s/%s", e.Key, a.Kind, a.LessonSlug, a.WidgetID)
		}
	case "exercise":
		if rest != a.WidgetID || a.Kind != "exercise" {
			return fmt.Errorf("award %q was earned by a %s attempt at %s", e.Key, a.Kind, a.WidgetID)
		}
	case "review":
		if a.Kind != "review" {
			return fmt.Errorf("award %q was earned by a %s attempt", e.Key, a.Kind)
		}
	default:
		return fmt.Errorf("award %q has an unknown kind", e.Key)
	}
	return nil
}

// seed returns the run's seed: SeedEnv's value, else a fresh one.
func seed(t *testing.T) uint64 {
	if v := os.Getenv(SeedEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", SeedEnv, v, err)
		}
		return n
	}
	return rand.Uint64()
}

// zones are the time zones the model's learner reports, from UTC−11 to
// UTC+14, to move local days against the clock.
var zones = []string{"UTC", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/New_York", ""}

// modelSteps is how many steps one model run takes.
const modelSteps = 400

func testXPModel(t *testing.T, s Backend) {
	sd := seed(t)
	r := rand.New(rand.NewPCG(sd, sd^0x9e3779b97f4a7c15))
	m := newModel(t, s)
	ctx := context.Background()
	learner := "0123456789abcdef0123456789abcdef"
	a := progress.Actor{ID: learner, Role: progress.RoleLearner, Known: true}
	var log []string
	fail := func(step int, err error) {
		t.Helper()
		tail := log[max(0, len(log)-8):]
		t.Fatalf("step %d: %v\nreplay with %s=%d; last steps:\n  %s", step, err, SeedEnv, sd, strings.Join(tail, "\n  "))
	}
	for step := range modelSteps {
		var desc string
		var err error
		switch k := r.IntN(100); {
		case k < 10:
			d := []time.Duration{time.Second, time.Minute, 10 * time.Minute, time.Hour, 7 * time.Hour, 25 * time.Hour}[r.IntN(6)]
			m.clock.add(d)
			desc = "clock +" + d.String()
		case k < 20:
			// Posts at once, from several tabs or servers.
			n := 2 + r.IntN(3)
			acts := make([]func() error, n)
			var names []string
			for i := range acts {
				name, act := m.action(r, a)
				acts[i], names = act, append(names, name)
			}
			desc = "at once: " + strings.Join(names, ", ")
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i, act := range acts {
				wg.Add(1)
				go func() { defer wg.Done(); errs[i] = act() }()
			}
			wg.Wait()
			err = errors.Join(errs...)
		default:
			var act func() error
			desc, act = m.action(r, a)
			err = act()
			if err == nil && r.IntN(5) == 0 {
				desc += " (doubled)"
				err = act()
			}
		}
		log = append(log, desc)
		if err != nil {
			fail(step, err)
		}
		if err := m.check(ctx, learner); err != nil {
			fail(step, err)
		}
	}
	xp, _ := s.TotalXP(ctx, learner)
	t.Logf("seed %d: %d steps, %d XP, bound %d at %v", sd, modelSteps, xp, m.bound(), m.clock.now().Sub(m.start))
}

// action returns one random post of a learner and its description. Errors
// the core returns to a learner (*progress.Error) are part of the model
// and not failures.
func (m *model) action(r *rand.Rand, a progress.Actor) (string, func() error) {
	ctx := context.Background()
	right := r.IntN(2) == 0
	zone := zones[r.IntN(len(zones))]
	switch k := r.IntN(10); {
	case k < 3: // a widget check
		ref := m.widgets[r.IntN(len(m.widgets))]
		if _, ok := ref.w.Value.(*quiz.Quiz); ok {
			break
		}
		post := progress.WidgetPost{LessonSlug: ref.lesson.Slug, WidgetID: ref.w.ID, Answers: widgetAnswers(ref.w, right), TimeZone: zone}
		return fmt.Sprintf("check %s/%s right=%v", ref.lesson.Slug, ref.w.ID, right), func() error {
			_, err := m.s.CheckWidget(ctx, a, post)
			return userError(err)
		}
	case k < 5: // a quiz attempt, under any attempt number
		var quizzes []widgetRef
		for _, ref := range m.widgets {
			if _, ok := ref.w.Value.(*quiz.Quiz); ok {
				quizzes = append(quizzes, ref)
			}
		}
		ref := quizzes[r.IntN(len(quizzes))]
		x := ref.w.Value.(*quiz.Quiz)
		pinned := r.IntN(4) == 0
		attempt := r.IntN(5)
		return fmt.Sprintf("quiz %s right=%v pinned=%v", ref.lesson.Slug, right, pinned), func() error {
			if !pinned {
				// The open attempt, as the page shows it.
				turn, err := m.s.QuizTurn(ctx, a, ref.lesson.Slug, x)
				if err != nil {
					return err
				}
				attempt = turn.Next
			}
			post := progress.WidgetPost{LessonSlug: ref.lesson.Slug, WidgetID: ref.w.ID, Attempt: attempt,
				Answers: quizAnswers(progress.QuizDraw(a, x, attempt), x, right), TimeZone: zone}
			_, err := m.s.CheckWidget(ctx, a, post)
			return userError(err)
		}
	case k < 8: // a review answer
		return fmt.Sprintf("review right=%v zone %q", right, zone), func() error {
			q, err := m.s.Reviews(ctx, a)
			if err != nil || q.Next == nil {
				return err
			}
			_, err = m.s.AnswerReview(ctx, a, progress.ReviewPost{Key: q.Next.Key, Version: strconv.Itoa(q.Next.Version),
				Choices: questionAnswer(q.Next.Question, right), TimeZone: zone})
			return userError(err)
		}
	}
	ex := m.exs[r.IntN(len(m.exs))]
	mode := grading.Submit
	if r.IntN(3) == 0 {
		mode = grading.Run
	}
	code := "fail"
	if right {
		code = "pass"
	}
	return fmt.Sprintf("exercise %s %s %s", ex.ID, mode, code), func() error {
		_, lesson, _ := m.s.Course().Exercise(ex.ID)
		_, err := m.s.RunExercise(ctx, a, lesson.Slug, ex.ID, code, mode)
		return userError(err)
	}
}

// userError drops the errors the core answers a learner with.
func userError(err error) error {
	var pe *progress.Error
	if errors.As(err, &pe) {
		return nil
	}
	return err
}

// widgetAnswers answers every item of a classify or annotate widget, all
// right or with every item wrong.
func widgetAnswers(w *lessons.Widget, right bool) progress.Answers {
	out := progress.Answers{Categories: map[string]string{}, Hints: map[string]map[quiz.Hint]bool{}}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, item := range x.Items {
			for _, c := range x.Categories {
				if (c.ID == item.Answer) == right {
					out.Categories[item.ID] = c.ID
					break
				}
			}
		}
	case *quiz.Annotate:
		for _, tool := range x.Tools {
			out.Hints[tool.Name] = map[quiz.Hint]bool{}
			for _, h := range quiz.AllHints() {
				if k := tool.Hints.Get(h); k != nil && k.Value != nil {
					v := *k.Value
					if !right && tool.Matters(h) {
						v = !v
					}
					out.Hints[tool.Name][h] = v
				}
			}
		}
	}
	return out
}

// quizAnswers answers every question of the quiz as draw shows it.
func quizAnswers(draw quiz.Draw, x *quiz.Quiz, right bool) progress.Answers {
	out := progress.Answers{Choices: map[string][]string{}}
	for i := range x.Questions {
		q := x.Drawn(draw, i)
		out.Choices[x.Questions[i].ID] = questionAnswer(&q, right)
	}
	return out
}

// questionAnswer is the right answer to one question, or a wrong one.
func questionAnswer(q *quiz.Question, right bool) []string {
	var out []string
	switch q.Kind {
	case quiz.QuestionClassify:
		for _, c := range q.Categories {
			if (c.ID == q.Answer) == right {
				return []string{c.ID}
			}
		}
	case quiz.QuestionAnnotate:
		for _, h := range quiz.AllHints() {
			if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
				v := *k.Value
				if !right && q.Tool.Matters(h) {
					v = !v
				}
				out = append(out, quiz.HintChoice(h, v))
			}
		}
	default:
		for _, o := range q.Options {
			if o.Correct == right {
				out = append(out, o.ID)
				if !right {
					break
				}
			}
		}
	}
	return out
}

// testReviewLoop replays the review loop of the farming attack: answer a
// widget wrong, answer its review cards right, answer the widget wrong
// again, one post a second for a simulated minute, then the same for a
// simulated day at one round a minute. Before the ledger had its bound
// this earned about 107 XP a minute with no end; now review earns at most
// quiz.ReviewDailyCapXP a local day.
func testReviewLoop(t *testing.T, s Backend) {
	m := newModel(t, s)
	ctx := context.Background()
	a := progress.Actor{ID: "fedcba9876543210fedcba9876543210", Role: progress.RoleLearner, Known: true}
	var ref widgetRef
	for _, w := range m.widgets {
		if c, ok := w.w.Value.(*quiz.Classify); ok && len(c.Items) >= 2 {
			ref = w
			break
		}
	}
	if ref.w == nil {
		t.Fatal("the built-in course has no classify widget of two items")
	}
	wrong := progress.WidgetPost{LessonSlug: ref.lesson.Slug, WidgetID: ref.w.ID, Answers: widgetAnswers(ref.w, false)}
	round := func(step time.Duration) int {
		t.Helper()
		posts := 0
		if _, err := m.s.CheckWidget(ctx, a, wrong); err != nil {
			t.Fatal(err)
		}
		posts++
		m.clock.add(step)
		for range 20 {
			q, err := m.s.Reviews(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			if q.Next == nil {
				break
			}
			if _, err := m.s.AnswerReview(ctx, a, progress.ReviewPost{Key: q.Next.Key, Version: strconv.Itoa(q.Next.Version),
				Choices: questionAnswer(q.Next.Question, true)}); err != nil {
				t.Fatal(err)
			}
			posts++
			m.clock.add(step)
		}
		return posts
	}
	posts := 0
	for m.clock.now().Sub(m.start) < time.Minute {
		posts += round(time.Second)
	}
	minute, _ := s.TotalXP(ctx, a.ID)
	t.Logf("a simulated minute of the loop: %d posts, %d XP", posts, minute)
	// The widget was never answered right, so every XP is review's; the
	// cards keep their schedule, so a minute earns one review per card.
	if minute > quiz.ReviewDailyCapXP {
		t.Errorf("a minute of the review loop earned %d XP, over the day's cap %d", minute, quiz.ReviewDailyCapXP)
	}
	for m.clock.now().Sub(m.start) < 24*time.Hour {
		posts += round(10 * time.Minute)
		if err := m.check(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	day, _ := s.TotalXP(ctx, a.ID)
	t.Logf("a simulated day of the loop: %d posts, %d XP (bound %d)", posts, day, 2*quiz.ReviewDailyCapXP)
	// The day covers two UTC dates at most.
	if day > 2*quiz.ReviewDailyCapXP {
		t.Errorf("a day of the review loop earned %d XP, over two days' cap %d", day, 2*quiz.ReviewDailyCapXP)
	}
}
