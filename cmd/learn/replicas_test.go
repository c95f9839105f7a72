package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/securecookie"

	"learn/postgres"
	"learn/postgres/pgtest"
)

// The multi-replica test runs only when asked (make test-replicas, which
// make test runs): it builds the binary, starts PostgreSQL, two servers and
// nginx, and loads them for a minute.
const replicasEnv = "LEARN_TEST_REPLICAS"

// learnerCookie is the name of the cookie web signs the learner id into.
const learnerCookie = "learn_learner"

// TestReplicas starts PostgreSQL, two "learn serve" replicas of the real
// binary (each with its own sandbox cache) and nginx round-robin in front;
// simulated learners run the lesson, quiz and submit loop through nginx.
// It checks: no 5xx, each award granted exactly once whichever replica
// took the post, no learner ever sees their XP go back, and every
// learner's XP read back through either replica equals the database's sum.
// Then it runs half the learners (the same load per replica) on one
// replica alone and prints both throughputs. LEARN_TEST_REPLICAS_LEARNERS and _SECONDS change the load
// (default 200 learners for 60 s).
func TestReplicas(t *testing.T) {
	if os.Getenv(replicasEnv) == "" {
		t.Skipf("the multi-replica load test runs with %s=1 (make test-replicas; make test runs it)", replicasEnv)
	}
	nginx := findNginx(t)
	learners := envInt(t, replicasEnv+"_LEARNERS", 200)
	seconds := envInt(t, replicasEnv+"_SECONDS", 60)
	cluster := pgtest.Start(t)
	db := cluster.NewDatabase(t)
	bin := buildLearn(t)
	a := startReplica(t, bin, db, "a")
	b := startReplica(t, bin, db, "b")
	for _, r := range []*replica{a, b} {
		r.waitReady(t)
	}
	// Pages and gradings work once /readyz answers, but gradings use the
	// fresh start until the snapshot images are built: the throughputs
	// below are of the start learn serves with, so wait for the images.
	for _, r := range []*replica{a, b} {
		r.waitImages(t)
	}
	both := startNginx(t, nginx, a.addr, b.addr)
	loop := loopLessons(t)
	dur := time.Duration(seconds) * time.Second

	t.Logf("load: %d learners for %v through nginx round-robin over 2 replicas; %d lessons in the loop; %s", learners, dur, len(loop), loadAvg())
	two := runLoad(t, both, learners, dur, loop, "two")
	t.Logf("two replicas: %s", two)
	two.check(t)

	st, err := postgres.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	checkLearners(t, st, two, []string{a.base(), b.base()})

	// One replica with half the learners: the same load per replica, so
	// that both runs measure what a saturated replica does, and neither
	// queues gradings past the server's one-minute write timeout.
	one := startNginx(t, nginx, a.addr)
	t.Logf("load: %d learners for %v through nginx to replica a alone; %s", max(1, learners/2), dur, loadAvg())
	single := runLoad(t, one, max(1, learners/2), dur, loop, "one")
	t.Logf("one replica:  %s", single)
	single.check(t)
	checkLearners(t, st, single, []string{a.base(), b.base()})
	t.Logf("grading throughput: %.1f/s with two replicas, %.1f/s with one (x%.2f); pages %.1f/s and %.1f/s; %s",
		two.rate(two.inGrads), single.rate(single.inGrads), two.rate(two.inGrads)/max(single.rate(single.inGrads), 0.001),
		two.rate(two.inPages), single.rate(single.inPages), loadAvg())
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive whole number", name, v)
	}
	return n
}

// loadAvg reads the machine's load, to print beside figures.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "load average unknown"
	}
	return "load average " + strings.Join(f[:3], " ")
}

func findNginx(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("nginx is not installed; CI must install it (scripts/ensure-postgresql installs postgresql and nginx)")
	}
	t.Skip("nginx is not installed: run scripts/ensure-postgresql, or apt-get install nginx")
	return ""
}

// buildLearn builds the learn binary into a temporary folder.
func buildLearn(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "learn")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// replica is one "learn serve" process.
type replica struct {
	name, addr string
	cmd        *exec.Cmd
	log        string
	exited     chan struct{}
}

func (r *replica) base() string { return "http://" + r.addr }

