package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/static"
	"learn/store"
)

// classWorld is a real server on a temp database with direct access to the
// store, to add teachers as the operator would.
type classWorld struct {
	t    *testing.T
	base string
	st   *store.Store
	app  *progress.Service
}

// benchWorld is a server and its store, for benchmarks.
type benchWorld struct {
	srv *Server
	st  *store.Store
	app *progress.Service
}

func newBenchWorld(tb testing.TB) benchWorld {
	tb.Helper()
	st, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "learn.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return newBenchWorldOn(tb, st)
}

// newBenchWorldOn is newBenchWorld on the database st (SQLite or
// PostgreSQL).
func newBenchWorldOn(tb testing.TB, st *store.Store) benchWorld {
	tb.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		tb.Fatal(err)
	}
	css, err := lessons.HighlightCSS()
	if err != nil {
		tb.Fatal(err)
	}
	assets, err := static.New(map[string][]byte{"highlight.css": css})
	if err != nil {
		tb.Fatal(err)
	}
	// The clock stands still, so rate limits refill only when a test says
	// so, however slow the machine.
	frozen := time.Now()
	app, err := progress.New(progress.Config{Course: course, Store: st, Now: func() time.Time { return frozen }})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New(Config{App: app, Assets: assets, CookieKey: make([]byte, 64)})
	if err != nil {
		tb.Fatal(err)
	}
	return benchWorld{srv: s, st: st, app: app}
}

func newClassWorld(t *testing.T) *classWorld {
	t.Helper()
	return classWorldFor(t, newBenchWorld(t))
}

func classWorldFor(t *testing.T, bw benchWorld) *classWorld {
	t.Helper()
	ts := httptest.NewServer(bw.srv)
	t.Cleanup(ts.Close)
	return &classWorld{t: t, base: ts.URL, st: bw.st, app: bw.app}
}

const testPassword = "correct horse battery"

func (w *classWorld) addTeacher(email string, admin bool) {
	w.t.Helper()
	if _, err := progress.AddTeacher(context.Background(), w.st, progress.TeacherInput{Email: email, Password: testPassword, Admin: admin}, time.Now()); err != nil {
		w.t.Fatal(err)
	}
}

// browser is an HTTP client with a cookie jar that does not follow
// redirects, so tests see every 303.
type browser struct {
	t    *testing.T
	base string
	http *http.Client
	jar  *cookiejar.Jar
}

func (w *classWorld) browser() *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{t: w.t, base: w.base, jar: jar, http: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	b.get("/")
	return b
}

type answer struct {
	status   int
	body     string
	location string
	header   http.Header
}

func (b *browser) do(method, path string, form url.Values) answer {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, body: string(raw), location: resp.Header.Get("Location"), header: resp.Header}
}

func (b *browser) get(path string) answer { b.t.Helper(); return b.do(http.MethodGet, path, nil) }
func (b *browser) post(path string, form url.Values) answer {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	return b.do(http.MethodPost, path, form)
}

