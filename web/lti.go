package web

// LTI 1.3 launches: the key set, the login initiation and the launch
// (package lti checks them; the core makes what they stand for). The
// login and the launch are cross-site posts from the LMS, so routes.go
// lets them past the cross-origin protection, and they stand on the
// launch's own proofs: a state bound to this browser, and the LMS's
// signature.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"learn/lti"
	"learn/progress"
)

// LTI is the protocol side of LTI 1.3 that the server needs (package
// lti's Tool implements it).
type LTI interface {
	// Login checks a login initiation and returns the platform's
	// authorisation address to redirect to.
	Login(ctx context.Context, in lti.LoginRequest, browser string) (string, error)
	// Launch validates a posted id_token and state.
	Launch(ctx context.Context, idToken, state, browser string) (lti.Launched, error)
	// KeySetJSON returns learn's published public keys.
	KeySetJSON(ctx context.Context) ([]byte, error)
	// RedirectURI is the launch address on learn's public URL.
	RedirectURI() string
	// DeepLinkResponse spends a deep linking request and returns the
	// signed response holding links.
	DeepLinkResponse(ctx context.Context, req lti.DeepLinking, links []lti.ResourceLink) (string, error)
	// LoginPlatform returns the registered platform of a login
	// initiation; TokenPlatform the one an id_token names, before the
	// token is verified (both for framing pages and reaching the
	// platform's client-side storage).
	LoginPlatform(ctx context.Context, issuer, clientID string) (lti.Platform, error)
	TokenPlatform(ctx context.Context, idToken string) (lti.Platform, error)
	// SpendOnce records key as used until expires on every server; a key
	// used before wraps lti.ErrReplayed.
	SpendOnce(ctx context.Context, key string, expires time.Time) error
	// CheckRegistration checks a dynamic registration's invite and the
	// LMS's configuration.
	CheckRegistration(ctx context.Context, in lti.RegistrationRequest) (lti.PlatformConfig, error)
	// Register spends the invite and registers learn with the LMS.
	Register(ctx context.Context, in lti.RegistrationRequest) (lti.Platform, error)
}

// ltiBrowserCookie holds the random value a launch's state is bound to.
// It is sent on the platform's cross-site post, so it is SameSite=None
// (and so Secure), and only to the LTI routes.
const ltiBrowserCookie = "learn_lti"

// noPublicURL is the refusal of every LTI route on a server started
// without --public-url.
var noPublicURL = &lti.Refusal{Check: "public-url",
	Problem: "This learn server was started without its public address, so it takes no LTI launches.",
	Fix:     "Start learn with --public-url https://learn.school.example (its public HTTPS address), then register its LTI addresses in the LMS."}

// ltiKeySet serves learn's public key set.
func (s *Server) ltiKeySet(w http.ResponseWriter, r *http.Request) error {
	if s.lti == nil {
		return s.ltiRefused(w, r, noPublicURL)
	}
	body, err := s.lti.KeySetJSON(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, err = w.Write(body)
	return err
}

// ltiLogin is the OIDC third-party login initiation, by GET or POST.
func (s *Server) ltiLogin(w http.ResponseWriter, r *http.Request) error {
	if s.lti == nil {
		return s.ltiRefused(w, r, noPublicURL)
	}
	if err := s.app.TakeLTILogin(r.Context(), clientAddress(r)); err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The login initiation could not be read.", Err: err}
	}
	browser := ""
	if c, err := r.Cookie(ltiBrowserCookie); err == nil && len(c.Value) == 43 {
		browser = c.Value
	}
	in := lti.LoginRequest{
		Issuer: r.Form.Get("iss"), LoginHint: r.Form.Get("login_hint"), TargetLinkURI: r.Form.Get("target_link_uri"),
		MessageHint: r.Form.Get("lti_message_hint"), ClientID: r.Form.Get("client_id"), DeploymentID: r.Form.Get("lti_deployment_id"),
	}
	storage := r.Form.Get("lti_storage_target")
	if !lti.ValidStorageTarget(storage) {
		storage = ""
	}
	blocked := false
	if browser == "" {
		v, err := lti.NewBrowserValue()
		if err != nil {
			return err
		}
		browser = v
		if framedLogin(r) {
			if r.Form.Get(cookieCheckParam) == "" {
				// Does this frame keep learn's cookies? Set the launch
				// cookie and come back once to see.
				setLTIBrowserCookie(w, browser)
				q := loginQuery(in, storage)
				q.Set(cookieCheckParam, "1")
				http.Redirect(w, r, lti.LoginPath+"?"+q.Encode(), http.StatusFound)
				return nil
			}
			blocked = true
		}
	}
	if blocked {
		return s.blockedLogin(w, r, in, storage, browser)
	}
	to, err := s.lti.Login(r.Context(), in, browser)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.ltiRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	setLTIBrowserCookie(w, browser)
	http.Redirect(w, r, to, http.StatusFound)
	return nil
}

