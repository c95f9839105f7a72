package lti

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		name, raw, want string // want: part of the error, "" for none
	}{
		{"https", "https://lms.example/auth", ""},
		{"https with a port and query", "https://lms.example:8443/auth?x=1", ""},
		{"http on localhost", "http://localhost:8080/jwks", ""},
		{"http on loopback", "http://127.0.0.1:8080/jwks", ""},
		{"http on IPv6 loopback", "http://[::1]:8080/jwks", ""},
		{"http elsewhere", "http://lms.example/auth", "not https"},
		{"relative", "/auth", "not an absolute"},
		{"another scheme", "ftp://lms.example/auth", "not an absolute"},
		{"user and password", "https://u:p@lms.example/auth", "user name"},
		{"fragment", "https://lms.example/auth#x", "fragment"},
		{"empty", "", "not an absolute"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckURL("address", tc.raw)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckURL(%q) = %v, want %q", tc.raw, err, tc.want)
			}
		})
	}
}

func TestCheckPlatform(t *testing.T) {
	good := Platform{Issuer: "https://lms.example", ClientID: "c", DeploymentIDs: []string{"d"},
		AuthURL: "https://lms.example/auth", TokenURL: "https://lms.example/token", JWKSURL: "https://lms.example/jwks"}
	for _, tc := range []struct {
		name   string
		change func(p *Platform)
		want   string
	}{
		{"good", func(*Platform) {}, ""},
		{"no client id", func(p *Platform) { p.ClientID = "" }, "client id"},
		{"no deployment", func(p *Platform) { p.DeploymentIDs = nil }, "deployment"},
		{"empty deployment", func(p *Platform) { p.DeploymentIDs = []string{""} }, "deployment"},
		{"http key set", func(p *Platform) { p.JWKSURL = "http://lms.example/jwks" }, "key set"},
		{"issuer not an address", func(p *Platform) { p.Issuer = "lms" }, "issuer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := good
			tc.change(&p)
			err := CheckPlatform(p)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckPlatform = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPublicKeySet(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	current, err := NewKey(now)
	if err != nil {
		t.Fatal(err)
	}
	recent, err := NewKey(now.Add(-48 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	recent.RetiredAt = now.Add(-time.Hour)
	old, err := NewKey(now.Add(-96 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	old.RetiredAt = now.Add(-48 * time.Hour)
	set, err := PublicKeySet([]Key{current, recent, old}, 24*time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range set.Keys {
		if !k.IsPublic() || k.Algorithm != "RS256" || k.Use != "sig" {
			t.Errorf("key %s: public %v, alg %s, use %s", k.KeyID, k.IsPublic(), k.Algorithm, k.Use)
		}
		kids = append(kids, k.KeyID)
	}
	if len(kids) != 2 || kids[0] != current.KID || kids[1] != recent.KID {
		t.Errorf("published %v, want the current and the recently retired key", kids)
	}
	sk, err := SigningKey([]Key{recent, current})
	if err != nil || sk.Key.(jose.JSONWebKey).KeyID != current.KID {
		t.Errorf("SigningKey = %v, %v; want %s", sk.Key, err, current.KID)
	}
	if _, err := SigningKey([]Key{recent}); !errors.Is(err, ErrNoKey) {
		t.Errorf("SigningKey of retired keys only: %v", err)
	}
}

// TestKeySets fetches a key set once, again once for an unknown key id,
// and refuses sets that are too large, not JSON or not served.
func TestKeySets(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	var fetches atomic.Int32
	body := map[string]func(w http.ResponseWriter){
		"/jwks": func(w http.ResponseWriter) {
			_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &priv.PublicKey, KeyID: "k1", Use: "sig"}}})
		},
		"/huge": func(w http.ResponseWriter) {
			_, _ = w.Write([]byte(`{"keys":[` + strings.Repeat(" ", MaxKeySetBytes) + `]}`))
		},
		"/garbage": func(w http.ResponseWriter) { _, _ = w.Write([]byte("<html>")) },
		"/missing": func(w http.ResponseWriter) { w.WriteHeader(http.StatusNotFound) },
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		body[r.URL.Path](w)
	}))
	defer ts.Close()
	ks := NewKeySets(ts.Client(), 0)
	ctx := context.Background()
	for range 3 {
		if pub, err := ks.Key(ctx, ts.URL+"/jwks", "k1"); err != nil || pub.N.Cmp(priv.N) != 0 {
			t.Fatalf("Key(k1) = %v", err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("three lookups fetched %d times, want 1", n)
	}
	if _, err := ks.Key(ctx, ts.URL+"/jwks", "k2"); !errors.Is(err, errUnknownKID) {
		t.Errorf("Key(k2) = %v, want unknown kid", err)
	}
	if n := fetches.Load(); n != 2 {
		t.Errorf("an unknown kid fetched %d times in all, want 2", n)
	}
	// Soon after a fetch, an unknown kid is not fetched again.
	patient := NewKeySets(ts.Client(), time.Hour)
	if _, err := patient.Key(ctx, ts.URL+"/jwks", "k1"); err != nil {
		t.Fatal(err)
	}
	before := fetches.Load()
	if _, err := patient.Key(ctx, ts.URL+"/jwks", "k3"); !errors.Is(err, errUnknownKID) || fetches.Load() != before {
		t.Errorf("an unknown kid right after a fetch: %v, %d more fetches", err, fetches.Load()-before)
	}
	for _, path := range []string{"/huge", "/garbage", "/missing"} {
		if _, err := ks.Key(ctx, ts.URL+path, "k1"); err == nil || errors.Is(err, errUnknownKID) {
			t.Errorf("Key at %s = %v, want a fetch error", path, err)
		}
	}
}
