package web

// LTI Deep Linking 2.0: an instructor's deep linking request (validated
// by package lti, through the launch route) opens a picker of the
// course's lessons; its form posts back here, and learn answers the LMS
// with a signed response of one resource link per chosen lesson, posted
// to the LMS by the browser.
//
// The validated request waits in the browser while the instructor picks:
// sealed (AES-256-GCM, with a key derived from the cookie key, the cookie
// name as additional data) in a short-lived cookie on /lti/, SameSite=None
// like the launch cookie, since the picker may sit in the LMS's frame.
// The request's id is spent in the database when it is answered
// (lti.Tool.DeepLinkResponse), so a replayed picker post fails on every
// server. The picker's own form is a same-origin post, under the
// cross-origin protection of every other form. In a frame that keeps no
// cookie at all, the request travels in the picker's form instead, bound
// to a value of the platform's storage (lti_deeplink_frame.go).

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"learn/lti"
)

// deepLinkCookie holds the sealed deep linking request while the
// instructor picks.
const deepLinkCookie = "learn_lti_dl"

// maxDeepLinkCookie bounds the sealed request: browsers keep cookies of
// up to 4096 bytes, name and attributes included.
const maxDeepLinkCookie = 3800

// deepLinkTooLarge is the refusal of a request too large to keep.
var deepLinkTooLarge = &lti.Refusal{Check: "deep_linking_settings",
	Problem: "The LMS's deep linking request is too large for learn to keep while the lessons are picked.",
	Fix:     "Tell the LMS's administrator: learn keeps the return address, the data and the suggested title and text of the request, about 3 KB in all."}

// deepLinkField names the picker's choices: deepLinkCourse for the whole
// course, else a lesson's slug after deepLinkLesson.
const (
	deepLinkField  = "item"
	deepLinkCourse = "course"
	deepLinkLesson = "lesson:"
)

// newDeepLinkSeal seals deep linking requests with keys derived from the
// cookie keys.
func newDeepLinkSeal(keys [][]byte) (*sealer, error) {
	return newSealer(keys, "learn: LTI deep linking request", deepLinkCookie)
}

// setDeepLinkCookie keeps value (MaxAge -1 deletes it).
func setDeepLinkCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: deepLinkCookie, Value: value, Path: "/lti/", MaxAge: maxAge,
		HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode})
}

// deepLinkPicker answers a validated deep linking request: it keeps the
// request in the browser and draws the picker.
func (s *Server) deepLinkPicker(w http.ResponseWriter, r *http.Request, req lti.DeepLinking) error {
	sealed, err := s.dlSeal.seal(req)
	if err != nil {
		return err
	}
	if len(sealed) > maxDeepLinkCookie {
		return s.ltiRefused(w, r, deepLinkTooLarge)
	}
	setDeepLinkCookie(w, sealed, int(lti.DeepLinkLifetime.Seconds()))
	return render(w, r, ltiDeepLinkPage(s.deepLinkView(r, req, nil, "")))
}

// deepLinkView is the picker's view model, with chosen ticked and
// problem shown ("" for none).
func (s *Server) deepLinkView(r *http.Request, req lti.DeepLinking, chosen []string, problem string) DeepLinkView {
	course := s.course()
	v := DeepLinkView{Page: s.page(r, "Add lessons to the LMS", ""), Action: lti.DeepLinkPath, Request: req.ID,
		Multiple: req.AcceptMultiple, CourseTitle: course.Info.Title, Problem: problem,
		WholeCourse: DeepLinkChoice{Value: deepLinkCourse, Label: "The whole course: one link to its home page, without a gradebook column"}}
	v.WholeCourse.Checked = slices.Contains(chosen, deepLinkCourse)
	for _, l := range course.Lessons {
		value := deepLinkLesson + l.Slug
		label := l.Title + " (" + strconv.Itoa(l.EarnableXP()) + " XP)"
		if l.EarnableXP() == 0 {
			label = l.Title + " (no XP, so no gradebook column)"
		}
		v.Lessons = append(v.Lessons, DeepLinkChoice{Value: value, Label: label, Checked: slices.Contains(chosen, value)})
	}
	return v
}

// deepLinkLost is the refusal of a picker post whose request is gone.
var deepLinkLost = &lti.Refusal{Check: "deep_link",
	Problem: "This browser no longer holds the LMS's request for lessons: it expired, was answered already, or another picker replaced it.",
	Fix:     "Add learn's lessons again from the LMS, in this browser."}

