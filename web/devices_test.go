package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/static"
	"learn/store"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) move(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// deviceWorld is two servers ("replicas") on one SQLite file, each its own
// Service with its own caches, sharing the database and a moved clock.
// A request carrying X-Test-Address comes from that address.
type deviceWorld struct {
	*classWorld
	clock *testClock
	// other is the second server's URL.
	other string
}

func newDeviceWorld(t *testing.T) *deviceWorld {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	css, err := lessons.HighlightCSS()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := static.New(map[string][]byte{"highlight.css": css})
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{now: time.Now()}
	var apps []*progress.Service
	var urls []string
	for range 2 {
		app, err := progress.New(progress.Config{Course: course, Store: st, Now: clock.Now, Limiter: st})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Config{App: app, Assets: assets, CookieKey: make([]byte, 64)})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a := r.Header.Get("X-Test-Address"); a != "" {
				r.RemoteAddr = a + ":40000"
			}
			s.ServeHTTP(w, r)
		}))
		t.Cleanup(ts.Close)
		apps, urls = append(apps, app), append(urls, ts.URL)
	}
	return &deviceWorld{classWorld: &classWorld{t: t, base: urls[0], st: st, app: apps[0]}, clock: clock, other: urls[1]}
}

// headers makes a browser send these headers on every request.
type headers struct {
	rt http.RoundTripper
	h  map[string]string
}

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header.Set(k, v)
	}
	return h.rt.RoundTrip(r)
}

// browserAt is a browser on the server at base, from address with this
// User-Agent ("" for Go's).
func (w *deviceWorld) browserAt(base, address, ua string) *browser {
	b := w.browser()
	b.base = base
	h := map[string]string{}
	if address != "" {
		h["X-Test-Address"] = address
	}
	if ua != "" {
		h["User-Agent"] = ua
	}
	b.http.Transport = headers{rt: http.DefaultTransport, h: h}
	b.get("/")
	return b
}

const phoneUA = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"

// continueWithWords signs b in with the learner's words and checks it
// then shows the learner's XP.
func continueWithWords(t *testing.T, b *browser, code, name, secret, wantXP string) {
	t.Helper()
	if a := b.post("/join/signin", url.Values{"code": {code}, "name": {name}, "secret": {secret}}); a.status != http.StatusSeeOther {
		t.Fatalf("sign-in with the words = %d:\n%s", a.status, a.body)
	}
	if got := b.xp(); got != wantXP {
		t.Fatalf("XP after signing in with the words = %s, want %s", got, wantXP)
	}
}

