package lti

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// The claims of LTI Core 1.3, section 5.
const (
	claimPrefix         = "https://purl.imsglobal.org/spec/lti/claim/"
	ClaimMessageType    = claimPrefix + "message_type"
	ClaimVersion        = claimPrefix + "version"
	ClaimDeploymentID   = claimPrefix + "deployment_id"
	ClaimTargetLinkURI  = claimPrefix + "target_link_uri"
	ClaimResourceLink   = claimPrefix + "resource_link"
	ClaimRoles          = claimPrefix + "roles"
	ClaimContext        = claimPrefix + "context"
	ClaimCustom         = claimPrefix + "custom"
	MessageResourceLink = "LtiResourceLinkRequest"
	Version             = "1.3.0"
	// RoleInstructor and RoleLearner are the context roles of LIS v2.
	RoleInstructor = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
	RoleLearner    = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
)

// Paths are where learn serves LTI, below its public URL: what an LMS
// administrator registers.
const (
	LoginPath  = "/lti/login"
	LaunchPath = "/lti/launch"
	JWKSPath   = "/lti/jwks"
	// DeepLinkPath is where learn's deep linking picker posts (learn's
	// own form, not the platform's).
	DeepLinkPath = "/lti/deep-link"
)

// Leeway is how far exp and iat may be off learn's clock: platforms'
// clocks drift a little.
const Leeway = time.Minute

// StateLifetime is how long a login's state waits for the launch.
const StateLifetime = 10 * time.Minute

// Config is what a Tool is built from. Store and PublicURL are required.
type Config struct {
	Store Store
	// PublicURL is learn's public https origin (scheme and host), from
	// the operator, never from a request.
	PublicURL *url.URL
	// KeySets fetches platforms' keys; nil makes one with the default
	// client and DefaultMinRefetch.
	KeySets *KeySets
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// KeyGrace is how long a retired signing key stays in the published
	// key set; 0 means DefaultKeyGrace.
	KeyGrace time.Duration
	// Client fetches platforms' OpenID configurations and posts learn's
	// dynamic registrations; nil means a client whose timeout is
	// DefaultRegistrationTimeout.
	Client *http.Client
}

// DefaultKeyGrace is how long a retired signing key stays published: as
// long as learn's cookie keys verify after a rotation.
const DefaultKeyGrace = 90 * 24 * time.Hour

// Tool runs the two legs of a launch. It is safe for concurrent use.
type Tool struct {
	store  Store
	public *url.URL
	keys   *KeySets
	now    func() time.Time
	grace  time.Duration
	client *http.Client
}

// New returns a tool for cfg.
func New(cfg Config) (*Tool, error) {
	if cfg.Store == nil || cfg.PublicURL == nil {
		return nil, errors.New("lti: new tool: a store and learn's public URL are required")
	}
	t := &Tool{store: cfg.Store, public: cfg.PublicURL, keys: cfg.KeySets, now: cfg.Now, grace: cfg.KeyGrace, client: cfg.Client}
	if t.client == nil {
		t.client = &http.Client{Timeout: DefaultRegistrationTimeout}
	}
	if t.grace <= 0 {
		t.grace = DefaultKeyGrace
	}
	if t.keys == nil {
		t.keys = NewKeySets(nil, DefaultMinRefetch)
	}
	if t.now == nil {
		t.now = time.Now
	}
	return t, nil
}

// KeySetJSON returns learn's published key set (see PublicKeySet) as
// JSON.
func (t *Tool) KeySetJSON(ctx context.Context) ([]byte, error) {
	keys, err := t.store.SigningKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("lti: key set: %w", err)
	}
	set, err := PublicKeySet(keys, t.grace, t.now())
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(set)
	if err != nil {
		return nil, fmt.Errorf("lti: key set: %w", err)
	}
	return out, nil
}

// RedirectURI is the address platforms post id_tokens to.
func (t *Tool) RedirectURI() string { return t.public.JoinPath(LaunchPath).String() }

// LoginRequest is a platform's third-party login initiation.
type LoginRequest struct {
	Issuer, LoginHint, TargetLinkURI, MessageHint, ClientID, DeploymentID string
}

// sameOrigin reports whether raw is an address on learn's public origin.
func (t *Tool) sameOrigin(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == t.public.Scheme && u.Host == t.public.Host
}

