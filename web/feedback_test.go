package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"learn/quiz"
)

// checkJSON posts form to action asking for JSON and returns the status
// and the decoded answer.
func checkJSON(t *testing.T, c *client, action string, form url.Values) (int, checkResponse) {
	t.Helper()
	status, body := c.post(action, form, "application/json")
	var res checkResponse
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatalf("POST %s = %d, not JSON: %v\n%.300s", action, status, err, body)
	}
	return status, res
}

// TestWrongClassifyTeachesWhyNot: a wrong classify item says why the
// category chosen does not fit, in the JSON answer and on the page after a
// plain post, and never which category is right or the item's explanation.
func TestWrongClassifyTeachesWhyNot(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	lesson, w := firstWidget(t, s, quiz.KindClassify)
	x := w.Value.(*quiz.Classify)
	form := wrongAnswers(w)
	action := widgetAction(lesson.Slug, w.ID)

	status, res := checkJSON(t, newClient(t, ts.URL), action, form)
	if status != http.StatusOK {
		t.Fatalf("JSON check = %d", status)
	}
	// A plain post is sent on to the lesson page, which shows the result.
	status, page := newClient(t, ts.URL).post(action, form, "")
	if status != http.StatusOK {
		t.Fatalf("plain check = %d", status)
	}
	for name, body := range map[string]string{"JSON": res.HTML, "page": page} {
		body = htmlText(body)
		if !strings.Contains(body, "Look again at items 1, 2") {
			t.Errorf("%s: the outcome does not name the items to look at again", name)
		}
		for _, it := range x.Items {
			given := form.Get("item." + it.ID)
			why := it.WhyNot[given]
			for _, c := range x.Categories {
				if why == "" && c.ID == given {
					why = c.WhyNot
				}
			}
			if why == "" || !strings.Contains(body, why) {
				t.Errorf("%s: item %s does not say why it is not %q (%q)", name, it.ID, given, why)
			}
			if strings.Contains(body, it.Explanation) {
				t.Errorf("%s: wrong item %s shows its explanation", name, it.ID)
			}
		}
		if strings.Contains(body, "think again about this one") {
			t.Errorf("%s: the old bare message is still shown", name)
		}
	}
}

// TestWrongAnnotateNamesHintsOff: a tool not right yet says which of its
// hints are off, each with its cue, and which are right, in the JSON
// answer and on the page after a plain post; no hint's expected value or
// explanation is shown before the tool is right.
func TestWrongAnnotateNamesHintsOff(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	lesson, w := firstWidget(t, s, quiz.KindAnnotate)
	x := w.Value.(*quiz.Annotate)
	action := widgetAction(lesson.Slug, w.ID)
	// Every tool right but readOnlyHint... of the first, which gets one
	// hint that matters wrong; the others all right.
	form := rightAnswers(w)
	first := x.Tools[0]
	off := quiz.OpenWorldHint
	form.Set("hint."+first.Name+"."+string(off), strconv.FormatBool(!*first.Hints.Get(off).Value))

	status, res := checkJSON(t, newClient(t, ts.URL), action, form)
	if status != http.StatusOK {
		t.Fatalf("JSON check = %d", status)
	}
	// A plain post is sent on to the lesson page, which shows the result.
	status, page := newClient(t, ts.URL).post(action, form, "")
	if status != http.StatusOK {
		t.Fatalf("plain check = %d", status)
	}
	for name, body := range map[string]string{"JSON": res.HTML, "page": page} {
		body = htmlText(body)
		if want := "Still off: openWorldHint of " + first.Name + "."; !strings.Contains(body, want) {
			t.Errorf("%s: the outcome does not say %q", name, want)
		}
		card := body[strings.Index(body, "<code>"+first.Name+"</code>"):]
		if i := strings.Index(card, `class="tool-card"`); i > 0 {
			card = card[:i]
		}
		fb := card[strings.Index(card, `data-testid="feedback"`):]
		if !strings.Contains(fb, `data-hint="openWorldHint"`) || !strings.Contains(fb, "Not right yet.") || !strings.Contains(fb, "Ask yourself: "+first.CueFor(off)) {
			t.Errorf("%s: the off hint is not named with its cue:\n%s", name, fb)
		}
		for _, h := range quiz.AllHints() {
			if k := first.Hints.Get(h); k != nil && len(k.Explanation) > 15 && strings.Contains(fb, k.Explanation) {
				t.Errorf("%s: the tool not right yet shows the explanation of %s", name, h)
			}
		}
		for _, bad := range []string{"Set;", "should be", "expected value"} {
			if strings.Contains(fb, bad) {
				t.Errorf("%s: the feedback says %q", name, bad)
			}
		}
		if strings.Count(fb, "Right.") < 1 {
			t.Errorf("%s: the hints the learner has right are not said to be right:\n%s", name, fb)
		}
	}
}

