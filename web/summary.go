package web

import (
	"context"
	"net/http"
	"sync"
	"time"

	"learn/quiz"
)

// summaryTTL is how long a learner's header figures are reused. Writes made
// through this server forget the entry at once; the time limit bounds how
// stale a day boundary (streaks) or another server's write can make it.
const summaryTTL = time.Minute

// summaryMax bounds the cache; when full it starts again empty.
const summaryMax = 10_000

// learnerSummary is what every page needs to know about a returning
// learner: the header figures and which lessons they opened.
type learnerSummary struct {
	badge    LearnerBadge
	opened   map[string]bool
	zone     string
	attempts map[string]int    // by "lessonSlug/widgetID"
	codes    map[string]string // latest code by exercise id
	loaded   time.Time
}

// summaries caches learner summaries so that a page view costs no query.
type summaries struct {
	mu sync.Mutex
	m  map[string]learnerSummary
}

func (c *summaries) get(id string, now time.Time) (learnerSummary, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || now.Sub(e.loaded) > summaryTTL || now.Before(e.loaded) {
		return learnerSummary{}, false
	}
	return e, true
}

func (c *summaries) put(id string, e learnerSummary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= summaryMax {
		c.m = make(map[string]learnerSummary)
	}
	c.m[id] = e
}

func (c *summaries) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// summary returns the learner's summary from the cache or the database.
func (s *Server) summary(ctx context.Context, id string) (learnerSummary, error) {
	now := s.now()
	if e, ok := s.summaries.get(id, now); ok {
		return e, nil
	}
	e := learnerSummary{opened: map[string]bool{}, zone: "UTC", loaded: now}
	progress, err := s.store.ProgressByLesson(ctx, id)
	if err != nil {
		return e, err
	}
	for slug := range progress {
		e.opened[slug] = true
	}
	xp, err := s.store.TotalXP(ctx, id)
	if err != nil {
		return e, err
	}
	e.badge.XP = xp
	e.badge.Level, _, _ = quiz.Level(xp)
	if lr, err := s.store.FindLearner(ctx, id); err == nil {
		e.zone = lr.TimeZone
	}
	times, err := s.store.ActivityTimes(ctx, id)
	if err != nil {
		return e, err
	}
	loc, _ := quiz.Zone(e.zone)
	st := quiz.Streak(times, now, loc)
	e.badge.StreakDays, e.badge.ActiveToday = st.Days, st.ActiveToday
	if e.badge.ReviewsDue, _, err = s.store.ReviewCounts(ctx, id, now); err != nil {
		return e, err
	}
	if e.attempts, err = s.store.AttemptCounts(ctx, id); err != nil {
		return e, err
	}
	if e.codes, err = s.store.LatestCodes(ctx, id); err != nil {
		return e, err
	}
	s.summaries.put(id, e)
	return e, nil
}

// reloadLearner forgets the learner's cached summary after a write, loads
// it afresh and returns the request carrying the learner with it, so the
// page drawn next shows the new XP, streak and reviews.
func (s *Server) reloadLearner(r *http.Request) (*http.Request, LearnerBadge, error) {
	l := learnerFrom(r.Context())
	s.summaries.forget(l.ID)
	sum, err := s.summary(r.Context(), l.ID)
	if err != nil {
		return r, LearnerBadge{}, err
	}
	l.badge, l.opened, l.zone, l.sum = sum.badge, sum.opened, sum.zone, sum
	return r.WithContext(withLearner(r.Context(), l)), sum.badge, nil
}
