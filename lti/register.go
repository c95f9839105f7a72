package lti

// LTI Dynamic Registration 1.0, learn's side: one-time invites, the
// platform's OpenID configuration and the tool's registration request.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"learn/progress"
)

// RegisterPath is learn's registration initiation address: the LMS opens
// it with openid_configuration (and registration_token) appended to the
// invite address "learn lti invite" prints.
const RegisterPath = "/lti/register"

// DefaultInviteLifetime is how long an invite waits for the LMS: a week
// leaves an LMS administrator time to get to it.
const DefaultInviteLifetime = 7 * 24 * time.Hour

// InviteMemory is how long an expired invite is kept, so that the page
// can say it expired rather than that it is unknown.
const InviteMemory = 30 * 24 * time.Hour

// DefaultRegistrationTimeout bounds each request of a registration (the
// configuration and the registration post): an LMS administrator waits
// on it.
const DefaultRegistrationTimeout = 10 * time.Second

// MaxConfigBytes caps the platform's OpenID configuration and its answer
// to the registration: real ones are a few kilobytes.
const MaxConfigBytes = 64 << 10

// The claims of the Dynamic Registration messages (sections 3.3 and
// 3.5.2), and the roster scope learn asks for.
const (
	claimPlatformConfig = "https://purl.imsglobal.org/spec/lti-platform-configuration"
	claimToolConfig     = "https://purl.imsglobal.org/spec/lti-tool-configuration"
	scopeNRPSReadOnly   = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
)

// errTooLarge is returned (wrapped) by Tool.fetch for an answer larger
// than MaxConfigBytes.
var errTooLarge = fmt.Errorf("larger than %d bytes", MaxConfigBytes)

// NewInvite makes a one-time invite valid for lifetime from now (0:
// DefaultInviteLifetime) and returns the address to give the LMS
// administrator: learn's RegisterPath with the token as "invite". Only
// the token's SHA-256 is stored; invites expired InviteMemory ago are
// forgotten.
func NewInvite(ctx context.Context, st Store, public *url.URL, lifetime time.Duration, now time.Time) (string, Invite, error) {
	if lifetime <= 0 {
		lifetime = DefaultInviteLifetime
	}
	token, err := random()
	if err != nil {
		return "", Invite{}, err
	}
	inv, err := st.AddInvite(ctx, Invite{TokenHash: hash(token), CreatedAt: now, ExpiresAt: now.Add(lifetime)}, now.Add(-InviteMemory))
	if err != nil {
		return "", Invite{}, fmt.Errorf("lti: new invite: %w", err)
	}
	u := public.JoinPath(RegisterPath)
	u.RawQuery = url.Values{"invite": {token}}.Encode()
	return u.String(), inv, nil
}

// RegistrationRequest is a registration initiation: learn's invite token
// and what the platform appended (section 3.3).
type RegistrationRequest struct {
	Invite, ConfigURL, RegistrationToken string
}

// PlatformConfig is what learn reads of a platform's OpenID configuration
// (section 3.4 and OpenID Connect Discovery 1.0).
type PlatformConfig struct {
	Issuer          string `json:"issuer"`
	AuthURL         string `json:"authorization_endpoint"`
	TokenURL        string `json:"token_endpoint"`
	JWKSURL         string `json:"jwks_uri"`
	RegistrationURL string `json:"registration_endpoint"`
	// SigningAlgs are its id_token_signing_alg_values_supported.
	SigningAlgs []string `json:"-"`
	// LTI is its LTI platform configuration.
	LTI struct {
		ProductFamily string
		Version       string
	} `json:"-"`
}

// Name is what learn calls the platform on its pages: its product and
// issuer.
func (c PlatformConfig) Name() string {
	if c.LTI.ProductFamily == "" {
		return c.Issuer
	}
	return c.LTI.ProductFamily + " (" + c.Issuer + ")"
}

