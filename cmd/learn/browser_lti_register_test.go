package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"learn/internal/ltiplatform"
	"learn/lti"
	"learn/store"
)

// closeMessage is a message the LMS's registration page took from its
// frame.
type closeMessage struct {
	Origin  string `json:"origin"`
	Subject string `json:"subject"`
}

// registrationClosed waits until the LMS's registration page took a close
// message from its frame, and returns the messages it took.
func registrationClosed(got *[]closeMessage) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for {
			msgs, err := chromedp.Evaluate[[]closeMessage](`window.registrationClosed || []`)(ctx, tg)
			if err == nil && len(msgs) > 0 {
				*got = msgs
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("the LMS took no close message (last error %v): %w", err, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// TestBrowserLTIRegister: the LMS (on 127.0.0.1) opens learn's
// registration invite (on localhost) in a frame of its page; the LMS
// administrator presses the register button inside the frame; learn
// registers with the LMS, and its page posts the close message of Dynamic
// Registration to the LMS, which takes it from learn's origin. The LMS is
// then a platform in learn's store, with the client and deployment ids
// the LMS gave.
func TestBrowserLTIRegister(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	lms := ltiplatform.StartPlain(t, "unused-client", "unused-deployment")
	base := serveOnLocalhost(t, db)
	var out, errOut bytes.Buffer
	if err := runLTI(context.Background(), []string{"invite", "--db", db, "--public-url", base}, &out, &errOut); err != nil {
		t.Fatalf("lti invite: %v\n%s", err, errOut.String())
	}
	invite := regexp.MustCompile(regexp.QuoteMeta(base+lti.RegisterPath) + `\?invite=[A-Za-z0-9_-]+`).FindString(out.String())
	if invite == "" {
		t.Fatalf("lti invite printed no registration address:\n%s", out.String())
	}

	// One renderer for the LMS's page and learn's frame, as in the framed
	// launch tests, so that the frame's document is reachable from the
	// page's.
	b := newBrowser(t, chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	var closed []closeMessage
	b.do(t, chromedp.Navigate(lms.RegisterToolURL(invite)),
		inFrame(`[data-testid="lti-register-submit"]`),
		clickInFrame(`[data-testid="lti-register-submit"]`),
		registrationClosed(&closed))
	if want := []closeMessage{{Origin: base, Subject: ltiplatform.CloseSubject}}; !slices.Equal(closed, want) {
		t.Errorf("the LMS took the close messages %+v, want %+v", closed, want)
	}
	if status := b.text(t, "#status"); status != "Registration finished" {
		t.Errorf("the LMS's page says %q after the close message", status)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}

	regs := lms.Registrations()
	if len(regs) != 1 {
		t.Fatalf("the LMS took %d registrations (refused: %q), want 1", len(regs), lms.RefusedRegistrations())
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.FindPlatform(context.Background(), lms.Issuer(), regs[0].ClientID)
	if err != nil {
		t.Fatalf("the registered LMS is not in learn's store: %v", err)
	}
	if p.AuthURL != lms.AuthURL() || p.JWKSURL != lms.JWKSURL() || !p.HasDeployment(regs[0].DeploymentID) {
		t.Errorf("learn registered %+v; want the LMS's endpoints and deployment %s", p, regs[0].DeploymentID)
	}
}
