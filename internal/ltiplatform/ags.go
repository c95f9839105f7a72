package ltiplatform

// Assignment and Grade Services 2.0 on the platform's side: the token
// endpoint of Security Framework 1.0, section 4.1 (OAuth 2
// client-credentials with a JWT client assertion, RFC 7523), and the score
// service of AGS 2.0, section 3.4.

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// The AGS claim and scopes (AGS 2.0, sections 3.1 and 3.2).
const (
	agsClaim            = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
	ScopeLineItem       = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	ScopeResultReadOnly = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
	ScopeScore          = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	scoreMediaType      = "application/vnd.ims.lis.v1.score+json"
	jwtBearer           = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
)

// TokenLifetime is the expires_in of the access tokens the platform
// issues, unless SetTokenLifetime changes it.
const TokenLifetime = time.Hour

// SetTokenLifetime changes the expires_in of the tokens issued next.
func (p *Platform) SetTokenLifetime(d time.Duration) {
	p.ags.mu.Lock()
	p.ags.lifetime = d
	p.ags.mu.Unlock()
}

// Score is a score the platform received (AGS 2.0, section 3.4.1).
type Score struct {
	UserID           string    `json:"userId"`
	ScoreGiven       *float64  `json:"scoreGiven"`
	ScoreMaximum     *float64  `json:"scoreMaximum"`
	ActivityProgress string    `json:"activityProgress"`
	GradingProgress  string    `json:"gradingProgress"`
	Timestamp        time.Time `json:"timestamp"`
	// LineItem is the id of the line item it was posted to (not part of
	// the posted body).
	LineItem string `json:"-"`
}

// Result is the platform's result of a user in a line item: the score
// with the newest timestamp it received, as a gradebook keeps it.
type Result struct {
	Score
	// Posts counts the scores received for the user and line item,
	// Ignored those older than the result they came after.
	Posts, Ignored int
}

type resultKey struct{ lineItem, user string }

type agsState struct {
	mu sync.Mutex
	// toolKeys is where the tool's key set is fetched, or the set itself.
	toolKeysURL string
	toolKeys    *jose.JSONWebKeySet
	toolClient  *http.Client
	tokens      map[string][]string // access token -> scopes
	jtis        map[string]bool
	issued      int
	refused     []string // why assertions were refused
	status      int      // the scores endpoint's forced answer; 0 for none
	lifetime    time.Duration
	failed      int // posts answered with the forced status
	results     map[resultKey]*Result
	received    []Score
}

func newAGSState() agsState {
	return agsState{lifetime: TokenLifetime, tokens: map[string][]string{}, jtis: map[string]bool{}, results: map[resultKey]*Result{}}
}

// LineItemURL is the address of the line item of a resource link.
func (p *Platform) LineItemURL(resourceLinkID string) string {
	return p.server.URL + "/lineitems/" + url.PathEscape(resourceLinkID) + "?course=1"
}

// TrustToolKeySet has the token endpoint verify client assertions with
// the key set fetched from address (the tool's published set) by client
// (nil: http.DefaultClient), fetched at each assertion.
func (p *Platform) TrustToolKeySet(address string, client *http.Client) {
	if client == nil {
		client = http.DefaultClient
	}
	p.ags.mu.Lock()
	p.ags.toolKeysURL, p.ags.toolClient, p.ags.toolKeys = address, client, nil
	p.ags.mu.Unlock()
}

// TrustToolKeys has the token endpoint verify client assertions with set.
func (p *Platform) TrustToolKeys(set jose.JSONWebKeySet) {
	p.ags.mu.Lock()
	p.ags.toolKeys, p.ags.toolKeysURL = &set, ""
	p.ags.mu.Unlock()
}

// FailScores makes the score endpoints answer status (such as 503) to
// every post, recording nothing; 0 makes them work again.
func (p *Platform) FailScores(status int) {
	p.ags.mu.Lock()
	p.ags.status = status
	p.ags.mu.Unlock()
}

