package quiz

import "fmt"

// Rules is the sentence a page shows above a quiz: how many questions, the
// pass mark, what passing gives and what happens to missed questions.
func (v QuizView) Rules() string {
	n := "questions"
	if len(v.Questions) == 1 {
		n = "question"
	}
	return fmt.Sprintf("%d %s. Pass with %d right to complete the lesson and earn %d XP the first time. Questions you miss come back in your review sessions, and a retry asks other versions of the questions.", len(v.Questions), n, v.PassMark, v.XP)
}
