// Package ltiplatform is a test LMS: an LTI 1.3 platform written for
// tests from the 1EdTech documents (LTI Core 1.3, sections 5 and 6, and
// Security Framework 1.0, section 5.1: third-party initiated login and the
// id_token), with go-jose, and never from learn's own package lti, so
// that the two sides of a launch are written apart.
//
// A Platform has its own RSA key and serves, over TLS (httptest), its key
// set at /jwks and its OIDC authorisation endpoint at /auth. A test asks
// it for the login initiation address of a launch (LoginURL), lets a
// browser follow learn's redirect to /auth, and gets back the page a
// browser would auto-post: a form of id_token and state to learn's
// redirect address (ReadForm reads it). What goes into the id_token, and
// how it is signed, is the launch's to change, for negative tests.
//
// For Assignment and Grade Services 2.0 (ags.go) every launch of a
// resource link carries the AGS endpoint claim with a line item of that
// link; the platform serves an OAuth 2 token endpoint at /token that takes
// a client-credentials grant with a JWT client assertion (RFC 7523,
// Security Framework 4.1), verified against the tool's key set, and line
// items' score endpoints at /lineitems/{id}/scores that record the scores
// posted with its tokens and can be told to answer 503.
//
// For Dynamic Registration 1.0 (register.go) the platform serves its
// OpenID configuration and a registration endpoint that takes a tool's
// registration with a registration token it issued; registerframe.go a
// page that opens the tool's registration in a frame and takes the tool's
// close message.
//
// For Deep Linking 2.0 (deeplink.go) a launch with DeepLinking set is a
// deep linking request with its settings claim; the platform's return
// endpoint at /deep-linking/return takes the tool's response, verifies it
// against the tool's key set (as for client assertions) and records its
// content items (DeepLinkReturns).
//
// For Names and Role Provisioning Services 2.0 (nrps.go), once
// OfferRosters is called, every launch from a course names its membership
// container at /memberships/{context}, which serves the members a test
// set (SetRoster) in pages linked by rel="next", to the tokens of the
// membership scope, and can be told to answer 503.
package ltiplatform

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/net/html"
)

// Role URIs of LIS v2 (LTI Core 1.3, appendix A.2).
const (
	Instructor = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
	Learner    = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
)

const claim = "https://purl.imsglobal.org/spec/lti/claim/"

// Signing says how a launch's id_token is signed.
type Signing int

// Ways to sign, for the negative tests.
const (
	// RS256 with the platform's key in its key set: a valid token.
	RS256 Signing = iota
	// AlgNone is an unsigned token ("alg": "none").
	AlgNone
	// HS256PublicKey signs with HMAC, the key being the platform's
	// public key (the key confusion attack).
	HS256PublicKey
	// Tampered signs validly, then changes a claim without signing again.
	Tampered
	// UnknownKey signs with a key the key set does not hold.
	UnknownKey
)

// User is an LMS user.
type User struct {
	Sub, Name string
	Roles     []string
}

// Launch is one launch, of a resource link or (with DeepLinking) a deep
// linking request: who, from which course, to where, and what a negative
// test changes.
type Launch struct {
	User User
	// ContextID and ContextTitle are the LMS course's.
	ContextID, ContextTitle string
	ResourceLinkID          string
	// Target is the target_link_uri (learn's address to open).
	Target string
	Custom map[string]string
	// Claims, when set, changes the id_token's claims last (a value nil
	// deletes the claim).
	Claims map[string]any
	Sign   Signing
	// DeepLinking, when set, makes the launch a deep linking request.
	DeepLinking *DeepLinking
	// StorageTarget, when set, offers the platform's client-side storage
	// (frame.go): the lti_storage_target of the login initiation and of
	// the launch's form post.
	StorageTarget string
	// hint is the launch's lti_message_hint.
	hint string
}

// Platform is a running test LMS.
type Platform struct {
	t      testing.TB
	server *httptest.Server
	// ClientID and DeploymentID are the client id the platform gave learn
	// and the deployment learn is registered for; a dynamic registration
	// (register.go) replaces both, so read them between requests.
	ClientID     string
	DeploymentID string

	mu       sync.Mutex
	key      *rsa.PrivateKey
	kid      string
	launches map[string]Launch // by lti_message_hint
	next     int
	// Fetches counts the requests of the key set.
	fetches int

	ags  agsState
	dl   dlState
	reg  regState
	nrps nrpsState
}

// Start runs a platform over TLS until t ends.
func Start(t testing.TB, clientID, deploymentID string) *Platform {
	t.Helper()
	return start(t, clientID, deploymentID, true)
}

