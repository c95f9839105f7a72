package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"learn/internal/ltiplatform"
	"learn/lessons"
	"learn/lti"
	"learn/postgres/pgtest"
	"learn/progress"
	"learn/static"
	"learn/storage"
	"learn/store"
)

// ltiWorld is learn on TLS (its public URL is the test server's) with one
// registered test platform.
type ltiWorld struct {
	t    *testing.T
	base string
	st   *store.Store
	lms  *ltiplatform.Platform
}

const ltiLesson = "two-ways-to-fail"

// newLTIServer serves learn on st at a TLS test server whose address is
// public (or, when public is set, behind that public URL).
func newLTIServer(t *testing.T, st *store.Store, lms *ltiplatform.Platform, public string) string {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	css, err := lessons.HighlightCSS()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := static.New(map[string][]byte{"highlight.css": css})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ts := httptest.NewTLSServer(mux)
	t.Cleanup(ts.Close)
	if public == "" {
		public = ts.URL
	}
	u, err := url.Parse(public)
	if err != nil {
		t.Fatal(err)
	}
	k, err := lti.NewKey(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddSigningKey(context.Background(), k, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	tool, err := lti.New(lti.Config{Store: st, PublicURL: u, KeySets: lti.NewKeySets(lms.Client(), 0), Client: lms.Client()})
	if err != nil {
		t.Fatal(err)
	}
	rosters, err := lti.NewRoster(lti.RosterConfig{Store: st, Client: lms.Client()})
	if err != nil {
		t.Fatal(err)
	}
	app, err := progress.New(progress.Config{Course: course, Store: st, LTI: st, Rosters: rosters})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{App: app, Assets: assets, CookieKey: make([]byte, 64), LTI: tool})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/", s)
	return ts.URL
}

func newLTIWorld(t *testing.T, st *store.Store) *ltiWorld {
	t.Helper()
	lms := ltiplatform.Start(t, "learn-client", "deployment-1")
	_, err := st.AddPlatform(context.Background(), lti.Platform{Issuer: lms.Issuer(), ClientID: lms.ClientID, AuthURL: lms.AuthURL(),
		TokenURL: lms.TokenURL(), JWKSURL: lms.JWKSURL(), DeploymentIDs: []string{lms.DeploymentID}, CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return &ltiWorld{t: t, base: newLTIServer(t, st, lms, ""), st: st, lms: lms}
}

// onBothLTIEngines runs fn on a SQLite file and on PostgreSQL.
func onBothLTIEngines(t *testing.T, fn func(t *testing.T, w *ltiWorld)) {
	onBothStores(t, func(t *testing.T, st *store.Store) { fn(t, newLTIWorld(t, st)) })
}

// onBothStores runs fn on a store in a SQLite file and on one in
// PostgreSQL.
func onBothStores(t *testing.T, fn func(t *testing.T, st *store.Store)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, sqliteStore(t)) })
	t.Run("postgres", func(t *testing.T) {
		st, err := storage.OpenPostgres(context.Background(), pgtest.Start(t).NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		fn(t, st)
	})
}

// sqliteStore opens a store in a SQLite file of its own until t ends.
func sqliteStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// browser is a client with its own cookies that trusts the test servers.
func (w *ltiWorld) browser() *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		w.t.Fatal(err)
	}
	c := w.lms.Client()
	return &http.Client{Transport: c.Transport, Jar: jar}
}

// launch describes a launch of user into learn's lesson page.
func (w *ltiWorld) launch(user ltiplatform.User, context string) ltiplatform.Launch {
	return ltiplatform.Launch{User: user, ContextID: context, ContextTitle: "Course " + context, ResourceLinkID: "link-1",
		Target: w.base + "/lessons/" + ltiLesson}
}

// authorise runs the login initiation in b and returns the platform's
// auto-posting form.
func (w *ltiWorld) authorise(b *http.Client, l ltiplatform.Launch) (string, url.Values) {
	w.t.Helper()
	resp, err := b.Get(w.lms.LoginURL(w.base+lti.LoginPath, l))
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.String(), w.lms.AuthURL()) {
		body, _ := io.ReadAll(resp.Body)
		w.t.Fatalf("login initiation ended at %s with %d:\n%s", resp.Request.URL, resp.StatusCode, body)
	}
	action, fields, err := ltiplatform.ReadForm(resp.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	return action, fields
}