func (b *browser) cookie(name string) string {
	u, _ := url.Parse(b.base)
	for _, c := range b.jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

func (b *browser) setCookie(name, value string) {
	u, _ := url.Parse(b.base)
	b.jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

func (b *browser) signIn(email string) {
	b.t.Helper()
	a := b.post("/signin", url.Values{"email": {email}, "password": {testPassword}})
	if a.status != http.StatusSeeOther || a.location != "/classes" {
		b.t.Fatalf("sign-in of %s = %d %q, want 303 to /classes:\n%s", email, a.status, a.location, a.body)
	}
}

// createClass makes a class and returns its path.
func (b *browser) createClass(name string) string {
	b.t.Helper()
	a := b.post("/classes", url.Values{"name": {name}, "tz": {"Europe/Paris"}})
	if a.status != http.StatusSeeOther || !regexp.MustCompile(`^/classes/\d+$`).MatchString(a.location) {
		b.t.Fatalf("POST /classes = %d %q, want 303 to /classes/{id}:\n%s", a.status, a.location, a.body)
	}
	return a.location
}

var joinCodeRe = regexp.MustCompile(`data-testid="join-code">([A-Z0-9]+)<`)
var secretRe = regexp.MustCompile(`data-testid="secret-words">([a-z ]+)<`)

func (b *browser) joinCode(classPath string) string {
	b.t.Helper()
	m := joinCodeRe.FindStringSubmatch(b.get(classPath).body)
	if m == nil {
		b.t.Fatalf("no join code on %s", classPath)
	}
	return m[1]
}

// join joins the class and returns the secret words.
func (b *browser) join(code, name string) string {
	b.t.Helper()
	a := b.post("/join", url.Values{"code": {code}, "name": {name}})
	m := secretRe.FindStringSubmatch(a.body)
	if a.status != http.StatusOK || m == nil {
		b.t.Fatalf("join %s as %s = %d, no secret words:\n%s", code, name, a.status, a.body)
	}
	return m[1]
}

var xpRe = regexp.MustCompile(`data-testid="xp-total">(\d+)<`)

func (b *browser) xp() string {
	b.t.Helper()
	m := xpRe.FindStringSubmatch(b.get("/progress").body)
	if m == nil {
		b.t.Fatal("no XP in the header")
	}
	return m[1]
}

// earn checks the first classify widget right, for some XP.
func (b *browser) earn(s *progress.Service) {
	b.t.Helper()
	for _, l := range s.Course().Lessons {
		for _, seg := range l.Segments {
			if seg.Widget != nil && seg.Widget.Kind == "classify" {
				a := b.post("/lessons/"+l.Slug+"/widgets/"+seg.Widget.ID, rightAnswers(seg.Widget))
				if a.status != http.StatusOK && a.status != http.StatusSeeOther {
					b.t.Fatalf("widget check = %d", a.status)
				}
				return
			}
		}
	}
}

var learnerLinkRe = regexp.MustCompile(`href="(/classes/\d+/learners/[0-9a-f]{32})"`)

func TestClassRoutesAnswer404ToEveryoneButTheirTeacher(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("owner@school.example", false)
	w.addTeacher("other@school.example", false)
	owner, other, learner, stranger := w.browser(), w.browser(), w.browser(), w.browser()
	owner.signIn("owner@school.example")
	other.signIn("other@school.example")
	class := owner.createClass("Year 9")
	learner.join(owner.joinCode(class), "Red Kite")
	m := learnerLinkRe.FindStringSubmatch(owner.get(class).body)
	if m == nil {
		t.Fatal("the dashboard has no link to the learner's page")
	}
	learnerPage := m[1]
	slug := w.app.Course().Lessons[0].Slug
	if a := owner.post(class+"/assignments", url.Values{"lesson": {slug}}); a.status != http.StatusSeeOther {
		t.Fatalf("assign = %d", a.status)
	}
	routes := []struct {
		method, path string
		form         url.Values
		ownerStatus  int
	}{
		{"GET", class, nil, 200},
		{"GET", class + "?sort=xp", nil, 200},
		{"GET", class + "/export.csv", nil, 200},
		{"GET", learnerPage, nil, 200},
		{"POST", class + "/settings", url.Values{"name": {"Renamed"}}, 303},
		{"POST", class + "/settings", url.Values{"code": {"new"}}, 303},
		{"POST", class + "/assignments", url.Values{"lesson": {w.app.Course().Lessons[1].Slug}}, 303},
		{"POST", class + "/assignments/" + slug + "/delete", url.Values{}, 303},
		{"POST", learnerPage + "/secret", url.Values{"confirm": {"yes"}}, 303},
		{"POST", class + "/delete", url.Values{}, 422}, // not archived yet
		{"POST", learnerPage + "/remove", url.Values{"confirm": {"yes"}}, 303},
	}
	h1 := regexp.MustCompile(`<h1>([^<]*)</h1>[\s\S]*?data-testid="join-code">([A-Z0-9]+)<`)
	state := func() string {
		m := h1.FindStringSubmatch(owner.get(class).body)
		if m == nil {
			t.Fatal("the dashboard lost its heading or join code")
		}
		return m[1] + " " + m[2]
	}
	for _, rt := range routes {
		before := state()
		for _, who := range []struct {
			name string
			b    *browser
		}{{"another teacher", other}, {"a learner of the class", learner}, {"a stranger", stranger}} {
			a := who.b.do(rt.method, rt.path, rt.form)
			if a.status != http.StatusNotFound {
				t.Errorf("%s %s by %s = %d, want 404", rt.method, rt.path, who.name, a.status)
			}
			if strings.Contains(a.body, "Red Kite") || strings.Contains(a.body, "Year 9") {
				t.Errorf("%s %s by %s shows the class's data", rt.method, rt.path, who.name)
			}
		}
		// Nothing the others posted changed the class.
		if after := state(); after != before {
			t.Fatalf("after others' %s %s the class went from %q to %q", rt.method, rt.path, before, after)
		}
		if a := owner.do(rt.method, rt.path, rt.form); a.status != rt.ownerStatus {
			t.Errorf("%s %s by its teacher = %d, want %d:\n%.400s", rt.method, rt.path, a.status, rt.ownerStatus, a.body)
		}
	}
	if a := other.get("/classes/999999"); a.status != http.StatusNotFound {
		t.Errorf("a class that does not exist = %d, want 404", a.status)
	}
	if a := other.get("/classes/abc"); a.status != http.StatusNotFound {
		t.Errorf("a malformed class id = %d, want 404", a.status)
	}
	if body := other.get("/classes").body; strings.Contains(body, "Renamed") {
		t.Error("another teacher's class list shows the owner's class")
	}
	// Archived, the class's data can be deleted, by its teacher only.
	if a := owner.post(class+"/settings", url.Values{"archive": {"on"}}); a.status != http.StatusSeeOther {
		t.Fatalf("archive = %d", a.status)
	}
	if a := other.post(class+"/delete", nil); a.status != http.StatusNotFound {
		t.Errorf("another teacher deleting an archived class = %d, want 404", a.status)
	}
	if a := owner.post(class+"/delete", confirmYes); a.status != http.StatusSeeOther {
		t.Errorf("deleting an archived class = %d, want 303", a.status)
	}
	if a := owner.get(class); a.status != http.StatusNotFound {
		t.Errorf("a deleted class = %d, want 404", a.status)
	}
}

func TestTeachersPageIsForAdminsOnly(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("admin@school.example", true)
	w.addTeacher("plain@school.example", false)
	admin, plain, learner := w.browser(), w.browser(), w.browser()
	admin.signIn("admin@school.example")
	plain.signIn("plain@school.example")
	if a := admin.get("/teachers"); a.status != 200 || !strings.Contains(a.body, "plain@school.example") {
		t.Errorf("an admin's /teachers = %d, want the list", a.status)
	}
	for name, b := range map[string]*browser{"a teacher": plain, "a learner": learner} {
		if a := b.get("/teachers"); a.status != http.StatusNotFound || strings.Contains(a.body, "admin@school.example") {
			t.Errorf("/teachers for %s = %d, want 404 and no e-mails", name, a.status)
		}
	}
}

func TestSignInRotatesTheSession(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	b := w.browser()
	// A session id planted before sign-in (session fixation) is never the
	// one signed in.
	const planted = "planted-by-someone-else-0123456789abcdef"
	b.setCookie(sessionCookie, planted)
	b.signIn("t@school.example")
	first := b.cookie(sessionCookie)
	if first == "" || first == planted {
		t.Fatalf("session cookie after sign-in = %q, want a fresh value", first)
	}
	attacker := w.browser()
	attacker.setCookie(sessionCookie, planted)
	if a := attacker.get("/classes"); strings.Contains(a.body, "Signed in as") {
		t.Error("the planted session id signs its holder in")
	}
	// Signing in again gives a new session and ends the old one.
	b.signIn("t@school.example")
	second := b.cookie(sessionCookie)
	if second == first || second == "" {
		t.Fatalf("a second sign-in kept the session value %q", second)
	}
	old := w.browser()
	old.setCookie(sessionCookie, first)
	if a := old.get("/classes"); strings.Contains(a.body, "Signed in as") {
		t.Error("the session before the second sign-in still works")
	}
	if a := b.get("/classes"); !strings.Contains(a.body, "Signed in as") {
		t.Error("the new session does not work")
	}
	// The cookie's attributes.
	resp := b.post("/signin", url.Values{"email": {"t@school.example"}, "password": {testPassword}})
	set := strings.Join(resp.header.Values("Set-Cookie"), "\n")
	if !strings.Contains(set, sessionCookie+"=") || !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Lax") {
		t.Errorf("session Set-Cookie = %q, want HttpOnly and SameSite=Lax", set)
	}
}

func TestSignOutAndPasswordChangeRevokeSessions(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	laptop, phone := w.browser(), w.browser()
	laptop.signIn("t@school.example")
	phone.signIn("t@school.example")
	class := laptop.createClass("Year 9")
	if a := laptop.post("/account/password", url.Values{"current": {"wrong password"}, "password": {"a new long password"}}); a.status != http.StatusUnauthorized {
		t.Errorf("a change with the wrong current password = %d, want 401", a.status)
	}
	if a := laptop.post("/account/password", url.Values{"current": {testPassword}, "password": {"short"}}); a.status != http.StatusUnprocessableEntity {
		t.Errorf("a too short new password = %d, want 422", a.status)
	}
	if a := laptop.post("/account/password", url.Values{"current": {testPassword}, "password": {"a new long password"}}); a.status != http.StatusSeeOther {
		t.Fatalf("password change = %d", a.status)
	}
	if a := phone.get(class); a.status != http.StatusNotFound {
		t.Errorf("the phone's session survived a password change: %d", a.status)
	}
	if a := laptop.get(class); a.status != http.StatusOK {
		t.Errorf("the browser that changed the password lost its session: %d", a.status)
	}
	if a := phone.post("/signin", url.Values{"email": {"t@school.example"}, "password": {testPassword}}); a.status != http.StatusUnauthorized {
		t.Errorf("the old password still signs in: %d", a.status)
	}
	laptop.post("/signout", nil)
	if a := laptop.get(class); a.status != http.StatusNotFound {
		t.Errorf("after sign-out the class = %d, want 404", a.status)
	}
}

func TestSignInErrorsAreGenericAndRateLimited(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	b := w.browser()
	wrongPassword := b.post("/signin", url.Values{"email": {"t@school.example"}, "password": {"not the password"}})
	unknownEmail := b.post("/signin", url.Values{"email": {"nobody@school.example"}, "password": {testPassword}})
	msg := regexp.MustCompile(`data-testid="signin-error">([^<]+)<`)
	m1, m2 := msg.FindStringSubmatch(wrongPassword.body), msg.FindStringSubmatch(unknownEmail.body)
	if wrongPassword.status != 401 || unknownEmail.status != 401 || m1 == nil || m2 == nil || m1[1] != m2[1] {
		t.Fatalf("wrong password = %d %v, unknown e-mail = %d %v: want 401 and the same message", wrongPassword.status, m1, unknownEmail.status, m2)
	}
	// Per account: the burst of tries is spent (one above), then even the
	// right password waits.
	for i := 1; i < progress.SignInsPerAccount; i++ {
		b.post("/signin", url.Values{"email": {"t@school.example"}, "password": {"guess"}})
	}
	a := b.post("/signin", url.Values{"email": {"t@school.example"}, "password": {testPassword}})
	if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") == "" {
		t.Errorf("sign-in past the account's limit = %d (Retry-After %q), want 429 with Retry-After", a.status, a.header.Get("Retry-After"))
	}
	// Per address: many accounts from one address.
	w2 := newClassWorld(t)
	w2.addTeacher("t@school.example", false)
	c := w2.browser()
	limited := false
	for i := 0; i <= progress.SignInsPerAddress; i++ {
		a := c.post("/signin", url.Values{"email": {fmt.Sprintf("guess%d@school.example", i)}, "password": {"x"}})
		if a.status == http.StatusTooManyRequests {
			limited = i == progress.SignInsPerAddress
			break
		}
	}
	if !limited {
		t.Errorf("one address was not limited after exactly %d tries", progress.SignInsPerAddress)
	}
}

