package web

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/lti"
	"learn/postgres/pgtest"
	"learn/storage"
	"learn/store"
)

// ltiReplicas is two learn servers, replicas A (w.base, whose address is
// both servers' public URL) and B (other), each with its own connection
// pool to one PostgreSQL database, and one test LMS registered there.
type ltiReplicas struct {
	*ltiWorld
	other string
}

func newLTIReplicas(t *testing.T) *ltiReplicas {
	t.Helper()
	dbURL := pgtest.Start(t).NewDatabase(t)
	open := func() *store.Store {
		st, err := storage.OpenPostgres(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	w := newLTIWorld(t, open())
	return &ltiReplicas{ltiWorld: w, other: newLTIServer(t, open(), w.lms, w.base)}
}

// launchAt is the launch address on server base (w.base or other).
func (r *ltiReplicas) launchAt(base string) string { return base + lti.LaunchPath }

// tokenNonce reads the nonce of an id_token, without verifying it.
func tokenNonce(t *testing.T, idToken string) string {
	t.Helper()
	parts := strings.Split(idToken, ".")
	if len(parts) != 3 {
		t.Fatalf("the id_token has %d parts", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("the id_token's payload: %v", err)
	}
	var c struct {
		Nonce string `json:"nonce"`
	}
	if err := json.Unmarshal(payload, &c); err != nil || c.Nonce == "" {
		t.Fatalf("the id_token's nonce: %q, %v", c.Nonce, err)
	}
	return c.Nonce
}

// stateFor keeps in the shared database a fresh, valid launch state that
// carries nonce, bound to a new launch cookie it sets in b, as learn's
// login keeps one, and returns the state. No login hands out a nonce
// twice, so this is how a test gets a valid state for a spent nonce: the
// one way past the state's own checks to the nonce's.
func (r *ltiReplicas) stateFor(b *http.Client, nonce string) string {
	r.t.Helper()
	ctx := context.Background()
	p, err := r.st.FindPlatform(ctx, r.lms.Issuer(), r.lms.ClientID)
	if err != nil {
		r.t.Fatal(err)
	}
	state, err := lti.NewBrowserValue()
	if err != nil {
		r.t.Fatal(err)
	}
	browser, err := lti.NewBrowserValue()
	if err != nil {
		r.t.Fatal(err)
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	now := time.Now()
	if err := r.st.SaveState(ctx, lti.State{StateHash: sum(state), BrowserHash: sum(browser), Nonce: nonce, PlatformID: p.ID,
		Target: r.base + "/lessons/" + ltiLesson, ExpiresAt: now.Add(lti.StateLifetime)}, now); err != nil {
		r.t.Fatal(err)
	}
	u, err := url.Parse(r.base + "/lti/")
	if err != nil {
		r.t.Fatal(err)
	}
	// The jar keeps cookies by host, not port: both replicas get it.
	b.Jar.SetCookies(u, []*http.Cookie{{Name: ltiBrowserCookie, Value: browser, Path: "/lti/", Secure: true}})
	return state
}

// isReplayRefusal reports whether a launch's answer is the refusal of a
// nonce used already.
func isReplayRefusal(status int, body string) bool {
	return status == http.StatusBadRequest && refusedCheck(body) == "nonce" && strings.Contains(body, "this launch is a replay")
}

// TestLTINonceAcrossReplicas: on two replicas sharing PostgreSQL, an
// id_token whose launch finished on one is refused as a replay on the
// other, even with a fresh valid state of its nonce (either way round),
// and of two replicas spending one nonce at once exactly one launches.
func TestLTINonceAcrossReplicas(t *testing.T) {
	r := newLTIReplicas(t)
	for _, order := range []struct{ name, first, second string }{
		{"finished on A, replayed on B", r.base, r.other},
		{"finished on B, replayed on A", r.other, r.base},
	} {
		t.Run(order.name, func(t *testing.T) {
			b := r.browser()
			_, fields := r.authorise(b, r.launch(teacherOne, "course-n"))
			if _, status, body := post(t, b, r.launchAt(order.first), fields, r.lms.Issuer()); status != http.StatusOK {
				t.Fatalf("the first launch: %d\n%s", status, body)
			}
			token := fields.Get("id_token")
			// A fresh state from a login of the other replica carries a
			// nonce of its own: the token does not match it.
			_, fresh := r.authorise(b, r.launch(teacherOne, "course-n"))
			fresh.Set("id_token", token)
			if _, status, body := post(t, b, r.launchAt(order.second), fresh, r.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "nonce" {
				t.Errorf("the token with another login's state: %d, %q", status, refusedCheck(body))
			}
			// A fresh state of the token's own nonce: the nonce was spent
			// on the first replica.
			replay := url.Values{"id_token": {token}, "state": {r.stateFor(b, tokenNonce(t, token))}}
			_, status, body := post(t, b, r.launchAt(order.second), replay, r.lms.Issuer())
			if !isReplayRefusal(status, body) {
				t.Errorf("the replay on the second replica: %d, %q\n%s", status, refusedCheck(body), body)
			}
			if strings.Contains(body, token) {
				t.Error("the refusal page shows the token")
			}
		})
	}

	t.Run("race", func(t *testing.T) {
		for round := range 5 {
			nonce := fmt.Sprintf("race-nonce-%d-%d", round, time.Now().UnixNano())
			l := r.launch(teacherOne, fmt.Sprintf("course-race-%d", round))
			token := r.lms.IDToken(l, nonce)
			type answer struct {
				status int
				body   string
				err    error
			}
			servers := []string{r.base, r.other}
			forms := make([]url.Values, len(servers))
			browsers := make([]*http.Client, len(servers))
			for i := range servers {
				browsers[i] = r.browser()
				forms[i] = url.Values{"id_token": {token}, "state": {r.stateFor(browsers[i], nonce)}}
			}
			answers := make([]answer, len(servers))
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, base := range servers {
				wg.Go(func() {
					<-start
					answers[i].status, answers[i].body, answers[i].err = postLaunch(browsers[i], r.launchAt(base), forms[i], r.lms.Issuer())
				})
			}
			close(start)
			wg.Wait()
			launched, replayed := 0, 0
			for i, a := range answers {
				switch {
				case a.err != nil:
					t.Fatalf("round %d, replica %d: %v", round, i, a.err)
				case a.status == http.StatusOK:
					launched++
				case isReplayRefusal(a.status, a.body):
					replayed++
				default:
					t.Errorf("round %d, replica %d: %d, %q\n%s", round, i, a.status, refusedCheck(a.body), a.body)
				}
			}
			if launched != 1 || replayed != 1 {
				t.Errorf("round %d: %d launched and %d refused as replays; want one each", round, launched, replayed)
			}
		}
	})
}

// postLaunch is post for a goroutine of its own: it returns what went
// wrong instead of failing the test.
func postLaunch(b *http.Client, action string, fields url.Values, origin string) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
	if err != nil {
		return 0, "", fmt.Errorf("post %s: %w", action, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := b.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("post %s: %w", action, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", fmt.Errorf("post %s: read the answer: %w", action, err)
	}
	return resp.StatusCode, string(body), nil
}