// setLTIBrowserCookie keeps the value a launch's state is bound to.
func setLTIBrowserCookie(w http.ResponseWriter, browser string) {
	http.SetCookie(w, &http.Cookie{Name: ltiBrowserCookie, Value: browser, Path: "/lti/", MaxAge: int(lti.StateLifetime.Seconds()),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode, Partitioned: true})
}

// blockedLogin answers a login initiation from a frame that keeps no
// cookie: through the platform's client-side storage when it names one,
// else with a button that repeats the initiation in a new tab.
func (s *Server) blockedLogin(w http.ResponseWriter, r *http.Request, in lti.LoginRequest, storage, browser string) error {
	p, err := s.lti.LoginPlatform(r.Context(), in.Issuer, in.ClientID)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.ltiRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	allowPlatformFraming(w.Header(), p)
	w.Header().Set("Cache-Control", "no-store")
	newTab := lti.LoginPath + "?" + loginQuery(in, "").Encode()
	if storage == "" {
		return render(w, r, ltiNewTabPage(LTINewTabView{Page: s.page(r, "Open learn in a new tab", ""), NewTab: newTab}))
	}
	to, err := s.lti.Login(r.Context(), in, browser)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.ltiRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	u, err := url.Parse(to)
	if err != nil {
		return fmt.Errorf("web: LTI login: the authorisation address: %w", err)
	}
	v := LTIStorageView{Page: s.page(r, "Opening learn", ""), Target: storage, Origin: lti.Origin(p.AuthURL),
		Key: storageKeyPrefix + u.Query().Get("state"), Value: browser, Next: to, NewTab: newTab}
	return render(w, r, ltiStoragePutPage(v))
}

