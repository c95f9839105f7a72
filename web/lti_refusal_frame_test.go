package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"learn/internal/ltiplatform"
	"learn/lti"
	"learn/store"
)

// frameAncestors returns the frame-ancestors sources of a policy.
func frameAncestors(policy string) string {
	for d := range strings.SplitSeq(policy, ";") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(d), "frame-ancestors "); ok {
			return rest
		}
	}
	return ""
}

// refusalAnswer is what a refused request answered: its status, check
// and the two framing headers.
type refusalAnswer struct {
	status         int
	check          string
	ancestors, xfo string
}

func readRefusal(t *testing.T, resp *http.Response, err error) refusalAnswer {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return refusalAnswer{status: resp.StatusCode, check: refusedCheck(string(body)),
		ancestors: frameAncestors(resp.Header.Get("Content-Security-Policy")), xfo: resp.Header.Get("X-Frame-Options")}
}

// TestLTIRefusalFraming: a login initiation or launch refused for a
// registered LMS shows its refusal page framable by that LMS's origin
// only (not by another registered LMS's), without X-Frame-Options; one
// naming no registered platform (an unknown issuer, a registered issuer
// with an unknown client id, no token at all) keeps frame-ancestors
// 'none' and DENY.
func TestLTIRefusalFraming(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := newLTIWorld(t, st)
	other := ltiplatform.Start(t, "learn-client-2", "deployment-9")
	if _, err := st.AddPlatform(context.Background(), lti.Platform{Issuer: other.Issuer(), ClientID: other.ClientID, AuthURL: other.AuthURL(),
		TokenURL: other.TokenURL(), JWKSURL: other.JWKSURL(), DeploymentIDs: []string{other.DeploymentID}, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	lms, otherLMS := lti.Origin(w.lms.Issuer()), lti.Origin(other.Issuer())
	if lms == otherLMS {
		t.Fatalf("the two LMSs share the origin %s", lms)
	}

	launch := func(fields url.Values) refusalAnswer {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, w.base+lti.LaunchPath, strings.NewReader(fields.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", w.lms.Issuer())
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Sec-Fetch-Dest", "iframe")
		resp, err := w.browser().Do(req)
		return readRefusal(t, resp, err)
	}
	login := func(p *ltiplatform.Platform, l ltiplatform.Launch, change func(q url.Values)) refusalAnswer {
		t.Helper()
		u, err := url.Parse(p.LoginURL(w.base+lti.LoginPath, l))
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if change != nil {
			change(q)
		}
		u.RawQuery = q.Encode()
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := w.browser().Do(req)
		return readRefusal(t, resp, err)
	}
	withClaims := func(p *ltiplatform.Platform, claims map[string]any) string {
		l := w.launch(teacherOne, "course-rf")
		l.Claims = claims
		return p.IDToken(l, "some-nonce")
	}
	foreign := w.launch(teacherOne, "course-rf")
	foreign.Target = "https://evil.example/lessons/" + ltiLesson

	for _, tc := range []struct {
		name   string
		answer func() refusalAnswer
		check  string
		framer string // "" for none
	}{
		{"launch of a registered LMS with an unknown state", func() refusalAnswer {
			return launch(url.Values{"id_token": {withClaims(w.lms, nil)}, "state": {"unknown"}})
		}, "state", lms},
		{"launch of the other registered LMS", func() refusalAnswer {
			return launch(url.Values{"id_token": {withClaims(other, nil)}, "state": {"unknown"}})
		}, "state", otherLMS},
		{"launch of a registered LMS with a wrong deployment", func() refusalAnswer {
			b := w.browser()
			l := w.launch(teacherOne, "course-rf")
			l.Claims = map[string]any{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-2"}
			action, fields := w.authorise(b, l)
			req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", w.lms.Issuer())
			resp, err := b.Do(req)
			return readRefusal(t, resp, err)
		}, "deployment_id", lms},
		{"launch of an unknown issuer", func() refusalAnswer {
			return launch(url.Values{"id_token": {withClaims(w.lms, map[string]any{"iss": "https://other.example"})}, "state": {"unknown"}})
		}, "state", ""},
		{"launch of a registered issuer for an unknown client id", func() refusalAnswer {
			return launch(url.Values{"id_token": {withClaims(w.lms, map[string]any{"aud": "someone-else"})}, "state": {"unknown"}})
		}, "state", ""},
		{"launch without a token", func() refusalAnswer {
			return launch(url.Values{"state": {"unknown"}})
		}, "state", ""},
		{"launch with a token that is no JWT", func() refusalAnswer {
			return launch(url.Values{"id_token": {"not-a-token"}, "state": {"unknown"}})
		}, "state", ""},
		{"login of a registered LMS to a foreign target", func() refusalAnswer {
			return login(w.lms, foreign, nil)
		}, "target_link_uri", lms},
		{"login of a registered LMS for an unknown deployment", func() refusalAnswer {
			return login(w.lms, w.launch(teacherOne, "course-rf"), func(q url.Values) { q.Set("lti_deployment_id", "deployment-2") })
		}, "deployment_id", lms},
		{"login of an unknown issuer", func() refusalAnswer {
			return login(w.lms, w.launch(teacherOne, "course-rf"), func(q url.Values) { q.Set("iss", "https://other.example") })
		}, "iss", ""},
		{"login of a registered issuer for an unknown client id", func() refusalAnswer {
			return login(w.lms, w.launch(teacherOne, "course-rf"), func(q url.Values) { q.Set("client_id", "someone-else") })
		}, "iss", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.answer()
			if a.status != http.StatusBadRequest || a.check != tc.check {
				t.Fatalf("refused with %d, check %q; want 400, %q", a.status, a.check, tc.check)
			}
			if tc.framer == "" {
				if a.ancestors != "'none'" || a.xfo != "DENY" {
					t.Errorf("frame-ancestors %q, X-Frame-Options %q; want 'none' and DENY", a.ancestors, a.xfo)
				}
				return
			}
			if a.ancestors != tc.framer || a.xfo != "" {
				t.Errorf("frame-ancestors %q, X-Frame-Options %q; want %s only and none", a.ancestors, a.xfo, tc.framer)
			}
		})
	}
}