func TestJoinKeepsProgressAndSecretWordsSignInElsewhere(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	code := teacher.joinCode(class)

	laptop := w.browser()
	laptop.earn(w.app)
	before := laptop.xp()
	if before == "0" {
		t.Fatal("the learner earned no XP before joining")
	}
	if a := laptop.post("/join", url.Values{"code": {"NOPE22"}, "name": {"Red Kite"}}); a.status != http.StatusUnprocessableEntity {
		t.Errorf("a wrong code = %d, want 422 with the form again", a.status)
	}
	secret := laptop.join(strings.ToLower(code[:3])+"-"+code[3:], "Red Kite") // case and a hyphen do not matter
	if n := len(strings.Fields(secret)); n < 2 || n > 3 {
		t.Errorf("secret words = %q, want two or three", secret)
	}
	if got := laptop.xp(); got != before {
		t.Errorf("XP after joining = %s, want %s", got, before)
	}
	if again := laptop.join(code, "Red Kite"); again != secret {
		t.Errorf("joining again gave other words %q", again)
	}
	rival := w.browser()
	if a := rival.post("/join", url.Values{"code": {code}, "name": {" red kite "}}); a.status != http.StatusUnprocessableEntity {
		t.Errorf("a name already in the class = %d, want 422", a.status)
	}
	if !strings.Contains(teacher.get(class).body, secret) {
		// The dashboard does not show the words; the learner page does.
		m := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
		if m == nil || !strings.Contains(teacher.get(m[1]).body, secret) {
			t.Error("the teacher cannot see the learner's secret words")
		}
	}

	phone := w.browser()
	oldCookie := phone.cookie(learnerCookie)
	if a := phone.post("/join/signin", url.Values{"code": {code}, "name": {"Red Kite"}, "secret": {"wrong words here"}}); a.status != http.StatusUnauthorized {
		t.Errorf("wrong secret words = %d, want 401", a.status)
	}
	a := phone.post("/join/signin", url.Values{"code": {code}, "name": {"RED KITE"}, "secret": {strings.ToUpper(secret)}})
	if a.status != http.StatusSeeOther {
		t.Fatalf("sign-in with the words = %d:\n%s", a.status, a.body)
	}
	if c := phone.cookie(learnerCookie); c == oldCookie || c == "" {
		t.Error("the phone's learner cookie was not issued afresh")
	}
	if got := phone.xp(); got != before {
		t.Errorf("XP on the phone = %s, want the laptop's %s", got, before)
	}
	// Wrong words are limited per name.
	thief := w.browser()
	limited := false
	for range progress.SecretTriesPerName + 1 {
		if a := thief.post("/join/signin", url.Values{"code": {code}, "name": {"Red Kite"}, "secret": {"apple river stone"}}); a.status == http.StatusTooManyRequests {
			limited = true
		}
	}
	if !limited {
		t.Errorf("guessing the learner's words was not limited after %d tries", progress.SecretTriesPerName)
	}
	// New words from the teacher end the old ones.
	m := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
	teacher.post(m[1]+"/secret", confirmYes)
	if a := w.browser().post("/join/signin", url.Values{"code": {code}, "name": {"Red Kite"}, "secret": {secret}}); a.status == http.StatusSeeOther {
		t.Error("the old words still sign in after the teacher made new ones")
	}
	// The learner can leave; their progress stays.
	id := strings.TrimPrefix(class, "/classes/")
	if a := w.browser().post("/classes/"+id+"/leave", nil); a.status != http.StatusNotFound {
		t.Errorf("leaving a class one is not in = %d, want 404", a.status)
	}
	if a := laptop.post("/classes/"+id+"/leave", confirmYes); a.status != http.StatusSeeOther {
		t.Errorf("leave = %d", a.status)
	}
	if strings.Contains(teacher.get(class).body, ">Red Kite<") {
		t.Error("the learner is still on the roster after leaving")
	}
	if got := laptop.xp(); got != before {
		t.Errorf("XP after leaving = %s, want %s", got, before)
	}
}

