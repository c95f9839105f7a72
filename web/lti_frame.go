package web

// Launches inside the LMS's frame.
//
// Every page says frame-ancestors 'none' and X-Frame-Options: DENY, but a
// browser that launched learn from an LMS carries a signed cookie
// (ltiFrameCookie) naming the origins that may frame it (lti.FrameOrigins:
// the platform's issuer, its authorisation endpoint and the launch's
// return address); for that browser the policy names those origins
// instead and X-Frame-Options is left out. The cookies such a browser is
// given are SameSite=None, Secure and Partitioned, so that they are sent
// inside the LMS's frame, and kept where third-party cookies are blocked
// but partitioned ones allowed.
//
// Where the frame keeps no cookie at all, a launch cannot be bound to the
// browser by its cookie. The login initiation finds out first: a framed
// login (Sec-Fetch-Dest: iframe) without the launch cookie sets it and
// comes back to itself once; still without it, learn uses the platform's
// client-side storage (LTI Client Side postMessages) when the initiation
// names an lti_storage_target: the page asks the platform to keep the
// browser's value, then goes on to the authorisation; the launch page
// gets the value back and posts it with the token. Without that storage,
// the page offers one button that opens the same login initiation in a
// new tab, where cookies work. A launch finished through the storage has
// no cookie to sign the browser in, so it answers one button that
// continues in a new tab with a sealed, single-use code (continueLTI); a
// deep linking request finished so draws its picker in the frame, bound
// to the storage's value instead of a cookie (lti_deeplink_frame.go).

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"learn/lti"
)

// ltiFrameCookie names the origins that may frame this browser's pages.
const ltiFrameCookie = "learn_lti_frame"

// frameLifetime is how long a launch lets its LMS frame learn: a school
// day, renewed at every launch.
const frameLifetime = 12 * time.Hour

// storageKeyPrefix starts the key under which the platform's client-side
// storage keeps a login's browser value, the state following it.
const storageKeyPrefix = "learn_state_"

// continueLifetime is how long a code that continues a framed launch in a
// new tab serves.
const continueLifetime = 2 * time.Minute

// ContinuePath is where the button that continues a framed launch in a
// new tab posts.
const ContinuePath = "/lti/continue"

// framingKey marks a request whose browser may be framed by the LMS: its
// value is the origins, space-separated.
type framingKey struct{}

// framedBy returns the origins that may frame the request's pages, ""
// for a browser that did not launch from an LMS.
func framedBy(ctx context.Context) string {
	v, _ := ctx.Value(framingKey{}).(string)
	return v
}

// withFraming returns r marked as framed by origins.
func withFraming(r *http.Request, origins string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), framingKey{}, origins))
}

// encodeFrame signs the origins for the frame cookie; the cookie name is
// part of what is signed, so no other cookie passes for it.
func (id *identity) encodeFrame(origins []string) (string, error) {
	return id.codecs[0].Encode(ltiFrameCookie, []byte(strings.Join(origins, " ")))
}

// decodeFrame returns the origins a frame cookie names, space-separated,
// or "" when it does not verify (under any key, within frameLifetime) or
// names an origin a policy cannot hold.
func (id *identity) decodeFrame(value string, now time.Time) string {
	for _, c := range id.codecs {
		var b []byte
		if err := c.Decode(ltiFrameCookie, value, &b); err != nil {
			continue
		}
		signed, ok := signedAt(value)
		if !ok || now.Sub(signed) > frameLifetime || signed.After(now.Add(cookieClockSkew)) {
			return ""
		}
		origins := strings.Fields(string(b))
		for _, o := range origins {
			if !cspSource(o) {
				return ""
			}
		}
		return strings.Join(origins, " ")
	}
	return ""
}

// hasCookie reports, without parsing every cookie, whether the request
// may carry a cookie called name.
func hasCookie(r *http.Request, name string) bool {
	for _, line := range r.Header["Cookie"] {
		if strings.Contains(line, name+"=") {
			return true
		}
	}
	return false
}