func TestDevicesSignedInWithWordsAreSignedOut(t *testing.T) {
	for _, tc := range []struct {
		name string
		// end ends the phone's session, from the teacher or the laptop
		// (the learner's first browser) or the second phone.
		end func(t *testing.T, teacher, laptop, phone2 *browser, class string)
		// laptopKeeps is false when the learner deleted their data.
		laptopKeeps bool
	}{
		{"teacher makes new words", func(t *testing.T, teacher, _, _ *browser, class string) {
			m := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
			if m == nil {
				t.Fatal("no learner on the dashboard")
			}
			if a := teacher.post(m[1]+"/secret", confirmYes); a.status != http.StatusSeeOther {
				t.Fatalf("new words = %d", a.status)
			}
		}, true},
		{"learner removed from the class", func(t *testing.T, teacher, _, _ *browser, class string) {
			m := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
			if m == nil {
				t.Fatal("no learner on the dashboard")
			}
			if a := teacher.post(m[1]+"/remove", confirmYes); a.status != http.StatusSeeOther {
				t.Fatalf("remove = %d:\n%s", a.status, a.body)
			}
		}, true},
		{"learner deletes their data", func(t *testing.T, _, laptop, _ *browser, _ string) {
			if a := laptop.post("/me/delete", url.Values{"confirm": {"delete"}}); a.status != http.StatusSeeOther {
				t.Fatalf("delete = %d", a.status)
			}
		}, false},
		{"sign out everywhere else, from the first browser", func(t *testing.T, _, laptop, _ *browser, _ string) {
			if a := laptop.post("/me/signout-others", nil); a.status != http.StatusSeeOther || a.location != "/me?signedout=2" {
				t.Fatalf("sign out everywhere else = %d %q, want 303 to /me?signedout=2", a.status, a.location)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newDeviceWorld(t)
			w.addTeacher("t@school.example", false)
			teacher := w.browser()
			teacher.signIn("t@school.example")
			class := teacher.createClass("Year 9")
			code := teacher.joinCode(class)
			laptop := w.browser()
			laptop.earn(w.app)
			before := laptop.xp()
			secret := laptop.join(code, "Red Kite")

			// The phone continues on the other server, as a replica would.
			phone := w.browserAt(w.other, "", phoneUA)
			continueWithWords(t, phone, code, "Red Kite", secret, before)
			phoneCookie := phone.cookie(learnerCookie)
			tablet := w.browserAt(w.other, "", "")
			continueWithWords(t, tablet, code, "Red Kite", secret, before)

			me := laptop.get("/me").body
			if n := strings.Count(me, `data-testid="device"`); n != 2 || !strings.Contains(me, "Firefox on Android") {
				t.Errorf("the first browser's /me lists %d devices (want 2, one Firefox on Android):\n%s", n, me)
			}
			if !strings.Contains(phone.get("/me").body, "(this browser)") {
				t.Error("the phone's /me does not mark it as this browser")
			}

			tc.end(t, teacher, laptop, tablet, class)

			for name, b := range map[string]*browser{"phone": phone, "tablet": tablet} {
				if got := b.xp(); got != "0" {
					t.Errorf("the %s still shows the learner's XP %s after the session ended", name, got)
				}
				if strings.Contains(b.get("/me").body, `data-testid="device"`) {
					t.Errorf("the %s still sees the learner's devices", name)
				}
			}
			if c := phone.cookie(learnerCookie); c == phoneCookie || c == "" {
				t.Error("the phone was not given a fresh anonymous learner cookie")
			}
			want := before
			if !tc.laptopKeeps {
				want = "0"
			}
			if got := laptop.xp(); got != want {
				t.Errorf("the first browser's XP = %s, want %s", got, want)
			}
		})
	}
}

func TestSignOutEverywhereElseKeepsThisDevice(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	code := teacher.joinCode(teacher.createClass("Year 9"))
	laptop := w.browser()
	laptop.earn(w.app)
	before := laptop.xp()
	secret := laptop.join(code, "Red Kite")
	phone := w.browserAt(w.other, "", phoneUA)
	continueWithWords(t, phone, code, "Red Kite", secret, before)
	tablet := w.browserAt(w.base, "", "")
	continueWithWords(t, tablet, code, "Red Kite", secret, before)

	a := phone.post("/me/signout-others", nil)
	if a.status != http.StatusSeeOther {
		t.Fatalf("sign out everywhere else = %d", a.status)
	}
	if body := phone.get(a.location).body; !strings.Contains(body, "1 other device was signed out") || strings.Count(body, `data-testid="device"`) != 1 {
		t.Errorf("after signing out elsewhere the phone's /me should say 1 device went and list only itself:\n%s", body)
	}
	if got := tablet.xp(); got != "0" {
		t.Errorf("the tablet still shows XP %s", got)
	}
	if got, got2 := phone.xp(), laptop.xp(); got != before || got2 != before {
		t.Errorf("XP on the phone = %s and on the first browser = %s, want both %s", got, got2, before)
	}
}

// tryAgainRe reads the wait a refusal names: "try again in 2 minutes 30
// seconds".
var tryAgainRe = regexp.MustCompile(`(?i)try again in (?:(\d+) minutes?)? ?(?:(\d+) seconds?)?`)

func statedWait(t *testing.T, body string) time.Duration {
	t.Helper()
	m := tryAgainRe.FindStringSubmatch(body)
	if m == nil || (m[1] == "" && m[2] == "") {
		t.Fatalf("the refusal does not say when to try again:\n%s", body)
	}
	mins, _ := strconv.Atoi(m[1])
	secs, _ := strconv.Atoi(m[2])
	return time.Duration(mins)*time.Minute + time.Duration(secs)*time.Second
}

func signInForm(email, password string) url.Values {
	return url.Values{"email": {email}, "password": {password}}
}

func TestManyAddressesGuessingDoNotLockTheOwnerOut(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	home := w.browserAt(w.base, "192.0.2.10", "")
	home.signIn("t@school.example")
	home.post("/signout", nil)

	// Before: five wrong tries from anywhere kept the right password out.
	// Now an attacker on 40 addresses keeps guessing for ten minutes.
	for minute := range 10 {
		for i := range 40 {
			attacker := w.browserAt(w.base, "198.51.100."+strconv.Itoa(i+1), "")
			for range progress.SignInsPerAccount {
				if a := attacker.post("/signin", signInForm("t@school.example", "guess "+strconv.Itoa(minute))); a.status == http.StatusSeeOther {
					t.Fatal("a wrong password signed in")
				}
			}
		}
		w.clock.move(time.Minute)
	}
	// A new browser is asked to wait, at most the cap...
	laptop := w.browserAt(w.base, "192.0.2.11", "")
	a := laptop.post("/signin", signInForm("t@school.example", testPassword))
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("the right password from a new browser during the attack = %d, want 429 with a stated wait", a.status)
	}
	wait := statedWait(t, a.body)
	if wait > progress.MaxSignInDelay {
		t.Errorf("the stated wait %v is over the cap %v", wait, progress.MaxSignInDelay)
	}
	// ...while the browser that signed in before goes straight in.
	home.signIn("t@school.example")
	// The new browser, once the stated wait is over, goes in too.
	w.clock.move(wait)
	laptop.signIn("t@school.example")
}

