package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-jose/go-jose/v4/jwt"
)

// The messages and claims of Deep Linking 2.0 (sections 4.4 and 4.5).
const (
	MessageDeepLinking         = "LtiDeepLinkingRequest"
	MessageDeepLinkingResponse = "LtiDeepLinkingResponse"
	claimDLPrefix              = "https://purl.imsglobal.org/spec/lti-dl/claim/"
	ClaimDeepLinkingSettings   = claimDLPrefix + "deep_linking_settings"
	ClaimContentItems          = claimDLPrefix + "content_items"
	ClaimDeepLinkingData       = claimDLPrefix + "data"
	// TypeResourceLink is the content item type of an LTI resource link,
	// the only type learn answers with.
	TypeResourceLink = "ltiResourceLink"
)

// The roles that may deep link besides RoleInstructor: administrators
// of the context, the institution or the system (LIS v2).
const (
	RoleContextAdministrator     = "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator"
	RoleInstitutionAdministrator = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"
	RoleSystemAdministrator      = "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator"
)

// DeepLinkLifetime is how long a deep linking request may be answered
// after its launch: long enough to pick lessons, short enough that a
// forgotten picker is useless.
const DeepLinkLifetime = 10 * time.Minute

// DeepLinkResponseLifetime is the validity of a signed response: the
// browser posts it to the platform at once.
const DeepLinkResponseLifetime = 5 * time.Minute

// The bounds on a deep linking request's values learn keeps: the request
// waits in the instructor's browser (a cookie of at most 4 KB) while they
// pick, and real platforms send far less.
const (
	MaxDeepLinkReturnURL = 1024
	MaxDeepLinkData      = 1024
	// MaxDeepLinkText bounds the suggested title and text; longer ones
	// are cut.
	MaxDeepLinkText = 200
)

// DeepLinking is a validated deep linking request (Deep Linking 2.0,
// section 4.4): where to send the answer and what the platform takes. It
// is kept (as JSON) while the instructor picks, and answered once by
// DeepLinkResponse.
type DeepLinking struct {
	// ID is random (256 bits) and names this request; DeepLinkResponse
	// spends it, so a request is answered at most once.
	ID string `json:"id"`
	// PlatformID and DeploymentID are the platform's registration and the
	// deployment the request came from.
	PlatformID   int64  `json:"platform"`
	DeploymentID string `json:"deployment"`
	// ReturnURL is deep_link_return_url, an http(s) address of the
	// platform the response is posted to.
	ReturnURL string `json:"return"`
	// AcceptMultiple reports whether the platform takes several content
	// items in one response (false when it did not say).
	AcceptMultiple bool `json:"multiple,omitempty"`
	// AutoCreate reports whether the platform creates the links without
	// asking the instructor again.
	AutoCreate bool `json:"auto_create,omitempty"`
	// Title and Text are the platform's suggestions for a content item
	// ("" for none), cut to MaxDeepLinkText bytes.
	Title string `json:"title,omitempty"`
	Text  string `json:"text,omitempty"`
	// Data is the platform's opaque data claim as it was sent (nil when
	// none), echoed in the response.
	Data json.RawMessage `json:"data,omitempty"`
	// ExpiresAt is DeepLinkLifetime after the launch.
	ExpiresAt time.Time `json:"expires"`
}

// deepLinkingClaim is the deep_linking_settings claim as sent.
type deepLinkingClaim struct {
	ReturnURL      string          `json:"deep_link_return_url"`
	AcceptTypes    []string        `json:"accept_types"`
	AcceptMultiple *bool           `json:"accept_multiple"`
	AutoCreate     bool            `json:"auto_create"`
	Title          string          `json:"title"`
	Text           string          `json:"text"`
	Data           json.RawMessage `json:"data"`
}

// mayDeepLink reports whether roles let a user add learn's content to an
// LMS course: an instructor's or an administrator's.
func mayDeepLink(roles []string) bool {
	for _, r := range []string{RoleInstructor, RoleContextAdministrator, RoleInstitutionAdministrator, RoleSystemAdministrator} {
		if slices.Contains(roles, r) {
			return true
		}
	}
	return false
}

