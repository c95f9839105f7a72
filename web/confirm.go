package web

import (
	"net/http"
)

// ConfirmView is the question a destructive action asks first.
type ConfirmView struct {
	Page
	Title, Question string
	// Action is where the confirmed form posts; Button says what it does;
	// Cancel is where "Cancel" leads.
	Action, Button, Cancel string
}

// confirmed reports whether a destructive form carries its confirmation
// (confirm=yes, from the dialog or the confirmation page). When it does
// not, it draws the confirmation page for v and reports false: the action
// must not run.
func (s *Server) confirmed(w http.ResponseWriter, r *http.Request, v ConfirmView) (bool, error) {
	if r.PostForm.Get("confirm") == "yes" {
		return true, nil
	}
	v.Page = s.page(r, v.Title, "classes")
	return false, render(w, r, confirmPage(v))
}

// The questions destructive actions ask, each written once: the form's
// data-confirm dialog and the confirmation page without JavaScript both
// take them from here.

func removeQuestion(name string) string {
	return "Remove " + name + " from the class? They leave the roster and their devices signed in with the class's words are signed out. Their own progress stays theirs. You can undo this for 7 days."
}

func newWordsQuestion(name, secret string) string {
	return "Make new secret words for " + name + "? Their words " + secret + " stop working at once, and every device they signed in on with them is signed out. They continue with the new words."
}

func deleteClassQuestion(class string) string {
	return "Delete " + class + " for good: its roster, assignments, secret words and Q&A? Learners keep their own progress. This cannot be undone."
}

func leaveQuestion(class string) string {
	return "Leave " + class + "? Your teacher no longer sees your progress, and your secret words for this class stop working. Your own progress stays yours. To come back you join again with the class's join code, under a name of your choice."
}

func resetQuizQuestion(name, lesson string) string {
	return "Reset " + name + "'s quiz of " + lesson + "? Their attempts so far stop counting: any wait before the next attempt ends, and a first pass after this earns the full XP. XP already earned stays, and the reset is listed on their page."
}

func removeCoTeacherQuestion(name, class string) string {
	return "Remove " + name + " as co-teacher of " + class + "? They stop seeing the class at once. Nothing in the class changes, and you can add them again."
}

func resetExerciseQuestion(name, exercise string) string {
	return "Reset " + name + "'s exercise " + exercise + "? They start it again from the starter code, and it shows as not tried until they run it. XP already earned stays, and their earlier submissions still count in the class's statistics. The reset is listed on their page."
}
