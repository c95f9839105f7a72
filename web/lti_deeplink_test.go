package web

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"learn/internal/ltiplatform"
	"learn/lessons"
	"learn/lti"
)

// deepLinkLaunch is an instructor's deep linking request from the test
// LMS, with data to echo.
func (w *ltiWorld) deepLinkLaunch(user ltiplatform.User, multiple bool) ltiplatform.Launch {
	return ltiplatform.Launch{User: user, ContextID: "course-dl", ContextTitle: "Course dl", Target: w.base + lti.LaunchPath,
		DeepLinking: &ltiplatform.DeepLinking{AcceptMultiple: multiple, Data: "lms-data <&> 42"}}
}

// samePost posts fields to learn from one of its own pages, as the
// picker's form does, and returns the answer's status, page and headers.
func samePost(t *testing.T, b *http.Client, action string, fields url.Values) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body), resp.Header
}

// picker reads the picker page: its request id and its choices' values.
func picker(t *testing.T, body string) (string, []string) {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Find(`[data-testid="deep-link-picker"]`).Length() != 1 {
		t.Fatalf("no picker in the page:\n%s", body)
	}
	req, _ := doc.Find(`input[name="request"]`).Attr("value")
	var values []string
	doc.Find(`input[name="item"]`).Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("value")
		id, _ := s.Attr("id")
		if id == "" || doc.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("the choice %s has no label", v)
		}
		values = append(values, v)
	})
	return req, values
}

// TestLTIDeepLinking: an instructor deep links from the test LMS, picks
// two lessons in learn's picker, and the LMS receives a verified response
// of two resource links with their lesson's URL, custom parameter and
// line item, and its data echoed; the links then open their lessons, and
// a replayed picker post fails.
func TestLTIDeepLinking(t *testing.T) {
	onBothLTIEngines(t, testLTIDeepLinking)
}

