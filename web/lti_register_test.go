package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"learn/internal/ltiplatform"
	"learn/lti"
	"learn/progress"
	"learn/store"
)

// newRegisterWorld is learn on TLS with a test platform not registered
// yet.
func newRegisterWorld(t *testing.T, st *store.Store) *ltiWorld {
	t.Helper()
	lms := ltiplatform.Start(t, "not-registered", "not-registered")
	return &ltiWorld{t: t, base: newLTIServer(t, st, lms, ""), st: st, lms: lms}
}

// invite makes an invite made at made (valid for the default lifetime)
// and returns its address.
func (w *ltiWorld) invite(made time.Time) string {
	w.t.Helper()
	public, err := url.Parse(w.base)
	if err != nil {
		w.t.Fatal(err)
	}
	address, _, err := lti.NewInvite(context.Background(), w.st, public, 0, made)
	if err != nil {
		w.t.Fatal(err)
	}
	return address
}

// open gets address in b and returns the answer and its page.
func open(t *testing.T, b *http.Client, address string) (*http.Response, string) {
	t.Helper()
	resp, err := b.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// confirm opens the registration address in b and posts its
// confirmation form as learn's own page does (same origin), with change
// applied to the form's fields; it returns the status and the page.
func (w *ltiWorld) confirm(b *http.Client, address string, change func(url.Values)) (int, string) {
	w.t.Helper()
	resp, body := open(w.t, b, address)
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("GET %s = %d\n%s", address, resp.StatusCode, body)
	}
	action, fields, err := ltiplatform.ReadForm(strings.NewReader(body))
	if err != nil {
		w.t.Fatal(err)
	}
	if change != nil {
		change(fields)
	}
	req, err := http.NewRequest(http.MethodPost, w.base+action, strings.NewReader(fields.Encode()))
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", w.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	post, err := b.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer post.Body.Close()
	page, err := io.ReadAll(post.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	checkFramable(w.t, post, w.lms.Issuer())
	return post.StatusCode, string(page)
}

// checkFramable checks that the answer may be framed by origin alone.
func checkFramable(t *testing.T, resp *http.Response, origin string) {
	t.Helper()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors "+origin) || strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("the registration page's policy %q does not let %s frame it", csp, origin)
	}
	for _, h := range []string{"X-Frame-Options", "Cross-Origin-Opener-Policy"} {
		if v := resp.Header.Get(h); v != "" {
			t.Errorf("the registration page sends %s: %s", h, v)
		}
	}
}

// TestLTIDynamicRegistration: an invite opened by the LMS shows the
// confirmation; the post registers learn with the LMS (its client id and
// deployment), the page says so and names the LMS's origin for the close
// message, and a launch from the newly registered LMS signs a learner in.
// The invite serves once.
func TestLTIDynamicRegistration(t *testing.T) {
	onBothStores(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w := newRegisterWorld(t, st)
		address := w.invite(time.Now())
		if !strings.HasPrefix(address, w.base+lti.RegisterPath+"?invite=") {
			t.Fatalf("invite address %s", address)
		}
		resp, body := open(t, w.browser(), w.lms.RegistrationURL(address))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Register learn with "+ltiplatform.ProductFamily) {
			t.Fatalf("registration page = %d\n%s", resp.StatusCode, body)
		}
		checkFramable(t, resp, w.lms.Issuer())
		status, page := w.confirm(w.browser(), w.lms.RegistrationURL(address), nil)
		if status != http.StatusOK || !strings.Contains(page, "learn is registered with "+w.lms.Issuer()) ||
			!strings.Contains(page, `data-lti-registered="`+w.lms.Issuer()+`"`) {
			t.Fatalf("registration = %d\n%s\nrefused: %v", status, page, w.lms.RefusedRegistrations())
		}
		regs := w.lms.Registrations()
		if len(regs) != 1 {
			t.Fatalf("the LMS took %d registrations", len(regs))
		}
		req := regs[0].Request
		tool, _ := req["https://purl.imsglobal.org/spec/lti-tool-configuration"].(map[string]any)
		for name, ok := range map[string]bool{
			"initiate_login_uri": req["initiate_login_uri"] == w.base+lti.LoginPath,
			"jwks_uri":           req["jwks_uri"] == w.base+lti.JWKSPath,
			"scope":              strings.Contains(req["scope"].(string), lti.ScopeScore) && strings.Contains(req["scope"].(string), "contextmembership.readonly"),
			"domain":             tool["domain"] == strings.TrimPrefix(w.base, "https://"),
		} {
			if !ok {
				t.Errorf("the registration's %s is wrong: %+v", name, req)
			}
		}
		p, err := st.FindPlatform(ctx, w.lms.Issuer(), regs[0].ClientID)
		if err != nil || !p.HasDeployment(regs[0].DeploymentID) || p.JWKSURL != w.lms.JWKSURL() || p.AuthURL != w.lms.AuthURL() || p.TokenURL != w.lms.TokenURL() {
			t.Fatalf("the registered platform = %+v, %v", p, err)
		}
		if w.lms.ClientID != regs[0].ClientID {
			t.Fatalf("the LMS launches as %s, not its registration's %s", w.lms.ClientID, regs[0].ClientID)
		}

		instructor := w.launch(teacherOne, "course-1")
		if _, status, body := w.run(w.browser(), instructor); status != http.StatusOK {
			t.Fatalf("instructor launch after registering = %d\n%s", status, body)
		}
		if path, status, body := w.run(w.browser(), w.launch(learnerOne, "course-1")); status != http.StatusOK || path != "/lessons/"+ltiLesson {
			t.Fatalf("learner launch after registering ended at %s with %d\n%s", path, status, body)
		}

		resp, body = open(t, w.browser(), w.lms.RegistrationURL(address))
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "used already") {
			t.Errorf("the invite again = %d\n%s", resp.StatusCode, body)
		}
	})
}

