package quiz

import (
	"math"
	"time"
)

// Spaced review uses FSRS-6, the Free Spaced Repetition Scheduler, as
// published by open-spaced-repetition and implemented by py-fsrs 6.x
// (fsrs/scheduler.py), with its default parameters, desired retention 0.9,
// learning steps 1m and 10m, a relearning step of 10m, a maximum interval of
// 36500 days and no fuzz (so tests and learners see exact intervals).
//
// The formulas, with w the parameters and G the rating (1..4):
//
//	R(t, S)   = (1 + F·t/S)^(−w20), F = 0.9^(−1/w20) − 1   (t in whole days)
//	I(S)      = S/F · (r^(−1/w20) − 1), rounded, at least 1 day; I = S at r = 0.9
//	S0(G)     = w[G−1]
//	D0(G)     = w4 − e^(w5·(G−1)) + 1, clamped to [1, 10]
//	D'        = w7·D0(4) + (1−w7)·(D − w6·(G−3)·(10−D)/9), clamped to [1, 10]
//	S'recall  = S·(1 + e^w8·(11−D)·S^(−w9)·(e^(w10·(1−R)) − 1)·[w15 if Hard]·[w16 if Easy])
//	S'forget  = min(w11·D^(−w12)·((S+1)^w13 − 1)·e^(w14·(1−R)), S/e^(w17·w18))
//	S'short   = S·e^(w17·(G−3+w18))·S^(−w19), never below S for Good and Easy
//
// S'short applies to a review less than a day after the previous one.
//
// How answers map to ratings: a correct review answer rates Good, a wrong one
// Again (RatingFor). A missed quiz question or widget item enters the queue as
// MissedCard: a new card rated Again, due one minute later.

// FSRS6DefaultParameters returns the 21 default FSRS-6 parameters w0..w20, as
// published in py-fsrs 6.x DEFAULT_PARAMETERS:
//
//	0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722,
//	0.1666, 0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425,
//	0.0912, 0.0658, 0.1542
func FSRS6DefaultParameters() [21]float64 {
	return [21]float64{
		0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722,
		0.1666, 0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425,
		0.0912, 0.0658, 0.1542,
	}
}

// DesiredRetention is the default target probability of recall at the due
// time.
const DesiredRetention = 0.9

// State is where a card is in its life.
type State int

// The card states. The zero value is New.
const (
	New        State = iota // never reviewed
	Learning                // in the short learning steps
	Review                  // scheduled in days
	Relearning              // forgotten while in Review, back in short steps
)

// String returns "new", "learning", "review" or "relearning".
func (s State) String() string {
	switch s {
	case New:
		return "new"
	case Learning:
		return "learning"
	case Review:
		return "review"
	case Relearning:
		return "relearning"
	}
	return "unknown"
}

// Rating is the learner's recall of a card.
type Rating int

// The four FSRS ratings. The app uses only Again and Good (see RatingFor).
const (
	Again Rating = 1
	Hard  Rating = 2
	Good  Rating = 3
	Easy  Rating = 4
)

// RatingFor maps a review answer to a rating: correct is Good, wrong is Again.
func RatingFor(correct bool) Rating {
	if correct {
		return Good
	}
	return Again
}

// Card is the review state of one item for one learner. Times are UTC.
type Card struct {
	State State
	// Step is the index into the learning or relearning steps while the
	// card is in Learning or Relearning; 0 otherwise.
	Step int
	// Stability is the interval in days at which recall falls to 90%;
	// Difficulty lies in [1, 10]. Both are 0 on a New card.
	Stability, Difficulty float64
	// Due is when the card should next be shown.
	Due time.Time
	// LastReview is the previous review; zero on a New card.
	LastReview time.Time
	// Reps counts reviews; Lapses counts Again ratings given in Review.
	Reps, Lapses int
}

// Scheduler holds the FSRS configuration. The zero value is not usable; start
// from DefaultScheduler.
type Scheduler struct {
	Params           [21]float64
	DesiredRetention float64
	LearningSteps    []time.Duration
	RelearningSteps  []time.Duration
	// MaximumInterval caps intervals, in days.
	MaximumInterval int
}

// DefaultScheduler returns FSRS-6 with default parameters, desired retention
// 0.9, learning steps 1m and 10m, relearning step 10m, maximum interval 36500
// days, no fuzz.
func DefaultScheduler() Scheduler {
	return Scheduler{
		Params:           FSRS6DefaultParameters(),
		DesiredRetention: DesiredRetention,
		LearningSteps:    []time.Duration{time.Minute, 10 * time.Minute},
		RelearningSteps:  []time.Duration{10 * time.Minute},
		MaximumInterval:  36500,
	}
}

// NewCard returns a New card due at now.
func NewCard(now time.Time) Card { return Card{State: New, Due: now.UTC()} }

// MissedCard returns the card for an item the learner just missed: a new card
// rated Again at now, so it is in Learning and due one learning step (one
// minute) later.
func MissedCard(now time.Time) Card { return Schedule(NewCard(now), Again, now) }

// Schedule is DefaultScheduler().Schedule.
func Schedule(c Card, r Rating, now time.Time) Card {
	return DefaultScheduler().Schedule(c, r, now)
}

const (
	stabilityMin  = 0.001
	difficultyMin = 1.0
	difficultyMax = 10.0
	day           = 24 * time.Hour
)

