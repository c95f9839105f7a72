package web

// LTI Dynamic Registration: the LMS opens learn's registration address
// (an invite "learn lti invite" made, with the LMS's openid_configuration
// and registration_token appended) in a frame or a window; learn checks
// the invite and the LMS's configuration, asks the LMS administrator to
// confirm, and on the confirmation's post registers (package lti does
// both). The confirmation is learn's own form, a same-origin post, so it
// keeps the cross-origin protection; it carries the invite and the LMS's
// parameters as hidden fields, so the flow needs no cookie in the LMS's
// frame.
//
// These pages alone may be framed, by the origin of the configuration
// address (the LMS's page that opened learn): their security policy names
// it in frame-ancestors, and they send no X-Frame-Options (it cannot name
// an origin) and no Cross-Origin-Opener-Policy (which would cut a window
// the LMS opened from its opener, the one the close message goes to).

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"learn/lti"
)

// RegisterView is the confirmation of a dynamic registration: the
// platform, and the request to post back.
type RegisterView struct {
	Page
	Platform, Issuer                     string
	Action                               string
	Invite, ConfigURL, RegistrationToken string
}

// RegisteredView is a finished registration; Origin is the LMS's, where
// the page script sends the close message.
type RegisteredView struct {
	Page
	Issuer, ClientID, DeploymentID, Origin string
}

// registrationRequest reads a registration initiation or confirmation.
func registrationRequest(v url.Values) lti.RegistrationRequest {
	return lti.RegistrationRequest{Invite: v.Get("invite"), ConfigURL: v.Get("openid_configuration"), RegistrationToken: v.Get("registration_token")}
}

// frameableBy lets the LMS at the origin of configURL frame this answer.
func frameableBy(w http.ResponseWriter, configURL string) {
	origin := lti.Origin(configURL)
	if !cspSource(origin) {
		return
	}
	allowFraming(w.Header(), origin)
	// A popup registration's page posts its close message to its opener.
	w.Header().Del("Cross-Origin-Opener-Policy")
}

// ltiRegisterShow is the registration initiation: it checks the invite
// and the LMS's configuration and asks for a confirmation.
func (s *Server) ltiRegisterShow(w http.ResponseWriter, r *http.Request) error {
	in := registrationRequest(r.URL.Query())
	frameableBy(w, in.ConfigURL)
	if s.lti == nil {
		return s.registrationRefused(w, r, noPublicURL)
	}
	if err := s.app.TakeLTIRegistration(r.Context(), clientAddress(r)); err != nil {
		return err
	}
	cfg, err := s.lti.CheckRegistration(r.Context(), in)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.registrationRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return render(w, r, ltiRegisterPage(RegisterView{Page: s.page(r, "Register learn with the LMS", ""), Platform: cfg.Name(), Issuer: cfg.Issuer,
		Action: lti.RegisterPath, Invite: in.Invite, ConfigURL: in.ConfigURL, RegistrationToken: in.RegistrationToken}))
}

// ltiRegister takes the confirmation: it spends the invite and registers
// learn with the LMS.
func (s *Server) ltiRegister(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The registration form could not be read.", Err: err}
	}
	in := registrationRequest(r.PostForm)
	frameableBy(w, in.ConfigURL)
	if s.lti == nil {
		return s.registrationRefused(w, r, noPublicURL)
	}
	if err := s.app.TakeLTIRegistration(r.Context(), clientAddress(r)); err != nil {
		return err
	}
	p, err := s.lti.Register(r.Context(), in)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.registrationRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	s.log.InfoContext(r.Context(), "LTI platform registered", slog.String("issuer", p.Issuer), slog.String("client_id", p.ClientID))
	w.Header().Set("Cache-Control", "no-store")
	return render(w, r, ltiRegisteredPage(RegisteredView{Page: s.page(r, "learn is registered", ""), Issuer: p.Issuer, ClientID: p.ClientID,
		DeploymentID: strings.Join(p.DeploymentIDs, ", "), Origin: lti.Origin(p.Issuer)}))
}

// registrationRefused draws the page of a refused registration and logs
// the refusal once (never a token).
func (s *Server) registrationRefused(w http.ResponseWriter, r *http.Request, ref *lti.Refusal) error {
	s.logRefusal(r.Context(), "LTI registration refused", r.URL.Path, ref)
	v := LTIRefusedView{Page: s.page(r, "Registration refused", ""), Check: ref.Check, Problem: ref.Problem, Fix: ref.Fix}
	s.ltiAddresses(&v)
	status := http.StatusBadRequest
	if ref == noPublicURL {
		status = http.StatusNotFound
	}
	return renderStatus(w, r, status, ltiRegisterRefusedPage(v))
}

// logRefusal logs a refused LTI request once, at warn.
func (s *Server) logRefusal(ctx context.Context, msg, path string, ref *lti.Refusal) {
	s.log.WarnContext(ctx, msg, slog.String("path", path), slog.String("check", ref.Check),
		slog.String("problem", ref.Problem), slog.Any("err", ref.Err))
}
