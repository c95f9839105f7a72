package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The adaptive eliminator knows nothing of the course. It reads the quiz a
// lesson page shows, remembers every version's text, every answer it saw
// marked ✗ and every answer it saw marked right, and answers each question
// with the answer it knows right for that version, else one not yet
// marked wrong. Refused posts count as posts, and a wait is spent on the
// simulated clock.
//
// Every run is deterministic: the eliminator's guesses come from its seed,
// and so does the learner it plays (a learner id derived from the seed and
// the lesson, in a cookie the server signed), which fixes the server's
// draw of versions and option orders for every attempt.

// Its budget: it must pass no built-in quiz within this many posts or this
// much simulated time.
const (
	eliminatorPosts = 12
	eliminatorTime  = 10 * time.Minute
	// eliminatorPostGap is the simulated time between two of its posts.
	eliminatorPostGap = 5 * time.Second
)

var (
	questionRe = regexp.MustCompile(`(?s)<li data-question="([^"]+)" data-variant="([^"]+)">(.*?)</fieldset>`)
	legendRe   = regexp.MustCompile(`(?s)<legend>(.*?)</legend>`)
	inputRe    = regexp.MustCompile(`<input type="(radio|checkbox)" name="([^"]+)" value="([^"]+)"`)
	attemptRe  = regexp.MustCompile(`name="attempt" value="(\d+)"`)
	waitRe     = regexp.MustCompile(`\(in ([0-9hms]+)\)`)
)

// shownQuestion is one question as a page shows it.
type shownQuestion struct {
	slot, text string
	// groups are the question's inputs by name: radio groups take one
	// value, a checkbox group any non-empty set.
	groups []inputGroup
}

type inputGroup struct {
	name, kind string
	values     []string
}