// CheckRegistration checks the invite of a registration initiation
// (without spending it) and fetches and checks the platform's OpenID
// configuration. Errors are *Refusal for what the invite or the platform
// got wrong.
func (t *Tool) CheckRegistration(ctx context.Context, in RegistrationRequest) (PlatformConfig, error) {
	inv, err := t.store.FindInvite(ctx, hash(in.Invite))
	if in.Invite == "" || errors.Is(err, ErrNotFound) {
		return PlatformConfig{}, inviteRefusal("The registration address has no invite learn knows (it lacks its invite= part, or was mistyped or revoked).")
	}
	if err != nil {
		return PlatformConfig{}, fmt.Errorf("lti: check registration: %w", err)
	}
	if err := inviteUsable(inv, t.now()); err != nil {
		return PlatformConfig{}, err
	}
	return t.platformConfig(ctx, in.ConfigURL)
}

// inviteRefusal is the refusal of an invite that cannot serve.
func inviteRefusal(problem string) *Refusal {
	return refuse("invite", problem, "Ask learn's administrator for a new registration address (\"learn lti invite\") and paste it into the LMS.", nil)
}

// inviteUsable says why inv cannot serve at now, or nil.
func inviteUsable(inv Invite, now time.Time) error {
	switch {
	case !inv.UsedAt.IsZero():
		return inviteRefusal(fmt.Sprintf("This registration address was used already, on %s: each serves once.", inv.UsedAt.UTC().Format("2 January 2006 at 15:04 UTC")))
	case !now.Before(inv.ExpiresAt):
		return inviteRefusal(fmt.Sprintf("This registration address expired on %s.", inv.ExpiresAt.UTC().Format("2 January 2006 at 15:04 UTC")))
	}
	return nil
}

// Register spends the invite, posts learn's registration to the
// platform's registration endpoint and registers the platform with the
// client id and deployment it answers. A registration that fails gives
// the invite back, so the LMS administrator can try again with the same
// address. Errors are *Refusal for what the invite or the platform got
// wrong.
func (t *Tool) Register(ctx context.Context, in RegistrationRequest) (Platform, error) {
	cfg, err := t.CheckRegistration(ctx, in)
	if err != nil {
		return Platform{}, err
	}
	inv, err := t.store.SpendInvite(ctx, hash(in.Invite), t.now())
	if errors.Is(err, ErrNotFound) {
		// Another registration took it between the check and now.
		return Platform{}, inviteRefusal("This registration address was used already: each serves once.")
	}
	if err != nil {
		return Platform{}, fmt.Errorf("lti: register: %w", err)
	}
	p, err := t.register(ctx, cfg, in.RegistrationToken)
	if err != nil {
		if rerr := t.store.RestoreInvite(context.WithoutCancel(ctx), inv.ID); rerr != nil {
			return Platform{}, errors.Join(err, fmt.Errorf("lti: register: give the invite back: %w", rerr))
		}
		return Platform{}, err
	}
	return p, nil
}