// post posts the form as the platform's page does, from the platform's
// origin, and returns where the browser ended, the status and the page.
func post(t *testing.T, b *http.Client, action string, fields url.Values, origin string) (string, int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Request.URL.Path, resp.StatusCode, string(body)
}

// run is a whole launch in b.
func (w *ltiWorld) run(b *http.Client, l ltiplatform.Launch) (string, int, string) {
	w.t.Helper()
	action, fields := w.authorise(b, l)
	return post(w.t, b, action, fields, w.lms.Issuer())
}

// classOf returns the class of the LMS course contextID.
func (w *ltiWorld) classOf(contextID string) progress.Class {
	w.t.Helper()
	ctx := context.Background()
	id, err := w.st.FindLTIContext(ctx, progress.LTIContext{Issuer: w.lms.Issuer(), DeploymentID: w.lms.DeploymentID, ContextID: contextID})
	if err != nil {
		w.t.Fatalf("the LMS course %s has no class: %v", contextID, err)
	}
	c, err := w.st.FindClass(ctx, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return c
}

var (
	teacherOne = ltiplatform.User{Sub: "u-instructor-1", Name: "Instructor One", Roles: []string{ltiplatform.Instructor}}
	teacherTwo = ltiplatform.User{Sub: "u-instructor-2", Name: "Instructor Two", Roles: []string{ltiplatform.Instructor}}
	learnerOne = ltiplatform.User{Sub: "u-learner-1", Name: "Learner One", Roles: []string{ltiplatform.Learner}}
)

// TestLTILaunches: the first instructor launch makes the class and its
// owner, a second instructor co-teaches, a learner becomes a member under
// their LMS name and lands on the lesson, and the same LMS user on
// another browser is the same learner.
func TestLTILaunches(t *testing.T) {
	onBothLTIEngines(t, testLTILaunches)
}

func testLTILaunches(t *testing.T, w *ltiWorld) {
	ctx := context.Background()
	instructor := w.launch(teacherOne, "course-1")
	instructor.Target = w.base + "/"
	shared := w.browser()
	path, status, body := w.run(shared, instructor)
	class := w.classOf("course-1")
	if status != http.StatusOK || path != fmt.Sprintf("/classes/%d", class.ID) {
		t.Fatalf("instructor launch ended at %s with %d:\n%s", path, status, body)
	}
	owner, err := w.st.FindTeacher(ctx, class.TeacherID)
	if err != nil || owner.Name != "Instructor One" || class.Name != "Course course-1" {
		t.Errorf("class %+v, owner %+v, %v", class, owner, err)
	}

	path, status, body = w.run(w.browser(), w.launch(teacherTwo, "course-1"))
	if status != http.StatusOK || path != "/lessons/"+ltiLesson {
		t.Fatalf("second instructor launch ended at %s with %d:\n%s", path, status, body)
	}
	u2, err := w.st.FindLTIUser(ctx, w.lms.Issuer(), teacherTwo.Sub)
	if err != nil || u2.TeacherID == 0 {
		t.Fatalf("second instructor's link: %+v, %v", u2, err)
	}
	if co, err := w.st.IsCoTeacher(ctx, class.ID, u2.TeacherID); err != nil || !co {
		t.Errorf("the second instructor co-teaches: %v, %v", co, err)
	}
	if again := w.classOf("course-1"); again.TeacherID != owner.ID {
		t.Errorf("the class changed owner: %+v", again)
	}

	first := w.browser()
	path, status, body = w.run(first, w.launch(learnerOne, "course-1"))
	if status != http.StatusOK || path != "/lessons/"+ltiLesson {
		t.Fatalf("learner launch ended at %s with %d:\n%s", path, status, body)
	}
	link, err := w.st.FindLTIUser(ctx, w.lms.Issuer(), learnerOne.Sub)
	if err != nil || link.TeacherID != 0 {
		t.Fatalf("learner link: %+v, %v", link, err)
	}
	m, err := w.st.FindMember(ctx, class.ID, link.LearnerID)
	if err != nil || m.Name != "Learner One" {
		t.Errorf("member %+v, %v", m, err)
	}
	// Another device: the same learner, still one member.
	if _, status, _ = w.run(w.browser(), w.launch(learnerOne, "course-1")); status != http.StatusOK {
		t.Fatalf("second learner launch: %d", status)
	}
	if again, err := w.st.FindLTIUser(ctx, w.lms.Issuer(), learnerOne.Sub); err != nil || again.LearnerID != link.LearnerID {
		t.Errorf("the second launch's learner %+v, %v; want %s", again, err, link.LearnerID)
	}
	members, err := w.st.Members(ctx, class.ID)
	if err != nil || len(members) != 1 {
		t.Errorf("members = %+v, %v; want the one learner", members, err)
	}
	// A learner launching on the instructor's browser is no teacher there.
	if _, status, _ = w.run(shared, w.launch(learnerOne, "course-1")); status != http.StatusOK {
		t.Fatalf("learner launch on the instructor's browser: %d", status)
	}
	resp, err := shared.Get(fmt.Sprintf("%s/classes/%d", w.base, class.ID))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the class page after a learner's launch on the instructor's browser: %d, want 404", resp.StatusCode)
	}
	// The custom parameter names the lesson too.
	custom := w.launch(learnerOne, "course-1")
	custom.Target, custom.Custom = w.base+"/", map[string]string{"lesson": ltiLesson}
	if path, status, _ = w.run(first, custom); status != http.StatusOK || path != "/lessons/"+ltiLesson {
		t.Errorf("a launch with custom lesson ended at %s with %d", path, status)
	}
	// A learner of a course no instructor opened yet is told so.
	if _, status, body = w.run(w.browser(), w.launch(learnerOne, "course-2")); status != http.StatusBadRequest || !strings.Contains(body, "instructor opens learn") {
		t.Errorf("a learner first in a course: %d\n%s", status, body)
	}
}