// deepLinking checks a deep linking request's settings claim and roles
// and returns what learn keeps of it; every failed check is a *Refusal.
func (t *Tool) deepLinking(c *deepLinkingClaim, roles []string, platformID int64, deployment string, now time.Time) (DeepLinking, error) {
	if c == nil {
		return DeepLinking{}, refuse("deep_linking_settings", "The deep linking request has no deep_linking_settings claim.",
			"Check the LMS's deep linking (content selection) support for learn; the claim is required by Deep Linking 2.0.", nil)
	}
	if bad := CheckURL("deep link return address", c.ReturnURL); bad != nil || len(c.ReturnURL) > MaxDeepLinkReturnURL {
		return DeepLinking{}, refuse("deep_link_return_url",
			fmt.Sprintf("The deep linking request's return address is missing, longer than %d bytes or not an absolute https address.", MaxDeepLinkReturnURL),
			"Check the LMS's deep linking return address: it must be https (http only on localhost).", bad)
	}
	if !slices.Contains(c.AcceptTypes, TypeResourceLink) {
		return DeepLinking{}, refuse("accept_types", fmt.Sprintf("The LMS does not take %s content items here, the only kind learn makes.", TypeResourceLink),
			"Add learn's lessons where the LMS takes external tool links (LTI resource links), such as an activity of a course.", nil)
	}
	if !mayDeepLink(roles) {
		return DeepLinking{}, refuse("roles", "Only an instructor or administrator of the LMS course may add learn's lessons to it.",
			"Sign in to the LMS as an instructor of the course and add learn's lessons again.", nil)
	}
	data := c.Data
	if string(data) == "null" {
		data = nil
	}
	if len(data) > MaxDeepLinkData {
		return DeepLinking{}, refuse("data", fmt.Sprintf("The deep linking request's data is longer than %d bytes, more than learn keeps.", MaxDeepLinkData),
			"Tell the LMS's administrator; learn keeps the data while the instructor picks lessons.", nil)
	}
	id, err := random()
	if err != nil {
		return DeepLinking{}, err
	}
	return DeepLinking{ID: id, PlatformID: platformID, DeploymentID: deployment, ReturnURL: c.ReturnURL,
		AcceptMultiple: c.AcceptMultiple != nil && *c.AcceptMultiple, AutoCreate: c.AutoCreate,
		Title: cut(c.Title, MaxDeepLinkText), Text: cut(c.Text, MaxDeepLinkText), Data: slices.Clone(data),
		ExpiresAt: now.Add(DeepLinkLifetime)}, nil
}

// cut shortens s to at most n bytes of valid UTF-8.
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// ResourceLink is a content item of type ltiResourceLink (Deep Linking
// 2.0, section 3.1): a link the platform adds to its course, launching
// learn.
type ResourceLink struct {
	// Title is shown in the LMS; Text describes the link ("" for none).
	Title, Text string
	// URL is the link's target; a path (such as /lessons/x) is taken on
	// learn's public URL, and an absolute address must be on it.
	URL string
	// Custom are the custom parameters the platform sends back on each
	// launch of the link.
	Custom map[string]string
	// LineItem, when set, asks the platform to make a gradebook column
	// for the link.
	LineItem *LineItem
}

// LineItem is a content item's lineItem (Deep Linking 2.0, section
// 3.1; AGS 2.0's line item): the column the platform makes.
type LineItem struct {
	Label string `json:"label"`
	// ScoreMaximum must be positive.
	ScoreMaximum float64 `json:"scoreMaximum"`
	ResourceID   string  `json:"resourceId,omitempty"`
	Tag          string  `json:"tag,omitempty"`
}

// contentItem is a resource link as the response holds it.
type contentItem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title,omitempty"`
	Text     string            `json:"text,omitempty"`
	URL      string            `json:"url"`
	Custom   map[string]string `json:"custom,omitempty"`
	LineItem *LineItem         `json:"lineItem,omitempty"`
}

