package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"learn/internal/ltiplatform"
	"learn/lessons"
	"learn/lti"
)

// TestBrowserLTIDeepLinkingFramedStorage: in Chromium, an instructor's
// deep linking request inside the LMS's course page, where the frame
// keeps no cookie at all, opens learn's picker there through the LMS's
// client-side storage; ticking two lessons and submitting gets the
// browser's proof back from the storage, and the LMS takes the signed
// response of two resource links, all inside its frame.
func TestBrowserLTIDeepLinkingFramedStorage(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	f := newFramedLTI(t)
	f.lms.TrustToolKeySet(f.base+lti.JWKSPath, nil)
	f.blockFrameCookies(t)
	l := ltiplatform.Launch{User: ltiplatform.User{Sub: "u-teacher", Name: "Course Teacher", Roles: []string{ltiplatform.Instructor}},
		ContextID: "course-1", ContextTitle: "Course", Target: f.base + lti.LaunchPath, StorageTarget: ltiplatform.StorageFrame,
		DeepLinking: &ltiplatform.DeepLinking{AcceptMultiple: true, Data: "opaque"}}
	f.b.do(t, chromedp.Navigate(f.lms.CourseURL(f.lms.LoginURL(f.base+lti.LoginPath, l))),
		inFrame(`form[data-lti-bound]`),
		clickInFrame(`label[for="deep-link-lesson-0"]`),
		clickInFrame(`label[for="deep-link-lesson-1"]`),
		clickInFrame(`[data-testid="deep-link-submit"]`),
		inFrame(`[data-testid="added"]`))
	returns := f.lms.DeepLinkReturns()
	if len(returns) != 1 || len(returns[0].Items) != 2 || returns[0].Data != "opaque" {
		t.Fatalf("the LMS took %+v (refused: %v)", returns, f.lms.RefusedDeepLinks())
	}
	for i, it := range returns[0].Items {
		if want := f.base + "/lessons/" + course.Lessons[i].Slug; it.URL != want || it.LineItem == nil ||
			it.LineItem.ScoreMaximum != float64(course.Lessons[i].EarnableXP()) {
			t.Errorf("item %d = %+v, want a link to %s", i, it, want)
		}
	}
	log, err := chromedp.Run(f.b.ctx, chromedp.Evaluate[[]string](`window.storageLog`))
	if err != nil || len(log) != 3 || !strings.HasPrefix(log[0], "put learn_state_") || log[1] != "get"+log[0][3:] || log[2] != log[1] {
		t.Errorf("the LMS's storage handled %q (%v), want a put and two gets (the launch's, the pick's) of one key", log, err)
	}
	if errs := f.b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserLTIDeepLinkingFramedStorageLost: when the LMS's storage no
// longer answers at the pick, the picker in the cookieless frame posts
// nothing and says what to do instead; the LMS takes no response.
func TestBrowserLTIDeepLinkingFramedStorageLost(t *testing.T) {
	f := newFramedLTI(t)
	f.blockFrameCookies(t)
	l := ltiplatform.Launch{User: ltiplatform.User{Sub: "u-teacher", Name: "Course Teacher", Roles: []string{ltiplatform.Instructor}},
		ContextID: "course-1", ContextTitle: "Course", Target: f.base + lti.LaunchPath, StorageTarget: ltiplatform.StorageFrame,
		DeepLinking: &ltiplatform.DeepLinking{AcceptMultiple: true}}
	f.b.do(t, chromedp.Navigate(f.lms.CourseURL(f.lms.LoginURL(f.base+lti.LoginPath, l))),
		inFrame(`form[data-lti-bound]`),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('iframe[name="`+ltiplatform.StorageFrame+`"]').remove()`),
		clickInFrame(`label[for="deep-link-lesson-0"]`),
		clickInFrame(`[data-testid="deep-link-submit"]`),
		inFrame(`[data-lti-fallback]:not([hidden]) [data-testid="deep-link-unbound"]`),
		inFrame(`form[data-lti-bound]`))
	if returns := f.lms.DeepLinkReturns(); len(returns) != 0 {
		t.Errorf("the LMS took %+v", returns)
	}
}