func testLTIDeepLinking(t *testing.T, w *ltiWorld) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	first, second := course.Lessons[0], course.Lessons[1]
	w.lms.TrustToolKeySet(w.base+lti.JWKSPath, w.lms.Client())
	b := w.browser()
	path, status, body := w.run(b, w.deepLinkLaunch(teacherOne, true))
	if status != http.StatusOK || path != lti.LaunchPath {
		t.Fatalf("deep linking launch ended at %s with %d:\n%s", path, status, body)
	}
	reqID, values := picker(t, body)
	if len(values) != len(course.Lessons)+1 || !strings.Contains(body, `type="checkbox"`) || reqID == "" {
		t.Fatalf("picker request %q, choices %v", reqID, values)
	}
	if strings.Contains(body, "lms-data") {
		t.Error("the picker shows the LMS's data")
	}
	dlCookie := cookieOf(t, b, w.base+"/lti/", "learn_lti_dl")

	// Nothing chosen: the picker again, saying so.
	if status, body, _ := samePost(t, b, w.base+lti.DeepLinkPath, url.Values{"request": {reqID}}); status != http.StatusBadRequest ||
		!strings.Contains(body, `data-testid="deep-link-problem"`) {
		t.Errorf("an empty pick: %d\n%s", status, body)
	}
	// A cross-site post is refused, as everywhere but the launch.
	if _, status, _ := post(t, b, w.base+lti.DeepLinkPath, url.Values{"request": {reqID}, "item": {"course"}}, w.lms.Issuer()); status != http.StatusForbidden {
		t.Errorf("a cross-site picker post = %d, want 403", status)
	}

	pick := url.Values{"request": {reqID}, "item": {"lesson:" + first.Slug, "lesson:" + second.Slug}}
	status, body, header := samePost(t, b, w.base+lti.DeepLinkPath, pick)
	if status != http.StatusOK {
		t.Fatalf("the pick = %d\n%s", status, body)
	}
	if csp := header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+w.lms.Issuer()+";") || !strings.Contains(csp, "script-src 'self';") {
		t.Errorf("the return page's policy: %s", csp)
	}
	action, fields, err := ltiplatform.ReadForm(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(action, w.lms.Issuer()+"/deep-linking/return?request=") || fields.Get("JWT") == "" ||
		!strings.Contains(body, `data-auto-submit`) || !strings.Contains(body, `<button type="submit">`) {
		t.Fatalf("the return page posts to %s:\n%s", action, body)
	}
	if _, status, body = post(t, b, action, fields, w.base); status != http.StatusOK {
		t.Fatalf("the LMS refused the response (%d): %v\n%s", status, w.lms.RefusedDeepLinks(), body)
	}
	returns := w.lms.DeepLinkReturns()
	if len(returns) != 1 {
		t.Fatalf("the LMS took %d responses", len(returns))
	}
	item := func(l *lessons.Lesson) ltiplatform.ContentItem {
		return ltiplatform.ContentItem{Type: "ltiResourceLink", Title: l.Title, Text: l.Summary, URL: w.base + "/lessons/" + l.Slug,
			Custom:   map[string]string{"lesson": l.Slug},
			LineItem: &ltiplatform.LineItem{Label: l.Title, ScoreMaximum: float64(l.EarnableXP()), ResourceID: l.Slug}}
	}
	if diff := cmp.Diff(ltiplatform.DeepLinkReturn{Request: returns[0].Request, Data: "lms-data <&> 42", Items: []ltiplatform.ContentItem{item(first), item(second)}}, returns[0]); diff != "" {
		t.Errorf("the LMS received (-want +got):\n%s", diff)
	}
	if first.EarnableXP() == 0 || second.EarnableXP() == 0 {
		t.Errorf("the first lessons earn %d and %d XP; the test wants lessons with XP", first.EarnableXP(), second.EarnableXP())
	}

	// A replayed picker post fails: with the browser's cookie gone, and
	// with the cookie carried by hand.
	if status, body, _ := samePost(t, b, w.base+lti.DeepLinkPath, pick); status != http.StatusBadRequest || refusedCheck(body) != "deep_link" {
		t.Errorf("the pick again from the browser: %d, %q", status, refusedCheck(body))
	}
	replay := w.browser()
	u, _ := url.Parse(w.base + "/lti/")
	replay.Jar.SetCookies(u, []*http.Cookie{dlCookie})
	if status, body, _ := samePost(t, replay, w.base+lti.DeepLinkPath, pick); status != http.StatusBadRequest || refusedCheck(body) != "deep_link_used" {
		t.Errorf("the pick replayed with its cookie: %d, %q", status, refusedCheck(body))
	}
	if n := len(w.lms.DeepLinkReturns()); n != 1 {
		t.Errorf("the LMS took %d responses after the replays", n)
	}

	// A link of the response opens its lesson.
	got := returns[0].Items[1]
	link := ltiplatform.Launch{User: learnerOne, ContextID: "course-dl", ContextTitle: "Course dl", ResourceLinkID: "dl-link-2",
		Target: got.URL, Custom: got.Custom}
	if _, status, _ := w.run(w.browser(), ltiplatform.Launch{User: teacherOne, ContextID: "course-dl", ContextTitle: "Course dl",
		ResourceLinkID: "dl-link-1", Target: returns[0].Items[0].URL, Custom: returns[0].Items[0].Custom}); status != http.StatusOK {
		t.Fatalf("the instructor's launch of a link: %d", status)
	}
	if path, status, _ := w.run(w.browser(), link); status != http.StatusOK || path != "/lessons/"+second.Slug {
		t.Errorf("the learner's launch of a link ended at %s with %d", path, status)
	}
}

// cookieOf returns the cookie name the browser holds for address.
func cookieOf(t *testing.T, b *http.Client, address, name string) *http.Cookie {
	t.Helper()
	u, err := url.Parse(address)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.Jar.Cookies(u) {
		if c.Name == name {
			return &http.Cookie{Name: c.Name, Value: c.Value}
		}
	}
	t.Fatalf("the browser holds no cookie %s for %s", name, address)
	return nil
}

