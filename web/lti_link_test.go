package web

import (
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"learn/internal/ltiplatform"
	"learn/progress"
)

// linkPost posts a form from a page of learn (Sec-Fetch-Site as given)
// and returns where the browser ended, the status and the page.
func linkPost(t *testing.T, b *http.Client, u string, fields url.Values, site string) (string, int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(fields.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", site)
	if site == "cross-site" {
		req.Header.Set("Origin", "https://evil.example")
	}
	return linkDo(t, b, req)
}

// linkGet gets a page of learn.
func linkGet(t *testing.T, b *http.Client, u string) (string, int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return linkDo(t, b, req)
}

func linkDo(t *testing.T, b *http.Client, req *http.Request) (string, int, string) {
	t.Helper()
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

var (
	sealedRe  = regexp.MustCompile(`name="link" value="([^"]+)"`)
	xpTotalRe = regexp.MustCompile(`data-testid="xp-total">(\d+)<`)
)

// TestLTILinkWords: a learner who joined with secret words before, then
// launched from the LMS, takes the words' progress along through the real
// pages, on both engines: wrong words change nothing, the confirmation
// changes nothing, its post links (and not from another origin, another
// learner or after it expired), the next launch on another device is the
// linked learner with their XP, and a second link is refused.
func TestLTILinkWords(t *testing.T) {
	onBothLTIEngines(t, testLTILinkWords)
}

func testLTILinkWords(t *testing.T, w *ltiWorld) {
	ctx := context.Background()
	instructor := w.launch(teacherOne, "course-1")
	instructor.Target = w.base + "/"
	if _, status, body := w.run(w.browser(), instructor); status != http.StatusOK {
		t.Fatalf("instructor launch: %d\n%s", status, body)
	}
	lmsClass := w.classOf("course-1")

	// Before the LMS: a class joined with words, and 30 XP.
	tc, err := w.st.CreateTeacher(ctx, progress.Teacher{Email: "words@example.com", Name: "Mr W", PasswordHash: "x", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	words, err := w.st.CreateClass(ctx, progress.Class{TeacherID: tc.ID, Name: "Year 8 <words>", JoinCode: "WORDS8", TimeZone: "UTC", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	old := w.browser()
	if _, status, body := linkPost(t, old, w.base+"/join", url.Values{"code": {"WORDS8"}, "name": {"Ada"}}, "same-origin"); status != http.StatusOK {
		t.Fatalf("join: %d\n%s", status, body)
	}
	ada, err := w.st.FindMemberByName(ctx, words.ID, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.RecordAttempt(ctx, progress.Attempt{LearnerID: ada.LearnerID, LessonSlug: ltiLesson, WidgetID: "quiz", Kind: "quiz",
		Score: 1, Total: 1, Passed: true, Answers: "{}", At: time.Now()},
		progress.AttemptEffects{Award: &progress.Award{Key: "quiz:" + ltiLesson, Amount: 30, Reason: "Passed"}, CompleteLesson: true}); err != nil {
		t.Fatal(err)
	}
	bea := w.joinWords(t, "Bea")

	// The LMS learner's first launch: a learner of its own, offered a link.
	lms := w.browser()
	if _, status, body := w.run(lms, w.launch(learnerOne, "course-1")); status != http.StatusOK {
		t.Fatalf("learner launch: %d\n%s", status, body)
	}
	first, err := w.st.FindLTIUser(ctx, w.lms.Issuer(), learnerOne.Sub)
	if err != nil || first.LearnerID == ada.LearnerID {
		t.Fatalf("the first launch's learner: %+v, %v", first, err)
	}
	if _, status, body := linkGet(t, lms, w.base+"/me"); status != http.StatusOK || !strings.Contains(body, `data-testid="link-offer"`) || !strings.Contains(body, `href="/me/link"`) {
		t.Errorf("the LMS learner's page offers no link: %d\n%s", status, body)
	}
	if _, _, body := linkGet(t, old, w.base+"/me"); strings.Contains(body, `data-testid="link-offer"`) {
		t.Error("a learner no LMS made is offered a link")
	}
	if _, status, _ := linkGet(t, old, w.base+LinkPath); status != http.StatusForbidden {
		t.Errorf("the link form for a learner no LMS made: %d, want 403", status)
	}
	_, status, body := linkGet(t, lms, w.base+LinkPath)
	if status != http.StatusOK || !strings.Contains(body, `<label for="link-secret">`) || !strings.Contains(body, `<h1>Used learn with secret words before?</h1>`) {
		t.Fatalf("the link form: %d\n%s", status, body)
	}
	unchanged := func(when string) {
		t.Helper()
		if u, err := w.st.FindLTIUser(ctx, w.lms.Issuer(), learnerOne.Sub); err != nil || u.LearnerID != first.LearnerID {
			t.Errorf("%s: the LMS user is learner %+v, %v; want still %s", when, u, err, first.LearnerID)
		}
		if _, err := w.st.FindLTILinkByLearner(ctx, ada.LearnerID); !errors.Is(err, progress.ErrNotFound) {
			t.Errorf("%s: a link was recorded: %v", when, err)
		}
	}
	code := progress.ClassCode(words.ID)
	// Wrong words: refused, tied to the fields, nothing changes.
	_, status, body = linkPost(t, lms, w.base+LinkPath, url.Values{"code": {code}, "name": {"Ada"}, "secret": {"wrong words here"}}, "same-origin")
	if status != http.StatusUnauthorized || !strings.Contains(body, `id="link-error"`) || !strings.Contains(body, `aria-describedby="link-error"`) ||
		!strings.Contains(body, "do not match") || strings.Contains(body, "wrong words here") {
		t.Errorf("wrong words: %d\n%s", status, body)
	}
	unchanged("after wrong words")
	// The right words: a confirmation that says what happens, without the
	// words, and changes nothing.
	_, status, body = linkPost(t, lms, w.base+LinkPath, url.Values{"code": {code}, "name": {"ada"}, "secret": {ada.Secret}}, "same-origin")
	text := pageText(body)
	if status != http.StatusOK || !strings.Contains(text, "The progress of Ada in Year 8 <words> — 30 XP, 1 lesson completed — becomes your LMS account's") ||
		!strings.Contains(text, "once and not undone") || !strings.Contains(body, "Year 8 &lt;words&gt;") {
		t.Fatalf("confirmation: %d\n%s", status, body)
	}
	if strings.Contains(body, ada.Secret) || strings.Contains(html.UnescapeString(body), ada.Secret) {
		t.Error("the confirmation page holds the secret words")
	}
	m := sealedRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no sealed confirmation in\n%s", body)
	}
	sealed := html.UnescapeString(m[1])
	unchanged("after the confirmation page")
	if _, _, again := linkGet(t, w.browser(), w.base+"/"); again == "" {
		t.Fatal("no home page")
	}
	// Refused confirmations: from another origin, for another learner,
	// expired, tampered with.
	if _, status, _ := linkPost(t, lms, w.base+LinkConfirmPath, url.Values{"link": {sealed}}, "cross-site"); status != http.StatusForbidden {
		t.Errorf("a cross-site confirmation: %d, want 403", status)
	}
	unchanged("after a cross-site confirmation")
	stranger := w.browser()
	if _, status, _ := w.run(stranger, w.launch(ltiplatform.User{Sub: "u-learner-2", Name: "Learner Two", Roles: []string{ltiplatform.Learner}}, "course-1")); status != http.StatusOK {
		t.Fatal("second learner's launch")
	}
	if _, status, body := linkPost(t, stranger, w.base+LinkConfirmPath, url.Values{"link": {sealed}}, "same-origin"); status != http.StatusUnprocessableEntity || !strings.Contains(body, "nothing was linked") {
		t.Errorf("another learner's confirmation: %d\n%s", status, body)
	}
	seal, err := newLinkSeal([][]byte{make([]byte, 64)})
	if err != nil {
		t.Fatal(err)
	}
	expired, err := seal.sealFor(linkProof{ClassID: words.ID, Learner: ada.LearnerID, Expires: time.Now().Add(-time.Second)}, first.LearnerID)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"expired": expired, "tampered": sealed[:len(sealed)-2] + "AA", "missing": ""} {
		if _, status, _ := linkPost(t, lms, w.base+LinkConfirmPath, url.Values{"link": {v}}, "same-origin"); status != http.StatusUnprocessableEntity {
			t.Errorf("%s confirmation: %d, want 422", name, status)
		}
	}
	unchanged("after refused confirmations")

	// The confirmation links; this browser is the linked learner.
	path, status, body := linkPost(t, lms, w.base+LinkConfirmPath, url.Values{"link": {sealed}}, "same-origin")
	if status != http.StatusOK || path != "/me" || !strings.Contains(body, `data-testid="linked"`) || strings.Contains(body, `data-testid="link-offer"`) {
		t.Fatalf("the link ended at %s with %d\n%s", path, status, body)
	}
	if u, err := w.st.FindLTIUser(ctx, w.lms.Issuer(), learnerOne.Sub); err != nil || u.LearnerID != ada.LearnerID {
		t.Errorf("after the link the LMS user is %+v, %v; want %s", u, err, ada.LearnerID)
	}
	if got := xpTotalRe.FindStringSubmatch(body); got == nil || got[1] != "30" {
		t.Errorf("this browser's XP after the link: %v, want 30", got)
	}
	// A replay of the same confirmation is refused.
	if _, status, _ := linkPost(t, lms, w.base+LinkConfirmPath, url.Values{"link": {sealed}}, "same-origin"); status != http.StatusUnprocessableEntity && status != http.StatusForbidden {
		t.Errorf("a replayed confirmation: %d", status)
	}
	// The next launch, on another device: the linked learner, with the
	// old XP, in the LMS course's class.
	other := w.browser()
	if _, status, _ := w.run(other, w.launch(learnerOne, "course-1")); status != http.StatusOK {
		t.Fatalf("the launch after the link: %d", status)
	}
	_, _, body = linkGet(t, other, w.base+"/me")
	if got := xpTotalRe.FindStringSubmatch(body); got == nil || got[1] != "30" {
		t.Errorf("the next launch's XP: %v, want 30\n%s", got, body)
	}
	if strings.Contains(body, `data-testid="link-offer"`) {
		t.Error("the linked learner is offered a link again")
	}
	if mem, err := w.st.FindMember(ctx, lmsClass.ID, ada.LearnerID); err != nil || mem.Name != "Learner One" {
		t.Errorf("the linked learner in the LMS class: %+v, %v", mem, err)
	}
	// A second link, either way, is refused with a reason.
	if _, status, body := linkGet(t, other, w.base+LinkPath); status != http.StatusOK || !strings.Contains(body, `data-testid="link-done"`) || strings.Contains(body, `name="secret"`) {
		t.Errorf("the link form after the link: %d\n%s", status, body)
	}
	_, status, body = linkPost(t, other, w.base+LinkPath, url.Values{"code": {code}, "name": {"Bea"}, "secret": {bea.Secret}}, "same-origin")
	if status != http.StatusForbidden || !strings.Contains(body, "once and cannot be undone") {
		t.Errorf("a second link of the LMS user: %d\n%s", status, body)
	}
	_, status, body = linkPost(t, stranger, w.base+LinkPath, url.Values{"code": {code}, "name": {"Ada"}, "secret": {ada.Secret}}, "same-origin")
	if status != http.StatusForbidden || !strings.Contains(body, "already taken over by another LMS account") {
		t.Errorf("linking a learner linked already: %d\n%s", status, body)
	}
}

// joinWords joins the class WORDS8 as name in a browser of its own and
// returns the membership.
func (w *ltiWorld) joinWords(t *testing.T, name string) progress.Member {
	t.Helper()
	b := w.browser()
	if _, status, body := linkPost(t, b, w.base+"/join", url.Values{"code": {"WORDS8"}, "name": {name}}, "same-origin"); status != http.StatusOK {
		t.Fatalf("join %s: %d\n%s", name, status, body)
	}
	c, err := w.st.FindClassByCode(context.Background(), "WORDS8")
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.st.FindMemberByName(context.Background(), c.ID, strings.ToLower(name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLTILinkSealIsBound: a confirmation opens only for the learner it was
// sealed for, and only with the link's key.
func TestLTILinkSealIsBound(t *testing.T) {
	seal, err := newLinkSeal([][]byte{make([]byte, 64)})
	if err != nil {
		t.Fatal(err)
	}
	other, err := newSealer([][]byte{make([]byte, 64)}, "learn: LTI continue in a new tab", "learn_lti_continue")
	if err != nil {
		t.Fatal(err)
	}
	value, err := seal.sealFor(linkProof{ClassID: 7, Learner: "words", Expires: time.Unix(1e9, 0)}, "lms-learner")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		s     *sealer
		bound string
		opens bool
	}{
		{"the learner it was sealed for", seal, "lms-learner", true},
		{"another learner", seal, "someone-else", false},
		{"no learner", seal, "", false},
		{"a bound that only starts the same", seal, "lms-learne", false},
		{"another purpose's key", other, "lms-learner", false},
	} {
		var p linkProof
		if got := tc.s.openFor(value, tc.bound, &p); got != tc.opens || (got && (p.ClassID != 7 || p.Learner != "words")) {
			t.Errorf("%s: opened %v (%+v), want %v", tc.name, got, p, tc.opens)
		}
	}
	var p linkProof
	if seal.open(value, &p) {
		t.Error("a bound value opened without its bound")
	}
}