func startReplica(t *testing.T, bin, db, name string) *replica {
	t.Helper()
	dir := t.TempDir()
	wasm, err := filepath.Abs(testSandboxConfig(t).WasmPath)
	if err != nil {
		t.Fatal(err)
	}
	r := &replica{name: name, addr: freeAddr(t), log: filepath.Join(dir, "serve.log"), exited: make(chan struct{})}
	logf, err := os.Create(r.log)
	if err != nil {
		t.Fatal(err)
	}
	// The learners loop without pausing, so about a hundred wait on each
	// replica's sandbox at once: a queue and a wait long enough for all
	// of them (the defaults answer 503 sooner, as they should for people,
	// and the test counts a 503 as a failure). Every learner reaches the
	// replicas from nginx's address, so the per-address limits are off,
	// as the README says to set them behind a proxy.
	r.cmd = exec.Command(bin, "serve", "--addr", r.addr, "--db", db, "--log-level", "info",
		"--sandbox-cache", filepath.Join(dir, "sandbox-cache"), "--python-wasm", wasm,
		"--run-queue", "400", "--run-queue-wait", "2m", "--runs-per-minute-per-address", "0", "--posts-per-minute-per-address", "0")
	r.cmd.Stdout, r.cmd.Stderr = logf, logf
	r.cmd.Env = os.Environ()
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.cmd.Wait(); logf.Close(); close(r.exited) }()
	t.Cleanup(func() {
		r.cmd.Process.Signal(os.Interrupt)
		select {
		case <-r.exited:
		case <-time.After(30 * time.Second):
			r.cmd.Process.Kill()
			<-r.exited
		}
		if t.Failed() {
			b, _ := os.ReadFile(r.log)
			t.Logf("replica %s log:\n%s", r.name, tail(string(b), 40))
		}
	})
	return r
}