func TestDeleteMyData(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	b := w.browser()
	b.earn(w.app)
	b.join(teacher.joinCode(class), "Red Kite")
	if a := b.post("/me/delete", url.Values{"confirm": {"no"}}); a.status != http.StatusUnprocessableEntity || b.xp() == "0" {
		t.Errorf("an unconfirmed delete = %d, and must keep the data", a.status)
	}
	if a := b.post("/me/delete", url.Values{"confirm": {"delete"}}); a.status != http.StatusSeeOther {
		t.Fatalf("delete = %d", a.status)
	}
	if got := b.xp(); got != "0" {
		t.Errorf("XP after deleting = %s, want 0", got)
	}
	if strings.Contains(teacher.get(class).body, ">Red Kite<") {
		t.Error("a deleted learner is still on the roster")
	}
}

func TestSafeCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Red Kite", "Red Kite"},
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"+1", "'+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tcmd", "'\tcmd"},
		{"\rcmd", "'\rcmd"},
		{"", ""},
		{"a=b", "a=b"},
	}
	for _, tc := range tests {
		if got := safeCell(tc.in); got != tc.want {
			t.Errorf("safeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExportNeutralisesFormulas(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	code := teacher.joinCode(class)
	names := []string{`=HYPERLINK("http://evil.example","x")`, "+cmd", "-1+2", "@SUM(A1)", "Plain, with \"quotes\""}
	for _, n := range names {
		w.browser().join(code, n)
	}
	a := teacher.get(class + "/export.csv")
	if a.status != 200 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/csv") || !strings.Contains(a.header.Get("Content-Disposition"), "Year-9.csv") {
		t.Fatalf("export = %d %q %q", a.status, a.header.Get("Content-Type"), a.header.Get("Content-Disposition"))
	}
	records, err := csv.NewReader(bytes.NewBufferString(a.body)).ReadAll()
	if err != nil {
		t.Fatalf("the export does not parse as CSV: %v", err)
	}
	lessonsN := len(w.app.Course().Lessons)
	if len(records) != 1+len(names)*lessonsN || strings.Join(records[0], ",") != strings.Join(exportHeader, ",") {
		t.Fatalf("export has %d records (header %v), want a header and %d rows", len(records), records[0], len(names)*lessonsN)
	}
	seen := map[string]bool{}
	for _, rec := range records[1:] {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q starts with a formula character", cell)
			}
		}
		seen[rec[0]] = true
	}
	for _, want := range []string{`'=HYPERLINK("http://evil.example","x")`, "'+cmd", "'-1+2", "'@SUM(A1)", `Plain, with "quotes"`} {
		if !seen[want] {
			t.Errorf("no row for %q (rows for %v)", want, seen)
		}
	}
}