// framing lets the LMS that launched this browser frame its pages.
func (s *Server) framing(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hasCookie(r, ltiFrameCookie) {
			if c, err := r.Cookie(ltiFrameCookie); err == nil {
				if origins := s.ids.decodeFrame(c.Value, s.now()); origins != "" {
					allowFraming(w.Header(), origins)
					r = withFraming(r, origins)
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// allowFraming sets the answer's policy to let origins frame it.
func allowFraming(h http.Header, origins string) {
	h["Content-Security-Policy"] = []string{framedPolicy(contentSecurityPolicy, origins)}
	delete(h, "X-Frame-Options")
}

// cspOrigins is the launch's frame origins (lti.FrameOrigins) that can
// stand in a policy's frame-ancestors.
func cspOrigins(l lti.Launched) []string {
	var out []string
	for _, o := range lti.FrameOrigins(l) {
		if cspSource(o) {
			out = append(out, o)
		}
	}
	return out
}

// allowPlatformFraming lets the platform p frame the answer: its issuer
// and authorisation origins, with also (origins allowed already).
func allowPlatformFraming(h http.Header, p lti.Platform, also ...string) {
	origins := also
	for _, o := range cspOrigins(lti.Launched{Platform: p}) {
		if !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	if len(origins) > 0 {
		allowFraming(h, strings.Join(origins, " "))
	}
}

// framedPolicy is policy with origins in its frame-ancestors.
func framedPolicy(policy, origins string) string {
	return strings.Replace(policy, "frame-ancestors 'none'", "frame-ancestors "+origins, 1)
}

// stylePolicy is the policy of a page with a style nonce, framed as the
// request may be.
func stylePolicy(ctx context.Context, nonce string) string {
	p := policyWithStyleNonce(nonce)
	if origins := framedBy(ctx); origins != "" {
		p = framedPolicy(p, origins)
	}
	return p
}

// setCookie sets c, made SameSite=None, Secure and Partitioned for a
// browser the LMS frames: its cookies are third-party ones there.
func setCookie(w http.ResponseWriter, r *http.Request, c *http.Cookie) {
	if framedBy(r.Context()) != "" {
		c.SameSite, c.Secure, c.Partitioned = http.SameSiteNoneMode, true, true
	}
	http.SetCookie(w, c)
}

// setFrameCookie lets the launch's LMS frame this browser's pages, and
// returns r marked so, for the cookies the launch sets next.
func (s *Server) setFrameCookie(w http.ResponseWriter, r *http.Request, l lti.Launched) (*http.Request, error) {
	origins := cspOrigins(l)
	if len(origins) == 0 {
		return r, nil
	}
	value, err := s.ids.encodeFrame(origins)
	if err != nil {
		return r, err
	}
	http.SetCookie(w, &http.Cookie{Name: ltiFrameCookie, Value: value, Path: "/", MaxAge: int(frameLifetime / time.Second),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode, Partitioned: true})
	joined := strings.Join(origins, " ")
	allowFraming(w.Header(), joined)
	return withFraming(r, joined), nil
}

// framedLogin reports whether a login initiation comes from a frame (the
// browser says so in Sec-Fetch-Dest).
func framedLogin(r *http.Request) bool { return r.Header.Get("Sec-Fetch-Dest") == "iframe" }

// loginQuery is the login initiation's parameters as a query, for its
// cookie check and for the button that repeats it in a new tab.
func loginQuery(in lti.LoginRequest, storageTarget string) url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"iss": in.Issuer, "login_hint": in.LoginHint, "target_link_uri": in.TargetLinkURI,
		"lti_message_hint": in.MessageHint, "client_id": in.ClientID, "lti_deployment_id": in.DeploymentID, "lti_storage_target": storageTarget} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

// cookieCheckParam marks the login initiation's return to itself after
// setting the launch cookie.
const cookieCheckParam = "learn_cookie_check"

// continuation is what a sealed continue code holds: who the launch
// signed in and where it goes.
type continuation struct {
	ID        string    `json:"id"`
	LearnerID string    `json:"learner"`
	Session   string    `json:"session,omitempty"`
	To        string    `json:"to"`
	ExpiresAt time.Time `json:"expires"`
}

// continueLTI signs a new tab in as the framed launch did, once, and
// opens the launch's page there.
func (s *Server) continueLTI(w http.ResponseWriter, r *http.Request) error {
	if s.lti == nil {
		return s.ltiRefused(w, r, noPublicURL)
	}
	var c continuation
	if !s.continueSeal.open(r.PostFormValue("code"), &c) || c.ID == "" || s.now().After(c.ExpiresAt) {
		return s.ltiRefused(w, r, continueRefusal)
	}
	err := s.lti.SpendOnce(r.Context(), "continue:"+c.ID, c.ExpiresAt.Add(lti.Leeway))
	if errors.Is(err, lti.ErrReplayed) {
		return s.ltiRefused(w, r, continueRefusal)
	}
	if err != nil {
		return err
	}
	if err := s.setLearnerCookie(w, r, c.LearnerID, ""); err != nil {
		return err
	}
	if c.Session != "" {
		setCookie(w, r, sessionCookieFor(r, c.Session))
	}
	http.Redirect(w, r, c.To, http.StatusSeeOther)
	return nil
}

// continueRefusal answers a continue code that is unknown, used or too
// old.
var continueRefusal = &lti.Refusal{Check: "continue",
	Problem: "This button to continue in a new tab was used already, or is more than two minutes old.",
	Fix:     "Open the activity in the LMS again; if the LMS can, let it open learn in a new window."}

// storageRelayField carries, in a launch page's second post, the
// browser value the platform's client-side storage gave back.
const storageRelayField = "learn_browser"

// relayLaunch answers a launch that came without the launch cookie but
// names the platform's client-side storage: a page that gets the
// browser's value from the storage and posts the launch again with it.
func (s *Server) relayLaunch(w http.ResponseWriter, r *http.Request, target string) error {
	idToken, state := r.PostFormValue("id_token"), r.PostFormValue("state")
	p, err := s.lti.TokenPlatform(r.Context(), idToken)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		return s.ltiRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	allowPlatformFraming(w.Header(), p)
	w.Header().Set("Cache-Control", "no-store")
	v := LTIStorageView{Page: s.page(r, "Opening learn", ""), Target: target, Origin: lti.Origin(p.AuthURL),
		Key: storageKeyPrefix + state, Next: lti.LaunchPath, IDToken: idToken, State: state}
	return render(w, r, ltiStorageGetPage(v))
}

// continuePage answers a launch finished through the platform's storage:
// one button that continues, signed in, in a new tab.
func (s *Server) continuePage(w http.ResponseWriter, r *http.Request, c continuation) error {
	id, err := lti.NewBrowserValue()
	if err != nil {
		return err
	}
	c.ID = id
	code, err := s.continueSeal.seal(c)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return render(w, r, ltiContinuePage(LTIContinueView{Page: s.page(r, "Continue in a new tab", ""), Action: ContinuePath, Code: code}))
}
