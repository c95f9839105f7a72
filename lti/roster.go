package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"learn/progress"
)

// The Names and Role Provisioning Services 2.0 claim, scope and media
// type.
const (
	ClaimNRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
	// ScopeMembershipReadOnly lets a tool read a context's memberships.
	ScopeMembershipReadOnly = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	// MembershipMediaType is the content type of a membership container.
	MembershipMediaType = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
	// NRPSVersion is the service version learn speaks.
	NRPSVersion = "2.0"
)

// The statuses of a membership; a member without one is Active.
const (
	MemberActive   = "Active"
	MemberInactive = "Inactive"
	MemberDeleted  = "Deleted"
)

// Caps on what a roster may hold and cost: a page of a membership
// container is read up to MaxRosterPageBytes, at most MaxRosterPages
// pages are followed, and a roster of more than MaxRosterMembers members
// is refused rather than kept in part.
const (
	MaxRosterPageBytes = 4 << 20
	MaxRosterPages     = 50
	MaxRosterMembers   = 5000
)

// NRPSEndpoint is what a launch says about its context's roster: the
// address of its membership container; "" when the platform sent no
// claim, or one learn cannot use (no version 2.0, an address CheckURL
// refuses).
type NRPSEndpoint struct {
	MembershipsURL string
}

// nrpsClaim is the claim as a launch carries it.
type nrpsClaim struct {
	MembershipsURL  string   `json:"context_memberships_url"`
	ServiceVersions []string `json:"service_versions"`
}

// nrpsEndpoint keeps the claim's address when learn can use it.
func nrpsEndpoint(c *nrpsClaim) NRPSEndpoint {
	if c == nil || !slices.Contains(c.ServiceVersions, NRPSVersion) || c.MembershipsURL == "" ||
		len(c.MembershipsURL) > MaxLineItemURL || CheckURL("memberships address", c.MembershipsURL) != nil {
		return NRPSEndpoint{}
	}
	return NRPSEndpoint{MembershipsURL: c.MembershipsURL}
}

// Member is one membership of a context, as the platform lists it.
type Member struct {
	// UserID is the platform's id of the user (a launch's subject).
	UserID string
	// Name is the member's name, or their given and family names.
	Name  string
	Roles []string
	// Status is MemberActive, MemberInactive or MemberDeleted.
	Status string
}

// HasRole reports whether the member holds the context role, given as
// the full LIS URI; the short form ("Instructor") counts too.
func (m Member) HasRole(role string) bool {
	_, short, _ := strings.Cut(role, "#")
	return slices.Contains(m.Roles, role) || (short != "" && slices.Contains(m.Roles, short))
}

// containerPage is one page of a membership container (NRPS 2.0).
type containerPage struct {
	ID      string `json:"id"`
	Members []struct {
		Status     string   `json:"status"`
		Name       string   `json:"name"`
		GivenName  string   `json:"given_name"`
		FamilyName string   `json:"family_name"`
		UserID     string   `json:"user_id"`
		Roles      []string `json:"roles"`
	} `json:"members"`
}

// RosterStore is what a Roster reads: the platforms and learn's keys.
type RosterStore interface {
	// FindPlatformByID returns the platform; errors wrap ErrNotFound.
	FindPlatformByID(ctx context.Context, id int64) (Platform, error)
	// SigningKeys returns learn's keys, newest first.
	SigningKeys(ctx context.Context) ([]Key, error)
}

// RosterConfig is what a Roster is built from; Store is required.
type RosterConfig struct {
	Store RosterStore
	// Client sends the requests; nil means a client whose timeout is
	// DefaultServiceTimeout.
	Client *http.Client
	// Tokens fetches service tokens; nil makes one with Client (give the
	// Sender's to share its cache).
	Tokens *Tokens
	// MaxPages and MaxMembers cap a roster; 0 means MaxRosterPages and
	// MaxRosterMembers.
	MaxPages, MaxMembers int
}

// Roster reads contexts' memberships from their platforms (Names and
// Role Provisioning Services 2.0). It is safe for concurrent use.
type Roster struct {
	store               RosterStore
	client              *http.Client
	tokens              *Tokens
	maxPages, maxMember int
}

// NewRoster returns a roster client for cfg.
func NewRoster(cfg RosterConfig) (*Roster, error) {
	if cfg.Store == nil {
		return nil, errors.New("lti: new roster: a store is required")
	}
	r := &Roster{store: cfg.Store, client: cfg.Client, tokens: cfg.Tokens, maxPages: cfg.MaxPages, maxMember: cfg.MaxMembers}
	if r.client == nil {
		r.client = &http.Client{Timeout: DefaultServiceTimeout}
	}
	if r.tokens == nil {
		r.tokens = NewTokens(r.client, cfg.Store.SigningKeys, nil)
	}
	if r.maxPages <= 0 {
		r.maxPages = MaxRosterPages
	}
	if r.maxMember <= 0 {
		r.maxMember = MaxRosterMembers
	}
	return r, nil
}

