package web

import (
	"fmt"
	"net"
	"net/http"
	"time"

	"learn/progress"
)

// sessionCookie carries a signed-in teacher's session token.
const sessionCookie = "learn_session"

// SignInView is the teacher's sign-in page.
type SignInView struct {
	Page
	Email string
	// Error is the message of a failed try.
	Error string
}

// PasswordView is the change-password page.
type PasswordView struct {
	Page
	Error string
	Done  bool
}

// clientAddress is the request's network address without the port, for
// rate limits.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// setSessionCookie signs the browser in as the session's teacher.
func setSessionCookie(w http.ResponseWriter, r *http.Request, in progress.SignedIn) {
	setCookie(w, r, sessionCookieFor(r, in.Token))
}

// sessionCookieFor is the session cookie holding token.
func sessionCookieFor(r *http.Request, token string) *http.Cookie {
	return &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", MaxAge: int(progress.SessionLifetime / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
	}
}

func clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	setCookie(w, r, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

// signInShow draws the teacher's sign-in form.
func (s *Server) signInShow(w http.ResponseWriter, r *http.Request) error {
	if progress.ActorFrom(r.Context()).IsTeacher() {
		http.Redirect(w, r, "/classes", http.StatusSeeOther)
		return nil
	}
	return render(w, r, signInPage(SignInView{Page: s.page(r, "Teacher sign-in", "classes")}))
}

// signIn checks the form and opens a new session; the browser's old
// session token, if any, is revoked first (no session survives a sign-in).
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) error {
	req := progress.SignInRequest{Email: r.PostFormValue("email"), Password: r.PostFormValue("password"), Address: clientAddress(r)}
	if c, err := r.Cookie(sessionCookie); err == nil {
		req.OldToken = c.Value
	}
	if c, err := r.Cookie(knownCookie); err == nil {
		req.KnownTeacherID = s.ids.decodeKnown(c.Value)
	}
	in, err := s.app.SignIn(r.Context(), req)
	if err != nil {
		clearSessionCookie(w, r)
		return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
			v := SignInView{Page: s.page(r, "Teacher sign-in", "classes"), Email: req.Email, Error: message}
			return renderStatus(w, r, status, signInPage(v))
		})
	}
	setSessionCookie(w, r, in)
	if err := s.setKnownCookie(w, r, in.Teacher.ID); err != nil {
		return err
	}
	http.Redirect(w, r, "/classes", http.StatusSeeOther)
	return nil
}

// setKnownCookie marks this browser as one the teacher signed in on, so
// that their account's delay after wrong passwords does not apply here.
func (s *Server) setKnownCookie(w http.ResponseWriter, r *http.Request, teacherID int64) error {
	value, err := s.ids.encodeKnown(teacherID)
	if err != nil {
		return fmt.Errorf("web: sign known-device cookie: %w", err)
	}
	setCookie(w, r, &http.Cookie{
		Name: knownCookie, Value: value, Path: "/signin", MaxAge: int(knownLifetime / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	return nil
}

// signOut revokes the session and clears its cookie.
func (s *Server) signOut(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.SignOut(r.Context(), progress.ActorFrom(r.Context())); err != nil {
		return err
	}
	clearSessionCookie(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
	return nil
}

// passwordShow draws the change-password form.
func (s *Server) passwordShow(w http.ResponseWriter, r *http.Request) error {
	if !progress.ActorFrom(r.Context()).IsTeacher() {
		return notFoundError("Sign in as a teacher to change your password.")
	}
	return render(w, r, passwordPage(PasswordView{Page: s.page(r, "Change your password", "classes"), Done: r.URL.Query().Get("done") == "1"}))
}

// passwordChange stores a new password; every session of the teacher ends
// and this browser gets a fresh one.
func (s *Server) passwordChange(w http.ResponseWriter, r *http.Request) error {
	in, err := s.app.ChangePassword(r.Context(), progress.ActorFrom(r.Context()),
		r.PostFormValue("current"), r.PostFormValue("password"), clientAddress(r))
	if err != nil {
		return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
			return renderStatus(w, r, status, passwordPage(PasswordView{Page: s.page(r, "Change your password", "classes"), Error: message}))
		})
	}
	setSessionCookie(w, r, in)
	http.Redirect(w, r, "/account/password?done=1", http.StatusSeeOther)
	return nil
}

// TeachersView is the admin's list of teachers.
type TeachersView struct {
	Page
	Teachers []progress.Teacher
}

// teachersShow lists every teacher, for an admin.
func (s *Server) teachersShow(w http.ResponseWriter, r *http.Request) error {
	list, err := s.app.Teachers(r.Context(), progress.ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	return render(w, r, teachersPage(TeachersView{Page: s.page(r, "Teachers", "classes"), Teachers: list}))
}