func TestAssignmentsShowOnTheLearnersHome(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	b := w.browser()
	b.join(teacher.joinCode(class), "Red Kite")
	l := w.app.Course().Lessons[2]
	zone, _ := time.LoadLocation("Europe/Paris")
	due := w.clock.Now().In(zone).Format("2006-01-02")
	if a := teacher.post(class+"/assignments", url.Values{"lesson": {l.Slug}, "due": {due}}); a.status != http.StatusSeeOther {
		t.Fatalf("assign = %d", a.status)
	}
	if a := teacher.post(class+"/assignments", url.Values{"lesson": {l.Slug}, "due": {"31/01/2020"}}); a.status != http.StatusUnprocessableEntity {
		t.Errorf("a malformed due date = %d, want 422", a.status)
	}
	// Two days on, the learner who did nothing is late.
	w.clock.move(48 * time.Hour)
	home := b.get("/").body
	if !strings.Contains(home, `data-testid="assigned"`) || !strings.Contains(home, l.Title) || !strings.Contains(home, "due "+due) || !strings.Contains(home, "late") {
		t.Errorf("the learner's home does not show the late assignment of %q", l.Title)
	}
	if dash := teacher.get(class).body; !strings.Contains(dash, `data-testid="late"`) || !strings.Contains(dash, "late: Red Kite") {
		t.Error("the dashboard does not show that the learner is late")
	}
}

