package lti_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"learn/internal/ltiplatform"
	"learn/lti"
	"learn/store"
)

// dlWorld is a tool on a real SQLite file with one registered test
// platform and a signing key.
type dlWorld struct {
	tool *lti.Tool
	st   *store.Store
	lms  *ltiplatform.Platform
	key  lti.Key
}

const learnOrigin = "https://learn.example"

func newDLWorld(t *testing.T) *dlWorld {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	lms := ltiplatform.Start(t, "learn-client", "deployment-1")
	if _, err := st.AddPlatform(ctx, lti.Platform{Issuer: lms.Issuer(), ClientID: lms.ClientID, AuthURL: lms.AuthURL(),
		TokenURL: lms.TokenURL(), JWKSURL: lms.JWKSURL(), DeploymentIDs: []string{lms.DeploymentID}, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	key, err := lti.NewKey(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddSigningKey(ctx, key, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	public, _ := url.Parse(learnOrigin)
	tool, err := lti.New(lti.Config{Store: st, PublicURL: public, KeySets: lti.NewKeySets(lms.Client(), 0)})
	if err != nil {
		t.Fatal(err)
	}
	return &dlWorld{tool: tool, st: st, lms: lms, key: key}
}

// launch runs both legs of l against the tool, without a browser.
func (w *dlWorld) launch(t *testing.T, l ltiplatform.Launch) (lti.Launched, error) {
	t.Helper()
	ctx := context.Background()
	auth, err := w.tool.Login(ctx, lti.LoginRequest{Issuer: w.lms.Issuer(), LoginHint: l.User.Sub, TargetLinkURI: l.Target,
		ClientID: w.lms.ClientID, DeploymentID: w.lms.DeploymentID}, "browser-1")
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	u, err := url.Parse(auth)
	if err != nil {
		t.Fatal(err)
	}
	return w.tool.Launch(ctx, w.lms.IDToken(l, u.Query().Get("nonce")), u.Query().Get("state"), "browser-1")
}

var instructor = ltiplatform.User{Sub: "u-1", Name: "Instructor", Roles: []string{lti.RoleInstructor}}

func deepLinkLaunch(user ltiplatform.User) ltiplatform.Launch {
	return ltiplatform.Launch{User: user, ContextID: "course-1", ContextTitle: "Course", Target: learnOrigin + "/lti/launch",
		DeepLinking: &ltiplatform.DeepLinking{AcceptMultiple: true, Data: "csrf-token-of-the-lms"}}
}

// TestDeepLinkingRequest: a deep linking request's settings are read
// into Launched.DeepLinking, and each broken rule is refused, naming its
// check.
func TestDeepLinkingRequest(t *testing.T) {
	w := newDLWorld(t)
	withSettings := func(change func(s map[string]any)) func(l *ltiplatform.Launch) {
		return func(l *ltiplatform.Launch) {
			s := map[string]any{"deep_link_return_url": w.lms.Issuer() + "/deep-linking/return", "accept_types": []string{"ltiResourceLink"}}
			change(s)
			l.Claims = map[string]any{lti.ClaimDeepLinkingSettings: s}
		}
	}
	for _, tc := range []struct {
		name   string
		change func(l *ltiplatform.Launch)
		check  string // "" for a valid request
	}{
		{"instructor", func(*ltiplatform.Launch) {}, ""},
		{"administrator", func(l *ltiplatform.Launch) { l.User.Roles = []string{lti.RoleSystemAdministrator} }, ""},
		{"learner", func(l *ltiplatform.Launch) { l.User.Roles = []string{lti.RoleLearner} }, "roles"},
		{"no role", func(l *ltiplatform.Launch) { l.User.Roles = nil }, "roles"},
		{"no settings", func(l *ltiplatform.Launch) { l.Claims = map[string]any{lti.ClaimDeepLinkingSettings: nil} }, "deep_linking_settings"},
		{"no return address", withSettings(func(s map[string]any) { delete(s, "deep_link_return_url") }), "deep_link_return_url"},
		{"relative return address", withSettings(func(s map[string]any) { s["deep_link_return_url"] = "/return" }), "deep_link_return_url"},
		{"javascript return address", withSettings(func(s map[string]any) { s["deep_link_return_url"] = "javascript:alert(1)" }), "deep_link_return_url"},
		{"plain http return address", withSettings(func(s map[string]any) { s["deep_link_return_url"] = "http://lms.example/return" }), "deep_link_return_url"},
		{"overlong return address", withSettings(func(s map[string]any) {
			s["deep_link_return_url"] = "https://lms.example/return?x=" + strings.Repeat("a", lti.MaxDeepLinkReturnURL)
		}), "deep_link_return_url"},
		{"no resource links accepted", withSettings(func(s map[string]any) { s["accept_types"] = []string{"link", "html"} }), "accept_types"},
		{"no accept types", withSettings(func(s map[string]any) { delete(s, "accept_types") }), "accept_types"},
		{"overlong data", withSettings(func(s map[string]any) { s["data"] = strings.Repeat("d", lti.MaxDeepLinkData+1) }), "data"},
		{"unknown message type", func(l *ltiplatform.Launch) {
			l.Claims = map[string]any{lti.ClaimMessageType: "LtiSubmissionReviewRequest"}
		}, "message_type"},
		{"wrong version", func(l *ltiplatform.Launch) { l.Claims = map[string]any{lti.ClaimVersion: "1.1"} }, "version"},
		{"wrong deployment", func(l *ltiplatform.Launch) { l.Claims = map[string]any{lti.ClaimDeploymentID: "deployment-2"} }, "deployment_id"},
		{"wrong aud", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"aud": "another-client"} }, "aud"},
		{"expired", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"exp": time.Now().Add(-time.Hour).Unix()} }, "exp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := deepLinkLaunch(instructor)
			tc.change(&l)
			got, err := w.launch(t, l)
			if tc.check != "" {
				ref, ok := errors.AsType[*lti.Refusal](err)
				if !ok || ref.Check != tc.check {
					t.Fatalf("Launch = %v, want a refusal of %q", err, tc.check)
				}
				if ref.Problem == "" || ref.Fix == "" || strings.Contains(ref.Problem+ref.Fix, "eyJ") {
					t.Errorf("refusal texts: %q, %q", ref.Problem, ref.Fix)
				}
				return
			}
			if err != nil {
				t.Fatalf("Launch: %v", err)
			}
			dl := got.DeepLinking
			if got.MessageType != lti.MessageDeepLinking || dl == nil {
				t.Fatalf("Launched %+v, want a deep linking request", got)
			}
			if !strings.HasPrefix(dl.ReturnURL, w.lms.Issuer()+"/deep-linking/return") || !dl.AcceptMultiple || !dl.AutoCreate ||
				string(dl.Data) != `"csrf-token-of-the-lms"` || dl.Title != "Learn lessons" || dl.DeploymentID != w.lms.DeploymentID ||
				len(dl.ID) != 43 || dl.ExpiresAt.Sub(time.Now()) > lti.DeepLinkLifetime {
				t.Errorf("DeepLinking = %+v", dl)
			}
		})
	}

	t.Run("a resource link launch has no deep linking", func(t *testing.T) {
		l := ltiplatform.Launch{User: instructor, ContextID: "course-1", ResourceLinkID: "link-1", Target: learnOrigin + "/lessons/x"}
		got, err := w.launch(t, l)
		if err != nil || got.DeepLinking != nil || got.MessageType != lti.MessageResourceLink {
			t.Errorf("Launch = %+v, %v", got, err)
		}
	})
}