// Results returns the platform's results, one per line item and user.
func (p *Platform) Results() []Result {
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	var out []Result
	for _, r := range p.ags.results {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Result) int {
		return strings.Compare(a.LineItem+"\x00"+a.UserID, b.LineItem+"\x00"+b.UserID)
	})
	return out
}

// Received returns every score accepted, in the order they came.
func (p *Platform) Received() []Score {
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	return slices.Clone(p.ags.received)
}

// FailedPosts counts the scores answered with FailScores' status.
func (p *Platform) FailedPosts() int {
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	return p.ags.failed
}

// TokensIssued counts the access tokens the token endpoint issued.
func (p *Platform) TokensIssued() int {
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	return p.ags.issued
}

// RefusedAssertions says why the token endpoint refused assertions.
func (p *Platform) RefusedAssertions() []string {
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	return slices.Clone(p.ags.refused)
}

// oauthError answers an OAuth 2 error (RFC 6749, section 5.2).
func (p *Platform) oauthError(w http.ResponseWriter, status int, code, why string) {
	p.ags.mu.Lock()
	p.ags.refused = append(p.ags.refused, why)
	p.ags.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": why})
}

// token is the OAuth 2 token endpoint: a client-credentials grant
// authenticated by a JWT signed with one of the tool's keys.
func (p *Platform) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	if f.Get("grant_type") != "client_credentials" {
		p.oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type is "+f.Get("grant_type"))
		return
	}
	if f.Get("client_assertion_type") != jwtBearer {
		p.oauthError(w, http.StatusBadRequest, "invalid_request", "client_assertion_type is "+f.Get("client_assertion_type"))
		return
	}
	if why := p.checkAssertion(r, f.Get("client_assertion")); why != "" {
		p.oauthError(w, http.StatusUnauthorized, "invalid_client", why)
		return
	}
	scopes := strings.Fields(f.Get("scope"))
	if len(scopes) == 0 {
		p.oauthError(w, http.StatusBadRequest, "invalid_scope", "no scope asked for")
		return
	}
	for _, s := range scopes {
		if s != ScopeScore && s != ScopeLineItem && s != ScopeResultReadOnly && s != ScopeContextMembership {
			p.oauthError(w, http.StatusBadRequest, "invalid_scope", "unknown scope "+s)
			return
		}
	}
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	p.ags.mu.Lock()
	p.ags.tokens[tok] = scopes
	p.ags.issued++
	life := p.ags.lifetime
	p.ags.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer",
		"expires_in": int(life.Seconds()), "scope": strings.Join(scopes, " ")})
}

// checkAssertion verifies a client assertion (RFC 7523, section 3) and
// says what is wrong with it, or "".
func (p *Platform) checkAssertion(r *http.Request, assertion string) string {
	tok, err := jwt.ParseSigned(assertion, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return "the assertion is not an RS256 JWT: " + err.Error()
	}
	if len(tok.Headers) != 1 || tok.Headers[0].KeyID == "" {
		return "the assertion names no kid"
	}
	pub, why := p.toolKey(r, tok.Headers[0].KeyID)
	if pub == nil {
		return why
	}
	var c jwt.Claims
	if err := tok.Claims(pub, &c); err != nil {
		return "the assertion's signature does not verify: " + err.Error()
	}
	now := time.Now()
	switch {
	case c.Issuer != p.ClientID || c.Subject != p.ClientID:
		return fmt.Sprintf("iss %q and sub %q must both be the client id %q", c.Issuer, c.Subject, p.ClientID)
	case !slices.Contains([]string(c.Audience), p.TokenURL()):
		return fmt.Sprintf("aud %v does not hold the token endpoint %s", c.Audience, p.TokenURL())
	case c.Expiry == nil || !now.Before(c.Expiry.Time()):
		return "the assertion has expired (or has no exp)"
	case c.Expiry.Time().Sub(now) > 10*time.Minute:
		return "the assertion lives longer than ten minutes"
	case c.IssuedAt == nil || c.IssuedAt.Time().After(now.Add(time.Minute)):
		return "iat is missing or in the future"
	case c.ID == "":
		return "the assertion has no jti"
	}
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	if p.ags.jtis[c.ID] {
		return "the assertion's jti was used before"
	}
	p.ags.jtis[c.ID] = true
	return ""
}

