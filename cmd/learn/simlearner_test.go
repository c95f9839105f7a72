package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"learn/lessons"
	"learn/quiz"
)

// loopLesson is a lesson a simulated learner works through: its page, its
// end-of-lesson quiz and one exercise.
type loopLesson struct {
	slug string
	quiz *quiz.Quiz
	ex   *lessons.Exercise
}

// loopLessons returns the built-in course's lessons that have a quiz and
// an exercise graded without an MCP session, the cheapest exercise of each.
func loopLessons(t testing.TB) []loopLesson {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	var out []loopLesson
	for _, l := range course.Lessons {
		q, ok := l.Quiz()
		if !ok {
			continue
		}
		var best *lessons.Exercise
		for _, ex := range l.Exercises() {
			if ex.MCP == nil && (best == nil || len(ex.Samples)+len(ex.Hidden) < len(best.Samples)+len(best.Hidden)) {
				best = ex
			}
		}
		if best != nil {
			out = append(out, loopLesson{slug: l.Slug, quiz: q, ex: best})
		}
	}
	if len(out) == 0 {
		t.Fatal("no lesson of the built-in course has both a quiz and an exercise")
	}
	return out
}

var (
	drawRe    = regexp.MustCompile(`data-question="([^"]+)" data-variant="([^"]+)"`)
	attemptRe = regexp.MustCompile(`name="attempt" value="(\d+)"`)
	xpRe      = regexp.MustCompile(`data-testid="xp-total">(\d+)<`)
)

// pageXP reads the XP total from a page's header.
func pageXP(body string) (int, bool) {
	m := xpRe.FindStringSubmatch(body)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// quizForm returns the form that answers, rightly, every question of the
// draw a lesson page showed, with the attempt number from the page's form.
func quizForm(page string, q *quiz.Quiz) (url.Values, error) { return quizFormAnswering(page, q, true) }

// quizFormAnswering is quizForm answering every question rightly or, with
// right false, wrongly.
func quizFormAnswering(page string, q *quiz.Quiz, right bool) (url.Values, error) {
	section := page
	if i := strings.Index(page, `id="w-`+q.ID+`"`); i >= 0 {
		section = page[i:]
	}
	m := attemptRe.FindStringSubmatch(section)
	if m == nil {
		return nil, fmt.Errorf("the page's quiz %s has no attempt field", q.ID)
	}
	form := url.Values{"attempt": {m[1]}, "tz": {"UTC"}}
	draw := drawRe.FindAllStringSubmatch(section, -1)
	if len(draw) != len(q.Questions) {
		return nil, fmt.Errorf("the page shows %d questions of quiz %s, want %d", len(draw), q.ID, len(q.Questions))
	}
	for _, d := range draw {
		slot, variant := d[1], d[2]
		qn, ok := q.QuestionByID(variant)
		if !ok {
			return nil, fmt.Errorf("the page shows question %q, which quiz %s does not have", variant, q.ID)
		}
		field := "q." + slot
		switch qn.Kind {
		case quiz.QuestionClassify:
			answer := qn.Answer
			for _, c := range qn.Categories {
				if !right && c.ID != qn.Answer {
					answer = c.ID
				}
			}
			form.Add(field, answer)
		case quiz.QuestionAnnotate:
			for _, h := range quiz.AllHints() {
				if k := qn.Tool.Hints.Get(h); k != nil && k.Value != nil {
					form.Add(field+"."+string(h), quiz.HintChoice(h, *k.Value == right))
				}
			}
		default:
			for _, o := range qn.Options {
				if o.Correct == right {
					form.Add(field, o.ID)
					if !right {
						break
					}
				}
			}
		}
	}
	return form, nil
}

// postResult is what a widget check or an exercise post answers in JSON.
type postResult struct {
	Passed  bool `json:"passed"`
	Awarded int  `json:"awarded"`
	Learner struct {
		XP int `json:"xp"`
	} `json:"learner"`
}

// postJSON posts a form asking for JSON and decodes the answer of a 200.
func postJSON(c *http.Client, target string, form url.Values) (int, postResult, error) {
	req, err := http.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, postResult{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, postResult{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, postResult{}, err
	}
	var r postResult
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &r); err != nil {
			return resp.StatusCode, r, fmt.Errorf("POST %s: %w", target, err)
		}
	}
	return resp.StatusCode, r, nil
}

// getPage gets a page and returns its status and body.
func getPage(c *http.Client, target string) (int, string, error) {
	resp, err := c.Get(target)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}
