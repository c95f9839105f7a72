package quiz

import "fmt"

// Scores is one learner's record on one quiz: the first attempt's score
// kept apart from the best, so a teacher can tell knowing from retrying.
// The zero value is a quiz never attempted.
type Scores struct {
	// Attempts counts graded attempts (refused incomplete posts do not
	// count).
	Attempts int
	// FirstTry is the score of attempt 1; Best the highest score so far.
	FirstTry, Best int
	// Total is the number of questions.
	Total int
	// PassedFirstTry is whether attempt 1 passed; Passed whether any did.
	PassedFirstTry, Passed bool
}

// Add returns s after one more graded attempt with result r.
func (s Scores) Add(r QuizResult) Scores {
	s.Attempts++
	s.Total = r.Total
	if s.Attempts == 1 {
		s.FirstTry, s.PassedFirstTry = r.Score, r.Passed
	}
	if r.Score > s.Best || s.Attempts == 1 {
		s.Best = max(s.Best, r.Score)
	}
	s.Passed = s.Passed || r.Passed
	return s
}

// Rules is the sentence a page shows above a quiz: how many questions, the
// pass mark, what passing gives and what happens to missed questions.
func (v QuizView) Rules() string {
	return fmt.Sprintf("%d questions. Pass with %d right to complete the lesson and earn %d XP the first time. Questions you miss come back in your review sessions, and a retry asks other versions of the questions.", len(v.Questions), v.PassMark, v.XP)
}
