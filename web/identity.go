package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/securecookie"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// learnerCookie is the cookie that carries the anonymous learner id.
const learnerCookie = "learn_learner"

// cookieLifetime is how long a learner cookie lasts without a visit.
const cookieLifetime = 400 * 24 * time.Hour

// cookieClockSkew is how far in the future a cookie's signing time may
// be, for clocks of replicas that disagree a little; past it the cookie is
// refused (securecookie itself checks only that it is not too old).
const cookieClockSkew = 5 * time.Minute

// identity signs and checks learner cookies: the first codec signs, every
// codec verifies (the first for current cookies, the others for cookies
// signed before a key rotation).
type identity struct {
	codecs []*securecookie.SecureCookie
	// verified keeps the cookie values that verified, so that a returning
	// learner's page views, which send the same value until their next
	// post, cost one map read instead of a MAC and two base64 decodings.
	// The time checks are made again on every use.
	mu       sync.Mutex
	verified map[string]verifiedCookie
}

// verifiedCookie is what a cookie value that verified says.
type verifiedCookie struct {
	learner, device string
	signed          time.Time
	stale           bool
}

// maxVerified bounds the verified cookie values kept; past it the map
// starts again empty.
const maxVerified = 10_000

func newIdentity(key []byte, oldKeys ...[]byte) *identity {
	id := &identity{}
	for _, k := range append([][]byte{key}, oldKeys...) {
		c := securecookie.New(k, nil)
		c.MaxAge(int(cookieLifetime / time.Second))
		// The value is a plain id: no need for gob, which costs more than the HMAC.
		c.SetSerializer(securecookie.NopEncoder{})
		id.codecs = append(id.codecs, c)
	}
	return id
}

// encode signs a learner id, and the device id of a browser signed in
// with secret words ("" for the browser the learner started on), with the
// current key: the value is "learner" or "learner.device".
func (id *identity) encode(learnerID, deviceID string) (string, error) {
	v := learnerID
	if deviceID != "" {
		v += "." + deviceID
	}
	return id.codecs[0].Encode(learnerCookie, []byte(v))
}

// decode is decodeDevice without the device id.
func (id *identity) decode(value string, now time.Time) (learnerID string, stale, ok bool) {
	learnerID, _, stale, ok = id.decodeDevice(value, now)
	return learnerID, stale, ok
}

// decodeDevice returns the learner id, and the device id when there is one, a
// cookie value carries when it verifies under one of the keys, is not
// older than cookieLifetime and was not signed in the future (past now
// plus cookieClockSkew). stale reports that a retired key signed it, so
// it should be signed again with the current one.
func (id *identity) decodeDevice(value string, now time.Time) (learnerID, deviceID string, stale, ok bool) {
	id.mu.Lock()
	v, hit := id.verified[value]
	id.mu.Unlock()
	if !hit {
		if v, hit = id.verify(value); !hit {
			return "", "", false, false
		}
		id.mu.Lock()
		if id.verified == nil || len(id.verified) >= maxVerified {
			id.verified = map[string]verifiedCookie{}
		}
		id.verified[value] = v
		id.mu.Unlock()
	}
	// securecookie's own age check, and the clock skew, against now.
	if v.signed.After(now.Add(cookieClockSkew)) || now.Sub(v.signed) > cookieLifetime {
		return "", "", false, false
	}
	return v.learner, v.device, v.stale, true
}

// verify checks a cookie value's MAC under each key in turn and reads
// what it says; ok is false when no key verifies it or it says nothing
// valid.
func (id *identity) verify(value string) (v verifiedCookie, ok bool) {
	for i, c := range id.codecs {
		var b []byte
		if err := c.Decode(learnerCookie, value, &b); err != nil {
			continue
		}
		learner, device, hasDevice := strings.Cut(string(b), ".")
		signed, ok := signedAt(value)
		if !ok || !validLearnerID(learner) || (hasDevice && !validLearnerID(device)) {
			return v, false
		}
		return verifiedCookie{learner: learner, device: device, signed: signed, stale: i > 0}, true
	}
	return v, false
}

// knownCookie names the teacher a browser signed in as before, so that
// their account's doubling delay after wrong passwords does not apply on
// it (progress.SignInRequest.KnownTeacherID).
const knownCookie = "learn_known"

// knownLifetime is how long a browser stays known to a teacher's account.
const knownLifetime = 400 * 24 * time.Hour

// encodeKnown signs a teacher id for the known-device cookie; the cookie
// name is part of what is signed, so a learner cookie never passes for it.
func (id *identity) encodeKnown(teacherID int64) (string, error) {
	return id.codecs[0].Encode(knownCookie, []byte(strconv.FormatInt(teacherID, 10)))
}

// decodeKnown returns the teacher id a known-device cookie names, 0 when
// it does not verify.
func (id *identity) decodeKnown(value string) int64 {
	for _, c := range id.codecs {
		var b []byte
		if err := c.Decode(knownCookie, value, &b); err != nil {
			continue
		}
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil && n > 0 {
			return n
		}
		return 0
	}
	return 0
}

type deviceKey struct{}

// deviceFrom returns the device id of the request's browser, "" for a
// browser a learner started on (or one that has no learner yet).
func deviceFrom(ctx context.Context) string {
	d, _ := ctx.Value(deviceKey{}).(string)
	return d
}

