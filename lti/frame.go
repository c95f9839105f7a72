package lti

// Launches inside the LMS's frame: which origins may frame learn after a
// launch, where a launch page's client-side storage messages go (LTI
// Client Side postMessages), and single-use codes for continuing a
// framed launch in a new tab.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// FrameOrigins returns the origins that may frame the pages a launch
// opens: the platform's issuer and authorisation endpoint, and the
// launch presentation's return address (on platforms whose issuer is not
// the host that shows the course), each once, in that order. Origins
// that are not http(s) addresses learn accepts (CheckURL) are left out.
func FrameOrigins(l Launched) []string {
	var out []string
	for _, raw := range []string{l.Platform.Issuer, l.Platform.AuthURL, l.ReturnURL} {
		if o := Origin(raw); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// Origin returns scheme://host[:port] of raw, lower case, or "" when raw
// is not an address CheckURL accepts.
func Origin(raw string) string {
	if raw == "" || CheckURL("address", raw) != nil {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// TokenPlatform returns the registered platform an id_token names by its
// iss and aud, read without verifying the token: for a launch page that
// must ask that platform's client-side storage for what its login kept
// there before Launch (which verifies the token) can run. A token naming
// no registered platform is a *Refusal.
func (t *Tool) TokenPlatform(ctx context.Context, idToken string) (Platform, error) {
	refused := refuse("iss", "The launch's id_token names no platform registered in learn.",
		"Register the LMS in learn (learn lti add) with the issuer and client id it puts in its id_tokens.", nil)
	tok, err := jwt.ParseSigned(idToken, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return Platform{}, refuse("alg", "The id_token is not a JWT signed with RS256.",
			"Have the LMS sign id_tokens with RS256 (LTI 1.3 allows no other algorithm for launches).", err)
	}
	var c jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&c); err != nil || c.Issuer == "" {
		return Platform{}, refused
	}
	for _, aud := range c.Audience {
		p, err := t.store.FindPlatform(ctx, c.Issuer, aud)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return Platform{}, fmt.Errorf("lti: token platform: %w", err)
		}
		return p, nil
	}
	return Platform{}, refused
}

// LoginPlatform returns the registered platform of a login initiation's
// issuer and client id ("" for the issuer's only registration), or a
// *Refusal.
func (t *Tool) LoginPlatform(ctx context.Context, issuer, clientID string) (Platform, error) {
	p, err := t.store.FindPlatform(ctx, issuer, clientID)
	if errors.Is(err, ErrNotFound) {
		return Platform{}, refuse("iss", "The login initiation names no platform registered in learn.",
			"Register the LMS in learn (learn lti add) with the issuer and client id of its login initiation.", err)
	}
	if err != nil {
		return Platform{}, fmt.Errorf("lti: login platform: %w", err)
	}
	return p, nil
}

// continueIssuer is the issuer under which SpendOnce records codes in the
// nonce table: no platform's issuer is a bare word.
const continueIssuer = "learn"

// SpendOnce records key as used until expires, on every server sharing
// the store; a key used before wraps ErrReplayed. The web layer spends
// the code that continues a framed launch in a new tab with it.
func (t *Tool) SpendOnce(ctx context.Context, key string, expires time.Time) error {
	if err := t.store.UseNonce(ctx, continueIssuer, key, expires, t.now()); err != nil {
		return fmt.Errorf("lti: spend %q: %w", key, err)
	}
	return nil
}

// ValidStorageTarget reports whether name may be the lti_storage_target
// of a login initiation or launch: the name of a frame of the platform's
// window ("_parent" for the window itself), written into a page's data
// attribute, so short and of plain characters only.
func ValidStorageTarget(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
