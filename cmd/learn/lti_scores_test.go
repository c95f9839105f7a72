package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"learn/bench/learners"
	"learn/internal/ltiplatform"
	"learn/lessons"
	"learn/lti"
	"learn/postgres/pgtest"
	"learn/quiz"
)

// ltiLaunchIn runs a launch of l through the test platform into learn at
// base, in a browser whose cookies are jar, and returns where learn sent
// the browser. The platform's form post is made as a browser would; the
// launch cookie (Secure, which a cookie jar keeps off plain http) is
// carried by hand.
func ltiLaunchIn(t *testing.T, jar http.CookieJar, base string, lms *ltiplatform.Platform, l ltiplatform.Launch) string {
	t.Helper()
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(lms.LoginURL(base+lti.LoginPath, l))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var launchCookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "learn_lti" {
			launchCookie = ck
		}
	}
	if resp.StatusCode != http.StatusFound || launchCookie == nil {
		t.Fatalf("login initiation = %d, launch cookie %v", resp.StatusCode, launchCookie)
	}
	resp, err = c.Get(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	action, fields, err := ltiplatform.ReadForm(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: launchCookie.Name, Value: launchCookie.Value})
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("launch = %d, want a redirect into learn", resp.StatusCode)
	}
	return resp.Header.Get("Location")
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool, logs func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v\n%s", what, within, logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestLTIScoresSurviveKill is issue 25's acceptance of grade passback: a
// learner launched from the test LMS earns XP and completes the lesson
// while the LMS answers 503; learn is killed (kill -9) with the scores
// not delivered, restarted on the same database, the LMS recovers, and
// the LMS ends with exactly one result for the learner and line item,
// carrying the completion's timestamp.
func TestLTIScoresSurviveKill(t *testing.T) {
	testLTIScoresSurviveKill(t, filepath.Join(t.TempDir(), "learn.db"))
}

// TestLTIScoresSurviveKillOnPostgres is TestLTIScoresSurviveKill with
// the outbox in PostgreSQL.
func TestLTIScoresSurviveKillOnPostgres(t *testing.T) {
	testLTIScoresSurviveKill(t, pgtest.Start(t).NewDatabase(t))
}