// Login checks a login initiation, keeps a new state and nonce bound to
// browser (the value of the browser's launch cookie) and returns the
// address of the platform's authorisation request. Errors are *Refusal
// for what the platform got wrong.
func (t *Tool) Login(ctx context.Context, in LoginRequest, browser string) (string, error) {
	if in.Issuer == "" || in.LoginHint == "" || in.TargetLinkURI == "" {
		return "", refuse("login", "The login initiation lacks iss, login_hint or target_link_uri.",
			"Check that the LMS's login initiation address for learn is "+t.public.JoinPath(LoginPath).String()+".", nil)
	}
	p, err := t.store.FindPlatform(ctx, in.Issuer, in.ClientID)
	if errors.Is(err, ErrNotFound) {
		return "", refuse("iss", fmt.Sprintf("No platform with issuer %q (client id %q) is registered with learn.", in.Issuer, in.ClientID),
			"Register the LMS with \"learn lti add\", with the issuer and client id exactly as the LMS shows them.", err)
	}
	if err != nil {
		return "", fmt.Errorf("lti: login: %w", err)
	}
	if in.DeploymentID != "" && !p.HasDeployment(in.DeploymentID) {
		return "", deploymentRefusal(p, in.DeploymentID)
	}
	if !t.sameOrigin(in.TargetLinkURI) {
		return "", targetRefusal(t)
	}
	state, err := random()
	if err != nil {
		return "", err
	}
	nonce, err := random()
	if err != nil {
		return "", err
	}
	now := t.now()
	if err := t.store.SaveState(ctx, State{StateHash: hash(state), BrowserHash: hash(browser), Nonce: nonce,
		PlatformID: p.ID, Target: in.TargetLinkURI, ExpiresAt: now.Add(StateLifetime)}, now); err != nil {
		return "", fmt.Errorf("lti: login: %w", err)
	}
	auth, err := url.Parse(p.AuthURL)
	if err != nil {
		return "", fmt.Errorf("lti: login: the registered authorisation address: %w", err)
	}
	q := auth.Query()
	q.Set("scope", "openid")
	q.Set("response_type", "id_token")
	q.Set("response_mode", "form_post")
	q.Set("prompt", "none")
	q.Set("client_id", p.ClientID)
	q.Set("redirect_uri", t.RedirectURI())
	q.Set("login_hint", in.LoginHint)
	q.Set("state", state)
	q.Set("nonce", nonce)
	if in.MessageHint != "" {
		q.Set("lti_message_hint", in.MessageHint)
	}
	auth.RawQuery = q.Encode()
	return auth.String(), nil
}

func deploymentRefusal(p Platform, id string) *Refusal {
	problem := fmt.Sprintf("The deployment %q is not registered with learn.", id)
	if len(p.DeploymentIDs) == 0 {
		problem = fmt.Sprintf("learn's registration of this LMS names no deployment yet; this launch came from deployment %q.", id)
	}
	return refuse("deployment_id", problem,
		fmt.Sprintf("If that deployment is yours, learn's administrator adds it: learn lti add-deployment --issuer %s --client-id %s --deployment %s",
			shellWord(p.Issuer), shellWord(p.ClientID), shellWord(id)), nil)
}