func TestOneAddressGuessingIsSlowed(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	// A guesser whose browser once signed in (no delay for it): five
	// tries a minute for the account from its address, then it waits.
	guesser := w.browserAt(w.base, "203.0.113.5", "")
	guesser.signIn("t@school.example")
	guesser.post("/signout", nil)
	w.clock.move(time.Minute)
	for i := range progress.SignInsPerAccount {
		if a := guesser.post("/signin", signInForm("t@school.example", "wrong")); a.status != http.StatusUnauthorized {
			t.Fatalf("wrong try %d = %d, want 401", i+1, a.status)
		}
	}
	a := guesser.post("/signin", signInForm("t@school.example", "wrong"))
	if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") == "" {
		t.Fatalf("try %d in a minute from one address = %d, want 429 with Retry-After", progress.SignInsPerAccount+1, a.status)
	}
	if wait := statedWait(t, a.body); wait <= 0 || wait > time.Minute {
		t.Errorf("stated wait %v, want within a minute", wait)
	}
	// Another address is not slowed by it for that account, from a browser
	// the teacher signed in on.
	other := w.browserAt(w.base, "203.0.113.99", "")
	u, _ := url.Parse(w.base + "/signin")
	known := ""
	for _, c := range guesser.jar.Cookies(u) {
		if c.Name == knownCookie {
			known = c.Value
		}
	}
	if known == "" {
		t.Fatal("the sign-in set no known-device cookie")
	}
	other.jar.SetCookies(u, []*http.Cookie{{Name: knownCookie, Value: known, Path: "/signin"}})
	other.signIn("t@school.example")
	// A minute later the guesser may try again.
	w.clock.move(time.Minute)
	if a := guesser.post("/signin", signInForm("t@school.example", "wrong")); a.status != http.StatusUnauthorized {
		t.Errorf("a minute later = %d, want 401", a.status)
	}
}

func TestSignInDelayDoublesAndCaps(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	addr := 0
	fresh := func() *browser { addr++; return w.browserAt(w.base, "198.18.0."+strconv.Itoa(addr), "") }
	// The first failures in a row cost nothing.
	for range progress.FailuresBeforeDelay {
		if a := fresh().post("/signin", signInForm("t@school.example", "wrong")); a.status != http.StatusUnauthorized {
			t.Fatalf("early wrong try = %d, want 401", a.status)
		}
	}
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute}
	for i, d := range want {
		a := fresh().post("/signin", signInForm("t@school.example", testPassword))
		if a.status != http.StatusTooManyRequests {
			t.Fatalf("step %d: the right password while waiting = %d, want 429", i, a.status)
		}
		if got := statedWait(t, a.body); got != d {
			t.Errorf("step %d: stated wait %v, want %v", i, got, d)
		}
		w.clock.move(d - time.Second)
		if a := fresh().post("/signin", signInForm("t@school.example", "wrong")); a.status != http.StatusTooManyRequests {
			t.Errorf("step %d: a second before the wait ends = %d, want 429", i, a.status)
		}
		w.clock.move(time.Second)
		if a := fresh().post("/signin", signInForm("t@school.example", "wrong")); a.status != http.StatusUnauthorized {
			t.Fatalf("step %d: a wrong try once the wait ended = %d, want 401", i, a.status)
		}
	}
	// The right password ends the count.
	w.clock.move(progress.MaxSignInDelay)
	fresh().signIn("t@school.example")
	if a := fresh().post("/signin", signInForm("t@school.example", "wrong")); a.status != http.StatusUnauthorized {
		t.Errorf("after a success, a wrong try = %d, want 401 (no delay)", a.status)
	}
}

