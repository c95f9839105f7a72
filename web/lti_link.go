package web

// Linking secret-words progress to an LMS account (progress/lti_link.go):
// a learner whose browser an LTI launch made sees on their page "Used
// learn with secret words before?", types the class code, name and words
// they used (LinkPath, checked by the words sign-in's own rules), sees
// what the link does with a button (the proof sealed for this learner for
// linkLifetime, the words nowhere in the page), and the button's post
// (LinkConfirmPath) links, once, and makes this browser the linked
// learner. Every post is checked by the cross-origin protection of every
// form (routes.go).

import (
	"net/http"
	"time"

	"learn/progress"
)

// LinkPath is the page where an LMS account's learner proves the
// secret-words learner to take over; LinkConfirmPath takes the
// confirmation.
const (
	LinkPath        = "/me/link"
	LinkConfirmPath = "/me/link/confirm"
)

// linkLifetime bounds how long a confirmation page can link.
const linkLifetime = 10 * time.Minute

// LinkView is the form to prove the secret-words learner and, once
// proven, the confirmation.
type LinkView struct {
	Page
	Code, Name string
	Error      string
	// Linked is set when the account linked already: no form then.
	Linked bool
	// Confirm is the proven learner, once the words matched.
	Confirm *LinkConfirmView
}

// LinkConfirmView is the confirmation of a link: what it takes over, and
// the sealed proof its button posts.
type LinkConfirmView struct {
	Name, Class string
	XP, Lessons int
	Sealed      string
}

// newLinkSeal is the sealer of confirmation pages.
func newLinkSeal(keys [][]byte) (*sealer, error) {
	return newSealer(keys, "learn: link secret-words progress to an LMS account", "learn_lti_link")
}

// linkProof is what a confirmation page carries, sealed for the LMS
// account's learner: the proven learner and class, until Expires.
type linkProof struct {
	ClassID int64     `json:"c"`
	Learner string    `json:"l"`
	Expires time.Time `json:"e"`
}

// linkPage is the page's view with its title.
func (s *Server) linkPage(r *http.Request) LinkView {
	return LinkView{Page: s.page(r, "Take your secret-words progress along", "classes")}
}

// redrawLink draws the form v again with the problem its post met.
func redrawLink(v LinkView) redrawFunc {
	return func(w http.ResponseWriter, r *http.Request, status int, message string) error {
		v.Error = message
		return renderStatus(w, r, status, ltiLinkPage(v))
	}
}

// linkShow draws the form, or says the link was made already.
func (s *Server) linkShow(w http.ResponseWriter, r *http.Request) error {
	v := s.linkPage(r)
	st, err := s.app.LTILinkStatus(r.Context(), progress.ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	if !st.LMS {
		return &Error{Status: http.StatusForbidden, Message: "Only a learner who opened learn from their school's LMS can take their secret-words progress along. Open learn from your LMS course first, then come back to your page."}
	}
	v.Linked = st.Linked
	return render(w, r, ltiLinkPage(v))
}

// linkProve checks the words and draws the confirmation; nothing is
// linked yet.
func (s *Server) linkProve(w http.ResponseWriter, r *http.Request) error {
	a := progress.ActorFrom(r.Context())
	v := s.linkPage(r)
	v.Code, v.Name = r.PostFormValue("code"), r.PostFormValue("name")
	proven, err := s.app.ProveWordsLearner(r.Context(), a, progress.LearnerSignIn{Code: v.Code, Name: v.Name, Secret: r.PostFormValue("secret"),
		Address: clientAddress(r), UserAgent: r.UserAgent()})
	if err != nil {
		return withForm(err, redrawLink(v))
	}
	sealed, err := s.linkSeal.sealFor(linkProof{ClassID: proven.ClassID, Learner: proven.LearnerID, Expires: s.now().Add(linkLifetime)}, a.ID)
	if err != nil {
		return err
	}
	v.Title = "Take over the progress of " + proven.Name + "?"
	v.Confirm = &LinkConfirmView{Name: proven.Name, Class: proven.Class, XP: proven.XP, Lessons: proven.Lessons, Sealed: sealed}
	return render(w, r, ltiLinkPage(v))
}

// linkConfirm links the proven learner to the LMS account and makes this
// browser that learner.
func (s *Server) linkConfirm(w http.ResponseWriter, r *http.Request) error {
	a := progress.ActorFrom(r.Context())
	var p linkProof
	if !s.linkSeal.openFor(r.PostFormValue("link"), a.ID, &p) || !s.now().Before(p.Expires) {
		v := s.linkPage(r)
		v.Error = "This confirmation has expired or is not for this browser's learner, so nothing was linked. Type your class code, name and secret words again."
		return renderStatus(w, r, http.StatusUnprocessableEntity, ltiLinkPage(v))
	}
	linked, err := s.app.LinkWordsLearner(r.Context(), a, p.ClassID, p.Learner)
	if err != nil {
		return withForm(err, redrawLink(s.linkPage(r)))
	}
	if err := s.setLearnerCookie(w, r, linked.LearnerID, ""); err != nil {
		return err
	}
	http.Redirect(w, r, "/me?linked=1", http.StatusSeeOther)
	return nil
}
