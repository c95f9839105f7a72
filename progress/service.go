package progress

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"learn/grading"
	"learn/lessons"
	"learn/quiz"
)

// Config is what a Service is built from. Course and Store are required.
type Config struct {
	Course *lessons.Course
	Store  Store
	// Grader runs learners' code; nil serves exercises that cannot run
	// (RunExercise answers Unavailable).
	Grader grading.Runner
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Invalidator, if non-nil, counts every write a learner makes through
	// the service, so that servers sharing the store never serve a
	// summary older than the learner's last write, whichever server took
	// it. One server alone needs none.
	Invalidator Invalidator
	// Limiter counts tries against the rate limits; nil counts them in
	// this process's memory. Servers sharing a database pass the
	// database's, so that every limit holds across them.
	Limiter RateLimiter
	// Limits are the rates of running code and of graded answers; the
	// zero value takes every default (see limits.go).
	Limits Limits
	// LTI keeps the links LTI launches make (LaunchLTI); nil when the
	// server takes no launches.
	LTI LTIStore
	// Rosters reads LMS courses' rosters (package lti's Roster); nil
	// keeps no rosters.
	Rosters LMSRosters
}

// Invalidator keeps the cached summaries of servers that share one store
// consistent with each other's writes.
type Invalidator interface {
	// Invalidate counts a write by the learner. The service calls it after
	// the write committed and before it answers, so it should be quick; it
	// bounds its own time and reports its own failures, since the write
	// already stands (a lost count leaves other servers' summaries of the
	// learner stale for at most a minute).
	Invalidate(learnerID string)
	// Version returns how many writes of the learner were counted. A
	// cached summary is served only while this still equals the count read
	// before the summary was loaded.
	Version(ctx context.Context, learnerID string) (int64, error)
}

// Service runs the use cases of the course: checking a widget, passing a
// quiz, running and submitting an exercise, answering a review, reading a
// learner's summary and progress. It is safe for concurrent use.
type Service struct {
	course atomic.Pointer[courseState]
	// The store's parts: each use case reads and writes only the part of
	// its concern (learning progress, the classroom, Q&A), and Ping checks
	// the whole store for readiness.
	learning  LearningStore
	classes   ClassroomStore
	qa        QAStore
	stats     StatsStore
	ping      func(context.Context) error
	grader    grading.Runner
	now       func() time.Time
	summaries summaries
	// limiter counts every try against rules (limits.go); dummyHash is
	// compared against for an unknown e-mail (made on first use: bcrypt is
	// slow on purpose).
	limiter   RateLimiter
	rules     rules
	dummyHash func() string
	// text renders and sanitises Q&A posts.
	text *postText
	// lti links LMS users and courses (nil: no launches).
	lti LTIStore
	// rosters reads LMS rosters (nil: none).
	rosters LMSRosters
}

// courseState is a course with its grading plans, swapped as one.
type courseState struct {
	course *lessons.Course
	book   *grading.Book
}

// New builds a service from cfg. It fails when a required field is missing
// or an exercise of the course cannot be graded.
func New(cfg Config) (*Service, error) {
	if cfg.Course == nil || cfg.Store == nil {
		return nil, errors.New("progress: new service: course and store are required")
	}
	s := &Service{learning: cfg.Store, classes: cfg.Store, qa: cfg.Store, stats: cfg.Store, ping: cfg.Store.Ping, grader: cfg.Grader, now: cfg.Now, limiter: cfg.Limiter, rules: newRules(cfg.Limits), dummyHash: sync.OnceValue(newDummyHash), text: newPostText(), lti: cfg.LTI, rosters: cfg.Rosters}
	s.summaries.invalidator = cfg.Invalidator
	if s.now == nil {
		s.now = time.Now
	}
	if s.limiter == nil {
		s.limiter = NewMemoryLimiter()
	}
	if err := s.SetCourse(cfg.Course); err != nil {
		return nil, err
	}
	return s, nil
}

// SetCourse replaces the course being served (reloading in development).
// The old course stays when the new one's exercises cannot be planned.
func (s *Service) SetCourse(c *lessons.Course) error {
	book, err := grading.Compile(c)
	if err != nil {
		return fmt.Errorf("progress: set course: %w", err)
	}
	s.course.Store(&courseState{course: c, book: book})
	return nil
}

// Course returns the course being served.
func (s *Service) Course() *lessons.Course { return s.course.Load().course }

// Plan returns the grading plan of the exercise with this id in the
// course being served.
func (s *Service) Plan(exerciseID string) (*grading.Plan, bool) {
	return s.course.Load().book.Plan(exerciseID)
}

// Now returns the service's clock reading.
func (s *Service) Now() time.Time { return s.now() }

// Ping reports whether the store answers, for readiness checks.
func (s *Service) Ping(ctx context.Context) error { return s.ping(ctx) }

// lessonWidget finds a lesson and one of its widgets, or a NotFound error.
func (s *Service) lessonWidget(slug, widgetID string) (*lessons.Lesson, *lessons.Widget, error) {
	lesson, ok := s.Course().Lesson(slug)
	if !ok {
		return nil, nil, notFound("There is no such lesson. The course home lists every lesson.")
	}
	w, ok := lesson.Widget(widgetID)
	if !ok || w.Exercise != nil {
		return nil, nil, notFound("This lesson has no such exercise. Reload the lesson to get its current version.")
	}
	return lesson, w, nil
}

// RememberZone stores the browser's time zone for a, when it is a real
// IANA name that differs from the one on record. Anything else is ignored:
// the zone is a hint, not an input a learner must get right.
func (s *Service) RememberZone(ctx context.Context, a Actor, zone string) error {
	if zone == "" || len(zone) > 64 {
		return nil
	}
	if _, ok := quiz.Zone(zone); !ok {
		return nil
	}
	if sum, ok := s.summaries.get(a.ID, s.now()); ok && sum.Zone == zone {
		return nil
	}
	if _, err := s.learning.EnsureLearner(ctx, a.ID, s.now()); err != nil {
		return err
	}
	defer s.summaries.forget(a.ID)
	return s.learning.SetTimeZone(ctx, a.ID, zone)
}

// OpenLesson records that a opened the lesson. A first visit (not Known)
// writes nothing, and a lesson already opened costs no write.
func (s *Service) OpenLesson(ctx context.Context, a Actor, slug string) error {
	if !a.Known {
		return nil
	}
	if _, ok := s.Course().Lesson(slug); !ok {
		return notFound(fmt.Sprintf("There is no lesson called %q. The course home lists every lesson.", slug))
	}
	sum, err := s.Summary(ctx, a)
	if err != nil {
		return err
	}
	if sum.Opened[slug] {
		return nil
	}
	now := s.now()
	if _, err := s.learning.EnsureLearner(ctx, a.ID, now); err != nil {
		return err
	}
	defer s.summaries.forget(a.ID)
	return s.learning.MarkLessonOpened(ctx, a.ID, slug, now)
}
