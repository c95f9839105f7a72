package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"learn/lessons"
	"learn/sandbox"
	"learn/web"
)

// setCode replaces the editor's text, as typing would.
func setCode(sel, code string) chromedp.Action[chromedp.Void] {
	js, _ := json.Marshal(code)
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
		`document.querySelector(%q).dispatchEvent(new CustomEvent("learn:set-code", {detail: %s}))`, sel, js))
}

func TestBrowserExercise(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	ex, lesson, ok := course.Exercise("report-a-failure")
	if !ok {
		t.Fatal("the course has no report-a-failure exercise")
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	scope := `[data-testid="exercise-report-a-failure"]`
	b.do(t, chromedp.Navigate(base+"/"), chromedp.Navigate(base+"/lessons/"+lesson.Slug),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)))

	// The starter is wrong: run it and see the failing sample with its diff.
	b.do(t, clickSteady(scope+` [data-testid="run"]`),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"]`)))
	if got := b.text(t, scope+` [data-testid="summary"]`); !strings.HasPrefix(got, "1 of 3 sample cases passed") {
		t.Errorf("starter run summary = %q", got)
	}
	if diff := b.text(t, scope+` [data-testid="diff"]`); !strings.Contains(diff, "- error -32602 Unknown tool: fly_to_moon") {
		t.Errorf("diff = %q, want the expected line marked with -", diff)
	}
	b.screenshot(t, "exercise-wrong")
	xpBefore := b.text(t, `[data-testid="xp-total"]`)

	// Fix it in the editor and submit: every case passes and XP rises.
	b.do(t, setCode(scope+` textarea[name="code"]`, ex.Solution),
		clickSteady(scope+` [data-testid="submit"]`),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"].outcome-pass`)))
	summary := b.text(t, scope+` [data-testid="summary"]`)
	want := fmt.Sprintf("%d of %d cases passed, hidden ones included. Solved. +%d XP.", len(ex.Samples)+len(ex.Hidden), len(ex.Samples)+len(ex.Hidden), ex.XPValue())
	if summary != want {
		t.Errorf("submit summary = %q, want %q", summary, want)
	}
	if xp := b.text(t, `[data-testid="xp-total"]`); xp != fmt.Sprint(ex.XPValue()) || xp == xpBefore {
		t.Errorf("XP after solving = %s (was %s), want %d", xp, xpBefore, ex.XPValue())
	}
	b.screenshot(t, "exercise-solved")

	// The code is kept: after a reload the editor shows the solution.
	b.do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)))
	if got := b.text(t, scope+` [data-testid="editor"]`); !strings.Contains(got, "PROTOCOL_CODES") {
		t.Errorf("after a reload the editor shows %q, want the submitted code", got)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserExerciseProblems sends code the server cannot take, and checks
// that the panel says why in words a learner can act on, as the problem the
// server's own page shows, and that the code stays in the editor.
func TestBrowserExerciseProblems(t *testing.T) {
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	scope := `[data-testid="exercise-report-a-failure"]`
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	_, lesson, ok := course.Exercise("report-a-failure")
	if !ok {
		t.Fatal("the course has no report-a-failure exercise")
	}
	b.do(t, chromedp.Navigate(base+"/lessons/"+lesson.Slug), chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)))
	tests := []struct {
		name string
		code string
		want string
	}{
		// Past the sandbox's code limit: the server draws the panel.
		{"over the code limit", "# " + strings.Repeat("x", sandbox.DefaultMaxCodeBytes+10) + "\n", "shorten"},
		// Past the request body cap: the server refuses in plain text.
		{"over the body cap", "# " + strings.Repeat("y", web.DefaultMaxBodyBytes+10) + "\n", "too large"},
	}
	for _, tt := range tests {
		b.do(t, setCode(scope+` textarea[name="code"]`, tt.code), clickSteady(scope+` [data-testid="run"]`))
		st := b.waitPanel(t, scope)
		if st.Graded || !strings.Contains(strings.ToLower(st.Problem), tt.want) {
			t.Errorf("%s: the panel shows graded=%v problem %q, want a problem saying %q", tt.name, st.Graded, st.Problem, tt.want)
		}
		kept, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelector('`+scope+` textarea[name="code"]').value.length`))
		if err != nil || kept != len(tt.code) {
			t.Errorf("%s: the editor holds %d characters after the refusal (%v), want the code kept", tt.name, kept, err)
		}
	}
	// The browser logs each 413 as a failed load; anything else is a fault.
	var errs []string
	for _, e := range b.consoleErrors() {
		if !strings.Contains(e, "status of 413") {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// waitReady waits until /readyz answers 200 (the sandbox is warm).
func waitReady(t *testing.T, base string) {
	t.Helper()
	c := newClient(t)
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, body := get(t, c, base+"/readyz")
		if resp.StatusCode == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 90 s: %s", body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