func TestLearnerWordsDelayPerName(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	code := teacher.joinCode(teacher.createClass("Year 9"))
	laptop := w.browser()
	secret := laptop.join(code, "Red Kite")
	for i := range progress.FailuresBeforeDelay {
		thief := w.browserAt(w.base, "198.51.100."+strconv.Itoa(i+1), "")
		if a := thief.post("/join/signin", url.Values{"code": {code}, "name": {"Red Kite"}, "secret": {"apple river stone"}}); a.status != http.StatusUnauthorized {
			t.Fatalf("wrong words = %d, want 401", a.status)
		}
	}
	phone := w.browserAt(w.base, "192.0.2.50", "")
	a := phone.post("/join/signin", url.Values{"code": {code}, "name": {"Red Kite"}, "secret": {secret}})
	if a.status != http.StatusTooManyRequests || statedWait(t, a.body) != progress.FirstSignInDelay {
		t.Fatalf("the right words after %d wrong = %d, want 429 stating %v:\n%s", progress.FailuresBeforeDelay, a.status, progress.FirstSignInDelay, a.body)
	}
	w.clock.move(progress.FirstSignInDelay)
	continueWithWords(t, phone, code, "Red Kite", secret, laptop.xp())
	// The first browser never needed the words.
	if a := laptop.get("/me"); a.status != http.StatusOK {
		t.Errorf("/me = %d", a.status)
	}
}

// TestIdleDeviceIsSignedOut: a device signed in with words that goes
// unseen for progress.DeviceIdleLimit is signed out at its next request
// and leaves the learner's device list; one seen within it stays.
func TestIdleDeviceIsSignedOut(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	code := teacher.joinCode(teacher.createClass("Year 9"))
	laptop := w.browser()
	laptop.earn(w.app)
	before := laptop.xp()
	secret := laptop.join(code, "Red Kite")
	phone := w.browserAt(w.other, "", phoneUA)
	continueWithWords(t, phone, code, "Red Kite", secret, before)
	tablet := w.browserAt(w.base, "", "")
	continueWithWords(t, tablet, code, "Red Kite", secret, before)

	// The tablet is used now and then; the phone lies in a drawer.
	for step := time.Duration(0); step < progress.DeviceIdleLimit+24*time.Hour; step += 30 * 24 * time.Hour {
		w.clock.move(30 * 24 * time.Hour)
		if got := tablet.xp(); got != before {
			t.Fatalf("the tablet, used every 30 days, shows XP %s, want %s", got, before)
		}
	}
	if got := phone.xp(); got != "0" {
		t.Errorf("the phone, unseen for more than %v, still shows the learner's XP %s", progress.DeviceIdleLimit, got)
	}
	me := laptop.get("/me").body
	if n := strings.Count(me, `data-testid="device"`); n != 1 || strings.Contains(me, "Firefox on Android") {
		t.Errorf("the first browser's /me lists %d devices, want only the tablet:\n%s", n, me)
	}
	if got := laptop.xp(); got != before {
		t.Errorf("the first browser's XP = %s, want %s", got, before)
	}
	// Signing in again on the phone works as before.
	continueWithWords(t, phone, code, "Red Kite", secret, before)
}

// TestPasswordChangeGuessesWait: a session that guesses the current
// password waits after progress.FailuresBeforeDelay wrong ones in a row,
// longer with each, and the page says how long; the right password, once
// the wait is over, changes it, and the count starts again.
func TestPasswordChangeGuessesWait(t *testing.T) {
	w := newDeviceWorld(t)
	w.addTeacher("t@school.example", false)
	b := w.browser()
	b.signIn("t@school.example")
	change := func(current string) answer {
		return b.post("/account/password", url.Values{"current": {current}, "password": {"a new long password"}})
	}
	for i := range progress.FailuresBeforeDelay {
		if a := change("guess " + strconv.Itoa(i)); a.status != http.StatusUnauthorized {
			t.Fatalf("wrong current password %d = %d, want 401", i+1, a.status)
		}
	}
	// Now even the right one waits: a guesser learns nothing by trying.
	a := change(testPassword)
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("a try during the wait = %d, want 429:\n%.400s", a.status, a.body)
	}
	if wait := statedWait(t, a.body); wait <= 0 || wait > progress.FirstSignInDelay {
		t.Errorf("the first wait says %v, want up to %v", wait, progress.FirstSignInDelay)
	}
	w.clock.move(progress.FirstSignInDelay)
	if a := change("guess again"); a.status != http.StatusUnauthorized {
		t.Fatalf("a wrong try after the wait = %d, want 401", a.status)
	}
	a = change(testPassword)
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("a try during the second wait = %d, want 429", a.status)
	}
	if wait := statedWait(t, a.body); wait <= progress.FirstSignInDelay {
		t.Errorf("the second wait says %v, want more than %v (it doubles)", wait, progress.FirstSignInDelay)
	}
	w.clock.move(2 * progress.FirstSignInDelay)
	if a := change(testPassword); a.status != http.StatusSeeOther {
		t.Fatalf("the right password after the wait = %d, want 303:\n%.400s", a.status, a.body)
	}
}