// StartPlain runs a platform over plain HTTP on the loopback address
// until t ends: for a learn process that cannot be told to trust the
// test certificate (learn accepts http addresses on loopback only).
func StartPlain(t testing.TB, clientID, deploymentID string) *Platform {
	t.Helper()
	return start(t, clientID, deploymentID, false)
}

func start(t testing.TB, clientID, deploymentID string, tls bool) *Platform {
	p := &Platform{t: t, ClientID: clientID, DeploymentID: deploymentID, launches: map[string]Launch{}}
	p.ags = newAGSState()
	p.dl.nonces = map[string]bool{}
	p.RotateKey()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("GET /auth", p.auth)
	mux.HandleFunc("POST /auth", p.auth)
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("POST /lineitems/{id}/scores", p.scores)
	mux.HandleFunc("POST /deep-linking/return", p.deepLinkReturn)
	mux.HandleFunc("GET /memberships/{context}", p.memberships)
	mux.HandleFunc("GET /course", p.coursePage)
	mux.HandleFunc("GET /storage-frame", p.storageFrame)
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /.well-known/openid-configuration", p.openIDConfig)
	mux.HandleFunc("POST /register", p.register)
	mux.HandleFunc("GET /tool-registration", p.registerToolPage)
	if tls {
		p.server = httptest.NewTLSServer(mux)
	} else {
		p.server = httptest.NewServer(mux)
	}
	t.Cleanup(p.server.Close)
	return p
}

// Issuer is the platform's issuer, its https address.
func (p *Platform) Issuer() string { return p.server.URL }

// AuthURL, TokenURL and JWKSURL are the addresses learn registers.
func (p *Platform) AuthURL() string  { return p.server.URL + "/auth" }
func (p *Platform) TokenURL() string { return p.server.URL + "/token" }
func (p *Platform) JWKSURL() string  { return p.server.URL + "/jwks" }

// Client is an HTTP client that trusts the platform's (and any httptest)
// certificate.
func (p *Platform) Client() *http.Client { return p.server.Client() }

// KeySetFetches returns how often the key set was fetched.
func (p *Platform) KeySetFetches() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fetches
}

// RotateKey replaces the platform's key; the key set then holds the new
// one only.
func (p *Platform) RotateKey() {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		p.t.Fatal(err)
	}
	thumb, err := (&jose.JSONWebKey{Key: &key.PublicKey}).Thumbprint(crypto.SHA256)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.key, p.kid = key, "platform-"+base64.RawURLEncoding.EncodeToString(thumb[:8])
	p.mu.Unlock()
}

func (p *Platform) jwks(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	p.fetches++
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &p.key.PublicKey, KeyID: p.kid, Algorithm: "RS256", Use: "sig"}}}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(set)
}

// LoginURL returns the address of the third-party login initiation of l
// at learn's loginURL (Security Framework 5.1.1.1), by GET.
func (p *Platform) LoginURL(loginURL string, l Launch) string {
	p.mu.Lock()
	p.next++
	hint := "launch-" + strconv.Itoa(p.next)
	l.hint = hint
	p.launches[hint] = l
	p.mu.Unlock()
	q := url.Values{}
	q.Set("iss", p.Issuer())
	q.Set("login_hint", l.User.Sub)
	q.Set("target_link_uri", l.Target)
	q.Set("lti_message_hint", hint)
	q.Set("client_id", p.ClientID)
	q.Set("lti_deployment_id", p.DeploymentID)
	if l.StorageTarget != "" {
		q.Set("lti_storage_target", l.StorageTarget)
	}
	return loginURL + "?" + q.Encode()
}