// signedAt reads the signing time securecookie puts in a value it made:
// base64 (URL alphabet) of "unix seconds|value|mac".
func signedAt(value string) (time.Time, bool) {
	raw, err := base64.URLEncoding.DecodeString(value)
	if err != nil {
		return time.Time{}, false
	}
	stamp, _, ok := strings.Cut(string(raw), "|")
	if !ok {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

type summaryKey struct{}

// identify reads the learner cookie, issuing a new one when it is missing or
// does not verify, and returns the request carrying the acting user
// (progress.ActorFrom) and their summary for the header (summaryFrom).
func (s *Server) identify(w http.ResponseWriter, r *http.Request) (*http.Request, error) {
	a := progress.Actor{Role: progress.RoleLearner}
	stale := false
	device := ""
	if c, err := r.Cookie(learnerCookie); err == nil {
		a.ID, device, stale, a.Known = s.ids.decodeDevice(c.Value, s.now())
	}
	if a.Known && device != "" {
		// A browser signed in with secret words stays the learner while its
		// device row does: read on every request, so new words, leaving the
		// class, deleted data or "sign out everywhere else" end it at its
		// next request on every server.
		ok, err := s.app.DeviceSignedIn(r.Context(), a.ID, device)
		if err != nil {
			return r, err
		}
		if !ok {
			a.ID, device, a.Known = "", "", false
		}
	}
	if !a.Known {
		id, err := newLearnerID()
		if err != nil {
			return r, err
		}
		a.ID = id
	}
	// A new visitor gets the cookie; a learner's is renewed whenever they
	// post (check, run, answer), so an active learner never expires and a
	// page view costs no signature, or when a retired key signed it.
	if !a.Known || stale || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		if err := s.setLearnerCookie(w, r, a.ID, device); err != nil {
			return r, err
		}
	}
	if c, err := r.Cookie(sessionCookie); err == nil {
		teacher, ok, err := s.app.Authenticate(r.Context(), a, c.Value)
		if err != nil {
			return r, err
		}
		if ok {
			a = teacher
		} else {
			clearSessionCookie(w, r)
		}
	}
	sum, err := s.app.Summary(r.Context(), a)
	if err != nil {
		return r, err
	}
	ctx := context.WithValue(progress.WithActor(r.Context(), a), deviceKey{}, device)
	return r.WithContext(context.WithValue(ctx, summaryKey{}, sum)), nil
}

// setLearnerCookie makes this browser the learner id (as the device
// deviceID when it signed in with secret words), with a value freshly
// signed by the current key.
func (s *Server) setLearnerCookie(w http.ResponseWriter, r *http.Request, id, deviceID string) error {
	value, err := s.ids.encode(id, deviceID)
	if err != nil {
		return fmt.Errorf("web: sign learner cookie: %w", err)
	}
	// The line http.SetCookie would write, without its checks: the name
	// and attributes are fixed and the value is URL-safe base64.
	line := learnerCookie + "=" + value + learnerCookieAttributes
	switch {
	case framedBy(r.Context()) != "":
		// A third-party cookie inside the LMS's frame (lti_frame.go).
		line += "; Secure; SameSite=None; Partitioned"
	case r.TLS != nil:
		line += "; Secure; SameSite=Lax"
	default:
		line += "; SameSite=Lax"
	}
	h := w.Header()
	h["Set-Cookie"] = append(h["Set-Cookie"], line)
	return nil
}

// learnerCookieAttributes follow the learner cookie's value, before
// Secure and SameSite.
var learnerCookieAttributes = "; Path=/; Max-Age=" + strconv.Itoa(int(cookieLifetime/time.Second)) + "; HttpOnly"

// withSummary returns the request carrying a newer summary, after a write.
func withSummary(r *http.Request, sum progress.Summary) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), summaryKey{}, sum))
}

// summaryFrom returns the summary identify attached; a new learner's is
// empty.
func summaryFrom(ctx context.Context) progress.Summary {
	if sum, ok := ctx.Value(summaryKey{}).(progress.Summary); ok {
		return sum
	}
	return progress.Summary{Level: 1}
}

// badge returns the header figures of a summary.
func (s *Server) badge(sum progress.Summary) LearnerBadge {
	b := LearnerBadge{XP: sum.XP, Level: sum.Level, StreakDays: sum.StreakDays, ActiveToday: sum.ActiveToday, ReviewsDue: sum.ReviewsDue, Notices: sum.Notices}
	if b.Level == 0 {
		b.Level = 1
	}
	b.Continue = continueLink(s.course(), sum)
	return b
}

// badgeFrom returns the header figures of the request's learner.
func (s *Server) badgeFrom(ctx context.Context) LearnerBadge { return s.badge(summaryFrom(ctx)) }

// continueLink is where the learner picks up the course, or nil for one
// who has not opened a lesson.
func continueLink(course *lessons.Course, sum progress.Summary) *ContinueLink {
	at, ok, done := sum.Resume(course)
	switch {
	case !ok:
		return nil
	case done:
		return &ContinueLink{Done: true, Label: "Course done: review what you missed", Href: "/review"}
	}
	part, anchor := partTitle(at.Part)
	return &ContinueLink{Lesson: at.Lesson.Title, Part: part, Label: "Continue: " + at.Lesson.Title + " — " + part,
		Href: "/lessons/" + at.Lesson.Slug + "#" + anchor}
}

// partTitle is how the lesson map names an interactive part, and its
// anchor on the lesson page.
func partTitle(w *lessons.Widget) (title, anchor string) {
	switch {
	case w.Exercise != nil:
		return "Practice: " + w.Exercise.Title, "x-" + w.ID
	case w.Kind == quiz.KindQuiz:
		return "Lesson quiz", "w-" + w.ID
	}
	return "Try it: " + widgetTitle(w), "w-" + w.ID
}

// newLearnerID returns 128 random bits as hex.
func newLearnerID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("web: new learner id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// validLearnerID reports whether id looks like one newLearnerID made.
func validLearnerID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// newNonce returns 128 random bits for a Content-Security-Policy nonce.
func newNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("web: nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b[:]), nil
}
