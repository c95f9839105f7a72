package quiz

import (
	"fmt"
	"time"
)

// XP amounts. Every award goes through the store's ledger, whose unique key
// grants each Award once, however often it is produced. The rule, and the
// bound it gives, is in the package doc ("XP, levels and streaks").
const (
	// DefaultQuizXP is what a lesson quiz earns on its first pass when the
	// author sets no xp, before the retry reduction (QuizPassXP). Later
	// passes and better scores earn nothing more.
	DefaultQuizXP = 50
	// WidgetXP is what a classify or annotate widget earns on its first
	// fully correct check.
	WidgetXP = 5
	// ReviewXP is what a correct answer to a due review card earns, while
	// the day's cap is not reached.
	ReviewXP = 2
	// ReviewCardsPerDay is how many review answers earn XP per learner and
	// local day: review earns at most ReviewCardsPerDay*ReviewXP (20) XP a
	// day, however many cards are due.
	ReviewCardsPerDay = 10
	// ReviewDailyCapXP is the most XP review earns per learner and local
	// day.
	ReviewDailyCapXP = ReviewCardsPerDay * ReviewXP
	// LevelStepXP sets the level curve: going from level n to n+1 takes
	// n*LevelStepXP XP (100, 200, 300, ...).
	LevelStepXP = 100
)

// Award is one grant of XP. Key is unique per thing earned for one learner
// (the store scopes keys by learner), so the ledger grants it once; Reason is
// shown in the learner's history.
//
// Slots, when above 0, makes Key a prefix: the store grants the award under
// the first of Key+"1" .. Key+strconv.Itoa(Slots) the learner does not hold
// yet, chosen inside the award's transaction, and grants nothing when all
// are held. So at most Slots such awards exist, whatever runs at once: the
// unique key refuses the next one, no count is checked first.
type Award struct {
	Key    string
	Amount int
	Reason string
	Slots  int
}

// QuizRetryStepXP is how much a pass's XP falls per failed attempt before
// it, as a fifth of the quiz's XP (10 XP of the default 50).
const QuizRetryStepXP = 5

// QuizPassXP returns what the first pass of a quiz worth xp earns after
// failed failed attempts: xp on the first try, then a fifth less per
// failed attempt, never below two fifths (50, 40, 30, 20, 20 ... for the
// default 50).
func QuizPassXP(xp, failed int) int {
	failed = max(0, min(failed, 3))
	return xp * (QuizRetryStepXP - failed) / QuizRetryStepXP
}

// QuizAward returns the award for a quiz attempt: QuizPassXP of the quiz's
// XP (XPValue) after failedBefore failed attempts, under the key
// "quiz:<lessonSlug>:<quizID>", or ok false when the attempt did not pass.
// Because the key names the quiz and not the attempt, only the first pass
// earns anything, and never more than XPValue.
func QuizAward(lessonSlug string, q *Quiz, r QuizResult, failedBefore int) (a Award, ok bool) {
	if !r.Passed {
		return Award{}, false
	}
	amount := QuizPassXP(q.XPValue(), failedBefore)
	if amount <= 0 {
		return Award{}, false
	}
	return Award{
		Key:    "quiz:" + lessonSlug + ":" + q.ID,
		Amount: amount,
		Reason: fmt.Sprintf("Passed the quiz of %s (%d of %d)", lessonSlug, r.Score, r.Total),
	}, true
}

// WidgetAward returns the award for a classify or annotate check: WidgetXP
// under the key "widget:<lessonSlug>:<widgetID>", or ok false when the check
// was not fully correct.
func WidgetAward(lessonSlug, widgetID string, allCorrect bool) (a Award, ok bool) {
	if !allCorrect {
		return Award{}, false
	}
	return Award{
		Key:    "widget:" + lessonSlug + ":" + widgetID,
		Amount: WidgetXP,
		Reason: fmt.Sprintf("Got every answer right in %s of %s", widgetID, lessonSlug),
	}, true
}

// ReviewAward returns the award for a review answer: ReviewXP in one of the
// day's ReviewCardsPerDay slots, keys "review:day:<YYYY-MM-DD>:<n>" with the
// date of now in loc (the learner's zone; nil is UTC). before is the card as
// it was before this answer was scheduled. ok is false when the answer was
// wrong or the card was not due at now.
//
// The key does not name the card: a card earns at most once per scheduled
// interval because the store applies an answer only to the card it was
// graded against (a doubled post changes nothing) and the answer moves the
// card's due time past now; the day's slots cap what all cards earn.
func ReviewAward(itemKey string, before Card, correct bool, now time.Time, loc *time.Location) (a Award, ok bool) {
	if !correct || before.Due.After(now) {
		return Award{}, false
	}
	return Award{
		Key:    "review:day:" + ReviewDay(now, loc) + ":",
		Amount: ReviewXP,
		Reason: "Answered a review item correctly (" + itemKey + ")",
		Slots:  ReviewCardsPerDay,
	}, true
}

// ReviewDay is the local date of t in loc (nil is UTC), as YYYY-MM-DD: the
// day whose review cap an answer at t counts against.
func ReviewDay(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format(time.DateOnly)
}

// ReviewItemKey names one reviewable thing: a quiz question, a classify item
// or an annotate tool, as "<lessonSlug>/<widgetID>/<itemID>". The store keys
// the learner's review cards by it.
func ReviewItemKey(lessonSlug, widgetID, itemID string) string {
	return lessonSlug + "/" + widgetID + "/" + itemID
}

// Level returns the learner's level for a total of XP, the XP gained inside
// that level and the XP the level takes in all. Level 1 starts at 0 XP and
// level n takes n*LevelStepXP to complete, so levels start at 0, 100, 300,
// 600, 1000 XP. Negative totals count as 0.
func Level(totalXP int) (level, xpIntoLevel, xpForNext int) {
	if totalXP < 0 {
		totalXP = 0
	}
	level, need := 1, LevelStepXP
	for totalXP >= need {
		totalXP -= need
		level++
		need = level * LevelStepXP
	}
	return level, totalXP, need
}

// ExerciseAward returns the award for solving an exercise: its XP under the
// key "exercise:<exerciseID>", or ok false when the submission did not
// solve it (a run of the sample cases never does) or the exercise is worth
// no XP. Only the first solving submission earns anything.
func ExerciseAward(exerciseID, title string, xp int, solved bool) (a Award, ok bool) {
	if !solved || xp <= 0 {
		return Award{}, false
	}
	return Award{Key: "exercise:" + exerciseID, Amount: xp, Reason: "Solved " + title}, true
}

// The quiz retry rule: a learner who fails a quiz QuizFailsBeforeWait times
// in a row waits QuizFirstWait before the next attempt, twice as long after
// each further failure, at most QuizMaxWait (10, 20, 40, then 60 minutes).
// A pass ends the run of failures.
const (
	QuizFailsBeforeWait = 3
	QuizFirstWait       = 10 * time.Minute
	QuizMaxWait         = time.Hour
)

// QuizWait returns how long after the last of failsInRow failed attempts
// in a row the next attempt opens: 0 below QuizFailsBeforeWait.
func QuizWait(failsInRow int) time.Duration {
	if failsInRow < QuizFailsBeforeWait {
		return 0
	}
	d := QuizFirstWait
	for range failsInRow - QuizFailsBeforeWait {
		if d *= 2; d >= QuizMaxWait {
			return QuizMaxWait
		}
	}
	return d
}