// toolKey returns the tool's RSA key kid, fetching its key set when one
// is trusted by address.
func (p *Platform) toolKey(r *http.Request, kid string) (*rsa.PublicKey, string) {
	p.ags.mu.Lock()
	set, address, client := p.ags.toolKeys, p.ags.toolKeysURL, p.ags.toolClient
	p.ags.mu.Unlock()
	if address != "" {
		req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, address, nil)
		if err != nil {
			return nil, err.Error()
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, "the tool's key set: " + err.Error()
		}
		defer resp.Body.Close()
		var fetched jose.JSONWebKeySet
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&fetched); err != nil || resp.StatusCode != http.StatusOK {
			return nil, fmt.Sprintf("the tool's key set at %s: %s %v", address, resp.Status, err)
		}
		set = &fetched
	}
	if set == nil {
		return nil, "the platform trusts no key set of the tool"
	}
	for _, k := range set.Key(kid) {
		if pub, ok := k.Key.(*rsa.PublicKey); ok {
			return pub, ""
		}
	}
	return nil, fmt.Sprintf("the tool's key set has no RSA key %q", kid)
}

// scores takes a score posted to a line item (AGS 2.0, section 3.4).
func (p *Platform) scores(w http.ResponseWriter, r *http.Request) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != scoreMediaType {
		http.Error(w, "the content type must be "+scoreMediaType, http.StatusUnsupportedMediaType)
		return
	}
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	p.ags.mu.Lock()
	scopes, known := p.ags.tokens[bearer]
	status := p.ags.status
	p.ags.mu.Unlock()
	if !ok || !known {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		http.Error(w, "unknown bearer token", http.StatusUnauthorized)
		return
	}
	if !slices.Contains(scopes, ScopeScore) {
		http.Error(w, "the token lacks the score scope", http.StatusForbidden)
		return
	}
	if status != 0 {
		p.ags.mu.Lock()
		p.ags.failed++
		p.ags.mu.Unlock()
		http.Error(w, "the gradebook is down for maintenance", status)
		return
	}
	var sc Score
	dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
	if err := dec.Decode(&sc); err != nil {
		http.Error(w, "the score is not JSON of a score: "+err.Error(), http.StatusBadRequest)
		return
	}
	sc.LineItem = r.PathValue("id")
	if why := checkScore(sc); why != "" {
		http.Error(w, why, http.StatusBadRequest)
		return
	}
	p.ags.mu.Lock()
	defer p.ags.mu.Unlock()
	p.ags.received = append(p.ags.received, sc)
	k := resultKey{sc.LineItem, sc.UserID}
	res := p.ags.results[k]
	switch {
	case res == nil:
		p.ags.results[k] = &Result{Score: sc, Posts: 1}
	case sc.Timestamp.Before(res.Timestamp):
		// A platform must not let an older score replace a newer one
		// (AGS 2.0, section 3.4.1: timestamp).
		res.Posts++
		res.Ignored++
	default:
		res.Score = sc
		res.Posts++
	}
	w.WriteHeader(http.StatusOK)
}

// checkScore says what is wrong with a score, or "".
func checkScore(sc Score) string {
	switch {
	case sc.UserID == "":
		return "userId is required"
	case sc.Timestamp.IsZero():
		return "timestamp is required"
	case sc.ScoreGiven != nil && (sc.ScoreMaximum == nil || *sc.ScoreMaximum <= 0 || *sc.ScoreGiven < 0):
		return "scoreGiven needs a positive scoreMaximum and must not be negative"
	case !slices.Contains([]string{"Initialized", "Started", "InProgress", "Submitted", "Completed"}, sc.ActivityProgress):
		return "activityProgress " + sc.ActivityProgress + " is not one of AGS 2.0's"
	case !slices.Contains([]string{"FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"}, sc.GradingProgress):
		return "gradingProgress " + sc.GradingProgress + " is not one of AGS 2.0's"
	}
	return ""
}
