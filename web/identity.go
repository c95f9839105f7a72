package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/securecookie"
)

// learnerCookie is the cookie that carries the anonymous learner id.
const learnerCookie = "learn_learner"

// cookieLifetime is how long a learner cookie lasts without a visit.
const cookieLifetime = 400 * 24 * time.Hour

// identity signs and checks learner cookies.
type identity struct {
	codec *securecookie.SecureCookie
}

func newIdentity(key []byte) *identity {
	c := securecookie.New(key, nil)
	c.MaxAge(int(cookieLifetime / time.Second))
	// The value is a plain id: no need for gob, which costs more than the HMAC.
	c.SetSerializer(securecookie.NopEncoder{})
	return &identity{codec: c}
}

// learner is who is asking, as far as the cookie tells.
type learner struct {
	ID string
	// Known is true when the request carried a valid cookie: the browser
	// keeps cookies, so recording progress for it is worthwhile. A first
	// visit gets a fresh id in a new cookie and nothing is written for it.
	Known  bool
	badge  LearnerBadge
	opened map[string]bool // lessons opened, from the summary
	zone   string          // IANA time zone last reported by the browser
	sum    learnerSummary  // everything the summary holds
}

type learnerKey struct{}

// learnerFrom returns the learner the middleware attached, or a zero one.
func learnerFrom(ctx context.Context) learner {
	l, _ := ctx.Value(learnerKey{}).(learner)
	return l
}

// identify reads the learner cookie, issuing a new one when it is missing or
// does not verify, and loads the learner's summary for the header.
func (s *Server) identify(w http.ResponseWriter, r *http.Request) (*http.Request, error) {
	var l learner
	if c, err := r.Cookie(learnerCookie); err == nil {
		var id []byte
		if err := s.ids.codec.Decode(learnerCookie, c.Value, &id); err == nil && validLearnerID(string(id)) {
			l.ID, l.Known = string(id), true
		}
	}
	if !l.Known {
		id, err := newLearnerID()
		if err != nil {
			return r, err
		}
		l.ID = id
	}
	// A new visitor gets the cookie; a learner's is renewed whenever they
	// post (check, run, answer), so an active learner never expires and a
	// page view costs no signature.
	if !l.Known || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		value, err := s.ids.codec.Encode(learnerCookie, []byte(l.ID))
		if err != nil {
			return r, fmt.Errorf("web: sign learner cookie: %w", err)
		}
		http.SetCookie(w, &http.Cookie{
			Name: learnerCookie, Value: value, Path: "/", MaxAge: int(cookieLifetime / time.Second),
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
		})
	}
	if l.Known {
		sum, err := s.summary(r.Context(), l.ID)
		if err != nil {
			return r, err
		}
		l.badge, l.opened, l.zone, l.sum = sum.badge, sum.opened, sum.zone, sum
	}
	return r.WithContext(withLearner(r.Context(), l)), nil
}

// withLearner returns a context carrying l.
func withLearner(ctx context.Context, l learner) context.Context {
	return context.WithValue(ctx, learnerKey{}, l)
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

// badgeOrNew returns the learner's header figures; a new learner is at
// level 1 with nothing else yet.
func (l learner) badgeOrNew() LearnerBadge {
	b := l.badge
	if b.Level == 0 {
		b.Level = 1
	}
	return b
}

// newNonce returns 128 random bits for a Content-Security-Policy nonce.
func newNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("web: nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b[:]), nil
}
