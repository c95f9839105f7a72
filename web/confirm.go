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
