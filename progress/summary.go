package progress

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"learn/quiz"
)

// summaryTTL is how long a learner's summary is reused. Writes made through
// this service forget the entry at once, and a write through another
// server sharing the store changes the learner's version
// (Config.Invalidator), which the entry no longer matches; the time limit
// bounds how stale a day boundary (streaks) or a lost count can make it.
const summaryTTL = time.Minute

// summaryMax bounds the cache; when full it starts again empty.
const summaryMax = 10_000

// Summary is what every page needs to know about a learner: the header
// figures, the lessons opened, attempt counts and saved code.
type Summary struct {
	XP          int
	Level       int
	StreakDays  int
	ActiveToday bool
	ReviewsDue  int
	// Opened holds the slugs of the lessons opened.
	Opened map[string]bool
	// Zone is the learner's IANA time zone ("UTC" until the browser says).
	Zone string
	// Attempts counts widget and quiz attempts by "lessonSlug/widgetID".
	Attempts map[string]int
	// Codes is the latest code by exercise id.
	Codes map[string]string
	// Widgets is the latest attempt at each widget and quiz, by
	// "lessonSlug/widgetID": what a revisited lesson shows.
	Widgets map[string]Attempt
	// Quizzes is the quiz record by lesson slug; Exercises the state of
	// each exercise tried, by id.
	Quizzes   map[string]QuizScore
	Exercises map[string]ExerciseState
	// Hints counts the hints revealed, by exercise id.
	Hints map[string]int
	// OpenedAt is when each opened lesson was first opened, by slug.
	OpenedAt map[string]time.Time
	// Notices counts unread notices of answers and acceptances.
	Notices int
	// Fingerprint identifies the content of every field above: two
	// summaries with equal fingerprints show the same, on any server (a
	// hash of their JSON, whose map keys are sorted). Computed once when
	// the summary is loaded; 0 for someone with no activity yet.
	Fingerprint uint64 `json:"-"`
	loaded      time.Time
	// version is the learner's write count (Invalidator.Version) read
	// before this summary was loaded.
	version int64
}

// noActivity is the summary of every new visitor, shared: summaries are
// only read once made (the cache shares each learner's between requests
// too), so its maps are never written.
var noActivity = newSummary()

// newSummary is the summary of someone with no activity yet.
func newSummary() Summary {
	return Summary{Level: 1, Zone: "UTC", Opened: map[string]bool{}, Attempts: map[string]int{}, Codes: map[string]string{},
		Widgets: map[string]Attempt{}, Quizzes: map[string]QuizScore{}, Exercises: map[string]ExerciseState{},
		Hints: map[string]int{}, OpenedAt: map[string]time.Time{}}
}

// QuizAttempt returns the number of a's next try at the lesson's widget:
// one more than the attempts made so far.
func (sum Summary) QuizAttempt(lessonSlug, widgetID string) int {
	return sum.Attempts[lessonSlug+"/"+widgetID] + 1
}

// summaries caches summaries so that a page view costs no query.
type summaries struct {
	mu sync.Mutex
	m  map[string]Summary
	// drops counts the drops of each learner's summary in this process,
	// and epoch the times the cache was emptied: a summary whose loading
	// began before a drop is not kept, since it may miss that write.
	drops map[string]uint64
	epoch uint64
	// invalidator, if non-nil, counts every forget: each follows a write.
	invalidator Invalidator
}

// loadMark is where the cache stood when a summary began loading.
type loadMark struct{ epoch, drops uint64 }

// mark returns the learner's loadMark, to pass to put.
func (c *summaries) mark(id string) loadMark {
	c.mu.Lock()
	defer c.mu.Unlock()
	return loadMark{c.epoch, c.drops[id]}
}

func (c *summaries) get(id string, now time.Time) (Summary, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || now.Sub(e.loaded) > summaryTTL || now.Before(e.loaded) {
		return Summary{}, false
	}
	return e, true
}

// put keeps e, loaded since mark, unless the learner's summary was dropped
// since (a write committed while it loaded).
func (c *summaries) put(id string, e Summary, mark loadMark) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if mark != (loadMark{c.epoch, c.drops[id]}) {
		return
	}
	if c.m == nil || len(c.m) >= summaryMax || len(c.drops) >= summaryMax {
		c.m, c.drops = make(map[string]Summary), make(map[string]uint64)
		c.epoch++
	}
	c.m[id] = e
}

// forget drops the learner's summary after they wrote, and counts the
// write for the other servers.
func (c *summaries) forget(id string) {
	c.drop(id)
	if c.invalidator != nil {
		c.invalidator.Invalidate(id)
	}
}

func (c *summaries) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
	if c.drops == nil || len(c.drops) >= summaryMax {
		// Emptied, the cache keeps nothing loaded before now.
		c.m, c.drops = make(map[string]Summary), make(map[string]uint64)
		c.epoch++
	}
	c.drops[id]++
}

// Summary returns a's summary, from a cache kept for a minute and
// forgotten when a writes through this service. With an Invalidator, a
// cached summary costs one version read and is reloaded when a wrote
// through another server since. A first visit (not Known) has an empty
// summary and costs no query.
func (s *Service) Summary(ctx context.Context, a Actor) (Summary, error) {
	if !a.Known {
		return noActivity, nil
	}
	now := s.now()
	var version int64
	if inv := s.summaries.invalidator; inv != nil {
		// Read before loading: a write while the rest loads makes the
		// entry older than the version, and the next page reloads it.
		v, err := inv.Version(ctx, a.ID)
		if err != nil {
			return newSummary(), err
		}
		version = v
	}
	if e, ok := s.summaries.get(a.ID, now); ok && e.version == version {
		return e, nil
	}
	mark := s.summaries.mark(a.ID)
	e := newSummary()
	e.loaded, e.version = now, version
	progress, err := s.learning.ProgressByLesson(ctx, a.ID)
	if err != nil {
		return e, err
	}
	for slug, p := range progress {
		e.Opened[slug] = true
		e.OpenedAt[slug] = p.OpenedAt
	}
	if e.XP, err = s.learning.TotalXP(ctx, a.ID); err != nil {
		return e, err
	}
	e.Level, _, _ = quiz.Level(e.XP)
	if lr, err := s.learning.FindLearner(ctx, a.ID); err == nil {
		e.Zone = lr.TimeZone
	}
	times, err := s.learning.ActivityTimes(ctx, a.ID)
	if err != nil {
		return e, err
	}
	loc, _ := quiz.Zone(e.Zone)
	st := quiz.Streak(times, now, loc)
	e.StreakDays, e.ActiveToday = st.Days, st.ActiveToday
	if e.ReviewsDue, _, err = s.learning.ReviewCounts(ctx, a.ID, now); err != nil {
		return e, err
	}
	if e.Attempts, err = s.learning.AttemptCounts(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Codes, err = s.learning.LatestCodes(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Notices, err = s.qa.UnreadNotices(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Widgets, err = s.learning.LastAttempts(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Quizzes, err = s.learning.QuizScores(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Exercises, err = s.learning.ExerciseStates(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Hints, err = s.learning.HintsShown(ctx, a.ID); err != nil {
		return e, err
	}
	if e.Fingerprint, err = fingerprint(e); err != nil {
		return e, err
	}
	s.summaries.put(a.ID, e, mark)
	return e, nil
}

// fingerprint hashes a summary's JSON (FNV-1a, the same on every server).
func fingerprint(sum Summary) (uint64, error) {
	b, err := json.Marshal(sum)
	if err != nil {
		return 0, fmt.Errorf("progress: fingerprint a summary: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write(b)
	return h.Sum64() | 1, nil // never 0, which is no activity
}
