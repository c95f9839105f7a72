package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"learn/internal/ltiplatform"
	"learn/lti"
)

// TestBrowserLTIRefusalFramed: a launch refused inside the LMS's course
// page, in a browser that never launched learn before (so without
// learn's frame cookie), shows its refusal page in the frame, naming the
// failed check, rather than a frame the browser blocked.
func TestBrowserLTIRefusalFramed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	lms := plainLMS(t, db)
	base := serveOnLocalhost(t, db)
	b := newBrowser(t, chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	l := ltiplatform.Launch{User: ltiplatform.User{Sub: "u-teacher", Name: "Course Teacher", Roles: []string{ltiplatform.Instructor}},
		ContextID: "course-1", ContextTitle: "Course", ResourceLinkID: "link-1", Target: base + "/lessons/" + ltiLessonSlug,
		Claims: map[string]any{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-2"}}
	b.do(t, chromedp.Navigate(lms.CourseURL(lms.LoginURL(base+lti.LoginPath, l))), inFrame(`[data-testid="lti-check"]`))
	var check string
	b.do(t, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		nodes, err := chromedp.Nodes(chromedp.CSS(`iframe#tool`))(ctx, tg)
		if err != nil {
			return err
		}
		check, err = chromedp.Text(chromedp.CSS(`[data-testid="lti-check"]`), chromedp.FromNode(nodes[0]))(ctx, tg)
		return err
	}))
	if check != "deployment_id" {
		t.Errorf("the framed refusal names the check %q, want deployment_id", check)
	}
}