// TestQuizWaitShownBeforePosting: after quiz.QuizFailsBeforeWait failed
// attempts in a row, the lesson page says when the next attempt opens (in
// the learner's zone and in minutes), shows no questions and no submit
// button; a post then is refused with the same notice; once the wait is
// over the page offers the attempt again.
func TestQuizWaitShownBeforePosting(t *testing.T) {
	// The clock starts at the real time, by which the cookie jar judges
	// the cookies' expiry.
	clock := &settableClock{t: time.Now().UTC().Truncate(time.Minute)}
	s := newTestServer(t, func(c *testSetup) { c.Now = clock.now })
	ts := httptest.NewServer(s)
	defer ts.Close()
	lesson, w := firstWidget(t, s, quiz.KindQuiz)
	x := w.Value.(*quiz.Quiz)
	action := widgetAction(lesson.Slug, w.ID)
	c := newClient(t, ts.URL)
	var last checkResponse
	for n := 1; n <= quiz.QuizFailsBeforeWait; n++ {
		_, page := c.get("/lessons/" + lesson.Slug)
		if strings.Contains(page, `data-testid="quiz-wait"`) {
			t.Fatalf("attempt %d: the page shows a wait before %d failures", n, quiz.QuizFailsBeforeWait)
		}
		clock.add(time.Minute)
		status, res := checkJSON(t, c, action, openAttemptAnswers(t, page, x, false))
		if status != http.StatusOK || res.Passed {
			t.Fatalf("attempt %d = %d, passed %t", n, status, res.Passed)
		}
		last = res
	}
	// Said in Berlin's time, the zone the posts gave.
	opens := clock.now().Add(quiz.QuizWait(quiz.QuizFailsBeforeWait))
	at := opens.In(mustZone(t, "Europe/Berlin")).Format("15:04 MST")
	if !strings.Contains(last.HTML, "Try again at "+at) || !strings.Contains(last.HTML, "disabled") || strings.Contains(last.HTML, `data-testid="quiz-retry">Try again with`) {
		t.Errorf("the failed attempt's retry is not a disabled button saying when (%s):\n%.2000s", at, last.HTML)
	}

	clock.add(4 * time.Minute)
	_, page := c.get("/lessons/" + lesson.Slug)
	wantText := "the next attempt opens at " + at + ", in 6 min"
	for _, want := range []string{`data-testid="quiz-wait"`, wantText, `data-opens-at="` + opens.UTC().Format(time.RFC3339) + `"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the waiting page lacks %q", want)
		}
	}
	if strings.Contains(page, "Submit the quiz") || strings.Contains(page, "data-question=") {
		t.Error("the waiting page shows the next attempt's questions or a submit button")
	}
	if strings.Contains(page, newVersionsText) || !strings.Contains(page, "Not passed yet") {
		t.Errorf("while waiting the quiz's status still promises a try (%q)", newVersionsText)
	}

	status, res := checkJSON(t, c, action, url.Values{"attempt": {"4"}, "tz": {"Europe/Berlin"}})
	if status != http.StatusTooManyRequests && status != http.StatusUnprocessableEntity {
		t.Errorf("a post while waiting = %d", status)
	}
	if !strings.Contains(res.HTML, `data-testid="quiz-wait"`) {
		t.Errorf("a refused post while waiting does not show the wait:\n%.1000s", res.HTML)
	}

	clock.add(6 * time.Minute)
	_, page = c.get("/lessons/" + lesson.Slug)
	if strings.Contains(page, `data-testid="quiz-wait"`) || !strings.Contains(page, "Submit the quiz") || !strings.Contains(page, newVersionsText) {
		t.Error("after the wait the page does not offer the next attempt")
	}
	// The fourth failure in a row says four, and the longer wait.
	status, res = checkJSON(t, c, action, openAttemptAnswers(t, page, x, false))
	if status != http.StatusOK || res.Passed {
		t.Fatalf("attempt %d = %d, passed %t", quiz.QuizFailsBeforeWait+1, status, res.Passed)
	}
	n := quiz.QuizFailsBeforeWait + 1
	if want := fmt.Sprintf("After %d failed attempts in a row, the next opens", n); !strings.Contains(res.HTML, want) ||
		!strings.Contains(res.HTML, fmt.Sprintf("in %d minutes", int(quiz.QuizWait(n).Minutes()))) {
		t.Errorf("the fourth failure's outcome lacks %q and %v:\n%.1500s", want, quiz.QuizWait(n), res.HTML)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