// shellWord quotes s for a POSIX shell when it holds anything but safe
// characters, so that a command shown on a page can be pasted.
func shellWord(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func targetRefusal(t *Tool) *Refusal {
	return refuse("target_link_uri", "The launch's target link is not an address of learn.",
		"Set the tool's target link (launch) address in the LMS to one on "+t.public.String()+", such as "+t.RedirectURI()+".", nil)
}

// Launched is a valid launch: who launched, from where, and for a deep
// linking request what the platform asks for.
type Launched struct {
	Platform Platform
	// MessageType is MessageResourceLink or MessageDeepLinking.
	MessageType string
	// Subject is the platform's id of the user; Name their name, when
	// the platform sent one.
	Subject, Name, Email string
	Roles                []string
	DeploymentID         string
	// ContextID and ContextTitle are the LMS course's.
	ContextID, ContextTitle string
	ResourceLinkID          string
	ResourceLinkTitle       string
	TargetLinkURI           string
	Custom                  map[string]string
	// AGS is the launch's Assignment and Grade Services endpoint claim;
	// the zero value when the platform sent none (or one learn cannot
	// use).
	AGS AGSEndpoint
	// NRPS is the launch's Names and Role Provisioning Services claim:
	// where the context's roster is; the zero value when the platform sent
	// none (or one learn cannot use).
	NRPS NRPSEndpoint
	// DeepLinking is set for a deep linking request (MessageDeepLinking),
	// nil for a resource link launch.
	DeepLinking *DeepLinking
	// ReturnURL is the launch presentation's return address, where the
	// LMS shows the course: its origin is the page that frames learn on
	// platforms whose issuer is another host (FrameOrigins).
	ReturnURL string
}

// HasRole reports whether the user holds the role (a full LIS URI).
func (l Launched) HasRole(role string) bool { return slices.Contains(l.Roles, role) }

// launchClaims are the claims of an id_token that learn reads.
type launchClaims struct {
	Nonce         string   `json:"nonce"`
	AZP           string   `json:"azp"`
	Name          string   `json:"name"`
	Email         string   `json:"email"`
	MessageType   string   `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version       string   `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID  string   `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	TargetLinkURI string   `json:"https://purl.imsglobal.org/spec/lti/claim/target_link_uri"`
	Roles         []string `json:"https://purl.imsglobal.org/spec/lti/claim/roles"`
	ResourceLink  struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/resource_link"`
	Context struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Label string `json:"label"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/context"`
	Custom map[string]any `json:"https://purl.imsglobal.org/spec/lti/claim/custom"`
	AGS    *struct {
		Scope     []string `json:"scope"`
		LineItems string   `json:"lineitems"`
		LineItem  string   `json:"lineitem"`
	} `json:"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"`
	DeepLinking  *deepLinkingClaim `json:"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"`
	NRPS         *nrpsClaim        `json:"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"`
	Presentation struct {
		ReturnURL string `json:"return_url"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/launch_presentation"`
}

// Launch validates the id_token and state a platform posted, the browser
// being the value of the launch cookie Login bound the state to: a
// resource link launch, or a deep linking request (Launched.DeepLinking),
// which only an instructor or administrator may make and whose settings
// must name an http(s) return address and take resource links. Every
// failed check is a *Refusal; other errors are the store's.
func (t *Tool) Launch(ctx context.Context, idToken, state, browser string) (Launched, error) {
	fixLogin := "Check that the LMS sends learn's login initiation address " + t.public.JoinPath(LoginPath).String() + " first and posts back to " + t.RedirectURI() + "."
	if state == "" || idToken == "" {
		return Launched{}, refuse("state", "The launch lacks its id_token or state.", fixLogin, nil)
	}
	now := t.now()
	st, err := t.store.TakeState(ctx, hash(state), now)
	if errors.Is(err, ErrNotFound) {
		return Launched{}, refuse("state", "The launch's state is unknown, used already or expired.",
			"Start the launch again from the LMS. "+fixLogin, err)
	}
	if err != nil {
		return Launched{}, fmt.Errorf("lti: launch: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(st.BrowserHash), []byte(hash(browser))) != 1 {
		return Launched{}, refuse("browser", "The launch did not come back to the browser that began it (its launch cookie is missing or another).",
			"Start the launch again from the LMS in this browser; if the LMS embeds learn in a frame, let it open learn in a new window instead.", nil)
	}
	p, err := t.store.FindPlatformByID(ctx, st.PlatformID)
	if err != nil {
		return Launched{}, fmt.Errorf("lti: launch: %w", err)
	}
	tok, err := jwt.ParseSigned(idToken, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return Launched{}, refuse("alg", "The id_token is not a JWT signed with RS256.",
			"Have the LMS sign id_tokens with RS256 (LTI 1.3 allows no other algorithm for launches).", err)
	}
	kid := ""
	if len(tok.Headers) == 1 {
		kid = tok.Headers[0].KeyID
	}
	pub, err := t.keys.Key(ctx, p.JWKSURL, kid)
	if errors.Is(err, errUnknownKID) {
		return Launched{}, refuse("kid", fmt.Sprintf("The platform's key set at %s has no RSA key %q, the key that signed the id_token.", p.JWKSURL, kid),
			"Check the key set address registered with learn (\"learn lti list\").", err)
	}
	if err != nil {
		return Launched{}, refuse("jwks", fmt.Sprintf("learn could not read the platform's key set at %s.", p.JWKSURL),
			"Check the key set address registered with learn and that learn's server can reach it.", err)
	}
	var std jwt.Claims
	var c launchClaims
	if err := tok.Claims(pub, &std, &c); err != nil {
		return Launched{}, refuse("signature", "The id_token's signature does not verify with the platform's key.",
			"Check that the key set address registered with learn is the LMS's own.", err)
	}
	if std.Issuer != p.Issuer {
		return Launched{}, refuse("iss", fmt.Sprintf("The id_token's issuer %q is not the registered %q.", std.Issuer, p.Issuer),
			"Register the issuer exactly as the LMS sends it.", nil)
	}
	if !slices.Contains([]string(std.Audience), p.ClientID) {
		return Launched{}, refuse("aud", fmt.Sprintf("The id_token is not for learn's client id %q.", p.ClientID),
			"Register the client id the LMS assigned to learn.", nil)
	}
	if (len(std.Audience) > 1 || c.AZP != "") && c.AZP != p.ClientID {
		return Launched{}, refuse("azp", fmt.Sprintf("The id_token's authorised party is not learn's client id %q.", p.ClientID),
			"Register the client id the LMS assigned to learn.", nil)
	}
	if std.Expiry == nil || now.After(std.Expiry.Time().Add(Leeway)) {
		return Launched{}, refuse("exp", "The id_token has expired (or has no expiry).",
			"Check the LMS server's clock, then launch again.", nil)
	}
	if std.IssuedAt == nil || std.IssuedAt.Time().After(now.Add(Leeway)) {
		return Launched{}, refuse("iat", "The id_token says it was issued in the future (or not when).",
			"Check the LMS server's clock, then launch again.", nil)
	}
	if c.Nonce == "" || subtle.ConstantTimeCompare([]byte(c.Nonce), []byte(st.Nonce)) != 1 {
		return Launched{}, refuse("nonce", "The id_token's nonce is not the one learn sent for this launch.",
			"Start the launch again from the LMS; the LMS must copy the nonce of learn's authorisation request.", nil)
	}
	if err := t.store.UseNonce(ctx, p.Issuer, c.Nonce, std.Expiry.Time().Add(Leeway), now); errors.Is(err, ErrReplayed) {
		return Launched{}, refuse("nonce", "The id_token's nonce was used already: this launch is a replay.",
			"Start the launch again from the LMS.", err)
	} else if err != nil {
		return Launched{}, fmt.Errorf("lti: launch: %w", err)
	}
	if !p.HasDeployment(c.DeploymentID) {
		return Launched{}, deploymentRefusal(p, c.DeploymentID)
	}
	if c.MessageType != MessageResourceLink && c.MessageType != MessageDeepLinking {
		return Launched{}, refuse("message_type", fmt.Sprintf("learn takes resource link launches (%s) and deep linking requests (%s), not %q.",
			MessageResourceLink, MessageDeepLinking, c.MessageType),
			"Add learn to the LMS as a resource link (an external tool activity), or add its lessons through deep linking (content selection).", nil)
	}
	if c.Version != Version {
		return Launched{}, refuse("version", fmt.Sprintf("learn takes LTI %s launches, not %q.", Version, c.Version),
			"Register learn in the LMS as an LTI 1.3 tool.", nil)
	}
	if !t.sameOrigin(c.TargetLinkURI) {
		return Launched{}, targetRefusal(t)
	}
	if c.MessageType == MessageResourceLink && c.ResourceLink.ID == "" {
		return Launched{}, refuse("resource_link", "The launch names no resource link.", "Launch learn from an activity (a resource link) of the LMS.", nil)
	}
	if std.Subject == "" {
		return Launched{}, refuse("sub", "The launch names no user (an anonymous launch).",
			"Let the LMS share the user's id with learn (the privacy settings of the tool).", nil)
	}
	l := Launched{Platform: p, MessageType: c.MessageType, Subject: std.Subject, Name: c.Name, Email: c.Email, Roles: c.Roles, DeploymentID: c.DeploymentID,
		ContextID: c.Context.ID, ContextTitle: c.Context.Title, ResourceLinkID: c.ResourceLink.ID, ResourceLinkTitle: c.ResourceLink.Title,
		TargetLinkURI: c.TargetLinkURI, Custom: map[string]string{}, ReturnURL: c.Presentation.ReturnURL}
	if l.ContextTitle == "" {
		l.ContextTitle = c.Context.Label
	}
	for k, v := range c.Custom {
		if s, ok := v.(string); ok {
			l.Custom[k] = s
		}
	}
	if c.AGS != nil {
		l.AGS = agsEndpoint(c.AGS.Scope, c.AGS.LineItems, c.AGS.LineItem)
	}
	l.NRPS = nrpsEndpoint(c.NRPS)
	if c.MessageType == MessageDeepLinking {
		dl, err := t.deepLinking(c.DeepLinking, c.Roles, p.ID, c.DeploymentID, now)
		if err != nil {
			return Launched{}, err
		}
		l.DeepLinking = &dl
	}
	return l, nil
}

// random returns 256 random bits, URL-safe.
func random() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("lti: random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// NewBrowserValue returns a fresh value for a browser's launch cookie.
func NewBrowserValue() (string, error) { return random() }

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