// auth is the OIDC authorisation endpoint: it checks the authentication
// request (Security Framework 5.1.1.2) and answers with the form_post of
// the id_token (5.1.1.3).
func (p *Platform) auth(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f := r.Form
	for name, want := range map[string]string{"scope": "openid", "response_type": "id_token", "response_mode": "form_post",
		"prompt": "none", "client_id": p.ClientID} {
		if f.Get(name) != want {
			http.Error(w, fmt.Sprintf("authentication request: %s is %q, want %q", name, f.Get(name), want), http.StatusBadRequest)
			return
		}
	}
	if f.Get("state") == "" || f.Get("nonce") == "" || f.Get("redirect_uri") == "" {
		http.Error(w, "authentication request: state, nonce and redirect_uri are required", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	l, ok := p.launches[f.Get("lti_message_hint")]
	p.mu.Unlock()
	if !ok || l.User.Sub != f.Get("login_hint") {
		http.Error(w, "authentication request: unknown lti_message_hint or login_hint", http.StatusBadRequest)
		return
	}
	token := p.IDToken(l, f.Get("nonce"))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = autoPost.Execute(w, map[string]string{"Action": f.Get("redirect_uri"), "IDToken": token, "State": f.Get("state"), "Storage": l.StorageTarget})
}

var autoPost = template.Must(template.New("post").Parse(`<!doctype html>
<html><body onload="document.forms[0].submit()">
<form method="post" action="{{.Action}}">
<input type="hidden" name="id_token" value="{{.IDToken}}">
<input type="hidden" name="state" value="{{.State}}">
{{if .Storage}}<input type="hidden" name="lti_storage_target" value="{{.Storage}}">{{end}}
<noscript><button>Continue</button></noscript>
</form></body></html>`))

// Claims returns the id_token claims of l with nonce (LTI Core 5.3 and
// 5.4), before l.Claims changes them.
func (p *Platform) Claims(l Launch, nonce string) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss":                     p.Issuer(),
		"aud":                     p.ClientID,
		"sub":                     l.User.Sub,
		"exp":                     now.Add(5 * time.Minute).Unix(),
		"iat":                     now.Unix(),
		"nonce":                   nonce,
		"name":                    l.User.Name,
		claim + "message_type":    "LtiResourceLinkRequest",
		claim + "version":         "1.3.0",
		claim + "deployment_id":   p.DeploymentID,
		claim + "target_link_uri": l.Target,
		claim + "roles":           l.User.Roles,
		claim + "resource_link":   map[string]any{"id": l.ResourceLinkID},
		claim + "context":         map[string]any{"id": l.ContextID, "title": l.ContextTitle},
	}
	if len(l.Custom) > 0 {
		c[claim+"custom"] = l.Custom
	}
	if l.ResourceLinkID != "" {
		// AGS 2.0, section 3.1: the services the tool may call, with the
		// resource link's own line item.
		c[agsClaim] = map[string]any{"scope": []string{ScopeLineItem, ScopeResultReadOnly, ScopeScore},
			"lineitems": p.server.URL + "/lineitems?course=" + url.QueryEscape(l.ContextID),
			"lineitem":  p.LineItemURL(l.ResourceLinkID)}
	}
	p.nrpsClaims(c, l)
	if l.DeepLinking != nil {
		p.deepLinkingClaims(c, l)
	}
	for k, v := range l.Claims {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// IDToken returns the signed id_token of l with nonce, signed as l.Sign
// says.
func (p *Platform) IDToken(l Launch, nonce string) string {
	claims := p.Claims(l, nonce)
	p.mu.Lock()
	key, kid := p.key, p.kid
	p.mu.Unlock()
	switch l.Sign {
	case AlgNone:
		return unsigned(p.t, claims)
	case HS256PublicKey:
		der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		if err != nil {
			p.t.Fatal(err)
		}
		return sign(p.t, jose.SigningKey{Algorithm: jose.HS256, Key: der}, kid, claims)
	case UnknownKey:
		other, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			p.t.Fatal(err)
		}
		return sign(p.t, jose.SigningKey{Algorithm: jose.RS256, Key: other}, "not-in-the-set", claims)
	case Tampered:
		signed := sign(p.t, jose.SigningKey{Algorithm: jose.RS256, Key: key}, kid, claims)
		parts := strings.Split(signed, ".")
		claims["sub"] = "someone-else"
		parts[1] = encodeJSON(p.t, claims)
		return strings.Join(parts, ".")
	}
	return sign(p.t, jose.SigningKey{Algorithm: jose.RS256, Key: key}, kid, claims)
}

func sign(t testing.TB, key jose.SigningKey, kid string, claims map[string]any) string {
	signer, err := jose.NewSigner(key, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	s, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func unsigned(t testing.TB, claims map[string]any) string {
	return encodeJSON(t, map[string]any{"alg": "none", "typ": "JWT"}) + "." + encodeJSON(t, claims) + "."
}

func encodeJSON(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// ReadForm reads the auto-posting page of the authorisation endpoint: the
// form's action and its fields, as a browser would post them.
func ReadForm(r io.Reader) (action string, fields url.Values, err error) {
	doc, err := html.Parse(r)
	if err != nil {
		return "", nil, fmt.Errorf("ltiplatform: read the form: %w", err)
	}
	fields = url.Values{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attrs := map[string]string{}
			for _, a := range n.Attr {
				attrs[a.Key] = a.Val
			}
			switch n.Data {
			case "form":
				action = attrs["action"]
			case "input":
				fields.Set(attrs["name"], attrs["value"])
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if action == "" {
		return "", nil, fmt.Errorf("ltiplatform: the page has no form")
	}
	return action, fields, nil
}
