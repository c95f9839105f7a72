package ltiplatform

// Deep Linking 2.0 on the platform's side: the deep linking request's
// settings claim (section 4.4.1) and the return endpoint that takes the
// tool's response (section 4.5), verified against the tool's key set as
// section 4.5.1 and Security Framework 5.2 say.

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

const dlClaim = "https://purl.imsglobal.org/spec/lti-dl/claim/"

// DeepLinking makes a launch a deep linking request (message type
// LtiDeepLinkingRequest) with these settings.
type DeepLinking struct {
	// AcceptTypes are the content item types the platform takes; nil
	// means ltiResourceLink alone.
	AcceptTypes    []string
	AcceptMultiple bool
	// Data is the opaque data claim the tool must echo; "" sends none.
	Data string
}

// ContentItem is a content item the platform received (Deep Linking
// 2.0, section 3), of type ltiResourceLink.
type ContentItem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Text     string            `json:"text"`
	URL      string            `json:"url"`
	Custom   map[string]string `json:"custom"`
	LineItem *LineItem         `json:"lineItem"`
}

// LineItem is a content item's line item: the gradebook column the
// platform makes for the link.
type LineItem struct {
	Label        string  `json:"label"`
	ScoreMaximum float64 `json:"scoreMaximum"`
	ResourceID   string  `json:"resourceId"`
	Tag          string  `json:"tag"`
}

// DeepLinkReturn is a deep linking response the return endpoint took:
// the request it answers (by its lti_message_hint), the data echoed and
// the items.
type DeepLinkReturn struct {
	Request string
	// Data is the data claim of the response, "" for none.
	Data  string
	Items []ContentItem
}

type dlState struct {
	returns []DeepLinkReturn
	refused []string
	nonces  map[string]bool
}

// DeepLinkReturns returns the responses the return endpoint took, in the
// order they came.
func (p *Platform) DeepLinkReturns() []DeepLinkReturn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.dl.returns)
}

// RefusedDeepLinks says why the return endpoint refused responses.
func (p *Platform) RefusedDeepLinks() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.dl.refused)
}

// DeepLinkReturnURL is the deep_link_return_url of the request hint.
func (p *Platform) DeepLinkReturnURL(hint string) string {
	return p.server.URL + "/deep-linking/return?request=" + hint
}

// deepLinkingClaims puts the claims of a deep linking request into c
// (Deep Linking 2.0, section 4.4): its message type, its settings, and
// no resource link.
func (p *Platform) deepLinkingClaims(c map[string]any, l Launch) {
	types := l.DeepLinking.AcceptTypes
	if types == nil {
		types = []string{"ltiResourceLink"}
	}
	settings := map[string]any{
		"deep_link_return_url":                 p.DeepLinkReturnURL(l.hint),
		"accept_types":                         types,
		"accept_presentation_document_targets": []string{"iframe", "window"},
		"accept_multiple":                      l.DeepLinking.AcceptMultiple,
		"auto_create":                          true,
		"title":                                "Learn lessons",
	}
	if l.DeepLinking.Data != "" {
		settings["data"] = l.DeepLinking.Data
	}
	c[claim+"message_type"] = "LtiDeepLinkingRequest"
	c[dlClaim+"deep_linking_settings"] = settings
	delete(c, claim+"resource_link")
	delete(c, agsClaim)
}