// waitReady waits until the replica's /readyz answers 200: database
// reached and interpreter compiled (which takes a while on a busy
// machine; ten minutes only catches a replica that never gets there).
func (r *replica) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		select {
		case <-r.exited:
			b, _ := os.ReadFile(r.log)
			t.Fatalf("replica %s exited:\n%s", r.name, tail(string(b), 40))
		default:
		}
		if resp, err := http.Get(r.base() + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s not ready after 10 minutes", r.name)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// waitImages waits until the replica's log says its interpreters start
// from snapshot images, or that the snapshot start is off (then the test
// measures the fresh start, and says so).
func (r *replica) waitImages(t *testing.T) {
	t.Helper()
	start := time.Now()
	for deadline := start.Add(10 * time.Minute); ; {
		b, _ := os.ReadFile(r.log)
		switch {
		case strings.Contains(string(b), "interpreters start from snapshot images"):
			t.Logf("replica %s: interpreters start from snapshot images (%v after ready)", r.name, time.Since(start).Round(time.Second))
			return
		case strings.Contains(string(b), "the snapshot start is off"):
			t.Logf("replica %s grades with the fresh start: the snapshot start is off", r.name)
			return
		case time.Now().After(deadline):
			t.Fatalf("replica %s: no snapshot images after 10 minutes:\n%s", r.name, tail(string(b), 40))
		}
		select {
		case <-r.exited:
			t.Fatalf("replica %s exited:\n%s", r.name, tail(string(b), 40))
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// startNginx runs nginx in the foreground, round-robin over upstreams, and
// returns its base URL.
func startNginx(t *testing.T, nginx string, upstreams ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "nginx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	conf := nginxConfig(dir, addr, upstreams)
	if os.Geteuid() == 0 {
		// Workers drop root; Debian's nginx package makes this user.
		if _, err := user.Lookup("www-data"); err == nil {
			conf = "user www-data;\n" + conf
		}
	}
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log"))
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		<-exited
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Logf("nginx error log:\n%s", tail(string(b), 20))
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx exited: %s\n%s", out, b)
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatal("nginx did not listen within 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// nginxConfig is the README's sample configuration, in a folder of its
// own and in the foreground.
func nginxConfig(dir, listen string, upstreams []string) string {
	var servers strings.Builder
	for _, u := range upstreams {
		fmt.Fprintf(&servers, "        server %s max_fails=3 fail_timeout=5s;\n", u)
	}
	return fmt.Sprintf(`daemon off;
worker_processes 1;
pid %[1]s/nginx.pid;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    upstream learn {
%[3]s        keepalive 64;
    }
    server {
        listen %[2]s;
        client_max_body_size 1m;
        location / {
            proxy_pass http://learn;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 120s;
            proxy_next_upstream error timeout;
        }
    }
}
`, dir, listen, servers.String())
}

// loadStats is what one load run saw.
type loadStats struct {
	mu sync.Mutex
	// start and dur are the load's window; elapsed includes finishing the
	// steps under way at its end.
	start        time.Time
	dur, elapsed time.Duration
	// pages, quizzes and gradings count every answer; the in-window counts
	// only those that came back within the window, for the rates.
	pages, quizzes, gradings    int
	inPages, inQuizzes, inGrads int
	statuses                    map[int]int
	errors                      []string
	backwards                   []string
	gradeLatency                []time.Duration
	learners                    []*simLearner
	entry                       string
	failedQuiz, failedCode      int
}

// rate is n answers a second over the load's window.
func (s *loadStats) rate(n int) float64 { return float64(n) / s.dur.Seconds() }

// count adds one answer to *all, and to *inWindow if it came back within
// the window.
func (s *loadStats) count(all, inWindow *int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*all++
	if time.Since(s.start) <= s.dur {
		*inWindow++
	}
}

func (s *loadStats) String() string {
	slices.Sort(s.gradeLatency)
	p := func(q float64) time.Duration {
		if len(s.gradeLatency) == 0 {
			return 0
		}
		return s.gradeLatency[int(q*float64(len(s.gradeLatency)-1))].Round(time.Millisecond)
	}
	return fmt.Sprintf("within %v: %.1f pages/s, %.1f quiz posts/s, %.1f gradings/s (p50 %v, p95 %v); in all, finishing the steps under way (%v): %d pages, %d quiz posts, %d gradings; statuses %v",
		s.dur, s.rate(s.inPages), s.rate(s.inQuizzes), s.rate(s.inGrads), p(0.5), p(0.95),
		s.elapsed.Round(time.Second), s.pages, s.quizzes, s.gradings, s.statuses)
}

// check fails on any 5xx, transport error, failed answer, or XP going
// back.
func (s *loadStats) check(t *testing.T) {
	t.Helper()
	for code, n := range s.statuses {
		if code >= 500 {
			t.Errorf("%d responses with status %d", n, code)
		}
	}
	if len(s.errors) > 0 {
		t.Errorf("%d requests failed, first: %s", len(s.errors), s.errors[0])
	}
	if s.failedQuiz > 0 || s.failedCode > 0 {
		t.Errorf("%d right quiz posts and %d reference solutions did not pass", s.failedQuiz, s.failedCode)
	}
	if len(s.backwards) > 0 {
		t.Errorf("a learner saw their XP go back %d times, first: %s", len(s.backwards), s.backwards[0])
	}
	if s.gradings == 0 || s.quizzes == 0 {
		t.Errorf("the load graded %d programs and %d quizzes; the loop did not run", s.gradings, s.quizzes)
	}
}

// simLearner is one simulated learner with a cookie jar of their own.
type simLearner struct {
	n      int
	client *http.Client
	jar    *cookiejar.Jar
	maxXP  int
	// grants counts, per quiz or exercise, the responses that granted XP;
	// awarded sums what they granted.
	grants  map[string]int
	awarded int
}

func (s *loadStats) status(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses[code]++
}

func (s *loadStats) fail(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors = append(s.errors, fmt.Sprintf(format, args...))
}

// seeXP records an XP figure shown to the learner.
func (s *loadStats) seeXP(l *simLearner, xp int, where string) {
	if xp < l.maxXP {
		s.mu.Lock()
		s.backwards = append(s.backwards, fmt.Sprintf("learner %d: %s shows %d XP after %d", l.n, where, xp, l.maxXP))
		s.mu.Unlock()
	}
	l.maxXP = max(l.maxXP, xp)
}

// runLoad runs learners through the loop against entry for dur.
func runLoad(t *testing.T, entry string, learners int, dur time.Duration, loop []loopLesson, tag string) *loadStats {
	t.Helper()
	tr := &http.Transport{MaxIdleConns: 1000, MaxIdleConnsPerHost: 1000, IdleConnTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	stats := &loadStats{statuses: map[int]int{}, entry: entry, start: time.Now(), dur: dur}
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	var wg sync.WaitGroup
	for i := range learners {
		jar, _ := cookiejar.New(nil)
		l := &simLearner{n: i, jar: jar, grants: map[string]int{},
			client: &http.Client{Jar: jar, Transport: tr, Timeout: 3 * time.Minute}}
		stats.learners = append(stats.learners, l)
		wg.Go(func() { stats.learn(ctx, l, loop, tag) })
	}
	wg.Wait()
	stats.elapsed = time.Since(stats.start)
	return stats
}

// learn runs one learner's loop until ctx ends: open a lesson, pass its
// quiz as the page drew it, submit its exercise's solution. A step started
// before the end is finished, so every post is counted.
func (s *loadStats) learn(ctx context.Context, l *simLearner, loop []loopLesson, tag string) {
	// Learners do not start in step.
	time.Sleep(time.Duration(rand.IntN(1000)) * time.Millisecond)
	for k := 0; ctx.Err() == nil; k++ {
		lesson := loop[(l.n+k)%len(loop)]
		status, page, err := getPage(l.client, s.entry+"/lessons/"+lesson.slug)
		if err != nil {
			s.fail("GET lesson: %v", err)
			continue
		}
		s.status(status)
		if status != http.StatusOK {
			continue
		}
		s.count(&s.pages, &s.inPages)
		if xp, ok := pageXP(page); ok {
			s.seeXP(l, xp, "the lesson page")
		}
		form, err := quizForm(page, lesson.quiz)
		if err != nil {
			s.fail("learner %d: %v", l.n, err)
			return
		}
		status, r, err := postJSON(l.client, s.entry+"/lessons/"+lesson.slug+"/widgets/"+lesson.quiz.ID, form)
		if err != nil {
			s.fail("POST quiz: %v", err)
			continue
		}
		s.status(status)
		if status == http.StatusOK {
			s.count(&s.quizzes, &s.inQuizzes)
			if !r.Passed {
				s.mu.Lock()
				s.failedQuiz++
				s.mu.Unlock()
			}
			s.seeXP(l, r.Learner.XP, "the quiz answer")
			if r.Awarded > 0 {
				l.grants["quiz "+lesson.slug]++
				l.awarded += r.Awarded
			}
		}
		code := url.Values{"mode": {"submit"}, "code": {lesson.ex.Solution + "\n# " + tag + " learner " + strconv.Itoa(l.n) + "\n"}}
		began := time.Now()
		status, r, err = postJSON(l.client, s.entry+"/lessons/"+lesson.slug+"/exercises/"+lesson.ex.ID, code)
		if err != nil {
			s.fail("POST exercise: %v", err)
			continue
		}
		s.status(status)
		if status == http.StatusOK {
			s.count(&s.gradings, &s.inGrads)
			s.mu.Lock()
			s.gradeLatency = append(s.gradeLatency, time.Since(began))
			if !r.Passed {
				s.failedCode++
			}
			s.mu.Unlock()
			s.seeXP(l, r.Learner.XP, "the exercise result")
			if r.Awarded > 0 {
				l.grants["exercise "+lesson.ex.ID]++
				l.awarded += r.Awarded
			}
		}
	}
}

// checkLearners compares what each learner was granted with the database,
// and reads every learner's XP back through each replica directly.
func checkLearners(t *testing.T, st *postgres.Store, stats *loadStats, replicas []string) {
	t.Helper()
	ctx := context.Background()
	key, err := st.Secret(ctx, "cookie-hash-key", 64)
	if err != nil {
		t.Fatal(err)
	}
	codec := securecookie.New(key, nil)
	codec.SetSerializer(securecookie.NopEncoder{})
	codec.MaxAge(0)
	entry := mustURL(t, stats.entry)
	mismatches := 0
	for _, l := range stats.learners {
		var id []byte
		var cookie *http.Cookie
		for _, ck := range l.jar.Cookies(entry) {
			if ck.Name == learnerCookie {
				cookie = ck
			}
		}
		if cookie == nil || codec.Decode(learnerCookie, cookie.Value, &id) != nil {
			t.Errorf("learner %d has no learner cookie this database's key signed", l.n)
			continue
		}
		hist, err := st.XPHistory(ctx, string(id))
		if err != nil {
			t.Fatal(err)
		}
		total, err := st.TotalXP(ctx, string(id))
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]int{}
		for _, e := range hist {
			keys[e.Key]++
		}
		granted := 0
		for what, n := range l.grants {
			granted += n
			if n != 1 {
				t.Errorf("learner %d was granted XP for %s %d times, want once", l.n, what, n)
			}
		}
		for k, n := range keys {
			if n != 1 {
				t.Errorf("learner %d holds award %s %d times in the database", l.n, k, n)
			}
		}
		if granted != len(hist) || l.awarded != total {
			t.Errorf("learner %d: responses granted %d awards worth %d XP; the database holds %d worth %d", l.n, granted, l.awarded, len(hist), total)
		}
		for _, base := range replicas {
			c := &http.Client{Timeout: time.Minute}
			req, _ := http.NewRequest(http.MethodGet, base+"/", nil)
			req.AddCookie(&http.Cookie{Name: learnerCookie, Value: cookie.Value})
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			xp, found := 0, false
			for sc.Scan() {
				if xp, found = pageXP(sc.Text()); found {
					break
				}
			}
			resp.Body.Close()
			if !found || xp != total {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("learner %d: %s shows XP %d (found %v), the database sums %d", l.n, base, xp, found, total)
				}
			}
		}
	}
	if mismatches > 5 {
		t.Errorf("%d read-backs in all differed from the database", mismatches)
	}
}