// ltiLaunch takes the platform's form post of id_token and state, signs
// the browser in as the LMS user (a teacher for an instructor) and opens
// the resource link's lesson; a deep linking request opens the picker
// instead (lti_deeplink.go).
func (s *Server) ltiLaunch(w http.ResponseWriter, r *http.Request) error {
	if s.lti == nil {
		return s.ltiRefused(w, r, noPublicURL)
	}
	if code := r.PostFormValue("error"); code != "" {
		// The platform's authorisation answered an error (OpenID Connect
		// Core 3.1.2.6) instead of a token.
		problem := "The LMS answered learn's authorisation request with the error " + strconv.Quote(truncate(code, 80))
		if d := r.PostFormValue("error_description"); d != "" {
			problem += ": " + truncate(d, 300)
		}
		return s.ltiRefused(w, r, &lti.Refusal{Check: "authorisation", Problem: problem + ".",
			Fix: "Sign in to the LMS in this browser and launch again; check that the LMS lists " + s.lti.RedirectURI() + " among learn's redirect addresses."})
	}
	browser := ""
	if c, err := r.Cookie(ltiBrowserCookie); err == nil {
		browser = c.Value
	}
	viaStorage := false
	if browser == "" {
		if relayed := r.PostFormValue(storageRelayField); relayed != "" {
			// The launch page got the browser's value back from the
			// platform's client-side storage (lti_frame.go).
			browser, viaStorage = relayed, true
		} else if target := r.PostFormValue("lti_storage_target"); lti.ValidStorageTarget(target) && r.PostFormValue("state") != "" {
			return s.relayLaunch(w, r, target)
		}
	}
	l, err := s.lti.Launch(r.Context(), r.PostFormValue("id_token"), r.PostFormValue("state"), browser)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.ltiRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	if r, err = s.setFrameCookie(w, r, l); err != nil {
		return err
	}
	if l.DeepLinking != nil {
		clearLTIBrowserCookie(w)
		if viaStorage {
			// No cookie keeps the request in this frame.
			return s.framedDeepLinkPicker(w, r, l, browser)
		}
		return s.deepLinkPicker(w, r, *l.DeepLinking)
	}
	in := progress.LTILaunch{Issuer: l.Platform.Issuer, Subject: l.Subject, Name: l.Name,
		Instructor: l.HasRole(lti.RoleInstructor), Learner: l.HasRole(lti.RoleLearner),
		Context:      progress.LTIContext{Issuer: l.Platform.Issuer, DeploymentID: l.DeploymentID, ContextID: l.ContextID},
		ContextTitle: l.ContextTitle, PlatformID: l.Platform.ID, ResourceLinkID: l.ResourceLinkID, LessonSlug: s.launchLesson(l)}
	if l.AGS.CanScore() {
		in.LineItem = l.AGS.LineItem
	}
	in.MembershipsURL = l.NRPS.MembershipsURL
	done, err := s.app.LaunchLTI(r.Context(), in)
	if pe, ok := errors.AsType[*progress.Error](err); ok && pe.Kind != progress.Internal {
		return s.ltiRefused(w, r, &lti.Refusal{Check: "roles", Problem: pe.Message,
			Fix: "Launch learn from an activity of an LMS course, as an instructor or a learner of it."})
	}
	if err != nil {
		return err
	}
	// Whoever was signed in on this browser before is signed out: the
	// browser is the LMS user now.
	if a := progress.ActorFrom(r.Context()); a.IsTeacher() {
		if err := s.app.SignOut(r.Context(), a); err != nil {
			return err
		}
		clearSessionCookie(w, r)
	}
	clearLTIBrowserCookie(w)
	if err := s.setLearnerCookie(w, r, done.LearnerID, ""); err != nil {
		return err
	}
	to := "/"
	if done.Teacher != nil {
		setSessionCookie(w, r, *done.Teacher)
		to = "/classes/" + strconv.FormatInt(done.ClassID, 10)
	}
	if in.LessonSlug != "" {
		to = "/lessons/" + in.LessonSlug
	}
	if viaStorage {
		// This frame keeps no cookie: go on in a new tab.
		c := continuation{LearnerID: done.LearnerID, To: to, ExpiresAt: s.now().Add(continueLifetime)}
		if done.Teacher != nil {
			c.Session = done.Teacher.Token
		}
		return s.continuePage(w, r, c)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// clearLTIBrowserCookie deletes the launch cookie: its state served.
func clearLTIBrowserCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: ltiBrowserCookie, Path: "/lti/", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode, Partitioned: true})
}

// launchLesson is the lesson a resource link opens: its custom parameter
// "lesson", or its target link's /lessons/<slug>; "" for none of the
// course's.
func (s *Server) launchLesson(l lti.Launched) string {
	slug := l.Custom["lesson"]
	if slug == "" {
		if u, err := url.Parse(l.TargetLinkURI); err == nil {
			if rest, ok := strings.CutPrefix(u.Path, "/lessons/"); ok {
				slug = rest
			}
		}
	}
	if _, ok := s.course().Lesson(slug); !ok {
		return ""
	}
	return slug
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ltiAddresses fills in learn's LTI addresses, when it has a public URL.
func (s *Server) ltiAddresses(v *LTIRefusedView) {
	if s.lti != nil {
		v.Launch = s.lti.RedirectURI()
		base := strings.TrimSuffix(v.Launch, lti.LaunchPath)
		v.Login, v.JWKS = base+lti.LoginPath, base+lti.JWKSPath
	}
}

// ltiRefused draws the page of a refused login or launch and logs the
// refusal once (never the token); the registered platform the request
// names may frame the page (lti_refusal_frame.go).
func (s *Server) ltiRefused(w http.ResponseWriter, r *http.Request, ref *lti.Refusal) error {
	s.logRefusal(r.Context(), "LTI launch refused", r.URL.Path, ref)
	v := LTIRefusedView{Page: s.page(r, "Launch refused", ""), Check: ref.Check, Problem: ref.Problem, Fix: ref.Fix}
	s.ltiAddresses(&v)
	s.frameRefusal(w, r)
	status := http.StatusBadRequest
	if ref == noPublicURL {
		status = http.StatusNotFound
	}
	return renderStatus(w, r, status, ltiRefusedPage(v))
}
