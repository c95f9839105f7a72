package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// postWith returns the id of the post whose text contains s on the page.
func (b *browser) postWith(t *testing.T, s string) string {
	t.Helper()
	id, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`([...document.querySelectorAll('[data-testid="post"]')].find(p => p.textContent.includes(%q)) || {dataset: {}}).dataset.post || ""`, s)))
	if err != nil || id == "" {
		t.Fatalf("no post containing %q on the page (%v)", s, err)
	}
	return id
}

// TestBrowserQuestions is Q&A as a class would use it: learner A asks on
// lesson 1 about its classify widget; learner B of the same class
// answers; A sees the badge, accepts and the badge clears; the teacher
// hides A's third post and A sees the reason; a learner of another class
// sees none of it.
func TestBrowserQuestions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	base, _ := startServer(t, db)
	var out, errOut bytes.Buffer
	if err := runTeacher(context.Background(), []string{"add", "qa@school.example", "--name", "Ms Rowe", "--db", db},
		strings.NewReader("a classroom password\n"), &out, &errOut); err != nil {
		t.Fatalf("learn teacher add: %v\n%s", err, errOut.String())
	}
	waitReady(t, base)
	const lesson = "/lessons/two-ways-to-fail"

	teacher := newBrowser(t)
	teacher.do(t, chromedp.Navigate(base+"/signin"), chromedp.WaitVisible(chromedp.CSS(`#signin-email`)),
		fill(`#signin-email`, "qa@school.example"), fill(`#signin-password`, "a classroom password"),
		chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`#class-name`)))
	newClass := func(name string) string {
		teacher.do(t, chromedp.Navigate(base+"/classes"), chromedp.WaitVisible(chromedp.CSS(`#class-name`)),
			fill(`#class-name`, name), chromedp.Click(chromedp.CSS(`form[action="/classes"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
		return teacher.text(t, `[data-testid="join-code"]`)
	}
	code1, code2 := newClass("Room A"), newClass("Room B")
	join := func(code, name string) *browser {
		b := newBrowser(t)
		b.do(t, chromedp.Navigate(base+"/join"), chromedp.WaitVisible(chromedp.CSS(`#join-code`)),
			fill(`#join-code`, code), fill(`#join-name`, name), chromedp.Click(chromedp.CSS(`form[action="/join"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="secret-words"]`)))
		return b
	}
	ann, ben, cat := join(code1, "Ann"), join(code1, "Ben"), join(code2, "Cat")

	// Ann asks about the classify widget; the script posts in place.
	question := "Why is a call without a tool name a protocol error?"
	ann.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(`[data-testid="ask-form"]`)),
		chromedp.SetValue(chromedp.CSS(`#qa-part`), "widget:which-channel"), fill(`#qa-body`, question),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)), chromedp.WaitVisible(chromedp.CSS(`article.qa-thread`)))
	if got := ann.text(t, `article.qa-thread`); !strings.Contains(got, question) {
		t.Fatalf("the thread = %q", got)
	}
	href, err := chromedp.Run(ann.ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid="thread-part"]`), "href"))
	if err != nil || href.Value != "#w-which-channel" {
		t.Errorf("the question's part link = %q, %v", href.Value, err)
	}
	// The widget links to its question.
	ann.do(t, chromedp.WaitVisible(chromedp.CSS(`#w-which-channel [data-testid="part-questions"]`)))

	// Ben, in the same class, answers.
	answer := "No tool can be found to run, so the request itself is wrong."
	ben.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(`article.qa-thread`)),
		fill(`[data-testid="answer-body"]`, answer), chromedp.Click(chromedp.CSS(`[data-testid="answer-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="answer"]`)))

	// Ann sees the badge, accepts the answer, and the badge clears.
	ann.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(`[data-testid="notices-badge"]`)))
	if got := ann.text(t, `[data-testid="notices-badge"]`); !strings.HasPrefix(got, "1") {
		t.Errorf("badge = %q, want 1", got)
	}
	ann.do(t, chromedp.Click(chromedp.CSS(`[data-testid="accept"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="accepted"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-testid="notices-badge"]`)),
		chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="accepted"]`)))
	if n, err := chromedp.Run(ann.ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="notices-badge"]').length`)); err != nil || n != 0 {
		t.Errorf("the badge is back after a reload (%d, %v)", n, err)
	}

	// Ann's third post; the teacher hides it; Ann sees why.
	third := "Anyone want to skip the quiz and share answers?"
	ann.do(t, fill(`[data-testid="answer-body"]`, third), chromedp.Click(chromedp.CSS(`[data-testid="answer-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="answer"]:nth-of-type(2)`)))
	teacher.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(`article.qa-thread`)))
	id := teacher.postWith(t, third)
	post := fmt.Sprintf(`[data-post="%s"]`, id)
	reason := "Please keep quiz answers to yourselves."
	teacher.do(t, chromedp.Click(chromedp.CSS(post+` details.qa-more:last-of-type summary`)),
		chromedp.WaitVisible(chromedp.CSS(post+` [data-testid="hide-reason"]`)), fill(post+` [data-testid="hide-reason"]`, reason),
		chromedp.Click(chromedp.CSS(post+` [data-testid="hide-submit"]`)), chromedp.WaitVisible(chromedp.CSS(post+` [data-testid="restore"]`)))
	ann.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(post+` [data-testid="hidden-reason"]`)))
	if got := ann.text(t, post+` [data-testid="hidden-reason"]`); !strings.Contains(got, reason) {
		t.Errorf("Ann sees %q, want the reason %q", got, reason)
	}
	ben.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(`article.qa-thread`)))
	if got := ben.text(t, `article.qa-thread`); strings.Contains(got, third) {
		t.Errorf("a classmate still sees the hidden post: %q", got)
	}

	// Cat, of another class, sees none of it.
	cat.do(t, chromedp.Navigate(base+lesson), chromedp.WaitVisible(chromedp.CSS(`[data-testid="qa"]`)))
	if got := cat.text(t, `[data-testid="qa"]`); strings.Contains(got, question) || strings.Contains(got, answer) || strings.Contains(got, third) {
		t.Errorf("a learner of another class sees the thread: %q", got)
	}
	for _, b := range []*browser{ann, ben, cat, teacher} {
		if errs := b.consoleErrors(); len(errs) > 0 {
			t.Errorf("console errors: %q", errs)
		}
	}
	t.Logf("screenshot of the thread: %s", ann.screenshot(t, "qa-thread"))
}
