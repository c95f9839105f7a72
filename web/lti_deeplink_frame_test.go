package web

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"learn/internal/ltiplatform"
	"learn/lessons"
	"learn/lti"
)

// framedDeepLinkPicker runs an instructor's deep linking launch in a
// frame that keeps no cookie, through the test LMS's client-side storage
// as the page scripts would, and returns the cookieless client, the
// browser value the login put in the storage, the storage key, and the
// picker page's answer.
func (w *ltiWorld) framedDeepLinkPicker(multiple bool) (*http.Client, string, string, int, string, http.Header) {
	t := w.t
	t.Helper()
	noCookies := &http.Client{Transport: w.lms.Client().Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	framed := func(address string) (*http.Response, string) {
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
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(body)
	}
	l := w.deepLinkLaunch(teacherOne, multiple)
	l.StorageTarget = ltiplatform.StorageFrame
	resp, _ := framed(w.lms.LoginURL(w.base+lti.LoginPath, l))
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("the framed login answered %d, want the cookie check", resp.StatusCode)
	}
	resp, body := framed(w.base + resp.Header.Get("Location"))
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	put := doc.Find(`[data-lti-storage="put"]`)
	value, _ := put.Attr("data-lti-value")
	key, _ := put.Attr("data-lti-key")
	next, _ := put.Attr("data-lti-next")
	if resp.StatusCode != http.StatusOK || value == "" || key == "" || next == "" {
		t.Fatalf("the login without the cookie: %d, not the storage page:\n%.800s", resp.StatusCode, body)
	}

	// The page script put value under key, and goes on to the LMS's
	// authorisation, whose page posts the token to learn.
	resp, err = noCookies.Get(next)
	if err != nil {
		t.Fatal(err)
	}
	action, fields, err := ltiplatform.ReadForm(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, status, body := post(t, noCookies, action, fields, w.lms.Issuer())
	if status != http.StatusOK || !strings.Contains(body, `data-lti-storage="get"`) || !strings.Contains(body, `data-lti-key="`+key+`"`) {
		t.Fatalf("the launch without the cookie: %d, not the storage page of %s:\n%.800s", status, key, body)
	}
	relayAction, relay, err := ltiplatform.ReadForm(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if relay.Get("lti_storage_target") != ltiplatform.StorageFrame {
		t.Errorf("the relay form names the storage target %q", relay.Get("lti_storage_target"))
	}
	// The page script got value back and posts the launch again.
	relay.Set(storageRelayField, value)
	status, body, header := samePost(t, noCookies, w.base+relayAction, relay)
	return noCookies, value, key, status, body, header
}

// TestLTIDeepLinkingFramedWithoutCookies: a deep linking launch in a
// frame that keeps no cookie, through the platform's storage, draws the
// picker framed by the LMS, with the request sealed into its form and
// no cookie; its post answers the LMS only with the browser value the
// storage kept (not with none, another, or a picker from another
// launch), once, and the return page may be framed by the LMS.
func TestLTIDeepLinkingFramedWithoutCookies(t *testing.T) {
	onBothLTIEngines(t, testLTIDeepLinkingFramed)
}

func testLTIDeepLinkingFramed(t *testing.T, w *ltiWorld) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	first, second := course.Lessons[0], course.Lessons[1]
	w.lms.TrustToolKeySet(w.base+lti.JWKSPath, w.lms.Client())
	b, value, key, status, body, header := w.framedDeepLinkPicker(true)
	if status != http.StatusOK {
		t.Fatalf("the relayed deep linking launch: %d\n%.800s", status, body)
	}
	reqID, values := picker(t, body)
	if len(values) != len(course.Lessons)+1 || reqID == "" {
		t.Fatalf("picker request %q, choices %v", reqID, values)
	}
	lms := w.lms.Issuer()
	if csp := header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors "+lms) || header.Get("X-Frame-Options") != "" {
		t.Errorf("the picker's policy %q does not let the LMS frame it", csp)
	}
	if line := setCookieLine(header, deepLinkCookie); line != "" {
		t.Errorf("the framed picker sets the deep-link cookie %q", line)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	form := doc.Find(`form[data-lti-bound]`)
	sealed, _ := form.Find(`input[name="sealed"]`).Attr("value")
	if got, _ := form.Attr("data-lti-key"); got != key || sealed == "" || form.Find(`input[name="learn_browser"]`).Length() != 1 {
		t.Fatalf("the picker's form: key %q (want %s), sealed %d bytes:\n%.1500s", got, key, len(sealed), body)
	}
	if got, _ := form.Attr("data-lti-target"); got != ltiplatform.StorageFrame {
		t.Errorf("the picker's storage target is %q", got)
	}
	if strings.Contains(body, value) || strings.Contains(body, "lms-data") {
		t.Error("the picker's page shows the browser's value or the LMS's data")
	}
	// (An HTML parser with scripting reads noscript as text.)
	if !strings.Contains(doc.Find(`noscript`).Text(), `data-testid="deep-link-unbound"`) {
		t.Error("the picker says nothing to a browser without JavaScript")
	}

	pick := func(browser string, items ...string) url.Values {
		return url.Values{"request": {reqID}, deepLinkSealedField: {sealed}, storageRelayField: {browser}, deepLinkField: items}
	}
	refused := func(name, want string, fields url.Values) {
		t.Helper()
		status, body, header := samePost(t, b, w.base+lti.DeepLinkPath, fields)
		if status != http.StatusBadRequest || refusedCheck(body) != want {
			t.Errorf("%s: %d, %q; want the refusal %s", name, status, refusedCheck(body), want)
		}
		if csp := header.Get("Content-Security-Policy"); want != "deep_link" && !strings.Contains(csp, "frame-ancestors "+lms) {
			t.Errorf("%s: the refusal's policy %q does not let the LMS frame it", name, csp)
		}
	}
	lesson := func(l *lessons.Lesson) string { return deepLinkLesson + l.Slug }
	// The page alone is not enough: the browser value must come with it.
	refused("without the browser's value", "deep_link_browser", pick("", lesson(first)))
	refused("with another value", "deep_link_browser", pick(changed(value, len(value)-1), lesson(first)))
	other := pick(value, lesson(first))
	other.Set("request", "another")
	refused("for another request", "deep_link", other)
	tampered := pick(value, lesson(first))
	tampered.Set(deepLinkSealedField, changed(sealed, len(sealed)/2))
	refused("a changed seal", "deep_link", tampered)

	// Nothing chosen: the picker again, still bound.
	status, body, _ = samePost(t, b, w.base+lti.DeepLinkPath, pick(value))
	if status != http.StatusBadRequest || !strings.Contains(body, `data-testid="deep-link-problem"`) ||
		!strings.Contains(body, `name="sealed" value="`+sealed+`"`) || !strings.Contains(body, "data-lti-bound") {
		t.Errorf("an empty pick: %d\n%.1500s", status, body)
	}

	status, body, header = samePost(t, b, w.base+lti.DeepLinkPath, pick(value, lesson(first), lesson(second)))
	if status != http.StatusOK {
		t.Fatalf("the pick = %d\n%.1500s", status, body)
	}
	if csp := header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors "+lms) || !strings.Contains(csp, "form-action 'self' "+lms+";") {
		t.Errorf("the return page's policy: %s", csp)
	}
	action, fields, err := ltiplatform.ReadForm(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if _, status, body = post(t, b, action, fields, w.base); status != http.StatusOK {
		t.Fatalf("the LMS refused the response (%d): %v\n%s", status, w.lms.RefusedDeepLinks(), body)
	}
	returns := w.lms.DeepLinkReturns()
	if len(returns) != 1 || len(returns[0].Items) != 2 || returns[0].Data != "lms-data <&> 42" ||
		returns[0].Items[0].URL != w.base+"/lessons/"+first.Slug || returns[0].Items[1].URL != w.base+"/lessons/"+second.Slug {
		t.Fatalf("the LMS received %+v", returns)
	}

	// Answered once, however it comes again.
	refused("the pick again", "deep_link_used", pick(value, lesson(first)))

	// A picker of another framed launch does not take this one's value.
	_, otherValue, _, status, otherBody, _ := w.framedDeepLinkPicker(false)
	otherID, _ := picker(t, otherBody)
	otherDoc, err := goquery.NewDocumentFromReader(strings.NewReader(otherBody))
	if err != nil {
		t.Fatal(err)
	}
	otherSealed, _ := otherDoc.Find(`input[name="sealed"]`).Attr("value")
	if status != http.StatusOK || otherValue == value {
		t.Fatalf("the second framed picker: %d", status)
	}
	refused("another launch's picker with this value", "deep_link_browser",
		url.Values{"request": {otherID}, deepLinkSealedField: {otherSealed}, storageRelayField: {value}, deepLinkField: {deepLinkCourse}})
	if n := len(w.lms.DeepLinkReturns()); n != 1 {
		t.Errorf("the LMS took %d responses", n)
	}
}

// changed is s with its i-th character replaced by another of the
// URL-safe base64 alphabet.
func changed(s string, i int) string {
	c := byte('A')
	if s[i] == c {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}

// TestDeepLinkFrameSeal: the framed picker's seal and the deep-link
// cookie's are bound to their purposes: neither opens the other's value.
func TestDeepLinkFrameSeal(t *testing.T) {
	keys := [][]byte{make([]byte, 32)}
	cookieSeal, err := newDeepLinkSeal(keys)
	if err != nil {
		t.Fatal(err)
	}
	frameSeal, err := newDeepLinkFrameSeal(keys)
	if err != nil {
		t.Fatal(err)
	}
	f := framedDeepLink{Request: lti.DeepLinking{ID: "id-1", ReturnURL: "https://lms.example/return"}, Browser: browserBinding("b")}
	framed, err := frameSeal.seal(f)
	if err != nil {
		t.Fatal(err)
	}
	cookie, err := cookieSeal.seal(f.Request)
	if err != nil {
		t.Fatal(err)
	}
	var req lti.DeepLinking
	var got framedDeepLink
	if cookieSeal.open(framed, &req) || frameSeal.open(cookie, &got) {
		t.Error("a value sealed for one purpose opened for the other")
	}
	if !frameSeal.open(framed, &got) || got.Request.ID != "id-1" || string(got.Browser) != string(browserBinding("b")) {
		t.Errorf("the framed seal opened as %+v", got)
	}
	if string(browserBinding("b")) == string(browserBinding("c")) {
		t.Error("two values bind alike")
	}
}