// TestLTIDeepLinkingRefusals: a learner may not deep link; a platform
// that takes one link gets a picker of radio buttons and one link; a
// picker post for another request, or without the browser's request, is
// refused.
func TestLTIDeepLinkingRefusals(t *testing.T) {
	onBothLTIEngines(t, func(t *testing.T, w *ltiWorld) {
		if _, status, body := w.run(w.browser(), w.deepLinkLaunch(learnerOne, true)); status != http.StatusBadRequest || refusedCheck(body) != "roles" {
			t.Errorf("a learner's deep linking request: %d, %q", status, refusedCheck(body))
		}
		l := w.deepLinkLaunch(teacherOne, true)
		l.Claims = map[string]any{lti.ClaimDeepLinkingSettings: map[string]any{"deep_link_return_url": "ftp://lms.example/return", "accept_types": []string{"ltiResourceLink"}}}
		if _, status, body := w.run(w.browser(), l); status != http.StatusBadRequest || refusedCheck(body) != "deep_link_return_url" {
			t.Errorf("a bad return address: %d, %q", status, refusedCheck(body))
		}

		w.lms.TrustToolKeySet(w.base+lti.JWKSPath, w.lms.Client())
		b := w.browser()
		_, status, body := w.run(b, w.deepLinkLaunch(teacherOne, false))
		reqID, values := picker(t, body)
		if status != http.StatusOK || !strings.Contains(body, `type="radio"`) || strings.Contains(body, `type="checkbox"`) {
			t.Fatalf("a picker for one link: %d\n%s", status, body)
		}
		if status, body, _ := samePost(t, b, w.base+lti.DeepLinkPath, url.Values{"request": {reqID}, "item": values[:2]}); status != http.StatusBadRequest ||
			!strings.Contains(body, "takes one link") {
			t.Errorf("two links for one: %d", status)
		}
		if status, body, _ := samePost(t, b, w.base+lti.DeepLinkPath, url.Values{"request": {"another"}, "item": {"course"}}); status != http.StatusBadRequest ||
			refusedCheck(body) != "deep_link" {
			t.Errorf("another request's id: %d, %q", status, refusedCheck(body))
		}
		if status, body, _ := samePost(t, w.browser(), w.base+lti.DeepLinkPath, url.Values{"request": {reqID}, "item": {"course"}}); status != http.StatusBadRequest ||
			refusedCheck(body) != "deep_link" {
			t.Errorf("a browser without the request: %d, %q", status, refusedCheck(body))
		}
		status, body, _ = samePost(t, b, w.base+lti.DeepLinkPath, url.Values{"request": {reqID}, "item": {"course"}})
		action, fields, err := ltiplatform.ReadForm(strings.NewReader(body))
		if status != http.StatusOK || err != nil {
			t.Fatalf("the whole course: %d, %v\n%s", status, err, body)
		}
		if _, status, body = post(t, b, action, fields, w.base); status != http.StatusOK {
			t.Fatalf("the LMS refused the response (%d): %v\n%s", status, w.lms.RefusedDeepLinks(), body)
		}
		ret := w.lms.DeepLinkReturns()
		if len(ret) != 1 || len(ret[0].Items) != 1 || ret[0].Items[0].URL != w.base+"/" || ret[0].Items[0].LineItem != nil || ret[0].Items[0].Title != "Learn lessons" {
			t.Errorf("the LMS received %+v", ret)
		}
	})
}

// TestDeepLinkSeal: a sealed request opens with the key that sealed it
// and a retired one, and not after any change.
func TestDeepLinkSeal(t *testing.T) {
	current, old := make([]byte, 32), make([]byte, 32)
	old[0] = 1
	req := lti.DeepLinking{ID: "id-1", PlatformID: 7, DeploymentID: "d", ReturnURL: "https://lms.example/return", Data: []byte(`"x"`),
		ExpiresAt: time.Unix(1_800_000_000, 0).UTC()}
	sealOld, err := newDeepLinkSeal([][]byte{old})
	if err != nil {
		t.Fatal(err)
	}
	seal, err := newDeepLinkSeal([][]byte{current, old})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*sealer{"current key": seal, "retired key": sealOld} {
		v, err := s.seal(req)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(v, "lms.example") {
			t.Errorf("%s: the sealed value shows the return address", name)
		}
		var got lti.DeepLinking
		ok := seal.open(v, &got)
		if !ok || !cmp.Equal(got, req) {
			t.Errorf("%s: open = %+v, %v", name, got, ok)
		}
		tampered := []byte(v)
		tampered[len(tampered)/2] ^= 1
		if seal.open(string(tampered), &got) {
			t.Errorf("%s: a changed value opened", name)
		}
	}
	var garbage lti.DeepLinking
	if seal.open("not-base64!", &garbage) {
		t.Error("garbage opened")
	}
}
