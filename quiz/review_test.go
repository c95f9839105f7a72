package quiz

import (
	"math"
	"testing"
	"time"
)

// step is one review in a pinned sequence: the rating, how long after the
// previous review (0 means "at the due time"), and the card expected after.
type step struct {
	rating    Rating
	after     time.Duration
	state     State
	stepIndex int
	s, d      float64
	next      time.Duration // from this review to the new due time
	lapses    int
}

// The expected stabilities, difficulties and intervals were computed by hand
// from the FSRS-6 formulas in review.go with the default parameters (a short
// script written apart from this package), and the first ones checked on
// paper: after a miss S = w0 = 0.212 and D = w4 = 6.4133; two same-day Goods
// give S = 0.212·(e^(w17·w18)·S^(−w19)) twice = 0.2467 then 0.2842, which
// rounds to 0 and is raised to the 1-day minimum; one day later
// R = (1 + 0.98035·1/0.2842)^(−0.1542) = 0.7944 and the recall formula gives
// S = 2.152, due in 2 days.
func TestScheduleSequences(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)
	d := func(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }
	tests := []struct {
		name  string
		start Card
		steps []step
	}{
		{
			name:  "missed item, then right every time it is due",
			start: NewCard(t0),
			steps: []step{
				{Again, 0, Learning, 0, 0.212, 6.4133, time.Minute, 0},
				{Good, 5 * time.Minute, Learning, 1, 0.246689, 6.402115, 10 * time.Minute, 0},
				{Good, 15 * time.Minute, Review, 0, 0.284206, 6.390941, d(1), 0},
				{Good, 0, Review, 0, 2.152078, 6.379779, d(2), 0},
				{Good, 0, Review, 0, 6.624321, 6.368627, d(7), 0},
				{Good, 0, Review, 0, 19.169023, 6.357487, d(19), 0},
				{Good, 0, Review, 0, 48.297569, 6.346358, d(48), 0},
				{Good, 0, Review, 0, 111.488589, 6.335240, d(111), 0},
			},
		},
		{
			name:  "new card known at once, then a lapse",
			start: NewCard(t0),
			steps: []step{
				{Good, 0, Learning, 1, 2.3065, 2.118104, 10 * time.Minute, 0},
				{Good, 0, Review, 0, 2.3065, 2.111214, d(2), 0},
				{Good, 0, Review, 0, 10.971048, 2.104331, d(11), 0},
				{Good, 0, Review, 0, 46.316858, 2.097455, d(46), 0},
				{Good, 0, Review, 0, 162.999816, 2.090586, d(163), 0},
				{Good, 0, Review, 0, 497.876555, 2.083724, d(498), 0},
				{Again, 0, Relearning, 0, 6.890413, 7.383202, 10 * time.Minute, 1},
				{Good, 0, Review, 0, 6.890413, 7.371047, d(7), 1},
			},
		},
		{
			name:  "easy on a new card graduates at once",
			start: NewCard(t0),
			steps: []step{
				{Easy, 0, Review, 0, 8.2956, 1, d(8), 0},
			},
		},
		{
			name:  "learning steps: hard waits between the steps, again starts over",
			start: NewCard(t0),
			steps: []step{
				{Hard, 0, Learning, 0, 1.2931, 6.4133 - math.Exp(0.8334) + 1, 5*time.Minute + 30*time.Second, 0},
				{Good, 0, Learning, 1, -1, -1, 10 * time.Minute, 0},
				{Again, 0, Learning, 0, -1, -1, time.Minute, 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.start
			now := t0
			for i, st := range tt.steps {
				if st.after == 0 {
					now = c.Due
				} else {
					now = now.Add(st.after)
				}
				before := c
				c = Schedule(c, st.rating, now)
				if c.State != st.state || c.Step != st.stepIndex || c.Lapses != st.lapses || c.Reps != before.Reps+1 {
					t.Fatalf("review %d: state %s step %d lapses %d reps %d; want %s step %d lapses %d reps %d",
						i+1, c.State, c.Step, c.Lapses, c.Reps, st.state, st.stepIndex, st.lapses, before.Reps+1)
				}
				if st.s >= 0 && (math.Abs(c.Stability-st.s) > 1e-5 || math.Abs(c.Difficulty-st.d) > 1e-5) {
					t.Errorf("review %d: S %.6f D %.6f, want S %.6f D %.6f", i+1, c.Stability, c.Difficulty, st.s, st.d)
				}
				if got := c.Due.Sub(now); got != st.next || !c.LastReview.Equal(now) {
					t.Errorf("review %d: due in %s, want %s", i+1, got, st.next)
				}
			}
		})
	}
}

func TestMissedCard(t *testing.T) {
	now := time.Date(2026, 3, 29, 1, 30, 0, 0, time.FixedZone("CET", 3600))
	c := MissedCard(now)
	if c.State != Learning || c.Reps != 1 || c.Due.Sub(now) != time.Minute || c.Due.Location() != time.UTC {
		t.Errorf("MissedCard = %+v", c)
	}
}

func TestRatingFor(t *testing.T) {
	if RatingFor(true) != Good || RatingFor(false) != Again {
		t.Error("correct must rate Good and wrong Again")
	}
}

func TestScheduleEdges(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)
	review := Schedule(Schedule(NewCard(t0), Easy, t0), Good, t0.Add(8*24*time.Hour))
	tests := []struct {
		name string
		got  Card
		want Card
	}{
		{"a rating out of range counts as Again", Schedule(NewCard(t0), 0, t0), Schedule(NewCard(t0), Again, t0)},
		{"a rating above Easy counts as Again", Schedule(review, 9, t0.Add(30*24*time.Hour)), Schedule(review, Again, t0.Add(30*24*time.Hour))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %+v, want %+v", tt.got, tt.want)
			}
		})
	}
	t.Run("no relearning steps keeps a lapsed card in review", func(t *testing.T) {
		s := DefaultScheduler()
		s.RelearningSteps = nil
		c := s.Schedule(review, Again, review.Due)
		if c.State != Review || c.Lapses != 1 || c.Due.Sub(review.Due) < 24*time.Hour {
			t.Errorf("got %+v", c)
		}
	})
	t.Run("intervals are capped", func(t *testing.T) {
		s := DefaultScheduler()
		s.MaximumInterval = 30
		if got := s.IntervalDays(1000); got != 30 {
			t.Errorf("IntervalDays = %d, want 30", got)
		}
	})
	t.Run("interval equals stability at retention 0.9", func(t *testing.T) {
		for _, st := range []float64{1.4, 2.6, 10, 99.4} {
			if got, want := DefaultScheduler().IntervalDays(st), int(math.Round(st)); got != want {
				t.Errorf("IntervalDays(%v) = %d, want %d", st, got, want)
			}
		}
	})
	t.Run("retrievability is 0.9 after one stability", func(t *testing.T) {
		c := Card{State: Review, Stability: 10, LastReview: t0}
		if r := DefaultScheduler().Retrievability(c, t0.Add(10*24*time.Hour)); math.Abs(r-0.9) > 1e-9 {
			t.Errorf("R = %v", r)
		}
		if r := DefaultScheduler().Retrievability(NewCard(t0), t0); r != 0 {
			t.Errorf("new card R = %v", r)
		}
	})
}

func TestFSRS6DefaultParameters(t *testing.T) {
	w := FSRS6DefaultParameters()
	if w[0] != 0.212 || w[3] != 8.2956 || w[20] != 0.1542 {
		t.Errorf("parameters %v", w)
	}
	w[0] = 99
	if FSRS6DefaultParameters()[0] != 0.212 {
		t.Error("defaults are shared")
	}
}
