// Command load runs simulated learners against a real learn server on
// 127.0.0.1 and prints what they saw: per route, the count of answers by
// status and the p50 and p99 latency; the Retry-After values of 429 and 503
// answers; and the peak memory (resident set) of the server and its sandbox
// worker processes together.
//
// It builds the server from this checkout (or runs -bin), starts it on a
// fresh database in a temporary folder, waits until the sandbox is warm,
// then lets -learners learners (own cookies each) work for -duration: open
// a lesson, check its widgets and pass its quiz with the right answers,
// submit its exercises' reference solutions, with -think between steps.
// Exercises keep the sandbox saturated while pages and posts are measured.
//
// Every learner comes from 127.0.0.1, so the per-address limits are off
// unless -address-limits is given (as for a classroom behind one address);
// per-learner limits stay at their defaults.
//
//	go run ./bench/load                 # 200 learners for 60 s
//	go run ./bench/load -learners 50 -duration 20s
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"learn/bench/learners"
	"learn/lessons"
	"learn/sandbox"
)

func main() {
	n := flag.Int("learners", 200, "simulated learners at once")
	duration := flag.Duration("duration", 60*time.Second, "how long the learners work")
	think := flag.Duration("think", time.Second, "mean pause between a learner's steps (drawn from half to one and a half of it)")
	bin := flag.String("bin", "", "learn binary to run (default: build ./cmd/learn)")
	wasm := flag.String("python-wasm", sandbox.DefaultWasmPath, "CPython for WASI module")
	addressLimits := flag.Bool("address-limits", false, "keep the per-address rate limits (all learners share 127.0.0.1)")
	serveArgs := flag.String("serve-args", "", "more flags for learn serve, space separated (such as \"--runs-at-once 1\")")
	exercises := flag.Bool("exercises", true, "submit exercises too; without, the sandbox stays idle (to tell its share of the latency)")
	flag.Parse()
	if err := run(*n, *duration, *think, *bin, *wasm, *addressLimits, *exercises, strings.Fields(*serveArgs)); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(n int, duration, think time.Duration, bin, wasm string, addressLimits, exercises bool, serveArgs []string) error {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "learn-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		bin = filepath.Join(dir, "learn")
		build := exec.Command("go", "build", "-o", bin, "./cmd/learn")
		build.Stdout, build.Stderr = os.Stdout, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build the server: %w", err)
		}
	}
	if abs, err := filepath.Abs(wasm); err == nil {
		wasm = abs
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	args := []string{"serve", "--addr", addr, "--db", filepath.Join(dir, "learn.db"), "--python-wasm", wasm, "--log-level", "warn"}
	if !addressLimits {
		args = append(args, "--runs-per-minute-per-address", "0", "--posts-per-minute-per-address", "0")
	}
	args = append(args, serveArgs...)
	srv := exec.Command(bin, args...)
	logs, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return err
	}
	srv.Stdout, srv.Stderr = logs, logs
	if err := srv.Start(); err != nil {
		return fmt.Errorf("start the server: %w", err)
	}
	defer func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		_ = srv.Wait()
	}()
	base := "http://" + addr
	if err := waitReady(base, 2*time.Minute); err != nil {
		return err
	}
	fmt.Printf("server ready at %s (%s); load before: %s\n", base, strings.Join(args[1:], " "), loadAvg())

	rec := newRecorder()
	mem := &memory{pid: srv.Process.Pid}
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	watched := make(chan struct{})
	go func() { mem.watch(ctx); close(watched) }()
	tasks := learners.Tasks(course)
	byLesson := map[string][]learners.Task{}
	for _, t := range tasks {
		if t.Exercise != nil && !exercises {
			continue
		}
		byLesson[t.Lesson.Slug] = append(byLesson[t.Lesson.Slug], t)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { learn(ctx, i, base, course, byLesson, think, rec) })
	}
	wg.Wait()
	<-watched
	fmt.Printf("%d learners for %s (think %s); load after: %s\n\n", n, duration, think, loadAvg())
	rec.print()
	fmt.Printf("\npeak resident memory: server and sandbox workers together %.0f MiB (server alone %.0f MiB, peak of %d processes seen)\n",
		float64(mem.peakTotal)/(1<<20), float64(mem.peakServer)/(1<<20), mem.maxProcs)
	if errs := serverErrors(logs.Name()); errs != "" {
		fmt.Printf("\nserver log lines at warn or error:\n%s", errs)
	}
	return nil
}

