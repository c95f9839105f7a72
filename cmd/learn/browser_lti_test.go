package main

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"learn/internal/ltiplatform"
	"learn/lessons"
	"learn/lti"
)

// TestBrowserLTIDeepLinking: in Chromium, an instructor's deep linking
// request from the test LMS opens learn's picker; ticking two lessons and
// submitting sends the signed response back to the LMS by the page's
// script (its policy lets that one page post to the LMS), and the LMS
// takes two resource links.
func TestBrowserLTIDeepLinking(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "learn.db")
	lms := plainLMS(t, db)
	base := serveOnLocalhost(t, db)
	lms.TrustToolKeySet(base+lti.JWKSPath, nil)

	b := newBrowser(t)
	l := ltiplatform.Launch{User: ltiplatform.User{Sub: "u-instructor", Name: "Instructor", Roles: []string{ltiplatform.Instructor}},
		ContextID: "course-1", ContextTitle: "Course", Target: base + lti.LaunchPath,
		DeepLinking: &ltiplatform.DeepLinking{AcceptMultiple: true, Data: "opaque"}}
	b.do(t, chromedp.Navigate(lms.LoginURL(base+lti.LoginPath, l)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="deep-link-picker"]`)),
		chromedp.Click(chromedp.CSS(`label[for="deep-link-lesson-0"]`)),
		chromedp.Click(chromedp.CSS(`label[for="deep-link-lesson-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="deep-link-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="added"]`)))
	returns := lms.DeepLinkReturns()
	if len(returns) != 1 || len(returns[0].Items) != 2 || returns[0].Data != "opaque" {
		t.Fatalf("the LMS took %+v (refused: %v)", returns, lms.RefusedDeepLinks())
	}
	for i, it := range returns[0].Items {
		if want := base + "/lessons/" + course.Lessons[i].Slug; it.URL != want || it.LineItem == nil ||
			it.LineItem.ScoreMaximum != float64(course.Lessons[i].EarnableXP()) {
			t.Errorf("item %d = %+v, want a link to %s", i, it, want)
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
