package web

import (
	"net/http"

	"learn/progress"
)

// JoinView is the join form, and after joining the secret words.
type JoinView struct {
	Page
	Code, Name string
	Error      string
	// Joined is set once the learner is in the class.
	Joined *JoinedView
}

// JoinedView is a successful join.
type JoinedView struct {
	Class, Teacher, Name, Secret string
	// ClassCode is what the learner types with name and words on another
	// device.
	ClassCode string
}

// LearnerSignInView is the form to continue on another device.
type LearnerSignInView struct {
	Page
	Code, Name string
	Error      string
}

// DeleteMeView is the confirmation page for deleting a learner's data.
type DeleteMeView struct {
	Page
	Error string
}

// joinShow draws the join form, with ?code= filled in.
func (s *Server) joinShow(w http.ResponseWriter, r *http.Request) error {
	return render(w, r, joinPage(JoinView{Page: s.page(r, "Join a class", "classes"), Code: r.URL.Query().Get("code")}))
}

// join adds the learner to a class and shows their secret words.
func (s *Server) join(w http.ResponseWriter, r *http.Request) error {
	plainBody(w) // the answer shows the secret words (BREACH)
	v := JoinView{Page: s.page(r, "Join a class", "classes"), Code: r.PostFormValue("code"), Name: r.PostFormValue("name")}
	j, err := s.app.Join(r.Context(), progress.ActorFrom(r.Context()), v.Code, v.Name)
	if err != nil {
		return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
			v.Error = message
			return renderStatus(w, r, status, joinPage(v))
		})
	}
	v.Joined = &JoinedView{Class: j.Class.Name, Teacher: j.Teacher, Name: j.Member.Name, Secret: j.Secret, ClassCode: progress.ClassCode(j.Class.ID)}
	v.Title = "You joined " + j.Class.Name
	return render(w, r, joinPage(v))
}

// joinSignInShow draws the form to continue on another device.
func (s *Server) joinSignInShow(w http.ResponseWriter, r *http.Request) error {
	return render(w, r, learnerSignInPage(LearnerSignInView{Page: s.page(r, "Continue on this device", "classes"), Code: r.URL.Query().Get("code")}))
}

// joinSignIn makes this browser the learner named, with a freshly signed
// learner cookie.
func (s *Server) joinSignIn(w http.ResponseWriter, r *http.Request) error {
	v := LearnerSignInView{Page: s.page(r, "Continue on this device", "classes"), Code: r.PostFormValue("code"), Name: r.PostFormValue("name")}
	d, err := s.app.SignInLearner(r.Context(), progress.LearnerSignIn{Code: v.Code, Name: v.Name, Secret: r.PostFormValue("secret"),
		Address: clientAddress(r), UserAgent: r.UserAgent()})
	if err != nil {
		return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
			v.Error = message
			return renderStatus(w, r, status, learnerSignInPage(v))
		})
	}
	if err := s.setLearnerCookie(w, r, d.LearnerID, d.ID); err != nil {
		return err
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
	return nil
}

// leave takes the learner out of one of their classes.
func (s *Server) leave(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	c, _, err := s.app.Membership(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	if ok, err := s.confirmed(w, r, ConfirmView{Title: "Leave " + c.Name + "?",
		Question: leaveQuestion(c.Name),
		Action:   classURL(id) + "/leave", Button: "Leave the class", Cancel: "/classes"}); !ok || err != nil {
		return err
	}
	if err := s.app.Leave(r.Context(), progress.ActorFrom(r.Context()), id); err != nil {
		return err
	}
	http.Redirect(w, r, "/classes?done=left", http.StatusSeeOther)
	return nil
}

// deleteMeShow asks before deleting everything the learner did.
func (s *Server) deleteMeShow(w http.ResponseWriter, r *http.Request) error {
	return render(w, r, deleteMePage(DeleteMeView{Page: s.page(r, "Delete your data", "classes")}))
}

// deleteMe deletes the learner's data once the form confirms it, and
// gives this browser a new, empty learner.
func (s *Server) deleteMe(w http.ResponseWriter, r *http.Request) error {
	if r.PostFormValue("confirm") != "delete" {
		v := DeleteMeView{Page: s.page(r, "Delete your data", "classes"), Error: `Type "delete" in the box to confirm; nothing was deleted.`}
		return renderStatus(w, r, http.StatusUnprocessableEntity, deleteMePage(v))
	}
	if err := s.app.DeleteMyData(r.Context(), progress.ActorFrom(r.Context())); err != nil {
		return err
	}
	id, err := newLearnerID()
	if err != nil {
		return err
	}
	if err := s.setLearnerCookie(w, r, id, ""); err != nil {
		return err
	}
	http.Redirect(w, r, "/?deleted=1", http.StatusSeeOther)
	return nil
}