func TestLeaderboardIsOptInAndShowsChosenNames(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	code := teacher.joinCode(class)
	a, b := w.browser(), w.browser()
	a.join(code, "Swift Otter")
	b.join(code, "Quiet Heron")
	a.earn(w.app)
	if body := a.get("/classes").body; strings.Contains(body, `data-testid="leaderboard"`) {
		t.Error("a leaderboard shows before the teacher turned it on")
	}
	if body := teacher.get(class).body; strings.Contains(body, `data-testid="leaderboard"`) {
		t.Error("the dashboard shows a leaderboard that is off")
	}
	if r := teacher.post(class+"/settings", url.Values{"leaderboard": {"on"}}); r.status != http.StatusSeeOther {
		t.Fatalf("leaderboard on = %d", r.status)
	}
	board := regexp.MustCompile(`(?s)data-testid="leaderboard".*?</table>`)
	m := board.FindString(b.get("/classes").body)
	if !strings.Contains(m, "Swift Otter") || strings.Contains(m, "Quiet Heron") {
		t.Errorf("the class's leaderboard = %q, want Swift Otter (who earned XP) and no one without XP", m)
	}
	if m := board.FindString(teacher.get(class).body); !strings.Contains(m, "Swift Otter") {
		t.Errorf("the dashboard's leaderboard = %q, want Swift Otter", m)
	}
	if body := w.browser().get("/classes").body; strings.Contains(body, "Swift Otter") {
		t.Error("someone outside the class sees a learner's name")
	}
}

func TestDashboardReloadsWithoutJavaScript(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	class := teacher.createClass("Year 9")
	body := teacher.get(class).body
	if !strings.Contains(body, fmt.Sprintf(`<noscript><meta http-equiv="refresh" content="%d"></noscript>`, dashboardRefresh)) {
		t.Error("the dashboard has no <noscript> refresh for browsers without JavaScript")
	}
	if !strings.Contains(body, `data-live="dashboard"`) {
		t.Error("the dashboard marks no live region for its script")
	}
	if strings.Contains(teacher.get("/classes").body, `http-equiv="refresh"`) {
		t.Error("a page other than the dashboard reloads itself")
	}
}