// responseClaims are the claims of a deep linking response a test reads.
type responseClaims struct {
	jwt.Claims
	Nonce        string            `json:"nonce"`
	MessageType  string            `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version      string            `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID string            `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	Data         json.RawMessage   `json:"https://purl.imsglobal.org/spec/lti-dl/claim/data"`
	Items        []json.RawMessage `json:"https://purl.imsglobal.org/spec/lti-dl/claim/content_items"`
}

// TestDeepLinkResponse: the response is signed with learn's key under
// its kid for the platform, echoes the data, holds the links; a request
// is answered once, and not after it expired.
func TestDeepLinkResponse(t *testing.T) {
	w := newDLWorld(t)
	ctx := context.Background()
	got, err := w.launch(t, deepLinkLaunch(instructor))
	if err != nil {
		t.Fatal(err)
	}
	req := *got.DeepLinking
	links := []lti.ResourceLink{
		{Title: "Lesson one", URL: "/lessons/one", Custom: map[string]string{"lesson": "one"},
			LineItem: &lti.LineItem{Label: "Lesson one", ScoreMaximum: 30, ResourceID: "one"}},
		{Title: "The course", URL: learnOrigin + "/"},
	}
	signed, err := w.tool.DeepLinkResponse(ctx, req, links)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.ParseSigned(signed, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		t.Fatal(err)
	}
	if len(tok.Headers) != 1 || tok.Headers[0].KeyID != w.key.KID {
		t.Fatalf("headers %+v, want kid %s", tok.Headers, w.key.KID)
	}
	set, err := lti.PublicKeySet([]lti.Key{w.key}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var c responseClaims
	if err := tok.Claims(set.Keys[0].Key, &c); err != nil {
		t.Fatalf("the response does not verify with learn's published key: %v", err)
	}
	if c.Issuer != w.lms.ClientID || len(c.Audience) != 1 || c.Audience[0] != w.lms.Issuer() || c.Nonce == "" ||
		c.MessageType != "LtiDeepLinkingResponse" || c.Version != "1.3.0" || c.DeploymentID != w.lms.DeploymentID ||
		string(c.Data) != `"csrf-token-of-the-lms"` {
		t.Errorf("claims %+v", c)
	}
	if life := c.Expiry.Time().Sub(c.IssuedAt.Time()); life != lti.DeepLinkResponseLifetime {
		t.Errorf("the response lives %v", life)
	}
	want := []string{
		`{"type":"ltiResourceLink","title":"Lesson one","url":"https://learn.example/lessons/one","custom":{"lesson":"one"},"lineItem":{"label":"Lesson one","scoreMaximum":30,"resourceId":"one"}}`,
		`{"type":"ltiResourceLink","title":"The course","url":"https://learn.example/"}`,
	}
	if len(c.Items) != len(want) {
		t.Fatalf("%d items, want %d", len(c.Items), len(want))
	}
	for i := range want {
		var g, wnt any
		if err := json.Unmarshal(c.Items[i], &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(want[i]), &wnt); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, wnt) {
			t.Errorf("item %d = %s\nwant %s", i, c.Items[i], want[i])
		}
	}

	if _, err := w.tool.DeepLinkResponse(ctx, req, links); !isRefusal(err, "deep_link_used") {
		t.Errorf("answering again: %v, want a refusal of deep_link_used", err)
	}

	// Data not sent is not invented; an expired request is refused.
	l := deepLinkLaunch(instructor)
	l.DeepLinking.Data = ""
	got, err = w.launch(t, l)
	if err != nil {
		t.Fatal(err)
	}
	fresh := *got.DeepLinking
	if fresh.Data != nil {
		t.Errorf("data %s from a request without it", fresh.Data)
	}
	expired := fresh
	expired.ExpiresAt = time.Now().Add(-time.Second)
	if _, err := w.tool.DeepLinkResponse(ctx, expired, links); !isRefusal(err, "deep_link_expired") {
		t.Errorf("an expired request: %v", err)
	}
	for _, tc := range []struct {
		name  string
		req   func() lti.DeepLinking
		links []lti.ResourceLink
	}{
		{"several links to a platform that takes one", func() lti.DeepLinking { r := fresh; r.AcceptMultiple = false; return r }, links},
		{"a link off learn's origin", func() lti.DeepLinking { return fresh }, []lti.ResourceLink{{Title: "x", URL: "https://evil.example/"}}},
		{"a line item without a maximum", func() lti.DeepLinking { return fresh },
			[]lti.ResourceLink{{Title: "x", URL: "/lessons/x", LineItem: &lti.LineItem{Label: "x"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := w.tool.DeepLinkResponse(ctx, tc.req(), tc.links); err == nil || errors.As(err, new(*lti.Refusal)) {
				t.Errorf("DeepLinkResponse = %v, want an error", err)
			}
		})
	}
	signed, err = w.tool.DeepLinkResponse(ctx, fresh, links[:1])
	if err != nil {
		t.Fatalf("the refused attempts spent the request: %v", err)
	}
	tok, err = jwt.ParseSigned(signed, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		t.Fatal(err)
	}
	var noData responseClaims
	if err := tok.Claims(set.Keys[0].Key, &noData); err != nil || noData.Data != nil {
		t.Errorf("a response to a request without data: %v, data %s", err, noData.Data)
	}
}

func isRefusal(err error, check string) bool {
	ref, ok := errors.AsType[*lti.Refusal](err)
	return ok && ref.Check == check
}