// DeepLinkResponse answers the deep linking request req with links: it
// spends req.ID (in the Store, so that a request is answered once on
// every server sharing the database) and returns the response JWT
// (Deep Linking 2.0, section 4.5), signed RS256 with learn's signing key
// under its key id: iss learn's client id, aud the platform's issuer,
// expiring DeepLinkResponseLifetime after now, a fresh nonce, the
// request's deployment id and its data echoed as sent.
//
// Errors: a *Refusal for a request expired or answered already, or whose
// platform or deployment is no longer registered; ErrNoKey (wrapped)
// without a signing key; a plain error for links learn must not send
// (several to a platform that takes one, a target off learn's origin, a
// line item without a positive maximum); others are the store's.
func (t *Tool) DeepLinkResponse(ctx context.Context, req DeepLinking, links []ResourceLink) (string, error) {
	now := t.now()
	again := "Add learn's lessons again from the LMS."
	if req.ID == "" || !now.Before(req.ExpiresAt) {
		return "", refuse("deep_link_expired", fmt.Sprintf("The lessons were picked more than %s after the LMS opened learn's picker.", DeepLinkLifetime), again, nil)
	}
	if len(links) > 1 && !req.AcceptMultiple {
		return "", errors.New("lti: deep link response: the platform takes one content item, not several")
	}
	items := make([]contentItem, 0, len(links))
	for _, l := range links {
		u, err := t.public.Parse(l.URL)
		if err != nil || !t.sameOrigin(u.String()) {
			return "", fmt.Errorf("lti: deep link response: the link %q is not an address of learn", l.URL)
		}
		if l.LineItem != nil && !(l.LineItem.ScoreMaximum > 0) {
			return "", fmt.Errorf("lti: deep link response: the line item of %q has no positive maximum", l.URL)
		}
		items = append(items, contentItem{Type: TypeResourceLink, Title: l.Title, Text: l.Text, URL: u.String(), Custom: l.Custom, LineItem: l.LineItem})
	}
	p, err := t.store.FindPlatformByID(ctx, req.PlatformID)
	if errors.Is(err, ErrNotFound) {
		return "", refuse("iss", "The LMS that asked for learn's lessons is no longer registered with learn.",
			"Register the LMS again with \"learn lti add\", then add the lessons again.", err)
	}
	if err != nil {
		return "", fmt.Errorf("lti: deep link response: %w", err)
	}
	if !p.HasDeployment(req.DeploymentID) {
		return "", deploymentRefusal(p, req.DeploymentID)
	}
	if err := t.store.UseNonce(ctx, p.Issuer, "deep-link:"+req.ID, req.ExpiresAt.Add(Leeway), now); errors.Is(err, ErrReplayed) {
		return "", refuse("deep_link_used", "These lessons were sent to the LMS already: a picker answers once.", again, err)
	} else if err != nil {
		return "", fmt.Errorf("lti: deep link response: %w", err)
	}
	keys, err := t.store.SigningKeys(ctx)
	if err != nil {
		return "", fmt.Errorf("lti: deep link response: %w", err)
	}
	signer, err := Signer(keys)
	if err != nil {
		return "", fmt.Errorf("lti: deep link response: %w", err)
	}
	nonce, err := random()
	if err != nil {
		return "", err
	}
	std := jwt.Claims{Issuer: p.ClientID, Audience: jwt.Audience{p.Issuer},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(DeepLinkResponseLifetime))}
	claims := map[string]any{
		"nonce":           nonce,
		ClaimMessageType:  MessageDeepLinkingResponse,
		ClaimVersion:      Version,
		ClaimDeploymentID: req.DeploymentID,
		ClaimContentItems: items,
	}
	if len(req.Data) > 0 {
		claims[ClaimDeepLinkingData] = req.Data
	}
	out, err := jwt.Signed(signer).Claims(std).Claims(claims).Serialize()
	if err != nil {
		return "", fmt.Errorf("lti: deep link response: %w", err)
	}
	return out, nil
}

// ReturnOrigin returns the origin (scheme://host[:port]) of a deep
// linking request's return address, which the page posting the response
// must be allowed to post to.
func (d DeepLinking) ReturnOrigin() (string, error) {
	u, err := url.Parse(d.ReturnURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "", fmt.Errorf("lti: the deep link return address %q has no http(s) origin", d.ReturnURL)
	}
	return u.Scheme + "://" + u.Host, nil
}
