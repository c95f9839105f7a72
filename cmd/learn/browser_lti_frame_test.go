package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"learn/internal/ltiplatform"
	"learn/lti"
)

// framedLTI is learn on localhost and the test LMS on 127.0.0.1 (two
// sites, so learn's frame in the LMS's course page is a third-party
// one), with a class made by an instructor's launch.
type framedLTI struct {
	base string
	lms  *ltiplatform.Platform
	b    *browser
}

func newFramedLTI(t *testing.T) *framedLTI {
	t.Helper()
	db := filepath.Join(t.TempDir(), "learn.db")
	lms := plainLMS(t, db)
	base := serveOnLocalhost(t, db)
	// One renderer for the LMS's page and learn's frame, so that the
	// test's interception (blockFrameCookies) sees the frame's requests.
	b := newBrowser(t, chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	f := &framedLTI{base: base, lms: lms, b: b}
	teacher := f.launch(ltiplatform.User{Sub: "u-teacher", Name: "Course Teacher", Roles: []string{ltiplatform.Instructor}})
	b.do(t, chromedp.Navigate(lms.LoginURL(base+lti.LoginPath, teacher)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="class-title"], h1`)))
	return f
}

func (f *framedLTI) launch(u ltiplatform.User) ltiplatform.Launch {
	return ltiplatform.Launch{User: u, ContextID: "course-1", ContextTitle: "Course", ResourceLinkID: "link-1",
		Target: f.base + "/lessons/" + ltiLessonSlug, Custom: map[string]string{"lesson": ltiLessonSlug}}
}

// ltiLessonSlug is the lesson the framed launches open.
const ltiLessonSlug = "two-ways-to-fail"

// inFrame waits until the document of the LMS page's frame holds sel.
func inFrame(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for {
			nodes, err := chromedp.Nodes(chromedp.CSS(`iframe#tool`))(ctx, tg)
			if err != nil {
				return err
			}
			found, err := chromedp.Nodes(chromedp.CSS(sel), chromedp.AtLeast(0), chromedp.FromNode(nodes[0]))(ctx, tg)
			if err == nil && len(found) > 0 {
				return nil
			}
			select {
			case <-ctx.Done():
				html := ""
				if len(nodes) > 0 {
					html, _ = chromedp.OuterHTML(chromedp.CSS(`body`), chromedp.FromNode(nodes[0]))(context.WithoutCancel(ctx), tg)
				}
				if len(html) > 2000 {
					html = html[:2000]
				}
				return fmt.Errorf("frame never showed %s (its body: %s): %w", sel, html, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// clickInFrame clicks the element of the frame's document matching sel.
func clickInFrame(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		nodes, err := chromedp.Nodes(chromedp.CSS(`iframe#tool`))(ctx, tg)
		if err != nil {
			return err
		}
		_, err = chromedp.Click(chromedp.CSS(sel), chromedp.FromNode(nodes[0]))(ctx, tg)
		return err
	})
}

// blockFrameCookies makes the browser keep no cookie while learn is in
// the LMS's frame: every cookie is cleared as each answer of learn's
// arrives, before the page sees it, as in a browser that blocks every
// third-party cookie, partitioned or not. (The tab a button opens later
// is not watched.)
func (f *framedLTI) blockFrameCookies(t *testing.T) {
	t.Helper()
	ctx := f.b.ctx
	if err := chromedp.Listen(ctx, func(ev any) {
		e, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		go func() {
			// The answer's cookies are kept by now: forget them before
			// the tab sees the answer (and follows a redirect).
			_, _ = chromedp.Call(ctx, network.ClearBrowserCookies, cdp.Empty{})
			_, _ = chromedp.Call(ctx, fetch.ContinueResponse, fetch.ContinueResponseParams{RequestID: e.RequestID})
		}()
	}); err != nil {
		t.Fatal(err)
	}
	f.b.do(t, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
			{URLPattern: f.base + "/*", RequestStage: fetch.RequestStageResponse}}})
		return err
	}))
}