// candidates lists every answer to q as form values, in an order drawn
// from r.
func (q shownQuestion) candidates(r *rand.Rand) []url.Values {
	out := []url.Values{{}}
	for _, g := range q.groups {
		var choices [][]string
		if g.kind == "radio" {
			for _, v := range g.values {
				choices = append(choices, []string{v})
			}
		} else {
			for mask := 1; mask < 1<<len(g.values); mask++ {
				var set []string
				for i, v := range g.values {
					if mask&(1<<i) != 0 {
						set = append(set, v)
					}
				}
				choices = append(choices, set)
			}
		}
		var next []url.Values
		for _, base := range out {
			for _, c := range choices {
				v := url.Values{}
				for k, vs := range base {
					v[k] = vs
				}
				v[g.name] = c
				next = append(next, v)
			}
		}
		out = next
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// answerKey names one answer to a version, whatever the order shown.
func answerKey(v url.Values) string {
	var parts []string
	for k, vs := range v {
		s := append([]string(nil), vs...)
		sort.Strings(s)
		parts = append(parts, k+"="+strings.Join(s, ","))
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// readQuiz parses the quiz form of a page or a widget's HTML: the attempt
// shown and its questions, in the order shown.
func readQuiz(page string) (attempt string, qs []shownQuestion) {
	if m := attemptRe.FindStringSubmatch(page); m != nil {
		attempt = m[1]
	}
	for _, m := range questionRe.FindAllStringSubmatch(page, -1) {
		// A version is known by the id the page gives it and its prompt,
		// whatever order its choices come in: what the eliminator learnt
		// of it on one attempt serves every later one that shows it.
		q := shownQuestion{slot: m[1], text: m[2]}
		if l := legendRe.FindStringSubmatch(m[3]); l != nil {
			q.text += "\x00" + html.UnescapeString(l[1])
		}
		for _, in := range inputRe.FindAllStringSubmatch(m[3], -1) {
			i := slices.IndexFunc(q.groups, func(g inputGroup) bool { return g.name == in[2] })
			if i < 0 {
				q.groups = append(q.groups, inputGroup{name: in[2], kind: in[1]})
				i = len(q.groups) - 1
			}
			if !slices.Contains(q.groups[i].values, in[3]) {
				q.groups[i].values = append(q.groups[i].values, in[3])
			}
		}
		qs = append(qs, q)
	}
	return attempt, qs
}

// answerOf returns the values form gives q's inputs.
func answerOf(form url.Values, q shownQuestion) url.Values {
	v := url.Values{}
	for _, g := range q.groups {
		v[g.name] = form[g.name]
	}
	return v
}

// seededLearner returns a client that is the learner whose id is drawn
// from seed, in a learner cookie the server signed, so the server's draws
// for that learner are the same on every run.
func seededLearner(t *testing.T, s *Server, base, seed string) *client {
	t.Helper()
	sum := sha256.Sum256([]byte(seed))
	rec := httptest.NewRecorder()
	if err := s.setLearnerCookie(rec, httptest.NewRequest(http.MethodGet, base, nil), hex.EncodeToString(sum[:16]), ""); err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(base)
	jar.SetCookies(u, rec.Result().Cookies())
	return &client{t: t, base: base, http: &http.Client{Jar: jar}}
}

// opensAtRe finds when a waiting quiz's next attempt opens.
var opensAtRe = regexp.MustCompile(`data-opens-at="([^"]+)"`)

// settableClock is the server's clock, moved by the test.
type settableClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settableClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *settableClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// eliminate runs the eliminator as a new learner against one lesson's quiz
// until it passes or spends maxPosts, and returns the posts and simulated
// time it needed (posts is 0 when it did not pass).
func eliminate(t *testing.T, s *Server, base, slug, quizID string, clock *settableClock, seed uint64, maxPosts int) (posts int, spent time.Duration) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	c := seededLearner(t, s, base, fmt.Sprintf("eliminator\x00%d\x00%s", seed, slug))
	wrong := map[string]map[string]bool{} // version text → answers marked ✗
	right := map[string]url.Values{}      // version text → an answer marked right
	start := clock.now()
	action := widgetAction(slug, quizID)
	for n := 1; n <= maxPosts; n++ {
		_, page := c.get("/lessons/" + slug)
		if m := opensAtRe.FindStringSubmatch(page); m != nil {
			// The page says the next attempt opens later and shows no
			// questions: the eliminator sleeps it off, on the simulated clock.
			at, err := time.Parse(time.RFC3339, m[1])
			if err != nil {
				t.Fatalf("%s: the wait's time %q: %v", slug, m[1], err)
			}
			clock.add(max(at.Sub(clock.now()), time.Second))
			n-- // no post was made
			continue
		}
		attempt, qs := readQuiz(page)
		if attempt == "" || len(qs) == 0 {
			t.Fatalf("%s: the page shows no quiz form", slug)
		}
		form := url.Values{"attempt": {attempt}, "tz": {"UTC"}}
		chosen := make([]string, len(qs))
		for i, q := range qs {
			if known, ok := right[q.text]; ok {
				chosen[i] = answerKey(known)
				for f, vs := range known {
					form[f] = vs
				}
				continue
			}
			for _, cand := range q.candidates(r) {
				if k := answerKey(cand); !wrong[q.text][k] {
					chosen[i] = k
					for f, vs := range cand {
						form[f] = vs
					}
					break
				}
			}
		}
		clock.add(eliminatorPostGap)
		status, body := c.post(action, form, "application/json")
		switch status {
		case http.StatusOK:
		case http.StatusGone, http.StatusUnprocessableEntity:
			continue
		case http.StatusTooManyRequests:
			// A wait: the eliminator sleeps it off, on the simulated clock.
			wait := time.Minute
			if m := waitRe.FindStringSubmatch(body); m != nil {
				if d, err := time.ParseDuration(m[1]); err == nil {
					wait = max(d, time.Second)
				}
			}
			clock.add(wait)
			continue
		default:
			t.Fatalf("%s: post %d = %d %.300s", slug, n, status, body)
		}
		var res checkResponse
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatal(err)
		}
		if res.Passed {
			return n, clock.now().Sub(start)
		}
		// Learn every ✗ and every right answer of the attempt just graded.
		for i, m := range questionRe.FindAllStringSubmatch(res.HTML, -1) {
			if i >= len(qs) || qs[i].slot != m[1] || chosen[i] == "" {
				continue
			}
			switch {
			case strings.Contains(m[3], "verdict-wrong"):
				if wrong[qs[i].text] == nil {
					wrong[qs[i].text] = map[string]bool{}
				}
				wrong[qs[i].text][chosen[i]] = true
			case strings.Contains(m[3], "verdict-right"):
				right[qs[i].text] = answerOf(form, qs[i])
			}
		}
	}
	return 0, clock.now().Sub(start)
}

// TestEliminatorCannotPassQuizzes runs the adaptive eliminator, with 20
// seeds, against every built-in quiz, and checks that reading the
// feedback passes none of them within eliminatorPosts posts or
// eliminatorTime, and that every question of every quiz has at least
// three versions.
//
// The budget leaves three graded attempts before the first wait (quiz.
// QuizWait), each a fresh draw of other versions, so the feedback of one
// is no help in the next: what is left is luck. At the built-in pass mark
// of 7 of 8, a blind attempt passes a built-in quiz with odds between
// 3·10⁻⁵ and 2.8·10⁻⁴ (quiz.Quiz.BlindPassOdds; lessons' content test
// keeps three attempts under 10⁻³), so 20 seeds of three attempts at all
// eight quizzes would pass some run by luck about once in fifteen. The
// runs are deterministic (see seededLearner), so the test gives the same
// answer every time. It also logs, with the budget of posts tripled and
// no limit of time, after how many posts and how long each seed passes.
func TestEliminatorCannotPassQuizzes(t *testing.T) {
	// The clock starts at the real time: the client's cookie jar judges the
	// cookies' expiry by it.
	clock := &settableClock{t: time.Now().UTC()}
	s := newTestServer(t, func(c *testSetup) {
		c.Now = clock.now
		c.Limits.AnswersPerMinute = 100_000
		c.Limits.AnswersPerMinutePerAddress = -1
	})
	ts := httptest.NewServer(s)
	defer ts.Close()
	const seeds = 20
	for _, l := range s.app.Course().Lessons {
		x, ok := l.Quiz()
		if !ok {
			continue
		}
		for _, q := range x.Questions {
			// Three versions: the three attempts before the wait never
			// show one version twice.
			if q.VariantCount() < 3 {
				t.Errorf("%s: question %s has %d versions, want at least three", l.Slug, q.ID, q.VariantCount())
			}
		}
		var within []int
		var needed []string
		for seed := range uint64(seeds) {
			posts, spent := eliminate(t, s, ts.URL, l.Slug, x.ID, clock, seed, 3*eliminatorPosts)
			if posts > 0 {
				needed = append(needed, fmt.Sprintf("seed %d: %d posts, %v", seed, posts, spent.Round(time.Minute)))
			}
			if posts > 0 && posts <= eliminatorPosts && spent <= eliminatorTime {
				within = append(within, int(seed))
			}
		}
		t.Logf("%s: %d of %d seeds passed within %d posts, after %v", l.Slug, len(needed), seeds, 3*eliminatorPosts, needed)
		if len(within) > 0 {
			t.Errorf("%s: the eliminator passed within %d posts and %v with seeds %v", l.Slug, eliminatorPosts, eliminatorTime, within)
		}
	}
}