// dlResponse is the deep linking response's claims the platform checks.
type dlResponse struct {
	Nonce        string          `json:"nonce"`
	MessageType  string          `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version      string          `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID string          `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	Data         *string         `json:"https://purl.imsglobal.org/spec/lti-dl/claim/data"`
	Items        json.RawMessage `json:"https://purl.imsglobal.org/spec/lti-dl/claim/content_items"`
}

// deepLinkReturn is the return endpoint: it takes the form post of the
// tool's response JWT, verifies it and records its items.
func (p *Platform) deepLinkReturn(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.refuseDeepLink(w, err.Error())
		return
	}
	hint := r.URL.Query().Get("request")
	p.mu.Lock()
	l, ok := p.launches[hint]
	p.mu.Unlock()
	if !ok || l.DeepLinking == nil {
		p.refuseDeepLink(w, "the return address names no deep linking request of this platform")
		return
	}
	ret, why := p.checkDeepLinkResponse(r, r.PostForm.Get("JWT"), l)
	if why != "" {
		p.refuseDeepLink(w, why)
		return
	}
	ret.Request = hint
	p.mu.Lock()
	p.dl.returns = append(p.dl.returns, ret)
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = added.Execute(w, ret)
}

var added = template.Must(template.New("added").Parse(`<!doctype html>
<html><body><h1>Added {{len .Items}} item(s) to the course</h1>
<ul>{{range .Items}}<li data-testid="added">{{.Title}}</li>{{end}}</ul></body></html>`))

func (p *Platform) refuseDeepLink(w http.ResponseWriter, why string) {
	p.mu.Lock()
	p.dl.refused = append(p.dl.refused, why)
	p.mu.Unlock()
	http.Error(w, "deep linking response refused: "+why, http.StatusBadRequest)
}

// checkDeepLinkResponse verifies a response to the request of l and says
// what is wrong with it, or "".
func (p *Platform) checkDeepLinkResponse(r *http.Request, raw string, l Launch) (DeepLinkReturn, string) {
	if raw == "" {
		return DeepLinkReturn{}, "the post has no JWT field"
	}
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return DeepLinkReturn{}, "the response is not an RS256 JWT: " + err.Error()
	}
	if len(tok.Headers) != 1 || tok.Headers[0].KeyID == "" {
		return DeepLinkReturn{}, "the response names no kid"
	}
	pub, why := p.toolKey(r, tok.Headers[0].KeyID)
	if pub == nil {
		return DeepLinkReturn{}, why
	}
	var std jwt.Claims
	var c dlResponse
	if err := tok.Claims(pub, &std, &c); err != nil {
		return DeepLinkReturn{}, "the response's signature does not verify: " + err.Error()
	}
	now := time.Now()
	switch {
	case std.Issuer != p.ClientID:
		return DeepLinkReturn{}, fmt.Sprintf("iss %q is not the client id %q", std.Issuer, p.ClientID)
	case !slices.Contains([]string(std.Audience), p.Issuer()):
		return DeepLinkReturn{}, fmt.Sprintf("aud %v does not hold the platform's issuer %s", std.Audience, p.Issuer())
	case std.Expiry == nil || !now.Before(std.Expiry.Time()):
		return DeepLinkReturn{}, "the response has expired (or has no exp)"
	case std.IssuedAt == nil || std.IssuedAt.Time().After(now.Add(time.Minute)):
		return DeepLinkReturn{}, "iat is missing or in the future"
	case c.Nonce == "":
		return DeepLinkReturn{}, "the response has no nonce"
	case c.MessageType != "LtiDeepLinkingResponse":
		return DeepLinkReturn{}, fmt.Sprintf("message_type is %q, not LtiDeepLinkingResponse", c.MessageType)
	case c.Version != "1.3.0":
		return DeepLinkReturn{}, fmt.Sprintf("version is %q, not 1.3.0", c.Version)
	case c.DeploymentID != p.DeploymentID:
		return DeepLinkReturn{}, fmt.Sprintf("deployment_id is %q, not %q", c.DeploymentID, p.DeploymentID)
	}
	sent := l.DeepLinking.Data
	switch {
	case sent != "" && (c.Data == nil || *c.Data != sent):
		return DeepLinkReturn{}, "the request's data is not echoed exactly"
	case sent == "" && c.Data != nil:
		return DeepLinkReturn{}, "the response holds data the request did not send"
	}
	var items []ContentItem
	if len(c.Items) > 0 {
		if err := json.Unmarshal(c.Items, &items); err != nil {
			return DeepLinkReturn{}, "content_items is not an array of content items: " + err.Error()
		}
	}
	if len(items) > 1 && !l.DeepLinking.AcceptMultiple {
		return DeepLinkReturn{}, "several content items to a request that takes one"
	}
	for _, it := range items {
		switch {
		case it.Type != "ltiResourceLink":
			return DeepLinkReturn{}, fmt.Sprintf("a content item of type %q, which the request did not accept", it.Type)
		case it.LineItem != nil && (it.LineItem.ScoreMaximum <= 0 || it.LineItem.Label == ""):
			return DeepLinkReturn{}, "a line item needs a label and a positive scoreMaximum"
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dl.nonces[c.Nonce] {
		return DeepLinkReturn{}, "the response's nonce was used before"
	}
	p.dl.nonces[c.Nonce] = true
	ret := DeepLinkReturn{Items: items}
	if c.Data != nil {
		ret.Data = *c.Data
	}
	return ret, ""
}