// learn is one learner's session, replaced by a new learner (a new
// cookie) when it has done the whole course.
func learn(ctx context.Context, seed int, base string, course *lessons.Course, byLesson map[string][]learners.Task, think time.Duration, rec *recorder) {
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	pause := func() bool {
		d := think/2 + time.Duration(rng.Int64N(int64(think)+1))
		select {
		case <-ctx.Done():
			return false
		case <-time.After(d):
			return true
		}
	}
	// Start at different moments, as a class does.
	if !pause() {
		return
	}
	for ctx.Err() == nil {
		l := learners.New(base, 60*time.Second)
		rec.add("GET /", l.Get("/"))
		for _, i := range rng.Perm(len(course.Lessons)) {
			lesson := course.Lessons[i]
			if !pause() {
				return
			}
			rec.add("GET /lessons/{slug}", l.Get("/lessons/"+lesson.Slug))
			for _, t := range byLesson[lesson.Slug] {
				if !pause() {
					return
				}
				a := l.Do(t)
				if ctx.Err() != nil && a.Err != nil {
					return
				}
				rec.add(t.Route(), a)
			}
		}
	}
}

// recorder keeps every answer by route.
type recorder struct {
	mu     sync.Mutex
	routes map[string]*routeStats
}

type routeStats struct {
	statuses map[string]int
	took     []time.Duration
	retry    []int
}

func newRecorder() *recorder { return &recorder{routes: map[string]*routeStats{}} }

func (r *recorder) add(route string, a learners.Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.routes[route]
	if s == nil {
		s = &routeStats{statuses: map[string]int{}}
		r.routes[route] = s
	}
	status := strconv.Itoa(a.Status)
	if a.Err != nil {
		status = "no answer"
	}
	s.statuses[status]++
	s.took = append(s.took, a.Took)
	if ra, err := strconv.Atoi(a.RetryAfter); err == nil {
		s.retry = append(s.retry, ra)
	}
}

func (r *recorder) print() {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.routes))
	for k := range r.routes {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Printf("%-34s %7s %9s %9s  %s\n", "route", "count", "p50", "p99", "statuses")
	for _, name := range names {
		s := r.routes[name]
		slices.Sort(s.took)
		var parts []string
		for st, c := range s.statuses {
			parts = append(parts, fmt.Sprintf("%s×%d", st, c))
		}
		sort.Strings(parts)
		line := fmt.Sprintf("%-34s %7d %9s %9s  %s", name, len(s.took), pct(s.took, 50), pct(s.took, 99), strings.Join(parts, " "))
		if len(s.retry) > 0 {
			slices.Sort(s.retry)
			line += fmt.Sprintf("  Retry-After %d–%d s", s.retry[0], s.retry[len(s.retry)-1])
		}
		fmt.Println(line)
	}
}

func pct(d []time.Duration, p int) string {
	if len(d) == 0 {
		return "-"
	}
	i := min(len(d)-1, len(d)*p/100)
	return d[i].Round(100 * time.Microsecond).String()
}

// memory samples the resident memory of the server and its descendants.
type memory struct {
	pid                   int
	peakTotal, peakServer int64
	maxProcs              int
}

func (m *memory) watch(ctx context.Context) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		procs := append([]int{m.pid}, descendants(m.pid)...)
		var total int64
		for _, p := range procs {
			total += rss(p)
		}
		m.peakTotal = max(m.peakTotal, total)
		m.peakServer = max(m.peakServer, rss(m.pid))
		m.maxProcs = max(m.maxProcs, len(procs))
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name may hold spaces; fields follow its ")".
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// rss is a process's resident set in bytes (0 when it is gone).
func rss(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func waitReady(base string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("the server at %s was not ready within %s", base, within)
}

// serverErrors returns the server's log lines at warn or error.
func serverErrors(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var out strings.Builder
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"level":"WARN"`) || strings.Contains(l, `"level":"ERROR"`) {
			n++
			if n <= 10 {
				out.WriteString(l + "\n")
			}
		}
	}
	if n > 10 {
		fmt.Fprintf(&out, "… %d lines in all\n", n)
	}
	return out.String()
}