// TestLTIRegistrationRefusals: each refusal names its check and what to
// do, never shows the registration token, and leaves the invite usable
// when the registration failed at the LMS.
func TestLTIRegistrationRefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		address func(w *ltiWorld) string
		config  func(c map[string]any)
		check   string
		problem string
	}{
		{name: "unknown invite", address: func(w *ltiWorld) string { return w.lms.RegistrationURL(w.base + lti.RegisterPath + "?invite=made-up") },
			check: "invite", problem: "no invite learn knows"},
		{name: "invite missing", address: func(w *ltiWorld) string { return w.lms.RegistrationURL(w.base + lti.RegisterPath) },
			check: "invite", problem: "lacks its invite"},
		{name: "invite expired", address: func(w *ltiWorld) string { return w.lms.RegistrationURL(w.invite(time.Now().Add(-8 * 24 * time.Hour))) },
			check: "invite", problem: "expired"},
		{name: "no openid_configuration", address: func(w *ltiWorld) string { return w.invite(time.Now()) },
			check: "openid_configuration", problem: "opened directly"},
		{name: "issuer on another origin", config: func(c map[string]any) { c["issuer"] = "https://other.example" },
			check: "issuer", problem: "not the origin"},
		{name: "issuer not https", config: func(c map[string]any) { c["issuer"] = "http://lms.example" },
			check: "issuer", problem: "not https"},
		{name: "configuration too large", config: func(c map[string]any) { c["padding"] = strings.Repeat("x", lti.MaxConfigBytes) },
			check: "openid_configuration", problem: "larger than"},
		{name: "no registration endpoint", config: func(c map[string]any) { delete(c, "registration_endpoint") },
			check: "registration_endpoint", problem: "lacks"},
		{name: "no jwks_uri", config: func(c map[string]any) { delete(c, "jwks_uri") },
			check: "jwks_uri", problem: "lacks"},
		{name: "not an LTI platform", config: func(c map[string]any) { delete(c, "https://purl.imsglobal.org/spec/lti-platform-configuration") },
			check: "lti-platform-configuration", problem: "product_family_code"},
		{name: "no RS256", config: func(c map[string]any) { c["id_token_signing_alg_values_supported"] = []string{"ES256"} },
			check: "id_token_signing_alg_values_supported", problem: "RS256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newRegisterWorld(t, sqliteStore(t))
			w.lms.ChangeConfig(tc.config)
			address := w.lms.RegistrationURL(w.invite(time.Now()))
			if tc.address != nil {
				address = tc.address(w)
			}
			resp, body := open(t, w.browser(), address)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `data-testid="lti-check">`+tc.check+"<") || !strings.Contains(body, tc.problem) {
				t.Errorf("GET = %d, want a refusal of %s saying %q\n%s", resp.StatusCode, tc.check, tc.problem, body)
			}
			if strings.Contains(body, "registration_token") {
				t.Errorf("the refusal shows the registration token:\n%s", body)
			}
		})
	}

	t.Run("LMS refuses, then the invite still serves", func(t *testing.T) {
		w := newRegisterWorld(t, sqliteStore(t))
		address := w.lms.RegistrationURL(w.invite(time.Now()))
		status, page := w.confirm(w.browser(), address, func(f url.Values) { f.Set("registration_token", "wrong-token") })
		if status != http.StatusBadRequest || !strings.Contains(page, `lti-check">registration<`) || !strings.Contains(page, "401") || strings.Contains(page, "wrong-token") {
			t.Fatalf("a wrong registration token = %d\n%s", status, page)
		}
		if status, page := w.confirm(w.browser(), address, nil); status != http.StatusOK || !strings.Contains(page, "learn is registered") {
			t.Fatalf("the same invite after the LMS refused = %d\n%s", status, page)
		}
	})

	t.Run("already registered, then the invite still serves", func(t *testing.T) {
		w := newRegisterWorld(t, sqliteStore(t))
		// The test platform hands out registered-client-1 first.
		if _, err := w.st.AddPlatform(context.Background(), lti.Platform{Issuer: w.lms.Issuer(), ClientID: "registered-client-1", AuthURL: w.lms.AuthURL(),
			TokenURL: w.lms.TokenURL(), JWKSURL: w.lms.JWKSURL(), DeploymentIDs: []string{"d"}, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		invite := w.invite(time.Now())
		status, page := w.confirm(w.browser(), w.lms.RegistrationURL(invite), nil)
		if status != http.StatusBadRequest || !strings.Contains(page, `lti-check">registered<`) || !strings.Contains(page, "learn lti remove") {
			t.Fatalf("registering a registered client = %d\n%s", status, page)
		}
		if status, page := w.confirm(w.browser(), w.lms.RegistrationURL(invite), nil); status != http.StatusOK {
			t.Fatalf("the same invite with the LMS's next client id = %d\n%s", status, page)
		}
	})

	t.Run("rate limited", func(t *testing.T) {
		w := newRegisterWorld(t, sqliteStore(t))
		b := w.browser()
		address := w.lms.RegistrationURL(w.base + lti.RegisterPath + "?invite=made-up")
		for i := range progress.LTIRegistrationsPerAddress {
			if resp, _ := open(t, b, address); resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("try %d = %d", i+1, resp.StatusCode)
			}
		}
		if resp, _ := open(t, b, address); resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("one try too many = %d, want 429", resp.StatusCode)
		}
	})
}
