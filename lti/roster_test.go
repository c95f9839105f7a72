package lti

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"learn/internal/ltiplatform"
	"learn/progress"
)

func TestNextLink(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   string
	}{
		{"none", nil, ""},
		{"next alone", []string{`<https://lms.example/m?p=2>; rel="next"`}, "https://lms.example/m?p=2"},
		{"unquoted rel", []string{`<https://lms.example/m?p=2>; rel=next`}, "https://lms.example/m?p=2"},
		{"after another link", []string{`<https://lms.example/m?p=1>; rel="first", <https://lms.example/m?p=3>; rel="next"`}, "https://lms.example/m?p=3"},
		{"rel with several values", []string{`<https://lms.example/m?p=4>; title="x"; rel="last next"`}, "https://lms.example/m?p=4"},
		{"in a second header", []string{`<https://lms.example/d>; rel="differences"`, `<https://lms.example/m?p=5>; REL="Next"`}, "https://lms.example/m?p=5"},
		{"only differences", []string{`<https://lms.example/d>; rel="differences"`}, ""},
		{"malformed", []string{`https://lms.example/m?p=2; rel="next"`}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := nextLink(tc.values); got != tc.want {
				t.Errorf("nextLink(%q) = %q, want %q", tc.values, got, tc.want)
			}
		})
	}
}

func TestNRPSEndpoint(t *testing.T) {
	tests := []struct {
		name  string
		claim *nrpsClaim
		want  string
	}{
		{"none", nil, ""},
		{"version 2.0", &nrpsClaim{MembershipsURL: "https://lms.example/m", ServiceVersions: []string{"2.0"}}, "https://lms.example/m"},
		{"no version", &nrpsClaim{MembershipsURL: "https://lms.example/m"}, ""},
		{"only 1.0", &nrpsClaim{MembershipsURL: "https://lms.example/m", ServiceVersions: []string{"1.0"}}, ""},
		{"plain http elsewhere", &nrpsClaim{MembershipsURL: "http://lms.example/m", ServiceVersions: []string{"2.0"}}, ""},
		{"no address", &nrpsClaim{ServiceVersions: []string{"2.0"}}, ""},
		{"too long", &nrpsClaim{MembershipsURL: "https://lms.example/" + strings.Repeat("m", MaxLineItemURL), ServiceVersions: []string{"2.0"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := nrpsEndpoint(tc.claim).MembershipsURL; got != tc.want {
				t.Errorf("nrpsEndpoint = %q, want %q", got, tc.want)
			}
		})
	}
}

// rosterStore is a platform store of one platform and learn's keys.
type rosterStore struct {
	p    Platform
	keys []Key
}

func (s rosterStore) FindPlatformByID(_ context.Context, id int64) (Platform, error) {
	if id != s.p.ID {
		return Platform{}, ErrNotFound
	}
	return s.p, nil
}

func (s rosterStore) SigningKeys(context.Context) ([]Key, error) { return s.keys, nil }

// TestRosterMembers reads rosters from the test platform: paged, names
// from given and family names, statuses, deleted members left out, the
// caps on pages and members, and the platform's refusals as errors a
// teacher can act on.
func TestRosterMembers(t *testing.T) {
	lms, p, keys := lmsFor(t)
	lms.OfferRosters()
	lms.SetRosterPageSize(2)
	lms.SetRoster("c1", []ltiplatform.Member{
		{User: ltiplatform.User{Sub: "t1", Name: "Teacher", Roles: []string{ltiplatform.Instructor}}},
		{User: ltiplatform.User{Sub: "l1", Name: " Ada ", Roles: []string{ltiplatform.Learner}}},
		{User: ltiplatform.User{Sub: "l2", Roles: []string{"Learner"}}, GivenName: "Grace", FamilyName: "Hopper", Status: "Inactive"},
		{User: ltiplatform.User{Sub: "l3", Name: "Gone", Roles: []string{ltiplatform.Learner}}, Status: "Deleted"},
		{User: ltiplatform.User{Sub: "l1", Name: "Ada again", Roles: []string{ltiplatform.Learner}}},
	})
	st := rosterStore{p: p, keys: keys}
	r, err := NewRoster(RosterConfig{Store: st, Client: lms.Client()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := r.LMSRoster(ctx, p.ID, lms.MembershipsURL("c1"))
	if err != nil {
		t.Fatalf("LMSRoster: %v (token refusals: %v)", err, lms.RefusedAssertions())
	}
	want := []progress.LTIRosterMember{
		{Issuer: p.Issuer, Subject: "t1", Name: "Teacher", Instructor: true, Active: true},
		{Issuer: p.Issuer, Subject: "l1", Name: "Ada", Learner: true, Active: true},
		{Issuer: p.Issuer, Subject: "l2", Name: "Grace Hopper", Learner: true},
	}
	if len(got) != len(want) {
		t.Fatalf("LMSRoster = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("member %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := lms.RosterPagesServed(); n != 3 {
		t.Errorf("%d pages served, want 3", n)
	}

	refusals := []struct {
		name    string
		cfg     RosterConfig
		prepare func()
		address string
		want    string
	}{
		{"more pages than the cap", RosterConfig{MaxPages: 2}, nil, lms.MembershipsURL("c1"), "more than 2 pages"},
		{"more members than the cap", RosterConfig{MaxMembers: 2}, nil, lms.MembershipsURL("c1"), "more than 2 members"},
		{"an unknown course", RosterConfig{}, nil, lms.MembershipsURL("nope"), "refused the request (404 Not Found)"},
		{"the service down", RosterConfig{}, func() { lms.FailRosters(http.StatusServiceUnavailable) }, lms.MembershipsURL("c1"), "answered 503 Service Unavailable. Try again later"},
		{"a next page elsewhere", RosterConfig{}, func() { lms.SetRosterNextLink("https://elsewhere.example/m") }, lms.MembershipsURL("c1"), "next page learn does not follow"},
		{"an address that is not https", RosterConfig{}, nil, "http://lms.example/m", "cannot be used"},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			lms.FailRosters(0)
			lms.SetRosterNextLink("")
			if tc.prepare != nil {
				tc.prepare()
			}
			cfg := tc.cfg
			cfg.Store, cfg.Client = st, lms.Client()
			r, err := NewRoster(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.LMSRoster(ctx, p.ID, tc.address)
			pe, ok := errors.AsType[*progress.Error](err)
			if !ok || pe.Kind != progress.Unavailable || !strings.Contains(pe.Message, tc.want) {
				t.Fatalf("LMSRoster = %v, want an Unavailable error saying %q", err, tc.want)
			}
			if strings.Contains(pe.Message, "Bearer") {
				t.Errorf("the message shows a token: %s", pe.Message)
			}
		})
	}

	// A platform no longer registered.
	if _, err := r.LMSRoster(ctx, p.ID+1, lms.MembershipsURL("c1")); err == nil || !strings.Contains(err.Error(), "no longer registered") {
		t.Errorf("an unregistered platform: %v", err)
	}
	// A token without the roster scope's grant: the token endpoint refuses
	// a client it does not know.
	stranger := p
	stranger.ID, stranger.ClientID = 99, "not-registered"
	if _, err := r.Members(ctx, stranger, lms.MembershipsURL("c1")); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("a client the LMS does not know: %v", err)
	}
}
