package quiz

import (
	"fmt"
	"time"
)

// Rules is the sentence a page shows above a quiz: how many questions, the
// pass mark, what passing gives and what happens to missed questions.
func (v QuizView) Rules() string {
	n := "questions"
	if len(v.Questions) == 1 {
		n = "question"
	}
	return fmt.Sprintf("%d %s. Pass with %d right to complete the lesson and earn %d XP on a first try, a fifth less for each failed attempt before the pass (never below %d XP). Questions you miss come back in your review sessions, and a retry asks other versions of the questions. After %d failed attempts in a row, the next opens %s later, twice as long after each further failure, at most %s.",
		len(v.Questions), n, v.PassMark, v.XP, QuizPassXP(v.XP, QuizFailsBeforeWait), QuizFailsBeforeWait, minutes(QuizFirstWait), minutes(QuizMaxWait))
}

// minutes says a wait in words: "10 minutes", "an hour".
func minutes(d time.Duration) string {
	if d == time.Hour {
		return "an hour"
	}
	return fmt.Sprintf("%d minutes", int(d.Minutes()))
}