// ltiDeepLink takes the picker's post: the chosen lessons (or the whole
// course) become resource links of a signed deep linking response, which
// the answer's page posts to the LMS.
func (s *Server) ltiDeepLink(w http.ResponseWriter, r *http.Request) error {
	if s.lti == nil {
		return s.ltiRefused(w, r, noPublicURL)
	}
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The picker's form could not be read.", Err: err}
	}
	var req lti.DeepLinking
	// frame is the request of a picker in a frame that keeps no cookie,
	// carried by its form (lti_deeplink_frame.go); nil for the cookie's.
	var frame *framedDeepLink
	if r.PostForm.Get(deepLinkSealedField) != "" {
		f, framed, ref := s.openFramedDeepLink(w, r)
		if r = framed; ref != nil {
			return s.ltiRefused(w, r, ref)
		}
		req, frame = f.Request, &f
	} else {
		c, err := r.Cookie(deepLinkCookie)
		if err != nil {
			return s.ltiRefused(w, r, deepLinkLost)
		}
		ok := s.dlSeal.open(c.Value, &req) && req.ID != ""
		if !ok || subtle.ConstantTimeCompare([]byte(req.ID), []byte(r.PostForm.Get("request"))) != 1 {
			return s.ltiRefused(w, r, deepLinkLost)
		}
	}
	chosen := r.PostForm[deepLinkField]
	links, problem := s.deepLinks(req, chosen)
	if problem != "" {
		v := s.deepLinkView(r, req, chosen, problem)
		if frame != nil {
			v = s.framedDeepLinkView(r, *frame, r.PostForm.Get(deepLinkSealedField), chosen, problem)
		}
		return renderStatus(w, r, http.StatusBadRequest, ltiDeepLinkPage(v))
	}
	origin, err := req.ReturnOrigin()
	if err != nil {
		return err
	}
	if !cspSource(origin) {
		return fmt.Errorf("web: deep link: the return origin %q cannot be named in a content security policy", origin)
	}
	signed, err := s.lti.DeepLinkResponse(r.Context(), req, links)
	if ref, ok := errors.AsType[*lti.Refusal](err); ok {
		if frame == nil {
			setDeepLinkCookie(w, "", -1)
		}
		return s.ltiRefused(w, r, ref)
	}
	if err != nil {
		return err
	}
	if frame == nil {
		setDeepLinkCookie(w, "", -1)
	}
	// This page alone may post to the LMS: its form carries the response.
	w.Header().Set("Content-Security-Policy", strings.Replace(w.Header().Get("Content-Security-Policy"), "form-action 'self'", "form-action 'self' "+origin, 1))
	w.Header().Set("Cache-Control", "no-store")
	v := DeepLinkReturnView{Page: s.page(r, "Back to the LMS", ""), Action: req.ReturnURL, JWT: signed, Count: len(links)}
	return render(w, r, ltiDeepLinkReturnPage(v))
}

// deepLinks turns the picker's choices into resource links, or says what
// is wrong with them.
func (s *Server) deepLinks(req lti.DeepLinking, chosen []string) ([]lti.ResourceLink, string) {
	if len(chosen) == 0 {
		return nil, "Choose at least one lesson, or the whole course."
	}
	if len(chosen) > 1 && !req.AcceptMultiple {
		return nil, "The LMS takes one link here: choose one lesson, or the whole course."
	}
	course := s.course()
	links := make([]lti.ResourceLink, 0, len(chosen))
	seen := map[string]bool{}
	for _, c := range chosen {
		if seen[c] {
			continue
		}
		seen[c] = true
		if c == deepLinkCourse {
			title := course.Info.Title
			if req.Title != "" && !req.AcceptMultiple {
				title = req.Title
			}
			links = append(links, lti.ResourceLink{Title: title, Text: req.Text, URL: "/"})
			continue
		}
		slug, ok := strings.CutPrefix(c, deepLinkLesson)
		l, found := course.Lesson(slug)
		if !ok || !found {
			return nil, "One of the chosen lessons is not in this course any more; choose again."
		}
		link := lti.ResourceLink{Title: l.Title, Text: l.Summary, URL: "/lessons/" + l.Slug, Custom: map[string]string{"lesson": l.Slug}}
		if xp := l.EarnableXP(); xp > 0 {
			link.LineItem = &lti.LineItem{Label: l.Title, ScoreMaximum: float64(xp), ResourceID: l.Slug}
		}
		links = append(links, link)
	}
	return links, ""
}

// cspSource reports whether origin (scheme://host[:port]) may be written
// into a Content-Security-Policy as a source: nothing that could end the
// directive or start another.
func cspSource(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(origin, "http://")
	}
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}
