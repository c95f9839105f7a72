// Package learners simulates learners of a running learn server over HTTP,
// for the load test (bench/load) and the crash test (cmd/learn
// TestCrashSafety): each learner has its own cookie jar, opens lessons,
// checks widgets and passes quizzes with the right answers from the
// course, and submits exercises' reference solutions.
//
// It reads answers from the course the server loads, so it drives only a
// server of the same build; it is a test tool, never linked into learn.
package learners

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// Task is one graded thing of the course a learner can do.
type Task struct {
	Lesson *lessons.Lesson
	// Widget is set for a widget check or quiz; Exercise for a submission.
	Widget   *lessons.Widget
	Exercise *lessons.Exercise
}

// Route names the task's route pattern, for figures.
func (t Task) Route() string {
	if t.Exercise != nil {
		return "POST /api/exercises/{id}/submit"
	}
	if _, ok := t.Widget.Value.(*quiz.Quiz); ok {
		return "POST quiz"
	}
	return "POST widget"
}

// Tasks lists every widget, quiz and exercise of the course.
func Tasks(c *lessons.Course) []Task {
	var out []Task
	for _, l := range c.Lessons {
		for _, seg := range l.Segments {
			switch w := seg.Widget; {
			case w == nil:
			case w.Exercise != nil:
				out = append(out, Task{Lesson: l, Exercise: w.Exercise})
			default:
				out = append(out, Task{Lesson: l, Widget: w})
			}
		}
	}
	return out
}

// RightForm is the form that gets every item of a widget right (for a quiz,
// every variant of every question is answered; the server keeps those it
// asked).
func RightForm(w *lessons.Widget) url.Values {
	f := url.Values{"tz": {"UTC"}}
	switch x := w.Value.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			f.Set("item."+it.ID, it.Answer)
		}
	case *quiz.Annotate:
		for _, tool := range x.Tools {
			for _, h := range quiz.AllHints() {
				v := true
				if k := tool.Hints.Get(h); k != nil && k.Value != nil {
					v = *k.Value
				}
				f.Set("hint."+tool.Name+"."+string(h), fmt.Sprint(v))
			}
		}
	case *quiz.Quiz:
		for _, q := range x.Questions {
			field := "q." + q.ID
			switch q.Kind {
			case quiz.QuestionClassify:
				f.Set(field, q.Answer)
			case quiz.QuestionAnnotate:
				for _, h := range quiz.AllHints() {
					v := true
					if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil {
						v = *k.Value
					}
					f.Set(field+"."+string(h), quiz.HintChoice(h, v))
				}
			default:
				for _, o := range q.Options {
					if o.Correct {
						f.Add(field, o.ID)
					}
				}
			}
		}
	}
	return f
}

// Learner is one simulated learner with its own cookies.
type Learner struct {
	Base string
	HTTP *http.Client
}

// New returns a learner of the server at base (such as
// "http://127.0.0.1:8080") with an empty cookie jar.
func New(base string, timeout time.Duration) *Learner {
	jar, _ := cookiejar.New(nil)
	return &Learner{Base: strings.TrimRight(base, "/"), HTTP: &http.Client{Jar: jar, Timeout: timeout}}
}

// Answer is a server's answer to one request.
type Answer struct {
	Status int
	// RetryAfter is the Retry-After header of a 429 or 503.
	RetryAfter string
	// Awarded is the XP a graded post reported granting.
	Awarded int
	Took    time.Duration
	// Err is a transport failure (no answer at all).
	Err error
}

// Get fetches a page.
func (l *Learner) Get(path string) Answer {
	start := time.Now()
	resp, err := l.HTTP.Get(l.Base + path)
	if err != nil {
		return Answer{Err: err, Took: time.Since(start)}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return Answer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Took: time.Since(start)}
}

// Do performs a task with the right answer: a widget check or quiz as the
// page script posts it, or an exercise's reference solution through the
// JSON API.
func (l *Learner) Do(t Task) Answer {
	if t.Exercise != nil {
		body, _ := json.Marshal(map[string]string{"code": t.Exercise.Solution})
		req, _ := http.NewRequest(http.MethodPost, l.Base+"/api/exercises/"+t.Exercise.ID+"/submit", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		return l.send(req)
	}
	req, _ := http.NewRequest(http.MethodPost, l.Base+"/lessons/"+t.Lesson.Slug+"/widgets/"+t.Widget.ID,
		strings.NewReader(RightForm(t.Widget).Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return l.send(req)
}

func (l *Learner) send(req *http.Request) Answer {
	start := time.Now()
	resp, err := l.HTTP.Do(req)
	if err != nil {
		return Answer{Err: err, Took: time.Since(start)}
	}
	defer resp.Body.Close()
	a := Answer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
	var body struct {
		Awarded int `json:"awarded"`
	}
	if b, err := io.ReadAll(resp.Body); err == nil && resp.StatusCode == http.StatusOK {
		_ = json.Unmarshal(b, &body)
		a.Awarded = body.Awarded
	}
	a.Took = time.Since(start)
	return a
}

// ID returns the learner id the server's cookie carries ("" before the
// first visit). The cookie is signed, not encrypted: its value is base64
// of "time|base64(id)|mac".
func (l *Learner) ID() string {
	u, err := url.Parse(l.Base)
	if err != nil {
		return ""
	}
	for _, c := range l.HTTP.Jar.Cookies(u) {
		if c.Name != "learn_learner" {
			continue
		}
		raw, err := base64.URLEncoding.DecodeString(c.Value)
		if err != nil {
			return ""
		}
		parts := strings.SplitN(string(raw), "|", 3)
		if len(parts) != 3 {
			return ""
		}
		id, err := base64.URLEncoding.DecodeString(parts[1])
		if err != nil {
			return ""
		}
		return string(id)
	}
	return ""
}