// refusedCheck returns the check a refusal page names, or "".
func refusedCheck(body string) string {
	_, after, ok := strings.Cut(body, `data-testid="lti-check">`)
	if !ok {
		return ""
	}
	check, _, _ := strings.Cut(after, "<")
	return check
}

// TestLTIRefusals: every rule of the launch refuses a launch that breaks
// it, with a page naming the check (never the token), on both engines.
func TestLTIRefusals(t *testing.T) {
	onBothLTIEngines(t, testLTIRefusals)
}

func testLTIRefusals(t *testing.T, w *ltiWorld) {
	now := time.Now()
	for _, tc := range []struct {
		name   string
		change func(l *ltiplatform.Launch)
		check  string
	}{
		{"wrong iss", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"iss": "https://other.example"} }, "iss"},
		{"wrong aud", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"aud": "another-client"} }, "aud"},
		{"aud array without azp", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"aud": []string{"learn-client", "x"}} }, "azp"},
		{"wrong azp", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"azp": "another-client"} }, "azp"},
		{"expired", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"exp": now.Add(-2 * time.Hour).Unix()} }, "exp"},
		{"no exp", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"exp": nil} }, "exp"},
		{"iat in the future", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"iat": now.Add(time.Hour).Unix()} }, "iat"},
		{"wrong nonce", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"nonce": "made-up"} }, "nonce"},
		{"wrong deployment", func(l *ltiplatform.Launch) {
			l.Claims = map[string]any{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-2"}
		}, "deployment_id"},
		{"wrong message type", func(l *ltiplatform.Launch) {
			l.Claims = map[string]any{"https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiSubmissionReviewRequest"}
		}, "message_type"},
		{"wrong version", func(l *ltiplatform.Launch) {
			l.Claims = map[string]any{"https://purl.imsglobal.org/spec/lti/claim/version": "1.1"}
		}, "version"},
		{"target link on another origin", func(l *ltiplatform.Launch) {
			l.Claims = map[string]any{"https://purl.imsglobal.org/spec/lti/claim/target_link_uri": "https://evil.example/lessons/" + ltiLesson}
		}, "target_link_uri"},
		{"tampered signature", func(l *ltiplatform.Launch) { l.Sign = ltiplatform.Tampered }, "signature"},
		{"alg none", func(l *ltiplatform.Launch) { l.Sign = ltiplatform.AlgNone }, "alg"},
		{"HS256 with the public key", func(l *ltiplatform.Launch) { l.Sign = ltiplatform.HS256PublicKey }, "alg"},
		{"unknown kid", func(l *ltiplatform.Launch) { l.Sign = ltiplatform.UnknownKey }, "kid"},
		{"no user", func(l *ltiplatform.Launch) { l.Claims = map[string]any{"sub": nil} }, "sub"},
		{"no role", func(l *ltiplatform.Launch) {
			l.User.Roles = []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"}
		}, "roles"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := w.launch(teacherOne, "course-r")
			tc.change(&l)
			b := w.browser()
			action, fields := w.authorise(b, l)
			_, status, body := post(t, b, action, fields, w.lms.Issuer())
			if got := refusedCheck(body); status != http.StatusBadRequest || got != tc.check {
				t.Errorf("refused with %d, check %q; want 400, %q\n%s", status, got, tc.check, body)
			}
			if strings.Contains(body, fields.Get("id_token")) || strings.Contains(body, "eyJ") {
				t.Error("the refusal page shows the token")
			}
		})
	}

	t.Run("target link on another origin at login", func(t *testing.T) {
		l := w.launch(teacherOne, "course-r")
		l.Target = "https://evil.example/lessons/" + ltiLesson
		resp, err := w.browser().Get(w.lms.LoginURL(w.base+lti.LoginPath, l))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := refusedCheck(string(body)); resp.StatusCode != http.StatusBadRequest || got != "target_link_uri" {
			t.Errorf("login with a foreign target = %d, %q", resp.StatusCode, got)
		}
	})

	t.Run("replayed state", func(t *testing.T) {
		b := w.browser()
		action, fields := w.authorise(b, w.launch(teacherOne, "course-r"))
		if _, status, body := post(t, b, action, fields, w.lms.Issuer()); status != http.StatusOK {
			t.Fatalf("first post: %d\n%s", status, body)
		}
		if _, status, body := post(t, b, action, fields, w.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "state" {
			t.Errorf("replay: %d, %q", status, refusedCheck(body))
		}
	})

	t.Run("replayed id_token with a fresh state", func(t *testing.T) {
		b := w.browser()
		action, fields := w.authorise(b, w.launch(teacherOne, "course-r"))
		if _, status, _ := post(t, b, action, fields, w.lms.Issuer()); status != http.StatusOK {
			t.Fatalf("first post: %d", status)
		}
		_, fresh := w.authorise(b, w.launch(teacherOne, "course-r"))
		fresh.Set("id_token", fields.Get("id_token"))
		if _, status, body := post(t, b, action, fresh, w.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "nonce" {
			t.Errorf("replayed token: %d, %q", status, refusedCheck(body))
		}
	})

	t.Run("state from another browser", func(t *testing.T) {
		action, fields := w.authorise(w.browser(), w.launch(teacherOne, "course-r"))
		if _, status, body := post(t, w.browser(), action, fields, w.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "browser" {
			t.Errorf("another browser's state: %d, %q", status, refusedCheck(body))
		}
	})

	t.Run("rotated platform key is fetched once", func(t *testing.T) {
		b := w.browser()
		if _, status, _ := w.run(b, w.launch(teacherOne, "course-r")); status != http.StatusOK {
			t.Fatalf("launch before the rotation: %d", status)
		}
		before := w.lms.KeySetFetches()
		w.lms.RotateKey()
		if _, status, body := w.run(b, w.launch(teacherOne, "course-r")); status != http.StatusOK {
			t.Fatalf("launch after the rotation: %d\n%s", status, body)
		}
		if got := w.lms.KeySetFetches() - before; got != 1 {
			t.Errorf("the key set was fetched %d times after the rotation, want 1", got)
		}
		if _, status, _ := w.run(b, w.launch(teacherOne, "course-r")); status != http.StatusOK || w.lms.KeySetFetches()-before != 1 {
			t.Errorf("a launch with the cached key fetched the set again (%d)", status)
		}
	})
}

// TestLTIStateAcrossServers: two servers on one PostgreSQL database: a
// launch begun on one finishes on the other, and its replay fails on
// both.
func TestLTIStateAcrossServers(t *testing.T) {
	cluster := pgtest.Start(t)
	dbURL := cluster.NewDatabase(t)
	open := func() *store.Store {
		st, err := storage.OpenPostgres(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	w := newLTIWorld(t, open())
	other := newLTIServer(t, open(), w.lms, w.base)
	b := w.browser()
	action, fields := w.authorise(b, w.launch(teacherOne, "course-x"))
	if !strings.HasPrefix(action, w.base) {
		t.Fatalf("the form posts to %s", action)
	}
	onOther := other + strings.TrimPrefix(action, w.base)
	if _, status, body := post(t, b, onOther, fields, w.lms.Issuer()); status != http.StatusOK {
		t.Fatalf("finishing on the other server: %d\n%s", status, body)
	}
	for _, to := range []string{action, onOther} {
		if _, status, body := post(t, b, to, fields, w.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "state" {
			t.Errorf("replay at %s: %d, %q", to, status, refusedCheck(body))
		}
	}
}

// TestLTIWithoutPublicURL: a server without a public URL refuses every
// LTI route with a page saying what to start it with.
func TestLTIWithoutPublicURL(t *testing.T) {
	s := newTestServer(t)
	for _, r := range []*http.Request{
		httptest.NewRequest(http.MethodGet, lti.JWKSPath, nil),
		httptest.NewRequest(http.MethodGet, lti.LoginPath+"?iss=x", nil),
		httptest.NewRequest(http.MethodPost, lti.LaunchPath, strings.NewReader("id_token=x&state=y")),
		httptest.NewRequest(http.MethodPost, lti.DeepLinkPath, strings.NewReader("request=x&item=course")),
	} {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if rec.Code != http.StatusNotFound || refusedCheck(rec.Body.String()) != "public-url" || !strings.Contains(rec.Body.String(), "--public-url") {
			t.Errorf("%s %s = %d, %q", r.Method, r.URL.Path, rec.Code, refusedCheck(rec.Body.String()))
		}
	}
}

// TestLTIKeySetAndHeaders: the key set holds learn's public key only;
// the launch route takes a cross-site post while other routes keep the
// cross-origin protection, and framing stays denied.
func TestLTIKeySetAndHeaders(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := newLTIWorld(t, st)
	b := w.browser()
	resp, err := b.Get(w.base + lti.JWKSPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"kty":"RSA"`) || strings.Contains(string(body), `"d":`) {
		t.Errorf("key set = %d\n%s", resp.StatusCode, body)
	}
	if got := resp.Header.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("X-Frame-Options = %q", got)
	}
	// The launch takes a cross-site post (refused for its state, not its
	// origin); another route still refuses one.
	if _, status, body := post(t, b, w.base+lti.LaunchPath, url.Values{"id_token": {"x"}, "state": {"y"}}, w.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "state" {
		t.Errorf("cross-site launch post: %d, %q", status, refusedCheck(body))
	}
	// The platform's authorisation may answer an error instead of a token.
	if _, status, body := post(t, b, w.base+lti.LaunchPath, url.Values{"error": {"login_required"}, "error_description": {"<b>Sign in</b>"}, "state": {"y"}}, w.lms.Issuer()); status != http.StatusBadRequest || refusedCheck(body) != "authorisation" || !strings.Contains(body, "login_required") || strings.Contains(body, "<b>") {
		t.Errorf("an authorisation error: %d, %q", status, refusedCheck(body))
	}
	if _, status, _ := post(t, b, w.base+"/join", url.Values{"code": {"ABCDEF"}}, w.lms.Issuer()); status != http.StatusForbidden {
		t.Errorf("cross-site post to /join = %d, want 403", status)
	}
}

// TestLaunchLesson checks which lesson a resource link opens: its custom
// parameter, else a target link whose path is /lessons/<slug>, and
// nothing for a slug that is not the course's or /lessons/ elsewhere in
// the address.
func TestLaunchLesson(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name, custom, target, want string
	}{
		{"custom parameter", "tool-annotations", "https://learn.example/lti/launch", "tool-annotations"},
		{"target link path", "", "https://learn.example/lessons/two-ways-to-fail", "two-ways-to-fail"},
		{"target link with query and fragment", "", "https://learn.example/lessons/two-ways-to-fail?x=1#quiz", "two-ways-to-fail"},
		{"lessons only in the query", "", "https://learn.example/lti/launch?next=/lessons/two-ways-to-fail", ""},
		{"unknown lesson", "no-such-lesson", "https://learn.example/lti/launch", ""},
		{"no lesson", "", "https://learn.example/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := lti.Launched{TargetLinkURI: tt.target, Custom: map[string]string{}}
			if tt.custom != "" {
				l.Custom["lesson"] = tt.custom
			}
			if got := s.launchLesson(l); got != tt.want {
				t.Errorf("launchLesson(%q, %q) = %q, want %q", tt.custom, tt.target, got, tt.want)
			}
		})
	}
}
