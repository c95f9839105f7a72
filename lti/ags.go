package lti

import "slices"

// The Assignment and Grade Services 2.0 claim and scopes (AGS 2.0,
// section 3.1).
const (
	ClaimAGSEndpoint = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
	// ScopeScore lets a tool post scores to a line item.
	ScopeScore = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	// ScopeLineItem and ScopeLineItemReadOnly let a tool manage or read
	// the line items; learn uses neither yet.
	ScopeLineItem         = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	ScopeLineItemReadOnly = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
	// ScoreMediaType is the content type of a posted score.
	ScoreMediaType = "application/vnd.ims.lis.v1.score+json"
)

// MaxLineItemURL bounds the address of a line item learn keeps.
const MaxLineItemURL = 2048

// AGSEndpoint is what a launch says about grading its resource link: the
// scopes the platform grants learn, its line items container and the
// line item of the resource link, when it has exactly one.
type AGSEndpoint struct {
	Scope     []string
	LineItems string
	LineItem  string
}

// CanScore reports whether scores can be posted for the launch: the
// platform grants the score scope and names the resource link's line
// item.
func (e AGSEndpoint) CanScore() bool {
	return e.LineItem != "" && slices.Contains(e.Scope, ScopeScore)
}

// agsEndpoint keeps of the claim's addresses those that are absolute
// http(s) addresses of a sensible length (CheckURL); an unusable one is
// dropped, so that learn never posts to it.
func agsEndpoint(scope []string, lineItems, lineItem string) AGSEndpoint {
	usable := func(raw string) string {
		if raw == "" || len(raw) > MaxLineItemURL || CheckURL("line item", raw) != nil {
			return ""
		}
		return raw
	}
	return AGSEndpoint{Scope: slices.Clone(scope), LineItems: usable(lineItems), LineItem: usable(lineItem)}
}