// newTab waits for the tab a click opens and returns a browser on it.
func (f *framedLTI) newTab(t *testing.T, opened <-chan target.ID) *browser {
	t.Helper()
	select {
	case id := <-opened:
		ctx, cancel := chromedp.NewContext(f.b.ctx, chromedp.WithTargetID(id))
		t.Cleanup(cancel)
		// The first action attaches to the tab, on the tab's own context:
		// on one with a deadline, the deadline would end the attachment.
		if err := chromedp.Do(ctx, chromedp.Func(func(context.Context, *chromedp.Target) error { return nil })); err != nil {
			t.Fatalf("attach to the new tab: %v", err)
		}
		return &browser{ctx: ctx}
	case <-time.After(browserStepLimit):
		t.Fatal("no new tab opened")
		return nil
	}
}

// TestBrowserLTIFramed: a learner launched inside the LMS's course page
// (a third-party frame) sees the lesson there, and moves on inside the
// frame: the launch's cookies are third-party ones (SameSite=None,
// Partitioned) and the pages name the LMS among their frame ancestors.
func TestBrowserLTIFramed(t *testing.T) {
	f := newFramedLTI(t)
	l := f.launch(ltiplatform.User{Sub: "u-learner", Name: "Framed Learner", Roles: []string{ltiplatform.Learner}})
	f.b.do(t, chromedp.Navigate(f.lms.CourseURL(f.lms.LoginURL(f.base+lti.LoginPath, l))),
		inFrame(`main h1`), inFrame(`[data-testid="learner-stats"]`),
		clickInFrame(`a[href="/"]`), inFrame(`[data-testid="learner-stats"]`))
	if errs := f.b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserLTIFramedStorage: where the frame keeps no cookie at all,
// the launch keeps its proof in the LMS's client-side storage (put at the
// login, got back at the launch), and one button continues, signed in,
// in a new tab.
func TestBrowserLTIFramedStorage(t *testing.T) {
	f := newFramedLTI(t)
	f.blockFrameCookies(t)
	l := f.launch(ltiplatform.User{Sub: "u-learner", Name: "Framed Learner", Roles: []string{ltiplatform.Learner}})
	l.StorageTarget = ltiplatform.StorageFrame
	f.b.do(t, chromedp.Navigate(f.lms.CourseURL(f.lms.LoginURL(f.base+lti.LoginPath, l))),
		inFrame(`[data-testid="lti-continue"]`))
	log, err := chromedp.Run(f.b.ctx, chromedp.Evaluate[[]string](`window.storageLog`))
	if err != nil || len(log) != 2 || !strings.HasPrefix(log[0], "put learn_state_") || !strings.HasPrefix(log[1], "get learn_state_") ||
		log[0][4:] != log[1][4:] {
		t.Fatalf("the LMS's storage handled %q (%v), want a put and a get of one key", log, err)
	}
	opened := chromedp.WaitNewTarget(f.b.ctx, func(i *target.Info) bool { return i.Type == "page" && i.URL != "" })
	f.b.do(t, clickInFrame(`[data-testid="lti-continue"]`))
	tab := f.newTab(t, opened)
	tab.do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid="learner-stats"]`)))
	if got := tab.text(t, "#lesson-title"); got != "Two ways a tool call fails" {
		t.Errorf("the new tab shows %q, want the launch's lesson", got)
	}
}

// TestBrowserLTIFramedNewTab: where the frame keeps no cookie and the LMS
// offers no storage, the login initiation answers one link that opens
// the launch in a new tab, where it completes.
func TestBrowserLTIFramedNewTab(t *testing.T) {
	f := newFramedLTI(t)
	f.blockFrameCookies(t)
	l := f.launch(ltiplatform.User{Sub: "u-learner", Name: "Framed Learner", Roles: []string{ltiplatform.Learner}})
	f.b.do(t, chromedp.Navigate(f.lms.CourseURL(f.lms.LoginURL(f.base+lti.LoginPath, l))),
		inFrame(`[data-testid="lti-new-tab"]`))
	opened := chromedp.WaitNewTarget(f.b.ctx, func(i *target.Info) bool { return i.Type == "page" && i.URL != "" })
	f.b.do(t, clickInFrame(`[data-testid="lti-new-tab"]`))
	tab := f.newTab(t, opened)
	tab.do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid="learner-stats"]`)))
	if got := tab.text(t, "#lesson-title"); got != "Two ways a tool call fails" {
		t.Errorf("the new tab shows %q, want the launch's lesson", got)
	}
}