// register posts the tool's registration and stores the platform.
func (t *Tool) register(ctx context.Context, cfg PlatformConfig, registrationToken string) (Platform, error) {
	body, err := json.Marshal(t.toolRegistration())
	if err != nil {
		return Platform{}, fmt.Errorf("lti: register: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultRegistrationTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.RegistrationURL, bytes.NewReader(body))
	if err != nil {
		return Platform{}, fmt.Errorf("lti: register: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if registrationToken != "" {
		req.Header.Set("Authorization", "Bearer "+registrationToken)
	}
	fix := "Start the registration again from the LMS; if it fails again, register learn by hand (\"learn lti add\") with the addresses on this page."
	answer, status, err := t.fetch(req)
	if err != nil {
		return Platform{}, refuse("registration", fmt.Sprintf("learn could not reach the LMS's registration endpoint %s.", cfg.RegistrationURL), fix, err)
	}
	if status < 200 || status > 299 {
		problem := fmt.Sprintf("The LMS refused learn's registration (it answered %d %s).", status, http.StatusText(status))
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			problem += " Its registration token may have expired or served already."
		}
		return Platform{}, refuse("registration", problem, fix, fmt.Errorf("lti: register: %s answered %d: %s", cfg.RegistrationURL, status, Excerpt(string(answer))))
	}
	var got struct {
		ClientID string `json:"client_id"`
		Tool     struct {
			DeploymentID string `json:"deployment_id"`
		} `json:"https://purl.imsglobal.org/spec/lti-tool-configuration"`
	}
	if err := json.Unmarshal(answer, &got); err != nil || got.ClientID == "" {
		return Platform{}, refuse("registration", "The LMS's answer to learn's registration names no client id.", fix,
			errors.Join(err, fmt.Errorf("lti: register: answer %s", Excerpt(string(answer)))))
	}
	// Some LMSs deploy a registered tool later and name no deployment in
	// their answer: the platform is kept without one, and its first
	// launch's refusal gives the command that adds the deployment.
	p := Platform{Issuer: cfg.Issuer, ClientID: got.ClientID, AuthURL: cfg.AuthURL, TokenURL: cfg.TokenURL, JWKSURL: cfg.JWKSURL, CreatedAt: t.now()}
	if got.Tool.DeploymentID != "" {
		p.DeploymentIDs = []string{got.Tool.DeploymentID}
	}
	if err := checkPlatform(p); err != nil {
		return Platform{}, refuse("registration", "The LMS's answer to learn's registration cannot be used: "+err.Error()+".", fix, err)
	}
	added, err := t.store.AddPlatform(ctx, p)
	if errors.Is(err, progress.ErrConflict) {
		return Platform{}, refuse("registered", fmt.Sprintf("learn has a registration of %s with client id %q already.", p.Issuer, p.ClientID),
			"Ask learn's administrator to remove the old registration (\"learn lti remove\"), then register again.", err)
	}
	if err != nil {
		return Platform{}, fmt.Errorf("lti: register: %w", err)
	}
	return added, nil
}

// toolRegistration is learn's client registration request (section
// 3.5.2, with OpenID Connect Dynamic Client Registration's metadata).
func (t *Tool) toolRegistration() map[string]any {
	home := t.public.JoinPath("/").String()
	return map[string]any{
		"application_type":           "web",
		"response_types":             []string{"id_token"},
		"grant_types":                []string{"implicit", "client_credentials"},
		"initiate_login_uri":         t.public.JoinPath(LoginPath).String(),
		"redirect_uris":              []string{t.RedirectURI()},
		"client_name":                "learn",
		"jwks_uri":                   t.public.JoinPath(JWKSPath).String(),
		"token_endpoint_auth_method": "private_key_jwt",
		"scope":                      strings.Join([]string{ScopeScore, scopeNRPSReadOnly}, " "),
		claimToolConfig: map[string]any{
			"domain":          t.public.Host,
			"target_link_uri": home,
			"claims":          []string{"iss", "sub", "name"},
			"messages": []map[string]any{
				{"type": MessageResourceLink, "target_link_uri": home},
				{"type": MessageDeepLinking, "target_link_uri": t.RedirectURI()},
			},
		},
	}
}

// platformConfig fetches the OpenID configuration at raw and checks it.
func (t *Tool) platformConfig(ctx context.Context, raw string) (PlatformConfig, error) {
	fix := "Start the registration from the LMS's own page for adding a tool by dynamic registration; if the LMS cannot give a valid configuration, register learn by hand (\"learn lti add\")."
	if raw == "" {
		return PlatformConfig{}, refuse("openid_configuration", "The registration address lacks the LMS's openid_configuration parameter: it was opened directly rather than by the LMS.",
			"Paste the registration address into the LMS's page for adding a tool by dynamic registration, rather than opening it in a browser.", nil)
	}
	if err := CheckURL("OpenID configuration address", raw); err != nil {
		return PlatformConfig{}, refuse("openid_configuration", err.Error()+".", fix, nil)
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultRegistrationTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return PlatformConfig{}, refuse("openid_configuration", "The OpenID configuration address is not one learn can fetch.", fix, err)
	}
	req.Header.Set("Accept", "application/json")
	body, status, err := t.fetch(req)
	switch {
	case errors.Is(err, errTooLarge):
		return PlatformConfig{}, refuse("openid_configuration", fmt.Sprintf("The LMS's OpenID configuration at %s is larger than the %d KiB learn reads.", raw, MaxConfigBytes>>10), fix, err)
	case err != nil:
		return PlatformConfig{}, refuse("openid_configuration", fmt.Sprintf("learn could not read the LMS's OpenID configuration at %s.", raw),
			"Check that learn's server can reach the LMS, then start the registration again.", err)
	case status != http.StatusOK:
		return PlatformConfig{}, refuse("openid_configuration", fmt.Sprintf("The LMS answered %d %s for its OpenID configuration at %s.", status, http.StatusText(status), raw),
			"Start the registration again from the LMS: its configuration address may have expired.", nil)
	}
	var doc struct {
		PlatformConfig
		SigningAlgs []string `json:"id_token_signing_alg_values_supported"`
		LTI         *struct {
			ProductFamily string `json:"product_family_code"`
			Version       string `json:"version"`
		} `json:"https://purl.imsglobal.org/spec/lti-platform-configuration"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return PlatformConfig{}, refuse("openid_configuration", "The LMS's OpenID configuration is not a JSON object.", fix, err)
	}
	cfg := doc.PlatformConfig
	cfg.SigningAlgs = doc.SigningAlgs
	if problem := issuerProblem(cfg.Issuer, raw); problem != "" {
		return PlatformConfig{}, refuse("issuer", problem, fix, nil)
	}
	for _, u := range []struct{ what, raw string }{
		{"authorization_endpoint", cfg.AuthURL}, {"token_endpoint", cfg.TokenURL},
		{"jwks_uri", cfg.JWKSURL}, {"registration_endpoint", cfg.RegistrationURL},
	} {
		if u.raw == "" {
			return PlatformConfig{}, refuse(u.what, fmt.Sprintf("The LMS's OpenID configuration lacks its %s.", u.what), fix, nil)
		}
		if err := CheckURL(u.what, u.raw); err != nil {
			return PlatformConfig{}, refuse(u.what, err.Error()+".", fix, nil)
		}
	}
	if doc.LTI == nil || doc.LTI.ProductFamily == "" {
		return PlatformConfig{}, refuse("lti-platform-configuration", "The LMS's OpenID configuration lacks the LTI platform configuration (its product_family_code): it is not an LTI platform's.", fix, nil)
	}
	cfg.LTI.ProductFamily, cfg.LTI.Version = doc.LTI.ProductFamily, doc.LTI.Version
	if !slices.Contains(cfg.SigningAlgs, "RS256") {
		return PlatformConfig{}, refuse("id_token_signing_alg_values_supported", "The LMS does not say it signs id_tokens with RS256, the one algorithm learn takes.",
			"Have the LMS sign id_tokens with RS256 (LTI 1.3 requires it).", nil)
	}
	return cfg, nil
}

// issuerProblem says what is wrong with a configuration's issuer, or "":
// it must be an https URL with no query or fragment, and the
// configuration address must extend it on the same origin (section
// 3.5.1).
func issuerProblem(issuer, configURL string) string {
	if issuer == "" {
		return "The LMS's OpenID configuration names no issuer."
	}
	if err := CheckURL("issuer", issuer); err != nil {
		return "The LMS's issuer is not usable: " + err.Error() + "."
	}
	if u, err := url.Parse(issuer); err != nil || u.RawQuery != "" || u.ForceQuery {
		return fmt.Sprintf("The LMS's issuer %q has a query; an issuer has none.", issuer)
	}
	// CheckURL passed, so the issuer's origin is not "".
	if Origin(issuer) != Origin(configURL) || !strings.HasPrefix(configURL, strings.TrimSuffix(issuer, "/")) {
		return fmt.Sprintf("The LMS's issuer %q is not the origin of its OpenID configuration address %s, as LTI Dynamic Registration requires.", issuer, configURL)
	}
	return ""
}

// fetch sends req with the tool's client and reads at most MaxConfigBytes
// of the answer.
func (t *Tool) fetch(req *http.Request) ([]byte, int, error) {
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxConfigBytes+1))
	if err != nil {
		return nil, resp.StatusCode, err
	}
	if len(body) > MaxConfigBytes {
		return nil, resp.StatusCode, fmt.Errorf("lti: the answer of %s: %w", req.URL.Redacted(), errTooLarge)
	}
	return body, resp.StatusCode, nil
}
