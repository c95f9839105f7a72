package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"learn/internal/ltiplatform"
	"learn/lti"
	"learn/store"
)

// TestLTIFraming: after a launch, the browser's pages name the LMS among
// their frame ancestors and send no X-Frame-Options, and the launch's
// cookies are third-party ones; any other browser, or one with a forged
// frame cookie, keeps frame-ancestors 'none' and DENY.
func TestLTIFraming(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := newLTIWorld(t, st)
	w.run(w.browser(), w.launch(teacherOne, "course-frame"))

	b := w.browser()
	action, fields := w.authorise(b, w.launch(learnerOne, "course-frame"))
	req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", w.lms.Issuer())
	noFollow := &http.Client{Transport: b.Transport, Jar: b.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("launch answered %d", resp.StatusCode)
	}
	for _, name := range []string{ltiFrameCookie, learnerCookie} {
		line := setCookieLine(resp.Header, name)
		for _, attr := range []string{"SameSite=None", "Secure", "Partitioned"} {
			if !strings.Contains(line, attr) {
				t.Errorf("the launch's %s cookie %q lacks %s", name, line, attr)
			}
		}
	}

	lms := w.lms.Issuer()
	for _, tc := range []struct {
		name    string
		browser *http.Client
		forge   bool
		framed  bool
	}{
		{"launched browser", b, false, true},
		{"another browser", w.browser(), false, false},
		{"forged frame cookie", w.browser(), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.forge {
				u, _ := url.Parse(w.base)
				tc.browser.Jar.SetCookies(u, []*http.Cookie{{Name: ltiFrameCookie, Value: "MTc2NDAwMDAwMHxodHRwczovL2V2aWwuZXhhbXBsZXw="}})
			}
			resp, err := tc.browser.Get(w.base + "/lessons/" + ltiLesson)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			csp, xfo := resp.Header.Get("Content-Security-Policy"), resp.Header.Get("X-Frame-Options")
			if tc.framed {
				if !strings.Contains(csp, "frame-ancestors "+lms) || xfo != "" {
					t.Errorf("framed page: policy %q, X-Frame-Options %q; want the LMS %s among the frame ancestors", csp, xfo, lms)
				}
				return
			}
			if !strings.Contains(csp, "frame-ancestors 'none'") || xfo != "DENY" {
				t.Errorf("policy %q, X-Frame-Options %q; want no framing", csp, xfo)
			}
		})
	}
}

// setCookieLine returns the last Set-Cookie line of the cookie name: the
// one a browser keeps.
func setCookieLine(h http.Header, name string) string {
	last := ""
	for _, line := range h.Values("Set-Cookie") {
		if strings.HasPrefix(line, name+"=") {
			last = line
		}
	}
	return last
}

// TestLTIFramedLoginWithoutCookies: a framed login initiation sets the
// launch cookie and comes back to itself once; a frame that did not keep
// it gets the platform's storage page when the LMS names a storage
// target, else the link that opens the launch in a new tab, framed by
// the LMS only.
func TestLTIFramedLoginWithoutCookies(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := newLTIWorld(t, st)
	noCookies := &http.Client{Transport: w.lms.Client().Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(t *testing.T, address string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, address, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Sec-Fetch-Dest", "iframe")
		resp, err := noCookies.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	for _, tc := range []struct {
		name, storage, want string
	}{
		{"no storage", "", `data-testid="lti-new-tab"`},
		{"platform storage", ltiplatform.StorageFrame, `data-lti-storage="put"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := w.launch(learnerOne, "course-frame")
			l.StorageTarget = tc.storage
			resp, _ := get(t, w.lms.LoginURL(w.base+lti.LoginPath, l))
			check := resp.Header.Get("Location")
			if resp.StatusCode != http.StatusFound || !strings.Contains(check, cookieCheckParam+"=1") || setCookieLine(resp.Header, ltiBrowserCookie) == "" {
				t.Fatalf("first framed login: %d to %q, cookie %q; want the cookie check", resp.StatusCode, check, setCookieLine(resp.Header, ltiBrowserCookie))
			}
			resp, body := get(t, w.base+check)
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, tc.want) {
				t.Fatalf("login without the cookie: %d, want a page with %s:\n%.600s", resp.StatusCode, tc.want, body)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors "+w.lms.Issuer()) || resp.Header.Get("X-Frame-Options") != "" {
				t.Errorf("the page's policy %q does not let the LMS frame it", csp)
			}
			if tc.storage != "" && !strings.Contains(body, `data-lti-key="learn_state_`) {
				t.Errorf("the storage page names no state key:\n%.600s", body)
			}
		})
	}
}
