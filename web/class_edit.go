package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

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
	due := dueField(r)
	for _, slug := range r.PostForm["lesson"] {
		err := s.app.Assign(r.Context(), a, id, slug, due)
		if err != nil {
			return withForm(err, s.renderDashboard)
		}
	}
	http.Redirect(w, r, classURL(id)+"#assignments", http.StatusSeeOther)
	return nil
}

// dueField is a form's due date and optional time as the core reads
// them: "2026-12-05" or "2026-12-05 14:00".
func dueField(r *http.Request) string {
	due := strings.TrimSpace(r.PostFormValue("due"))
	if tm := strings.TrimSpace(r.PostFormValue("due_time")); due != "" && tm != "" {
		due += " " + tm
	}
	return due
}

// learnerExtend gives a learner a later due time for one assignment, or
// takes it back (take_back=1).
func (s *Server) learnerExtend(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	learner, slug := r.PathValue("learner"), r.PathValue("slug")
	a := progress.ActorFrom(r.Context())
	if r.PostFormValue("take_back") != "" {
		err = s.app.TakeBackExtension(r.Context(), a, id, learner, slug)
	} else {
		err = s.app.ExtendAssignment(r.Context(), a, id, learner, slug, dueField(r))
	}
	if err != nil {
		return withForm(err, s.renderLearner)
	}
	http.Redirect(w, r, classURL(id)+"/learners/"+learner+"?done=extended#assignments", http.StatusSeeOther)
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

// classDelete deletes an archived class's data, once confirmed.
func (s *Server) classDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	a := progress.ActorFrom(r.Context())
	c, err := s.app.Class(r.Context(), a, id)
	if err != nil {
		return err
	}
	// Only the owner deletes, and only an archived class; DeleteClass says
	// so to anyone else, without asking first.
	if c.Archived() && c.TeacherID == a.TeacherID {
		if ok, err := s.confirmed(w, r, ConfirmView{Title: "Delete " + c.Name + "?",
			Question: deleteClassQuestion(c.Name),
			Action:   classURL(id) + "/delete", Button: "Delete the class", Cancel: classURL(id) + "#settings"}); !ok || err != nil {
			return err
		}
	}
	err = s.app.DeleteClass(r.Context(), a, id)
	if err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, "/classes?done=deleted", http.StatusSeeOther)
	return nil
}

// learnerSecret gives a learner new secret words, once confirmed.
func (s *Server) learnerSecret(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	learner := r.PathValue("learner")
	a := progress.ActorFrom(r.Context())
	_, m, err := s.app.ClassMember(r.Context(), a, id, learner)
	if err != nil {
		return err
	}
	page := classURL(id) + "/learners/" + learner
	if ok, err := s.confirmed(w, r, ConfirmView{Title: "New secret words for " + m.Name + "?",
		Question: newWordsQuestion(m.Name, m.Secret),
		Action:   page + "/secret", Button: "Make new secret words", Cancel: page}); !ok || err != nil {
		return err
	}
	if _, err := s.app.NewSecret(r.Context(), a, id, learner); err != nil {
		return err
	}
	http.Redirect(w, r, page+"?done=words", http.StatusSeeOther)
	return nil
}

// learnerRemove takes a learner out of the class, once confirmed.
func (s *Server) learnerRemove(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	learner := r.PathValue("learner")
	a := progress.ActorFrom(r.Context())
	c, m, err := s.app.ClassMember(r.Context(), a, id, learner)
	if err != nil {
		return err
	}
	if ok, err := s.confirmed(w, r, ConfirmView{Title: "Remove " + m.Name + " from " + c.Name + "?",
		Question: removeQuestion(m.Name),
		Action:   classURL(id) + "/learners/" + learner + "/remove", Button: "Remove " + m.Name, Cancel: classURL(id) + "/learners/" + learner}); !ok || err != nil {
		return err
	}
	if _, err := s.app.RemoveLearner(r.Context(), a, id, learner); err != nil {
		return err
	}
	http.Redirect(w, r, classURL(id)+"?done=removed#removed", http.StatusSeeOther)
	return nil
}

// learnerRestore undoes a learner's removal.
func (s *Server) learnerRestore(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	if _, err := s.app.UndoRemoval(r.Context(), progress.ActorFrom(r.Context()), id, r.PathValue("learner")); err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, classURL(id)+"?done=restored", http.StatusSeeOther)
	return nil
}

// coTeacherAdd adds a co-teacher to the class by their account's e-mail.
func (s *Server) coTeacherAdd(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	if _, err := s.app.AddCoTeacher(r.Context(), progress.ActorFrom(r.Context()), id, r.PostFormValue("email")); err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, classURL(id)+"?done=teacher-added#teachers", http.StatusSeeOther)
	return nil
}

// coTeacherRemove removes a co-teacher from the class, once confirmed.
func (s *Server) coTeacherRemove(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	teacher, err := strconv.ParseInt(r.PathValue("teacher"), 10, 64)
	if err != nil || teacher <= 0 {
		return &progress.Error{Kind: progress.NotFound, Message: "There is no such co-teacher of this class."}
	}
	a := progress.ActorFrom(r.Context())
	team, err := s.app.ClassTeachers(r.Context(), a, id)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(team.Co, func(c progress.CoTeacher) bool { return c.ID == teacher })
	if i >= 0 && team.Owner.ID == a.TeacherID {
		name := team.Co[i].Name
		if ok, err := s.confirmed(w, r, ConfirmView{Title: "Remove " + name + " as co-teacher?",
			Question: removeCoTeacherQuestion(name, team.Class.Name),
			Action:   fmt.Sprintf("%s/teachers/%d/remove", classURL(id), teacher), Button: "Remove " + name, Cancel: classURL(id) + "#teachers"}); !ok || err != nil {
			return err
		}
	}
	if _, err := s.app.RemoveCoTeacher(r.Context(), a, id, teacher); err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, classURL(id)+"?done=teacher-removed#teachers", http.StatusSeeOther)
	return nil
}
