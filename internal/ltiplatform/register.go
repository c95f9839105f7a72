package ltiplatform

// LTI Dynamic Registration 1.0 on the platform's side, written from the
// specification: the platform's OpenID configuration (section 3.4, with
// OpenID Connect Discovery 1.0) at /.well-known/openid-configuration, and
// a registration endpoint at /register (section 3.5) that takes a tool's
// registration with a registration token the platform issued, checks it
// and answers a fresh client id and a deployment id. After a
// registration the platform's ClientID and DeploymentID are the new ones,
// so its launches go to the registered tool.

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

const (
	platformConfigClaim = "https://purl.imsglobal.org/spec/lti-platform-configuration"
	toolConfigClaim     = "https://purl.imsglobal.org/spec/lti-tool-configuration"
	// ProductFamily is the platform's product_family_code.
	ProductFamily = "ltiplatform-test"
)

// scopesKnown are the scopes the platform grants a tool.
var scopesKnown = []string{
	ScopeLineItem, ScopeResultReadOnly, ScopeScore,
	"https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
	"https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
}

// Registration is a tool registration the platform took: the tool's
// request as sent, and the client and deployment ids it was given.
type Registration struct {
	Request                map[string]any
	ClientID, DeploymentID string
}

// regState is what the registration side keeps.
type regState struct {
	// tokens are the registration tokens issued and not yet used.
	tokens map[string]bool
	// change, when set, edits the OpenID configuration before it is sent.
	change        func(map[string]any)
	registrations []Registration
	refused       []string
	// noDeployment leaves deployment_id out of the answer.
	noDeployment bool
}

// AnswerWithoutDeployment makes the registration endpoint answer without
// a deployment_id, as an LMS that deploys a registered tool later does
// (the answer's deployment_id is optional, section 3.6); the platform's
// launches still come from the deployment it made.
func (p *Platform) AnswerWithoutDeployment() {
	p.mu.Lock()
	p.reg.noDeployment = true
	p.mu.Unlock()
}

// ConfigURL is the address of the platform's OpenID configuration.
func (p *Platform) ConfigURL() string { return p.server.URL + "/.well-known/openid-configuration" }

// RegistrationURL returns the registration initiation address of learn's
// invite address inviteURL: with the platform's openid_configuration and a
// fresh registration_token appended (section 3.3), as an LMS opens it.
func (p *Platform) RegistrationURL(inviteURL string) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		p.t.Fatal(err)
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	p.mu.Lock()
	if p.reg.tokens == nil {
		p.reg.tokens = map[string]bool{}
	}
	p.reg.tokens[token] = true
	p.mu.Unlock()
	q := url.Values{}
	q.Set("openid_configuration", p.ConfigURL())
	q.Set("registration_token", token)
	sep := "?"
	if strings.Contains(inviteURL, "?") {
		sep = "&"
	}
	return inviteURL + sep + q.Encode()
}

// ChangeConfig has change edit the OpenID configuration before it is
// sent, for the negative tests; nil sends it unchanged.
func (p *Platform) ChangeConfig(change func(config map[string]any)) {
	p.mu.Lock()
	p.reg.change = change
	p.mu.Unlock()
}

// Registrations returns the registrations the platform took.
func (p *Platform) Registrations() []Registration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reg.registrations)
}

// RefusedRegistrations returns why the platform refused registrations.
func (p *Platform) RefusedRegistrations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reg.refused)
}