func testLTIScoresSurviveKill(t *testing.T, db string) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	lesson := course.Lessons[0]
	lms := plainLMS(t, db)
	addr := freeAddr(t)
	base := "http://" + addr
	flags := []string{"--public-url", base}
	p := startProcessAt(t, addr, db, flags...)
	lms.TrustToolKeySet(base+lti.JWKSPath, nil)

	launch := func(u ltiplatform.User) ltiplatform.Launch {
		return ltiplatform.Launch{User: u, ContextID: "course-1", ContextTitle: "MCP errors", ResourceLinkID: "link-1",
			Target: base + "/lessons/" + lesson.Slug}
	}
	teacherJar, _ := cookiejar.New(nil)
	// The instructor's launch (of the course's page, not the lesson)
	// makes the class and opens its dashboard.
	teach := launch(ltiplatform.User{Sub: "teacher-1", Name: "Ada", Roles: []string{ltiplatform.Instructor}})
	teach.ResourceLinkID, teach.Target = "dashboard-link", base+"/"
	classPage := ltiLaunchIn(t, teacherJar, base, lms, teach)
	if !strings.HasPrefix(classPage, "/classes/") {
		t.Fatalf("the instructor's launch went to %q, want the class page", classPage)
	}
	learner := learners.New(base, 30*time.Second)
	if to := ltiLaunchIn(t, learner.HTTP.Jar, base, lms, launch(ltiplatform.User{Sub: "learner-1", Name: "Grace", Roles: []string{ltiplatform.Learner}})); to != "/lessons/"+lesson.Slug {
		t.Fatalf("the learner's launch went to %q", to)
	}

	// The gradebook is down while the learner works through the lesson
	// (its widgets, then the quiz that completes it; the exercise would
	// need the sandbox and adds nothing here).
	lms.FailScores(http.StatusServiceUnavailable)
	earned := 0
	for _, task := range learners.Tasks(course) {
		if task.Lesson != lesson || task.Exercise != nil {
			continue
		}
		if q, ok := task.Widget.Value.(*quiz.Quiz); ok {
			task = firstVisitQuiz(task, q)
		}
		if a := learner.Do(task); a.Err != nil || a.Status != http.StatusOK || a.Awarded == 0 {
			t.Fatalf("%s: %d, %d XP, %v", task.Widget.ID, a.Status, a.Awarded, a.Err)
		} else {
			earned += a.Awarded
		}
	}
	learnerID := learner.ID()
	waitFor(t, 30*time.Second, "learn posts to the LMS that is down", func() bool { return lms.FailedPosts() >= 2 }, p.logs.String)
	if len(lms.Results()) != 0 {
		t.Fatal("the LMS recorded a score while it was down")
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done

	// The completion, as learn stored it.
	st, _, err := openDatabase(context.Background(), db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	progress, err := st.ProgressByLesson(context.Background(), learnerID)
	st.Close()
	completed := progress[lesson.Slug].CompletedAt
	if err != nil || completed.IsZero() {
		t.Fatalf("the lesson is not completed: %v %+v", err, progress)
	}

	lms.FailScores(0)
	p = startProcessAt(t, addr, db, flags...)
	waitFor(t, 60*time.Second, "the score reaches the LMS after the restart", func() bool {
		res := lms.Results()
		return len(res) == 1 && res[0].ActivityProgress == "Completed"
	}, p.logs.String)
	res := lms.Results()
	r := res[0]
	if r.UserID != "learner-1" || r.LineItem != "link-1" || !r.Timestamp.Equal(completed.Truncate(time.Microsecond)) ||
		r.GradingProgress != "FullyGraded" || *r.ScoreMaximum != float64(lesson.EarnableXP()) || *r.ScoreGiven != float64(earned) || r.Ignored != 0 {
		t.Errorf("the LMS's result = %+v (given %v of %v); want learner-1's, %d XP, Completed at %v", r, *r.ScoreGiven, *r.ScoreMaximum, earned, completed)
	}
	// Never an older score after a newer one.
	var last time.Time
	for _, sc := range lms.Received() {
		if sc.Timestamp.Before(last) {
			t.Errorf("a score of %v came after one of %v", sc.Timestamp, last)
		}
		last = sc.Timestamp
	}

	// The teacher sees it sent.
	c := &http.Client{Jar: teacherJar, Timeout: 30 * time.Second}
	waitFor(t, 10*time.Second, "the dashboard shows the score sent", func() bool {
		resp, body := get(t, c, base+classPage)
		return resp.StatusCode == http.StatusOK && strings.Contains(body, `data-state="sent"`) && strings.Contains(body, "Grace")
	}, p.logs.String)
	if u, err := url.Parse(base); err == nil {
		for _, ck := range teacherJar.Cookies(u) {
			if strings.Contains(p.logs.String(), ck.Value) {
				t.Error("a session cookie is in the log")
			}
		}
	}
}

// firstVisitQuiz is the task of answering the quiz as a first visit draws
// it (the draw every learner's first attempt gets), every question right:
// learners.RightForm answers each slot's first version only.
func firstVisitQuiz(task learners.Task, q *quiz.Quiz) learners.Task {
	d := quiz.DrawFor(q, "", 1)
	drawn := *q
	drawn.Questions = make([]quiz.Question, len(q.Questions))
	for i := range q.Questions {
		drawn.Questions[i] = q.Drawn(d, i)
		drawn.Questions[i].ID = q.Questions[i].ID // answers are keyed by slot
	}
	w := *task.Widget
	w.Value = &drawn
	task.Widget = &w
	return task
}
