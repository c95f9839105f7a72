package ltiplatform

// Names and Role Provisioning Services 2.0 on the platform's side: the
// namesroleservice claim of a launch (section 3.6.1), and the membership
// container of a course (sections 2.2 to 2.4), read with a bearer token of
// the contextmembership.readonly scope and paged by a Link header whose
// rel is "next" (section 2.4.2).

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The NRPS claim, scope and media type.
const (
	nrpsClaim                = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
	ScopeContextMembership   = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	membershipMediaType      = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
	defaultMembershipsPageSz = 100
)

// Member is a user's membership of a course, as the platform lists it.
type Member struct {
	User User
	// GivenName and FamilyName, when set, are sent beside (or, with an
	// empty User.Name, instead of) the name.
	GivenName, FamilyName string
	// Status is "Active" (the default when ""), "Inactive" or "Deleted".
	Status string
}

type nrpsState struct {
	mu sync.Mutex
	// offered makes launches carry the claim.
	offered bool
	rosters map[string][]Member // by context id
	status  int                 // forced answer; 0 for none
	page    int                 // members per page
	// served counts the pages served, refused the requests refused.
	served, refused int
	// nextURL, when set, replaces the next link of every page (for
	// negative tests).
	nextURL string
}

// OfferRosters makes every launch from a course carry the NRPS claim
// with that course's membership container at /memberships/{context}.
func (p *Platform) OfferRosters() {
	p.nrps.mu.Lock()
	p.nrps.offered = true
	p.nrps.mu.Unlock()
}

// SetRoster sets the members of the course contextID.
func (p *Platform) SetRoster(contextID string, members []Member) {
	p.nrps.mu.Lock()
	defer p.nrps.mu.Unlock()
	if p.nrps.rosters == nil {
		p.nrps.rosters = map[string][]Member{}
	}
	p.nrps.rosters[contextID] = slices.Clone(members)
}

// SetRosterPageSize sets how many members a page of a membership
// container holds at most when the tool asks for no limit (0: 100).
func (p *Platform) SetRosterPageSize(n int) {
	p.nrps.mu.Lock()
	p.nrps.page = n
	p.nrps.mu.Unlock()
}

// FailRosters makes the membership containers answer status (such as
// 503) to every request; 0 makes them work again.
func (p *Platform) FailRosters(status int) {
	p.nrps.mu.Lock()
	p.nrps.status = status
	p.nrps.mu.Unlock()
}

// SetRosterNextLink makes every page link to address as its next page,
// whatever follows (for tests of a tool that must not follow it).
func (p *Platform) SetRosterNextLink(address string) {
	p.nrps.mu.Lock()
	p.nrps.nextURL = address
	p.nrps.mu.Unlock()
}

// RosterPagesServed counts the pages of membership containers served.
func (p *Platform) RosterPagesServed() int {
	p.nrps.mu.Lock()
	defer p.nrps.mu.Unlock()
	return p.nrps.served
}

// MembershipsURL is the address of the course's membership container.
func (p *Platform) MembershipsURL(contextID string) string {
	return p.server.URL + "/memberships/" + url.PathEscape(contextID)
}

// nrpsClaims adds the claim to a launch from a course when rosters are
// offered.
func (p *Platform) nrpsClaims(c map[string]any, l Launch) {
	p.nrps.mu.Lock()
	offered := p.nrps.offered
	p.nrps.mu.Unlock()
	if offered && l.ContextID != "" {
		c[nrpsClaim] = map[string]any{"context_memberships_url": p.MembershipsURL(l.ContextID), "service_versions": []string{"2.0"}}
	}
}

// memberships serves a page of a course's membership container.
func (p *Platform) memberships(w http.ResponseWriter, r *http.Request) {
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	p.ags.mu.Lock()
	scopes, known := p.ags.tokens[bearer]
	p.ags.mu.Unlock()
	p.nrps.mu.Lock()
	defer p.nrps.mu.Unlock()
	switch {
	case !ok || !known:
		p.nrps.refused++
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		http.Error(w, "unknown bearer token", http.StatusUnauthorized)
		return
	case !slices.Contains(scopes, ScopeContextMembership):
		p.nrps.refused++
		http.Error(w, "the token lacks the context membership scope", http.StatusForbidden)
		return
	case !acceptsMembership(r.Header.Get("Accept")):
		p.nrps.refused++
		http.Error(w, "the request must accept "+membershipMediaType, http.StatusNotAcceptable)
		return
	case p.nrps.status != 0:
		p.nrps.refused++
		http.Error(w, "the course's members cannot be listed now", p.nrps.status)
		return
	}
	contextID := r.PathValue("context")
	members, found := p.nrps.rosters[contextID]
	if !found {
		http.Error(w, "no such course", http.StatusNotFound)
		return
	}
	size := p.nrps.page
	if size <= 0 {
		size = defaultMembershipsPageSz
	}
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 && n < size {
		size = n
	}
	from, _ := strconv.Atoi(r.URL.Query().Get("from"))
	from = max(0, min(from, len(members)))
	to := min(from+size, len(members))
	type member struct {
		Status     string   `json:"status,omitempty"`
		Name       string   `json:"name,omitempty"`
		GivenName  string   `json:"given_name,omitempty"`
		FamilyName string   `json:"family_name,omitempty"`
		UserID     string   `json:"user_id"`
		Roles      []string `json:"roles"`
	}
	page := struct {
		ID      string            `json:"id"`
		Context map[string]string `json:"context"`
		Members []member          `json:"members"`
	}{ID: p.MembershipsURL(contextID), Context: map[string]string{"id": contextID}, Members: []member{}}
	for _, m := range members[from:to] {
		page.Members = append(page.Members, member{Status: m.Status, Name: m.User.Name, GivenName: m.GivenName,
			FamilyName: m.FamilyName, UserID: m.User.Sub, Roles: m.User.Roles})
	}
	next := p.nrps.nextURL
	if next == "" && to < len(members) {
		q := url.Values{"from": {strconv.Itoa(to)}}
		if l := r.URL.Query().Get("limit"); l != "" {
			q.Set("limit", l)
		}
		next = p.MembershipsURL(contextID) + "?" + q.Encode()
	}
	if next != "" {
		w.Header().Add("Link", "<"+next+`>; rel="next"`)
	}
	p.nrps.served++
	w.Header().Set("Content-Type", membershipMediaType)
	_ = json.NewEncoder(w).Encode(page)
}

// acceptsMembership reports whether an Accept header takes the membership
// container's media type.
func acceptsMembership(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if mt = strings.TrimSpace(mt); mt == membershipMediaType || mt == "*/*" {
			return true
		}
	}
	return false
}
