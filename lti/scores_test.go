package lti

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"learn/internal/ltiplatform"
)

// testKeys returns one fresh signing key as the store would.
func testKeys(t *testing.T) []Key {
	t.Helper()
	k, err := NewKey(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return []Key{k}
}

func TestAssertion(t *testing.T) {
	keys := testKeys(t)
	now := time.Date(2026, 12, 3, 7, 0, 0, 0, time.UTC)
	tokens := NewTokens(nil, func(context.Context) ([]Key, error) { return keys, nil }, func() time.Time { return now })
	p := Platform{ID: 1, ClientID: "client-7", TokenURL: "https://lms.example/token"}
	first, err := tokens.Assertion(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	second, err := tokens.Assertion(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	set, err := PublicKeySet(keys, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	var jtis []string
	for _, a := range []string{first, second} {
		tok, err := jwt.ParseSigned(a, []jose.SignatureAlgorithm{jose.RS256})
		if err != nil {
			t.Fatal(err)
		}
		if len(tok.Headers) != 1 || tok.Headers[0].KeyID != keys[0].KID || tok.Headers[0].Algorithm != "RS256" {
			t.Fatalf("headers = %+v, want RS256 with kid %s", tok.Headers, keys[0].KID)
		}
		var c jwt.Claims
		if err := tok.Claims(set.Keys[0].Key, &c); err != nil {
			t.Fatalf("the assertion does not verify with learn's published key: %v", err)
		}
		if c.Issuer != "client-7" || c.Subject != "client-7" || len(c.Audience) != 1 || c.Audience[0] != p.TokenURL {
			t.Errorf("iss %q, sub %q, aud %v; want the client id twice and the token URL", c.Issuer, c.Subject, c.Audience)
		}
		if !c.IssuedAt.Time().Equal(now) || c.Expiry.Time().Sub(now) != AssertionLifetime || c.ID == "" {
			t.Errorf("iat %v, exp %v, jti %q", c.IssuedAt.Time(), c.Expiry.Time(), c.ID)
		}
		jtis = append(jtis, c.ID)
	}
	if jtis[0] == jtis[1] {
		t.Error("two assertions share a jti")
	}
	noKeys := NewTokens(nil, func(context.Context) ([]Key, error) { return nil, nil }, nil)
	if _, err := noKeys.Assertion(context.Background(), p); err == nil || !strings.Contains(err.Error(), "no signing key") {
		t.Errorf("without a key: %v", err)
	}
}

// lmsFor registers a test platform and returns it, with learn's keys it
// trusts.
func lmsFor(t *testing.T) (*ltiplatform.Platform, Platform, []Key) {
	keys := testKeys(t)
	lms := ltiplatform.Start(t, "learn-client", "d1")
	set, err := PublicKeySet(keys, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	lms.TrustToolKeys(set)
	return lms, Platform{ID: 1, Issuer: lms.Issuer(), ClientID: lms.ClientID, TokenURL: lms.TokenURL(), JWKSURL: lms.JWKSURL()}, keys
}

func TestTokenCaching(t *testing.T) {
	lms, p, keys := lmsFor(t)
	// 90 s: used for 45 s (half, being shorter than two minutes), which
	// the platform's clock, not moved, still takes assertions at.
	lms.SetTokenLifetime(90 * time.Second)
	now := time.Now()
	clock := func() time.Time { return now }
	tokens := NewTokens(lms.Client(), func(context.Context) ([]Key, error) { return keys, nil }, clock)
	ctx := context.Background()
	a, err := tokens.Token(ctx, p, ScopeScore)
	if err != nil {
		t.Fatalf("Token: %v (the platform refused: %v)", err, lms.RefusedAssertions())
	}
	b, err := tokens.Token(ctx, p, ScopeScore)
	if err != nil || a != b || lms.TokensIssued() != 1 {
		t.Errorf("a second Token = %v (same %v), %d issued; want the cached one", err, a == b, lms.TokensIssued())
	}
	if _, err := tokens.Token(ctx, p, ScopeLineItem); err != nil || lms.TokensIssued() != 2 {
		t.Errorf("another scope: %v, %d issued; want a token of its own", err, lms.TokensIssued())
	}
	now = now.Add(44 * time.Second)
	if c, err := tokens.Token(ctx, p, ScopeScore); err != nil || c != a {
		t.Errorf("just before the margin: %v, new token %v", err, c != a)
	}
	now = now.Add(2 * time.Second)
	if c, err := tokens.Token(ctx, p, ScopeScore); err != nil || c == a || lms.TokensIssued() != 3 {
		t.Errorf("past half its life: %v, new token %v, %d issued; want a new one", err, c != a, lms.TokensIssued())
	}
	tokens.Forget(p, ScopeScore)
	if _, err := tokens.Token(ctx, p, ScopeScore); err != nil || lms.TokensIssued() != 4 {
		t.Errorf("after Forget: %v, %d issued", err, lms.TokensIssued())
	}

	// A client id the platform does not know: refused, not retried soon.
	wrong := p
	wrong.ID, wrong.ClientID = 2, "someone-else"
	if _, err := tokens.Token(ctx, wrong, ScopeScore); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a wrong client id: %v, want the platform's 401", err)
	}
}

func TestTokenAnswerCapped(t *testing.T) {
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"` + strings.Repeat("a", MaxTokenBytes) + `","token_type":"Bearer"}`))
	}))
	defer big.Close()
	keys := testKeys(t)
	tokens := NewTokens(nil, func(context.Context) ([]Key, error) { return keys, nil }, nil)
	if _, err := tokens.Token(context.Background(), Platform{ClientID: "c", TokenURL: big.URL}, ScopeScore); err == nil || !strings.Contains(err.Error(), "larger") {
		t.Errorf("an oversized answer: %v", err)
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		attempts int
		want     time.Duration
	}{{0, time.Second}, {1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {10, 512 * time.Second}, {11, MaxBackoff}, {1000, MaxBackoff}} {
		if got := Backoff(tc.attempts); got != tc.want {
			t.Errorf("Backoff(%d) = %v, want %v", tc.attempts, got, tc.want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "bad request", "bad request"},
		{"lines", "a\r\n\tb\x00c", "a b c"},
		{"invalid UTF-8", "a\xffb", "a b"},
	} {
		if got := Excerpt(tc.in); got != tc.want {
			t.Errorf("%s: Excerpt(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
	long := Excerpt(strings.Repeat("é", 400))
	if len(long) > MaxAnswerExcerpt || !utf8.ValidString(long) || !strings.HasSuffix(long, "…") {
		t.Errorf("a long answer: %d bytes, valid %v", len(long), utf8.ValidString(long))
	}
}

func TestScoresURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://lms.example/lineitems/5":                "https://lms.example/lineitems/5/scores",
		"https://lms.example/lineitems/5/":               "https://lms.example/lineitems/5/scores",
		"https://lms.example/mod/lti/lineitems/5?type=2": "https://lms.example/mod/lti/lineitems/5/scores?type=2",
	} {
		if got, err := ScoresURL(in); err != nil || got != want {
			t.Errorf("ScoresURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// memScores is an outbox in memory, for the sender's tests (the real one
// is tested in package storage).
type memScores struct {
	mu       sync.Mutex
	p        Platform
	keys     []Key
	rows     []Score
	results  []ScoreResult
	finished map[int64]ScoreResult
	nextTry  map[int64]time.Time
}

func (m *memScores) ClaimScores(_ context.Context, now, _ time.Time, lease string, limit int) ([]Score, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Score
	for _, s := range m.rows {
		r, done := m.finished[s.ID]
		if (done && r.State != ScorePending) || m.nextTry[s.ID].After(now) || len(out) == limit {
			continue
		}
		s.Lease = lease
		out = append(out, s)
	}
	return out, nil
}

func (m *memScores) FinishScore(_ context.Context, s Score, r ScoreResult) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.results = append(m.results, r)
	m.finished[s.ID] = r
	m.nextTry[s.ID] = r.NextTry
	for i := range m.rows {
		if m.rows[i].ID == s.ID {
			m.rows[i].Attempts++
		}
	}
	return nil
}

func (m *memScores) FindPlatformByID(context.Context, int64) (Platform, error) { return m.p, nil }
func (m *memScores) SigningKeys(context.Context) ([]Key, error)                { return m.keys, nil }

func TestSender(t *testing.T) {
	lms, p, keys := lmsFor(t)
	at := time.Date(2026, 12, 3, 7, 0, 0, 123456789, time.UTC)
	store := &memScores{p: p, keys: keys, finished: map[int64]ScoreResult{}, nextTry: map[int64]time.Time{},
		rows: []Score{{ID: 1, LearnerID: "l1", PlatformID: 1, LineItem: lms.LineItemURL("link-1"), UserID: "sub-1", Given: 30, Maximum: 55, Completed: true, At: at}}}
	now := time.Now()
	sender, err := NewSender(SenderConfig{Store: store, Client: lms.Client(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// Down: pending again, after a backoff that doubles.
	lms.FailScores(http.StatusServiceUnavailable)
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if n, err := sender.SendDue(ctx); err != nil || n != 1 {
			t.Fatalf("try %d: SendDue = %d, %v", i+1, n, err)
		}
		r := store.results[len(store.results)-1]
		if r.State != ScorePending || r.Status != http.StatusServiceUnavailable || r.NextTry.Sub(now) != wait || !strings.Contains(r.Answer, "maintenance") {
			t.Fatalf("try %d: %+v; want pending, 503, next try in %v", i+1, r, wait)
		}
		if n, _ := sender.SendDue(ctx); n != 0 {
			t.Fatalf("try %d: a score not due yet was claimed", i+1)
		}
		now = now.Add(wait)
	}
	// Up again: sent, once, with every field of AGS 2.0.
	lms.FailScores(0)
	if _, err := sender.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	if r := store.results[len(store.results)-1]; r.State != ScoreSent || r.Status != http.StatusOK {
		t.Fatalf("after recovery: %+v; want sent", r)
	}
	res := lms.Results()
	if len(res) != 1 || res[0].Posts != 1 || res[0].UserID != "sub-1" || *res[0].ScoreGiven != 30 || *res[0].ScoreMaximum != 55 ||
		res[0].ActivityProgress != "Completed" || res[0].GradingProgress != "FullyGraded" || !res[0].Timestamp.Equal(at.Truncate(time.Microsecond)) {
		t.Errorf("results = %+v", res)
	}
	if lms.TokensIssued() != 1 {
		t.Errorf("%d tokens issued for four posts, want 1 (cached)", lms.TokensIssued())
	}
}

func TestSenderRefusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		want   string
	}{
		{"bad request", http.StatusBadRequest, ScoreFailed},
		{"not found", http.StatusNotFound, ScoreFailed},
		{"too many", http.StatusTooManyRequests, ScorePending},
		{"bad gateway", http.StatusBadGateway, ScorePending},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var posts atomic.Int32
			lms := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/token" {
					w.Header().Set("Content-Type", "application/json")
					_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "t", "token_type": "bearer", "expires_in": 3600})
					return
				}
				posts.Add(1)
				if r.Header.Get("Content-Type") != ScoreMediaType || r.Header.Get("Authorization") != "Bearer t" {
					http.Error(w, "wrong headers", http.StatusUnsupportedMediaType)
					return
				}
				http.Error(w, "the LMS says no\xff", tc.status)
			}))
			defer lms.Close()
			p := Platform{ID: 1, ClientID: "c", TokenURL: lms.URL + "/token"}
			store := &memScores{p: p, keys: testKeys(t), finished: map[int64]ScoreResult{}, nextTry: map[int64]time.Time{},
				rows: []Score{{ID: 1, PlatformID: 1, LineItem: lms.URL + "/lineitems/1", UserID: "u", Given: 1, Maximum: 5, At: time.Now()}}}
			sender, err := NewSender(SenderConfig{Store: store})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sender.SendDue(context.Background()); err != nil {
				t.Fatal(err)
			}
			r := store.results[0]
			if r.State != tc.want || r.Status != tc.status || !strings.Contains(r.Answer, "the LMS says no") || !utf8.ValidString(r.Answer) || posts.Load() != 1 {
				t.Errorf("%+v after %d posts; want %s with the LMS's answer", r, posts.Load(), tc.want)
			}
		})
	}
}

func TestAGSEndpoint(t *testing.T) {
	item := "https://lms.example/lineitems/5?type=2"
	for _, tc := range []struct {
		name     string
		scope    []string
		lineItem string
		canScore bool
		keptItem string
	}{
		{"score scope and line item", []string{ScopeLineItem, ScopeScore}, item, true, item},
		{"no score scope", []string{ScopeLineItemReadOnly}, item, false, item},
		{"no line item", []string{ScopeScore}, "", false, ""},
		{"line item on http elsewhere", []string{ScopeScore}, "http://lms.example/lineitems/5", false, ""},
		{"line item not an address", []string{ScopeScore}, "lineitems/5", false, ""},
		{"line item too long", []string{ScopeScore}, "https://lms.example/" + strings.Repeat("a", MaxLineItemURL), false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := agsEndpoint(tc.scope, "https://lms.example/lineitems", tc.lineItem)
			if e.CanScore() != tc.canScore || e.LineItem != tc.keptItem {
				t.Errorf("agsEndpoint = %+v, CanScore %v; want %v and line item %q", e, e.CanScore(), tc.canScore, tc.keptItem)
			}
		})
	}
}

// TestSenderShutdown: a score in flight when the server stops is handed
// back at once, pending, rather than held until its lease ends.
func TestSenderShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	lms := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "t", "token_type": "Bearer", "expires_in": 3600})
			return
		}
		_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client go
		cancel()                           // the server stops while the LMS thinks
		<-r.Context().Done()
	}))
	defer lms.Close()
	p := Platform{ID: 1, ClientID: "c", TokenURL: lms.URL + "/token"}
	store := &memScores{p: p, keys: testKeys(t), finished: map[int64]ScoreResult{}, nextTry: map[int64]time.Time{},
		rows: []Score{{ID: 1, PlatformID: 1, LineItem: lms.URL + "/lineitems/1", UserID: "u", Given: 1, Maximum: 5, At: time.Now()}}}
	sender, err := NewSender(SenderConfig{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if _, err := sender.SendDue(ctx); err == nil {
		t.Error("SendDue after the context ended: no error")
	}
	if len(store.results) != 1 || store.results[0].State != ScorePending || store.results[0].NextTry.Before(before) || store.results[0].NextTry.After(time.Now()) {
		t.Errorf("results = %+v; want the score pending, due at once", store.results)
	}
}
