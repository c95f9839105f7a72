package web

import (
	"net/http"

	"learn/progress"
)

// classSettings applies one settings form of the class page: rename, time
// zone, join code off or new, leaderboard, archive or restore.
func (s *Server) classSettings(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	var ch progress.ClassChange
	f := r.PostForm
	if f.Has("name") {
		name := f.Get("name")
		ch.Name = &name
	}
	if f.Has("zone") {
		zone := f.Get("zone")
		ch.Zone = &zone
	}
	ch.JoinCode = f.Get("code")
	if f.Has("leaderboard") {
		on := f.Get("leaderboard") == "on"
		ch.Leaderboard = &on
	}
	if f.Has("archive") {
		on := f.Get("archive") == "on"
		ch.Archive = &on
	}
	_, err = s.app.ChangeClass(r.Context(), progress.ActorFrom(r.Context()), id, ch)
	if err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, classURL(id)+"#settings", http.StatusSeeOther)
	return nil
}

// classAssign assigns a lesson with an optional due date.
func (s *Server) classAssign(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	a := progress.ActorFrom(r.Context())
	for _, slug := range r.PostForm["lesson"] {
		err := s.app.Assign(r.Context(), a, id, slug, r.PostFormValue("due"))
		if err != nil {
			return withForm(err, s.renderDashboard)
		}
	}
	http.Redirect(w, r, classURL(id)+"#assignments", http.StatusSeeOther)
	return nil
}

// classUnassign takes a lesson off the class.
func (s *Server) classUnassign(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	if err := s.app.Unassign(r.Context(), progress.ActorFrom(r.Context()), id, r.PathValue("slug")); err != nil {
		return err
	}
	http.Redirect(w, r, classURL(id)+"#assignments", http.StatusSeeOther)
	return nil
}

// classDelete deletes an archived class's data.
func (s *Server) classDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	err = s.app.DeleteClass(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, "/classes", http.StatusSeeOther)
	return nil
}

// learnerSecret gives a learner new secret words.
func (s *Server) learnerSecret(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	learner := r.PathValue("learner")
	if _, err := s.app.NewSecret(r.Context(), progress.ActorFrom(r.Context()), id, learner); err != nil {
		return err
	}
	http.Redirect(w, r, classURL(id)+"/learners/"+learner, http.StatusSeeOther)
	return nil
}

// learnerRemove takes a learner out of the class.
func (s *Server) learnerRemove(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	if err := s.app.RemoveLearner(r.Context(), progress.ActorFrom(r.Context()), id, r.PathValue("learner")); err != nil {
		return err
	}
	http.Redirect(w, r, classURL(id), http.StatusSeeOther)
	return nil
}