// RosterError is a roster learn could not read: what went wrong and what
// a teacher or an LMS administrator can do, safe to show (never a token).
type RosterError struct {
	Problem, Fix string
	// Err is the cause, for the log.
	Err error
}

// Error implements error.
func (e *RosterError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("lti: roster: %s: %v", e.Problem, e.Err)
	}
	return "lti: roster: " + e.Problem
}

// Unwrap returns the cause.
func (e *RosterError) Unwrap() error { return e.Err }

func rosterError(problem, fix string, err error) *RosterError {
	return &RosterError{Problem: problem, Fix: fix, Err: err}
}

// notGranted says what for a platform that refuses the service.
const notGranted = "the LMS did not grant learn the roster service; enable Names and Role Provisioning in learn's registration in the LMS"

// Members reads the membership container at address from p, page by page
// (Link rel="next", on the same origin only), with a bearer token for
// ScopeMembershipReadOnly. Members without a user id are skipped, a user
// listed twice is kept once. Every error is a *RosterError.
func (r *Roster) Members(ctx context.Context, p Platform, address string) ([]Member, error) {
	if err := CheckURL("memberships address", address); err != nil {
		return nil, rosterError("the LMS's memberships address cannot be used", "Check the LMS's Names and Role Provisioning settings.", err)
	}
	first, err := url.Parse(address)
	if err != nil {
		return nil, rosterError("the LMS's memberships address cannot be used", "Check the LMS's Names and Role Provisioning settings.", err)
	}
	var out []Member
	seen := map[string]bool{}
	next := first
	for page := 1; next != nil; page++ {
		if page > r.maxPages {
			return nil, rosterError(fmt.Sprintf("the LMS's roster has more than %d pages", r.maxPages),
				"Ask the LMS administrator whether learn may read larger pages of the roster.", nil)
		}
		body, link, err := r.page(ctx, p, next.String())
		if err != nil {
			return nil, err
		}
		var c containerPage
		if err := json.Unmarshal(body, &c); err != nil {
			return nil, rosterError("the LMS's roster is not a membership container learn can read", "Tell the LMS administrator: its Names and Role Provisioning answer is not NRPS 2.0 JSON.", err)
		}
		for _, m := range c.Members {
			if m.UserID == "" || seen[m.UserID] {
				continue
			}
			seen[m.UserID] = true
			name := strings.TrimSpace(m.Name)
			if name == "" {
				name = strings.TrimSpace(m.GivenName + " " + m.FamilyName)
			}
			status := m.Status
			if status != MemberInactive && status != MemberDeleted {
				status = MemberActive
			}
			out = append(out, Member{UserID: m.UserID, Name: name, Roles: slices.Clone(m.Roles), Status: status})
			if len(out) > r.maxMember {
				return nil, rosterError(fmt.Sprintf("the LMS course has more than %d members, more than learn keeps in a roster", r.maxMember),
					"Split the course into smaller sections in the LMS.", nil)
			}
		}
		next = nil
		if link != "" {
			if next, err = nextPage(first, link); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// nextPage resolves a next link against the first page and checks it
// stays on the first page's origin.
func nextPage(first *url.URL, link string) (*url.URL, error) {
	u, err := first.Parse(link)
	if err == nil {
		err = CheckURL("next page of the roster", u.String())
	}
	if err == nil && (u.Scheme != first.Scheme || u.Host != first.Host) {
		err = fmt.Errorf("the next page %s is not on %s://%s", u.Redacted(), first.Scheme, first.Host)
	}
	if err != nil {
		return nil, rosterError("the LMS's roster links to a next page learn does not follow", "Tell the LMS administrator: the next page of a roster must be on the same address as the first.", err)
	}
	return u, nil
}

// page fetches one page and returns its body and its next link ("" for
// none); a 401 fetches a new token once.
func (r *Roster) page(ctx context.Context, p Platform, address string) ([]byte, string, error) {
	body, link, status, err := r.get(ctx, p, address)
	if status == http.StatusUnauthorized {
		r.tokens.Forget(p, ScopeMembershipReadOnly)
		body, link, status, err = r.get(ctx, p, address)
	}
	if err != nil {
		return nil, "", err
	}
	return body, link, nil
}

// get fetches one page; the status is the roster service's (0 before it
// answered).
func (r *Roster) get(ctx context.Context, p Platform, address string) ([]byte, string, int, error) {
	token, err := r.tokens.Token(ctx, p, ScopeMembershipReadOnly)
	if errors.Is(err, ErrTokenRefused) {
		return nil, "", 0, rosterError("the LMS refused learn a token for its roster service", notGranted+" (and that learn's key set address is registered there).", err)
	}
	if err != nil {
		return nil, "", 0, rosterError("learn could not get a token from the LMS's token endpoint", "Try again later; if it goes on, check that learn's server can reach "+p.TokenURL+".", err)
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultServiceTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return nil, "", 0, rosterError("the LMS's memberships address cannot be used", "Check the LMS's Names and Role Provisioning settings.", err)
	}
	req.Header.Set("Accept", MembershipMediaType)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := r.client.Do(req)
	if err != nil {
		problem := "learn could not reach the LMS's roster service"
		if errors.Is(err, context.DeadlineExceeded) {
			problem = "the LMS's roster service did not answer in time"
		}
		return nil, "", 0, rosterError(problem, "Try again later with \"Update the roster from the LMS\".", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxRosterPageBytes+1))
	if resp.StatusCode/100 != 2 {
		se := &ServiceError{Status: resp.StatusCode, Excerpt: Excerpt(string(body))}
		switch {
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			return nil, "", resp.StatusCode, rosterError(notGranted, "An LMS administrator enables it for learn, then a teacher updates the roster.", se)
		case se.Retry():
			return nil, "", resp.StatusCode, rosterError(fmt.Sprintf("the LMS's roster service answered %d %s", se.Status, http.StatusText(se.Status)),
				"Try again later with \"Update the roster from the LMS\".", se)
		}
		return nil, "", resp.StatusCode, rosterError(fmt.Sprintf("the LMS's roster service refused the request (%d %s)", se.Status, http.StatusText(se.Status)),
			"Tell the LMS administrator what it answered: "+se.Excerpt, se)
	}
	if err != nil {
		return nil, "", resp.StatusCode, rosterError("learn could not read the LMS's roster", "Try again later with \"Update the roster from the LMS\".", err)
	}
	if len(body) > MaxRosterPageBytes {
		return nil, "", resp.StatusCode, rosterError(fmt.Sprintf("a page of the LMS's roster is larger than %d MiB", MaxRosterPageBytes>>20),
			"Ask the LMS administrator for smaller pages of the roster.", nil)
	}
	return body, nextLink(resp.Header.Values("Link")), resp.StatusCode, nil
}

// nextLink returns the target of the rel="next" link of Link header
// values (RFC 8288), or "".
func nextLink(values []string) string {
	for _, v := range values {
		for v != "" {
			start := strings.IndexByte(v, '<')
			end := strings.IndexByte(v, '>')
			if start < 0 || end < start {
				break
			}
			target := v[start+1 : end]
			rest := v[end+1:]
			params := rest
			if i := strings.IndexByte(rest, '<'); i >= 0 {
				params = rest[:i]
			}
			for _, param := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(param), "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(k), "rel") {
					continue
				}
				for _, rel := range strings.Fields(strings.Trim(strings.TrimSpace(val), `"`)) {
					if strings.EqualFold(rel, "next") {
						return target
					}
				}
			}
			v = rest
		}
	}
	return ""
}

// LMSRoster reads the roster of the platform's context at address, for
// the core (progress.LMSRosters): each member named by the platform's
// issuer and their user id, instructors and learners told apart, the
// members the platform marks deleted left out. A roster not read is a
// progress Error (Unavailable) whose message says what to do.
func (r *Roster) LMSRoster(ctx context.Context, platformID int64, address string) ([]progress.LTIRosterMember, error) {
	p, err := r.store.FindPlatformByID(ctx, platformID)
	if errors.Is(err, ErrNotFound) {
		return nil, &progress.Error{Kind: progress.Unavailable, Message: "The LMS of this class is no longer registered with learn; an administrator registers it again (\"learn lti add\").", Err: err}
	}
	if err != nil {
		return nil, err
	}
	members, err := r.Members(ctx, p, address)
	if re, ok := errors.AsType[*RosterError](err); ok {
		return nil, &progress.Error{Kind: progress.Unavailable, Message: sentence(re.Problem) + " " + re.Fix, Err: err}
	}
	if err != nil {
		return nil, err
	}
	out := make([]progress.LTIRosterMember, 0, len(members))
	for _, m := range members {
		if m.Status == MemberDeleted {
			continue
		}
		out = append(out, progress.LTIRosterMember{Issuer: p.Issuer, Subject: m.UserID, Name: m.Name,
			Instructor: m.HasRole(RoleInstructor), Learner: m.HasRole(RoleLearner), Active: m.Status == MemberActive})
	}
	return out, nil
}

// sentence starts s with a capital and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
