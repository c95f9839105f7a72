package web

// The deep linking picker inside the LMS's frame where the browser keeps
// no cookie for learn (issue 25).
//
// There the request cannot wait in the deep-link cookie. A launch that
// reached learn through the platform's client-side storage (lti_frame.go:
// the login put a random browser value under learn_state_<state>, the
// launch page got it back) has shown that this frame can reach a value
// only it holds: the platform keeps it per tool origin, for this
// browser's LMS page. So the picker carries the request in its own form,
// sealed for this purpose alone (deepLinkFrameSeal, another key and name
// than the cookie's), with a hash of that browser value sealed in. The
// picker's page script asks the platform's storage for the value when
// the form is submitted (lti.get_data, static/src/lib/lti-storage.js) and
// posts it with the choices; learn answers only when its hash is the
// sealed one. The value itself is never in the picker's page, so a
// stolen copy of the page cannot answer the LMS from another browser.
// Answering still spends the request's id in the database (the nonce
// table, through lti.Tool.DeepLinkResponse), so it is answered once on
// every server, and it expires as the cookie's request does.
//
// Without JavaScript there is nothing in the frame to bind the post to:
// the picker's page then says to let the LMS open learn in a new window.
// No continue-in-a-new-tab code is offered there, since such a code in
// the page would answer the LMS from any browser that had the page. (A
// browser without JavaScript does not get here anyway: the storage route
// runs on the page script, and without it the login's page offers the
// launch in a new tab, where the picker keeps its cookie.)

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"learn/lti"
)

// deepLinkFrameName names the sealed request of a picker in a cookieless
// frame: the additional data of its seal.
const deepLinkFrameName = "learn_lti_dl_frame"

// The picker form's fields in a cookieless frame: the sealed request,
// and the browser value the page script got from the platform's storage
// (the launch's relay field again).
const (
	deepLinkSealedField  = "sealed"
	deepLinkBrowserField = storageRelayField
)

// newDeepLinkFrameSeal seals the requests of pickers in cookieless frames,
// with keys derived from the cookie keys for that purpose alone.
func newDeepLinkFrameSeal(keys [][]byte) (*sealer, error) {
	return newSealer(keys, "learn: LTI deep linking request in a frame without cookies", deepLinkFrameName)
}

// framedDeepLink is what a picker in a cookieless frame carries, sealed:
// the request, the hash of the browser value it is bound to, the origins
// that may frame the picker's answers, and where the page script finds
// the value (the platform's storage frame, its origin and the key).
type framedDeepLink struct {
	Request lti.DeepLinking `json:"req"`
	Browser []byte          `json:"browser"`
	Framed  string          `json:"framed"`
	Target  string          `json:"target"`
	Origin  string          `json:"origin"`
	Key     string          `json:"key"`
}

// browserBinding is the hash of a browser value that a framed picker's
// post must match.
func browserBinding(browser string) []byte {
	h := sha256.Sum256([]byte("learn: deep link picker bound to a browser\x00" + browser))
	return h[:]
}

// framedDeepLinkPicker draws the picker for the deep linking request l
// launched through the platform's storage (browser is the value it gave
// back): the request is sealed into the form, bound to that value, and
// no cookie is set. r is the launch, marked framed by setFrameCookie.
func (s *Server) framedDeepLinkPicker(w http.ResponseWriter, r *http.Request, l lti.Launched, browser string) error {
	target := r.PostFormValue("lti_storage_target")
	if !lti.ValidStorageTarget(target) {
		// The storage page's form names it; without it the page script
		// asks the platform's own window.
		target = "_parent"
	}
	f := framedDeepLink{Request: *l.DeepLinking, Browser: browserBinding(browser), Framed: framedBy(r.Context()),
		Target: target, Origin: lti.Origin(l.Platform.AuthURL), Key: storageKeyPrefix + r.PostFormValue("state")}
	sealed, err := s.dlFrameSeal.seal(f)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return render(w, r, ltiDeepLinkPage(s.framedDeepLinkView(r, f, sealed, nil, "")))
}

// framedDeepLinkView is the picker's view in a cookieless frame.
func (s *Server) framedDeepLinkView(r *http.Request, f framedDeepLink, sealed string, chosen []string, problem string) DeepLinkView {
	v := s.deepLinkView(r, f.Request, chosen, problem)
	v.Frame = &DeepLinkFrame{Sealed: sealed, Target: f.Target, Origin: f.Origin, Key: f.Key}
	return v
}

// deepLinkUnbound is the refusal of a framed picker's post without the
// browser value its request is bound to.
var deepLinkUnbound = &lti.Refusal{Check: "deep_link_browser",
	Problem: "Inside the LMS's page, where this browser keeps no cookie for learn, the picker answers only with the proof the LMS keeps for this browser, and it did not come: the page's script did not run, or the LMS did not give the proof back.",
	Fix:     "Add learn's lessons again from the LMS, with JavaScript on; if it fails again, let the LMS open learn in a new window."}

// openFramedDeepLink opens the sealed request of a framed picker's post,
// lets the request's LMS frame the answer, and checks the post's browser
// value. It returns the request, or the refusal to answer with.
func (s *Server) openFramedDeepLink(w http.ResponseWriter, r *http.Request) (framedDeepLink, *http.Request, *lti.Refusal) {
	sealed := r.PostForm.Get(deepLinkSealedField)
	var f framedDeepLink
	if !s.dlFrameSeal.open(sealed, &f) || f.Request.ID == "" ||
		subtle.ConstantTimeCompare([]byte(f.Request.ID), []byte(r.PostForm.Get("request"))) != 1 {
		return f, r, deepLinkLost
	}
	// The origins were sealed by learn at the launch: the answers, in
	// the LMS's frame like the picker, may be framed by them.
	if origins := strings.Fields(f.Framed); len(origins) > 0 {
		for _, o := range origins {
			if !cspSource(o) {
				return f, r, deepLinkLost
			}
		}
		allowFraming(w.Header(), f.Framed)
		r = withFraming(r, f.Framed)
	}
	w.Header().Set("Cache-Control", "no-store")
	browser := r.PostForm.Get(deepLinkBrowserField)
	if browser == "" || subtle.ConstantTimeCompare(browserBinding(browser), f.Browser) != 1 {
		return f, r, deepLinkUnbound
	}
	return f, r, nil
}
