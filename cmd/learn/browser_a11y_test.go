package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"learn/lessons"
)

// axeViolation is one accessibility rule a page breaks, as axe-core reports
// it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []string `json:"target"`
	} `json:"nodes"`
}

// TestBrowserAccessibility runs axe-core (installed by npm ci, injected
// from node_modules: no network) on every kind of page, in light and dark
// themes, and fails on any serious or critical violation.
func TestBrowserAccessibility(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (run \"npm ci\"): %v", err)
	}
	db := filepath.Join(t.TempDir(), "learn.db")
	base, _ := startServer(t, db)
	b := newBrowser(t)
	pages := []string{"/", "/lessons/two-ways-to-fail", "/lessons/python-sdk-exceptions", "/lessons/tool-annotations", "/review", "/progress", "/guide", "/no-such-page",
		"/signin", "/classes", "/join", "/join/signin", "/me/delete"}
	check(t, b, base, string(script), pages)
	// Signed in as a teacher with a class someone joined: the class pages.
	var out, errOut bytes.Buffer
	if err := runTeacher(context.Background(), []string{"add", "a11y@school.example", "--db", db}, strings.NewReader("a classroom password\n"), &out, &errOut); err != nil {
		t.Fatalf("learn teacher add: %v %s", err, errOut.String())
	}
	b.do(t, chromedp.Navigate(base+"/signin"), chromedp.WaitVisible(chromedp.CSS("#signin-email")),
		fill("#signin-email", "a11y@school.example"), fill("#signin-password", "a classroom password"),
		chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS("#class-name")),
		fill("#class-name", "Accessible class"), chromedp.Click(chromedp.CSS(`form[action="/classes"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
	class, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	code := b.text(t, `[data-testid="join-code"]`)
	b.do(t, chromedp.Navigate(base+"/join"), chromedp.WaitVisible(chromedp.CSS("#join-code")), fill("#join-code", code), fill("#join-name", "Sky Lark"),
		chromedp.Click(chromedp.CSS(`form[action="/join"] button`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="secret-words"]`)))
	// One wrong quiz, so the dashboard draws its stuck list and charts.
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	q, _ := course.Lessons[0].Quiz()
	scope := fmt.Sprintf(`[data-testid="widget-%s"]`, q.ID)
	b.do(t, chromedp.Navigate(base+"/lessons/"+course.Lessons[0].Slug), chromedp.WaitVisible(chromedp.CSS(scope)))
	b.do(t, clickAll(b.quizAnswers(t, scope, q, false))...)
	b.do(t, chromedp.Click(chromedp.CSS(scope+` button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="outcome"] p`)))
	// A co-teacher, so the dashboard lists one with its remove button.
	if err := runTeacher(context.Background(), []string{"add", "co@school.example", "--name", "Room 14", "--db", db}, strings.NewReader("a classroom password\n"), &out, &errOut); err != nil {
		t.Fatalf("learn teacher add: %v %s", err, errOut.String())
	}
	b.do(t, chromedp.Navigate(class), chromedp.WaitVisible(chromedp.CSS(`#co-email`)), fill("#co-email", "co@school.example"),
		chromedp.Click(chromedp.CSS(`form[action$="/teachers"] button`)), chromedp.WaitVisible(chromedp.CSS(`form[action$="/remove"][action*="/teachers/"]`)))
	b.do(t, chromedp.Navigate(class), chromedp.WaitVisible(chromedp.CSS(`[data-testid="spread-chart"]`)))
	learner, err := chromedp.Run(b.ctx, chromedp.AttributeValue(chromedp.CSS(`tr[data-name="Sky Lark"] th a`), "href"))
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(class)
	if err != nil {
		t.Fatal(err)
	}
	check(t, b, base, string(script), []string{"/classes", u.Path, learner.Value, "/account/password", u.Path + "/sheet", u.Path + "/projector"})
	// A lesson page with a thread open: a question, the teacher's answer
	// and every action form, and the notices page.
	b.do(t, chromedp.Navigate(base+"/lessons/"+course.Lessons[0].Slug), chromedp.WaitVisible(chromedp.CSS(`[data-testid="ask-form"]`)),
		chromedp.SetValue(chromedp.CSS(`#qa-part`), "widget:which-channel"), fill("#qa-body", "Does a `tools/call` without a name count as malformed?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)), chromedp.WaitVisible(chromedp.CSS(`article.qa-thread`)),
		fill(`[data-testid="answer-body"]`, "Yes: see the *Who sees what* section."), chromedp.Click(chromedp.CSS(`[data-testid="answer-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="answer"]`)))
	thread, err := chromedp.Run(b.ctx, chromedp.AttributeValue(chromedp.CSS(`article.qa-thread`), "id"))
	if err != nil {
		t.Fatal(err)
	}
	check(t, b, base, string(script), []string{"/lessons/" + course.Lessons[0].Slug + "#" + thread.Value, "/notices"})
	// The confirmation page a removal asks on without JavaScript (submit()
	// skips the dialog), then the dashboard that says what was done, with
	// its undo.
	b.do(t, chromedp.Navigate(base+learner.Value), chromedp.WaitVisible(chromedp.CSS(`form[action$="/remove"]`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form[action$="/remove"]').submit()`),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="confirm-question"]`)))
	axeHere(t, b, string(script), "the removal's confirmation page")
	b.do(t, chromedp.Click(chromedp.CSS(`[data-testid="confirm-yes"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="removed"]`)))
	axeHere(t, b, string(script), "the dashboard after a removal")
}

// check runs axe-core on every page in the light and dark themes.
func check(t *testing.T, b *browser, base, script string, pages []string) {
	t.Helper()
	for _, theme := range []string{"light", "dark"} {
		b.do(t, chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
			})
			return chromedp.Void{}, err
		}))
		for _, path := range pages {
			t.Run(theme+path, func(t *testing.T) {
				b.do(t, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("main")),
					chromedp.Evaluate[chromedp.Void](script))
				violations, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]axeViolation](
					`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("axe: %v", err)
				}
				var bad []string
				for _, v := range violations {
					if v.Impact == "serious" || v.Impact == "critical" {
						var where []string
						for i, n := range v.Nodes {
							if i == 3 {
								where = append(where, fmt.Sprintf("and %d more", len(v.Nodes)-3))
								break
							}
							where = append(where, strings.Join(n.Target, " "))
						}
						bad = append(bad, fmt.Sprintf("%s (%s): %s — %s", v.ID, v.Impact, v.Help, strings.Join(where, "; ")))
					}
				}
				if len(bad) > 0 {
					t.Errorf("%s in the %s theme breaks accessibility rules:\n%s", path, theme, strings.Join(bad, "\n"))
				}
			})
		}
	}
}
