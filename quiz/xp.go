package quiz

import (
	"fmt"
	"strconv"
	"time"
)

// XP amounts. Every award goes through the store's ledger, whose unique key
// grants each Award once, however often it is produced.
const (
	// DefaultQuizXP is what a lesson quiz earns on its first pass when the
	// author sets no xp. Later passes and better scores earn nothing more.
	DefaultQuizXP = 50
	// WidgetXP is what a classify or annotate widget earns on its first
	// fully correct check.
	WidgetXP = 5
	// ReviewXP is what each correct answer in a review session earns.
	ReviewXP = 2
	// LevelStepXP sets the level curve: going from level n to n+1 takes
	// n*LevelStepXP XP (100, 200, 300, ...).
	LevelStepXP = 100
)

// Award is one grant of XP. Key is unique per thing earned for one learner
// (the store scopes keys by learner), so the ledger grants it once; Reason is
// shown in the learner's history.
type Award struct {
	Key    string
	Amount int
	Reason string
}

// QuizAward returns the award for a quiz attempt: the quiz's XP (XPValue)
// under the key "quiz:<lessonSlug>:<quizID>", or ok false when the attempt
// did not pass. Because the key names the quiz and not the attempt, only the
// first pass earns anything.
func QuizAward(lessonSlug string, q *Quiz, r QuizResult) (a Award, ok bool) {
	if !r.Passed {
		return Award{}, false
	}
	return Award{
		Key:    "quiz:" + lessonSlug + ":" + q.ID,
		Amount: q.XPValue(),
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

// ReviewAward returns the award for a review answer: ReviewXP under the key
// "review:<itemKey>:<due>", where before is the card as it was before this
// answer was scheduled and due its due time in Unix nanoseconds. ok is
// false when the answer was wrong or the card was not due at now: an item
// earns at most once per due date, however often it is answered, and a
// card answered ahead of time earns nothing.
func ReviewAward(itemKey string, before Card, correct bool, now time.Time) (a Award, ok bool) {
	if !correct || before.Due.After(now) {
		return Award{}, false
	}
	return Award{
		Key:    "review:" + itemKey + ":" + strconv.FormatInt(before.Due.UnixNano(), 10),
		Amount: ReviewXP,
		Reason: "Answered a review item correctly",
	}, true
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
