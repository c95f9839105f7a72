package web

import (
	"bytes"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// visit gets / with cookie (when non-nil) and returns the learner cookie
// the server set, or nil when it set none (it knew the learner).
func visit(t *testing.T, s *Server, cookie *http.Cookie) *http.Cookie {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET / = %d", rec.Code)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == learnerCookie {
			return c
		}
	}
	return nil
}

func TestLearnerCookies(t *testing.T) {
	oldKey, newKey := bytes.Repeat([]byte{1}, 64), bytes.Repeat([]byte{2}, 64)
	server := func(now time.Time, key []byte, old ...[]byte) *Server {
		return newTestServer(t, func(c *testSetup) {
			c.CookieKey, c.OldCookieKeys = key, old
			if !now.IsZero() {
				c.Now = func() time.Time { return now }
			}
		})
	}
	issued := visit(t, server(time.Time{}, oldKey), nil)
	if issued == nil {
		t.Fatal("a first visit got no cookie")
	}
	learner, _, ok := newIdentity(oldKey).decode(issued.Value, time.Now())
	if !ok {
		t.Fatal("the issued cookie does not verify")
	}

	t.Run("a cookie signed in the future is refused", func(t *testing.T) {
		yesterday := server(time.Now().Add(-24*time.Hour), oldKey)
		if visit(t, yesterday, issued) == nil {
			t.Error("a server whose clock says yesterday accepted a cookie signed today")
		}
		aMinuteAgo := server(time.Now().Add(-time.Minute), oldKey)
		if visit(t, aMinuteAgo, issued) != nil {
			t.Error("a cookie signed a minute ahead of the server's clock was refused; replicas' clocks differ that much")
		}
	})
	t.Run("after a rotation the old key verifies and the cookie is signed again", func(t *testing.T) {
		rotated := server(time.Time{}, newKey, oldKey)
		renewed := visit(t, rotated, issued)
		if renewed == nil {
			t.Fatal("a cookie signed with the retired key was not signed again with the new one")
		}
		id, stale, ok := newIdentity(newKey).decode(renewed.Value, time.Now())
		if !ok || stale || id != learner {
			t.Errorf("the renewed cookie: learner %q (ok %v, stale %v), want %q under the new key alone", id, ok, stale, learner)
		}
		if visit(t, rotated, renewed) != nil {
			t.Error("the renewed cookie is signed again on every visit")
		}
	})
	t.Run("after the grace period the old key verifies nothing", func(t *testing.T) {
		if visit(t, server(time.Time{}, newKey), issued) == nil {
			t.Error("a server without the retired key accepted a cookie it signed")
		}
	})
	t.Run("keys shorter than 32 bytes are refused", func(t *testing.T) {
		s := newTestServer(t)
		if _, err := New(Config{App: s.app, Assets: s.assets, CookieKey: newKey, OldCookieKeys: [][]byte{[]byte("short")}}); err == nil {
			t.Error("New accepted a retired key of 5 bytes")
		}
	})
}

// TestVerifiedCookiesKeepTheirChecks checks the cache of verified cookie
// values: a value verified once still has its age and clock checked on
// every use, against the time given, and a changed value is verified
// afresh (and refused).
func TestVerifiedCookiesKeepTheirChecks(t *testing.T) {
	key := bytes.Repeat([]byte{3}, 64)
	id := newIdentity(key)
	value, err := id.encode("0123456789abcdef0123456789abcdef", "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, tc := range []struct {
		name  string
		value string
		at    time.Time
		want  bool
	}{
		{"first use", value, now, true},
		{"kept, used again", value, now.Add(time.Hour), true},
		{"kept, older than a cookie lives", value, now.Add(cookieLifetime + time.Hour), false},
		{"kept, signed in the future", value, now.Add(-time.Hour), false},
		{"kept, still good after those", value, now, true},
		{"changed by one byte", value[:len(value)-2] + "AA", now, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			learner, _, ok := id.decode(tc.value, tc.at)
			if ok != tc.want || (ok && learner != "0123456789abcdef0123456789abcdef") {
				t.Errorf("decode at %v = %q, %v; want ok %v", tc.at.Sub(now), learner, ok, tc.want)
			}
		})
	}
}

// TestLearnerCookieLine checks that the Set-Cookie line setLearnerCookie
// writes by hand is the one http.SetCookie writes for the same cookie,
// over plain HTTP and over TLS, and that a cookie set before stays.
func TestLearnerCookieLine(t *testing.T) {
	s := newTestServer(t)
	for _, tls := range []bool{false, true} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if tls {
			r.TLS = &tlsState
		}
		w := httptest.NewRecorder()
		http.SetCookie(w, &http.Cookie{Name: "other", Value: "1"})
		if err := s.setLearnerCookie(w, r, "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"); err != nil {
			t.Fatal(err)
		}
		lines := w.Header().Values("Set-Cookie")
		if len(lines) != 2 || lines[0] != "other=1" {
			t.Fatalf("TLS %v: Set-Cookie lines %q, want the earlier cookie and the learner's", tls, lines)
		}
		value := strings.TrimPrefix(strings.SplitN(lines[1], ";", 2)[0], learnerCookie+"=")
		want := (&http.Cookie{Name: learnerCookie, Value: value, Path: "/", MaxAge: int(cookieLifetime / time.Second),
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: tls}).String()
		if lines[1] != want {
			t.Errorf("TLS %v: Set-Cookie %q, want what http.SetCookie writes: %q", tls, lines[1], want)
		}
		if id, device, _, ok := s.ids.decodeDevice(value, time.Now()); !ok || id != "0123456789abcdef0123456789abcdef" || device != "fedcba9876543210fedcba9876543210" {
			t.Errorf("TLS %v: the cookie's value does not verify: %q %q %v", tls, id, device, ok)
		}
	}
}

var tlsState tls.ConnectionState

// TestPolicyWithStyleNonce checks the cut policy against the replacement
// it stands for.
func TestPolicyWithStyleNonce(t *testing.T) {
	for _, nonce := range []string{"", "IP61IWQn+dZWDeOXSPFWGA=="} {
		want := strings.Replace(contentSecurityPolicy, "style-src 'self'", "style-src 'self' 'nonce-"+nonce+"'", 1)
		if got := policyWithStyleNonce(nonce); got != want {
			t.Errorf("policyWithStyleNonce(%q) = %q, want %q", nonce, got, want)
		}
	}
}
