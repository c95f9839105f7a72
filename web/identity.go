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
	"time"

	"github.com/gorilla/securecookie"

	"learn/progress"
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
}

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

// encode signs a learner id with the current key.
func (id *identity) encode(learnerID string) (string, error) {
	return id.codecs[0].Encode(learnerCookie, []byte(learnerID))
}

// decode returns the learner id a cookie value carries when it verifies
// under one of the keys, is not older than cookieLifetime and was not
// signed in the future (past now plus cookieClockSkew). stale reports that
// a retired key signed it, so it should be signed again with the current
// one.
func (id *identity) decode(value string, now time.Time) (learnerID string, stale, ok bool) {
	for i, c := range id.codecs {
		var b []byte
		if err := c.Decode(learnerCookie, value, &b); err != nil {
			continue
		}
		signed, ok := signedAt(value)
		if !ok || signed.After(now.Add(cookieClockSkew)) || !validLearnerID(string(b)) {
			return "", false, false
		}
		return string(b), i > 0, true
	}
	return "", false, false
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
	if c, err := r.Cookie(learnerCookie); err == nil {
		a.ID, stale, a.Known = s.ids.decode(c.Value, s.now())
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
		if err := s.setLearnerCookie(w, r, a.ID); err != nil {
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
	ctx := progress.WithActor(r.Context(), a)
	return r.WithContext(context.WithValue(ctx, summaryKey{}, sum)), nil
}

// setLearnerCookie makes this browser the learner id, with a value freshly
// signed by the current key.
func (s *Server) setLearnerCookie(w http.ResponseWriter, r *http.Request, id string) error {
	value, err := s.ids.encode(id)
	if err != nil {
		return fmt.Errorf("web: sign learner cookie: %w", err)
	}
	http.SetCookie(w, &http.Cookie{
		Name: learnerCookie, Value: value, Path: "/", MaxAge: int(cookieLifetime / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
	})
	return nil
}

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
func badge(sum progress.Summary) LearnerBadge {
	b := LearnerBadge{XP: sum.XP, Level: sum.Level, StreakDays: sum.StreakDays, ActiveToday: sum.ActiveToday, ReviewsDue: sum.ReviewsDue, Notices: sum.Notices}
	if b.Level == 0 {
		b.Level = 1
	}
	return b
}

// badgeFrom returns the header figures of the request's learner.
func badgeFrom(ctx context.Context) LearnerBadge { return badge(summaryFrom(ctx)) }

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
