package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
)

// DefaultServiceTimeout bounds each request to a platform's services (its
// token endpoint and its line items): a sender waiting on a platform that
// does not answer holds one score, not the outbox.
const DefaultServiceTimeout = 20 * time.Second

// MaxTokenBytes caps a token endpoint's answer: an access token answer is
// a few hundred bytes.
const MaxTokenBytes = 64 << 10

// AssertionLifetime is how long learn's client assertion is valid: it is
// used at once, so five minutes covers clock drift and nothing more.
const AssertionLifetime = 5 * time.Minute

// tokenMargin is how long before its expiry a cached token is no longer
// used (half its lifetime for a shorter-lived one): a token that expires
// on its way to the platform is refused.
const tokenMargin = time.Minute

// The OAuth 2 values of the client-credentials grant with a JWT client
// assertion (RFC 6749 section 4.4, RFC 7523 section 2.2).
const (
	grantClientCredentials = "client_credentials"
	assertionTypeJWTBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
)

// ErrTokenRefused is returned (wrapped) by Tokens.Token when the platform's
// token endpoint answers with an error: the registration is wrong (an
// unknown client id, learn's key set not registered), and asking again
// soon will not help.
var ErrTokenRefused = errors.New("lti: the platform refused learn a service token")

// Tokens obtains OAuth 2 access tokens for the platforms' services with a
// signed client assertion (RFC 7523), and caches each per platform and
// scope until shortly before it expires. It is safe for concurrent use.
type Tokens struct {
	client *http.Client
	keys   func(ctx context.Context) ([]Key, error)
	now    func() time.Time
	mu     sync.Mutex
	cache  map[tokenKey]cachedToken
}

type tokenKey struct {
	platform int64
	scope    string
}

type cachedToken struct {
	token string
	// useUntil is shortly before the token expires.
	useUntil time.Time
}

// NewTokens returns a token source that signs with the key SigningKey
// picks from keys (learn's keys, read on every new token so that a
// rotation is used at once) and fetches with client (nil: a client whose
// timeout is DefaultServiceTimeout); now nil means time.Now.
func NewTokens(client *http.Client, keys func(ctx context.Context) ([]Key, error), now func() time.Time) *Tokens {
	if client == nil {
		client = &http.Client{Timeout: DefaultServiceTimeout}
	}
	if now == nil {
		now = time.Now
	}
	return &Tokens{client: client, keys: keys, now: now, cache: map[tokenKey]cachedToken{}}
}

// Token returns an access token of p for scope: the cached one while it
// has more than a minute (or half its lifetime) to live, else a new one from p's token endpoint.
// A refusal by the endpoint wraps ErrTokenRefused; its answer is never
// part of an error but for its status and an excerpt of its error fields.
func (t *Tokens) Token(ctx context.Context, p Platform, scope string) (string, error) {
	k := tokenKey{p.ID, scope}
	t.mu.Lock()
	c, ok := t.cache[k]
	t.mu.Unlock()
	if ok && t.now().Before(c.useUntil) {
		return c.token, nil
	}
	c, err := t.fetch(ctx, p, scope)
	if err != nil {
		return "", err
	}
	t.mu.Lock()
	t.cache[k] = c
	t.mu.Unlock()
	return c.token, nil
}

// Forget drops the cached token of p for scope: the platform refused it
// (revoked before its expiry, say), so the next Token asks for a new one.
func (t *Tokens) Forget(p Platform, scope string) {
	t.mu.Lock()
	delete(t.cache, tokenKey{p.ID, scope})
	t.mu.Unlock()
}

// Assertion returns learn's client assertion for p's token endpoint
// (RFC 7523 section 3): issuer and subject learn's client id, audience
// the token endpoint, a unique jti, issued now and expiring
// AssertionLifetime later, signed RS256 with learn's signing key under
// its key id.
func (t *Tokens) Assertion(ctx context.Context, p Platform) (string, error) {
	keys, err := t.keys(ctx)
	if err != nil {
		return "", fmt.Errorf("lti: client assertion: %w", err)
	}
	signer, err := Signer(keys)
	if err != nil {
		return "", fmt.Errorf("lti: client assertion: %w", err)
	}
	jti, err := random()
	if err != nil {
		return "", err
	}
	now := t.now()
	claims := jwt.Claims{Issuer: p.ClientID, Subject: p.ClientID, Audience: jwt.Audience{p.TokenURL}, ID: jti,
		IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now.Add(-Leeway)), Expiry: jwt.NewNumericDate(now.Add(AssertionLifetime))}
	out, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		return "", fmt.Errorf("lti: client assertion: %w", err)
	}
	return out, nil
}

// tokenAnswer is a token endpoint's answer (RFC 6749 sections 5.1 and
// 5.2).
type tokenAnswer struct {
	AccessToken      string `json:"access_token"`
	TokenType        string `json:"token_type"`
	ExpiresIn        int64  `json:"expires_in"`
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

func (t *Tokens) fetch(ctx context.Context, p Platform, scope string) (cachedToken, error) {
	assertion, err := t.Assertion(ctx, p)
	if err != nil {
		return cachedToken{}, err
	}
	form := url.Values{"grant_type": {grantClientCredentials}, "client_assertion_type": {assertionTypeJWTBearer},
		"client_assertion": {assertion}, "scope": {scope}}
	ctx, cancel := context.WithTimeout(ctx, DefaultServiceTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return cachedToken{}, fmt.Errorf("lti: service token from %s: %w", p.TokenURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := t.client.Do(req)
	if err != nil {
		return cachedToken{}, fmt.Errorf("lti: service token from %s: %w", p.TokenURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxTokenBytes+1))
	if err != nil {
		return cachedToken{}, fmt.Errorf("lti: service token from %s: %w", p.TokenURL, err)
	}
	if len(body) > MaxTokenBytes {
		return cachedToken{}, fmt.Errorf("lti: service token from %s: the answer is larger than %d bytes", p.TokenURL, MaxTokenBytes)
	}
	var a tokenAnswer
	jsonErr := json.Unmarshal(body, &a)
	if resp.StatusCode != http.StatusOK {
		err := &ServiceError{Status: resp.StatusCode, Excerpt: Excerpt(strings.TrimSpace(a.Error + " " + a.ErrorDescription))}
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusRequestTimeout {
			return cachedToken{}, fmt.Errorf("lti: service token from %s: %w: %w", p.TokenURL, ErrTokenRefused, err)
		}
		return cachedToken{}, fmt.Errorf("lti: service token from %s: %w", p.TokenURL, err)
	}
	if jsonErr != nil {
		return cachedToken{}, fmt.Errorf("lti: service token from %s: %w", p.TokenURL, jsonErr)
	}
	if a.AccessToken == "" || !strings.EqualFold(a.TokenType, "bearer") {
		return cachedToken{}, fmt.Errorf("lti: service token from %s: the answer holds no bearer token", p.TokenURL)
	}
	life := time.Duration(a.ExpiresIn) * time.Second
	if a.ExpiresIn <= 0 || a.ExpiresIn > 24*3600 {
		// No (or an odd) lifetime: use the token for a few minutes only.
		life = 5 * time.Minute
	}
	return cachedToken{token: a.AccessToken, useUntil: t.now().Add(life - min(tokenMargin, life/2))}, nil
}