// Schedule returns the card after a review rated r at now. It follows py-fsrs
// 6.x Scheduler.review_card without fuzz: whole elapsed days (floored); a
// review within a day of the last uses the short-term stability formula;
// Learning and Relearning walk their steps (Again back to step 0, Hard stays,
// Good moves on and graduates after the last step, Easy graduates at once);
// Again in Review counts a lapse and enters Relearning. A rating outside 1..4
// counts as Again. c is not modified.
func (s Scheduler) Schedule(c Card, r Rating, now time.Time) Card {
	if r < Again || r > Easy {
		r = Again
	}
	now = now.UTC()
	elapsed := -1 // days since the last review; -1 when there is none
	if !c.LastReview.IsZero() {
		elapsed = int(math.Floor(float64(now.Sub(c.LastReview)) / float64(day)))
	}
	sameDay := !c.LastReview.IsZero() && elapsed < 1

	var next time.Duration
	switch c.State {
	case New, Learning, Relearning:
		steps := s.LearningSteps
		if c.State == Relearning {
			steps = s.RelearningSteps
		}
		switch {
		case c.State == New:
			c.State = Learning
			c.Step = 0
			c.Stability = s.initialStability(r)
			c.Difficulty = clampD(s.initialDifficulty(r))
		case sameDay:
			c.Stability = s.shortTermStability(c.Stability, r)
			c.Difficulty = s.nextDifficulty(c.Difficulty, r)
		default:
			c.Stability = s.nextStability(c.Difficulty, c.Stability, s.retrievability(c.Stability, elapsed), r)
			c.Difficulty = s.nextDifficulty(c.Difficulty, r)
		}
		graduate := false
		if len(steps) == 0 || (c.Step >= len(steps) && r != Again) {
			graduate = true
		} else {
			switch r {
			case Again:
				c.Step = 0
				next = steps[0]
			case Hard:
				switch {
				case c.Step == 0 && len(steps) == 1:
					next = steps[0] * 3 / 2
				case c.Step == 0:
					next = (steps[0] + steps[1]) / 2
				default:
					next = steps[c.Step]
				}
			case Good:
				if c.Step+1 == len(steps) {
					graduate = true
				} else {
					c.Step++
					next = steps[c.Step]
				}
			case Easy:
				graduate = true
			}
		}
		if graduate {
			c.State = Review
			c.Step = 0
			next = time.Duration(s.interval(c.Stability)) * day
		}
	case Review:
		if sameDay {
			c.Stability = s.shortTermStability(c.Stability, r)
		} else {
			c.Stability = s.nextStability(c.Difficulty, c.Stability, s.retrievability(c.Stability, elapsed), r)
		}
		c.Difficulty = s.nextDifficulty(c.Difficulty, r)
		if r == Again {
			c.Lapses++
			if len(s.RelearningSteps) > 0 {
				c.State = Relearning
				c.Step = 0
				next = s.RelearningSteps[0]
				break
			}
		}
		next = time.Duration(s.interval(c.Stability)) * day
	}
	c.Reps++
	c.LastReview = now
	c.Due = now.Add(next)
	return c
}

// Retrievability returns the predicted probability that the learner recalls
// card c at now; 0 for a card never reviewed.
func (s Scheduler) Retrievability(c Card, now time.Time) float64 {
	if c.LastReview.IsZero() {
		return 0
	}
	elapsed := int(math.Floor(float64(now.Sub(c.LastReview)) / float64(day)))
	return s.retrievability(c.Stability, elapsed)
}

// IntervalDays returns the interval in days FSRS gives a card of stability S.
func (s Scheduler) IntervalDays(stability float64) int { return s.interval(stability) }

func (s Scheduler) decay() float64  { return -s.Params[20] }
func (s Scheduler) factor() float64 { return math.Pow(0.9, 1/s.decay()) - 1 }

func (s Scheduler) retrievability(stability float64, elapsedDays int) float64 {
	t := math.Max(0, float64(elapsedDays))
	return math.Pow(1+s.factor()*t/stability, s.decay())
}

func (s Scheduler) interval(stability float64) int {
	i := stability / s.factor() * (math.Pow(s.DesiredRetention, 1/s.decay()) - 1)
	n := int(math.RoundToEven(i))
	return min(max(n, 1), s.MaximumInterval)
}

func clampS(x float64) float64 { return math.Max(x, stabilityMin) }
func clampD(x float64) float64 { return math.Min(math.Max(x, difficultyMin), difficultyMax) }

func (s Scheduler) initialStability(r Rating) float64 { return clampS(s.Params[r-1]) }

func (s Scheduler) initialDifficulty(r Rating) float64 {
	w := s.Params
	return w[4] - math.Exp(w[5]*float64(r-1)) + 1
}

func (s Scheduler) nextDifficulty(d float64, r Rating) float64 {
	w := s.Params
	delta := -w[6] * float64(r-3)
	damped := d + (10-d)*delta/9
	return clampD(w[7]*s.initialDifficulty(Easy) + (1-w[7])*damped)
}

func (s Scheduler) shortTermStability(st float64, r Rating) float64 {
	w := s.Params
	inc := math.Exp(w[17]*(float64(r)-3+w[18])) * math.Pow(st, -w[19])
	if r >= Good {
		inc = math.Max(inc, 1)
	}
	return clampS(st * inc)
}

func (s Scheduler) nextStability(d, st, ret float64, r Rating) float64 {
	w := s.Params
	if r == Again {
		long := w[11] * math.Pow(d, -w[12]) * (math.Pow(st+1, w[13]) - 1) * math.Exp((1-ret)*w[14])
		short := st / math.Exp(w[17]*w[18])
		return clampS(math.Min(long, short))
	}
	hard, easy := 1.0, 1.0
	if r == Hard {
		hard = w[15]
	}
	if r == Easy {
		easy = w[16]
	}
	return clampS(st * (1 + math.Exp(w[8])*(11-d)*math.Pow(st, -w[9])*(math.Exp((1-ret)*w[10])-1)*hard*easy))
}