// openIDConfig serves the platform's OpenID configuration.
func (p *Platform) openIDConfig(w http.ResponseWriter, _ *http.Request) {
	c := map[string]any{
		"issuer":                                p.Issuer(),
		"authorization_endpoint":                p.AuthURL(),
		"token_endpoint":                        p.TokenURL(),
		"token_endpoint_auth_methods_supported": []string{"private_key_jwt"},
		"token_endpoint_auth_signing_alg_values_supported": []string{"RS256"},
		"jwks_uri":                              p.JWKSURL(),
		"registration_endpoint":                 p.server.URL + "/register",
		"scopes_supported":                      append([]string{"openid"}, scopesKnown...),
		"response_types_supported":              []string{"id_token"},
		"subject_types_supported":               []string{"public", "pairwise"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"claims_supported":                      []string{"iss", "sub", "aud", "name", "email"},
		platformConfigClaim: map[string]any{
			"product_family_code": ProductFamily,
			"version":             "1.0",
			"messages_supported":  []map[string]any{{"type": "LtiResourceLinkRequest"}, {"type": "LtiDeepLinkingRequest"}},
		},
	}
	p.mu.Lock()
	change := p.reg.change
	p.mu.Unlock()
	if change != nil {
		change(c)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(c)
}

// register is the registration endpoint: it takes a tool's registration
// with a registration token it issued (spent by a registration it takes)
// and answers the registration with the client id and deployment id.
func (p *Platform) register(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	p.mu.Lock()
	known := ok && p.reg.tokens[token]
	p.mu.Unlock()
	if !known {
		p.refuseRegistration(w, http.StatusUnauthorized, "no registration token the platform issued")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	var req map[string]any
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		p.refuseRegistration(w, http.StatusBadRequest, "the registration is not a JSON object: "+err.Error())
		return
	}
	if problem := registrationProblem(req); problem != "" {
		p.refuseRegistration(w, http.StatusBadRequest, problem)
		return
	}
	p.mu.Lock()
	p.next++
	clientID := "registered-client-" + strconv.Itoa(p.next)
	deploymentID := "registered-deployment-" + strconv.Itoa(p.next)
	delete(p.reg.tokens, token)
	p.ClientID, p.DeploymentID = clientID, deploymentID
	p.reg.registrations = append(p.reg.registrations, Registration{Request: req, ClientID: clientID, DeploymentID: deploymentID})
	noDeployment := p.reg.noDeployment
	p.mu.Unlock()
	answer := map[string]any{}
	for k, v := range req {
		answer[k] = v
	}
	answer["client_id"] = clientID
	tool, _ := req[toolConfigClaim].(map[string]any)
	toolAnswer := map[string]any{"deployment_id": deploymentID}
	for k, v := range tool {
		toolAnswer[k] = v
	}
	if noDeployment {
		delete(toolAnswer, "deployment_id")
	}
	answer[toolConfigClaim] = toolAnswer
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(answer)
}

func (p *Platform) refuseRegistration(w http.ResponseWriter, status int, problem string) {
	p.mu.Lock()
	p.reg.refused = append(p.reg.refused, problem)
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client_metadata", "error_description": problem})
}

// registrationProblem checks a tool's registration request (section
// 3.5.2): "" when the platform takes it.
func registrationProblem(req map[string]any) string {
	str := func(k string) string { s, _ := req[k].(string); return s }
	list := func(k string) []string {
		var out []string
		items, _ := req[k].([]any)
		for _, it := range items {
			if s, ok := it.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	switch {
	case str("application_type") != "web":
		return "application_type must be web"
	case !slices.Contains(list("response_types"), "id_token"):
		return "response_types must hold id_token"
	case !slices.Contains(list("grant_types"), "implicit") || !slices.Contains(list("grant_types"), "client_credentials"):
		return "grant_types must hold implicit and client_credentials"
	case str("token_endpoint_auth_method") != "private_key_jwt":
		return "token_endpoint_auth_method must be private_key_jwt"
	case str("client_name") == "":
		return "client_name is required"
	case len(list("redirect_uris")) == 0:
		return "redirect_uris must hold at least one address"
	}
	for _, u := range append([]string{str("initiate_login_uri"), str("jwks_uri")}, list("redirect_uris")...) {
		if problem := addressProblem(u); problem != "" {
			return problem
		}
	}
	for _, s := range strings.Fields(str("scope")) {
		if !slices.Contains(scopesKnown, s) {
			return fmt.Sprintf("the scope %q is not one the platform grants", s)
		}
	}
	tool, ok := req[toolConfigClaim].(map[string]any)
	if !ok {
		return "the " + toolConfigClaim + " object is required"
	}
	domain, _ := tool["domain"].(string)
	target, _ := tool["target_link_uri"].(string)
	if domain == "" {
		return "the tool configuration's domain is required"
	}
	if problem := addressProblem(target); problem != "" {
		return "the tool configuration's target_link_uri: " + problem
	}
	if u, _ := url.Parse(target); u.Host != domain {
		return fmt.Sprintf("the target_link_uri %s is not on the tool's domain %s", target, domain)
	}
	messages, _ := tool["messages"].([]any)
	for _, m := range messages {
		msg, _ := m.(map[string]any)
		if typ, _ := msg["type"].(string); typ != "LtiResourceLinkRequest" && typ != "LtiDeepLinkingRequest" {
			return fmt.Sprintf("the message type %q is not one the platform sends", typ)
		}
	}
	return ""
}

// addressProblem says why raw is not an https address (http on
// localhost), or "".
func addressProblem(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("%q is not an absolute address", raw)
	}
	local := u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1" || u.Hostname() == "::1"
	if u.Scheme != "https" && !(u.Scheme == "http" && local) {
		return fmt.Sprintf("%q is not https", raw)
	}
	return ""
}
