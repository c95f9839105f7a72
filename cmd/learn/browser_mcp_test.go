package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/chromedp/chromedp"

	"learn/lessons"
)

// TestBrowserMCPExercise solves "Make lookup_order fail well" with a wrong
// answer, then a right one, and watches the transcript of what the
// grader's client received change.
func TestBrowserMCPExercise(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	ex, lesson, ok := course.Exercise("lookup-order")
	if !ok {
		t.Fatal("the course has no lookup-order exercise")
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	waitReady(t, base)
	b := newBrowser(t)
	scope := `[data-testid="exercise-lookup-order"]`
	host := scope + ` [data-testid="transcript-host"]`
	b.do(t, chromedp.Navigate(base+"/"), chromedp.Navigate(base+"/lessons/"+lesson.Slug),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="editor"]`)))

	// Wrong: a ToolError that does not name the id. The grader's Z9 call
	// gets a tool error the model cannot act on.
	wrong := strings.Replace(ex.Starter, "    return Order(id=order_id, **ORDERS[order_id])",
		"    if order_id not in ORDERS:\n        raise ToolError(\"Not found.\")\n    return Order(id=order_id, **ORDERS[order_id])", 1)
	if wrong == ex.Starter {
		t.Fatal("the starter changed: this test no longer knows where to edit it")
	}
	b.do(t, setCode(scope+` textarea[name="code"]`, wrong),
		clickSteady(scope+` [data-testid="submit"]`),
		chromedp.WaitVisible(chromedp.CSS(host)))
	// Of every call, hidden ones included, it passes only the two that find
	// an order: each unknown id needs a message that names it.
	if got, want := b.text(t, scope+` [data-testid="summary"]`), fmt.Sprintf("2 of %d cases passed", len(ex.MCP.Calls)); !strings.HasPrefix(got, want) {
		t.Errorf("wrong answer's summary = %q", got)
	}
	// Each exchange folds to one row; unfold them all to read the JSON.
	unfold := chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('` + scope + ` [data-testid="transcript"] details').forEach(d => d.open = true)`)
	b.do(t, unfold)
	transcript := b.text(t, host)
	for _, want := range []string{"tool error", `"isError": true`, "Error executing tool lookup_order: Not found.", "the model would see this text"} {
		if !strings.Contains(transcript, want) {
			t.Errorf("the transcript after the wrong answer lacks %q:\n%s", want, transcript)
		}
	}
	if strings.Contains(transcript, "Q-000") {
		t.Error("the transcript shows a hidden call")
	}
	// Each case's message says each thing once: the grader's words, then
	// the author's advice, never the same advice twice.
	messages, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('`+scope+` [data-testid="case"]')].map(c => [...c.querySelectorAll(":scope > p")].slice(1).map(p => p.textContent).join(" "))`))
	if err != nil || len(messages) == 0 {
		t.Fatalf("no case messages (%v)", err)
	}
	for _, m := range messages {
		if p := saidTwice(m); p != "" {
			t.Errorf("a case message says %q twice: %s", p, m)
		}
	}
	b.screenshot(t, "mcp-exercise-wrong")

	// Right: the message names the id. The same call now reads differently.
	b.do(t, setCode(scope+` textarea[name="code"]`, ex.Solution),
		clickSteady(scope+` [data-testid="submit"]`),
		chromedp.WaitVisible(chromedp.CSS(scope+` [data-testid="summary"].outcome-pass`)), unfold)
	transcript = b.text(t, host)
	for _, want := range []string{"No order with id 'Z9'", `"structuredContent"`, "desk lamp"} {
		if !strings.Contains(transcript, want) {
			t.Errorf("the transcript after the right answer lacks %q:\n%s", want, transcript)
		}
	}
	if strings.Contains(transcript, "Not found.") {
		t.Error("the transcript still shows the wrong answer's response")
	}
	if got := b.text(t, scope+` [data-testid="script-stdout"]`); !strings.Contains(got, "found: desk lamp") {
		t.Errorf("the script's own output = %q", got)
	}
	b.screenshot(t, "mcp-exercise-solved")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// saidTwice returns a run of four words that text says twice, or "".
func saidTwice(text string) string {
	words := strings.Fields(strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return r
		}
		return ' '
	}, text)))
	seen := map[string]bool{}
	for i := 0; i+4 <= len(words); i++ {
		p := strings.Join(words[i:i+4], " ")
		if seen[p] {
			return p
		}
		seen[p] = true
	}
	return ""
}
