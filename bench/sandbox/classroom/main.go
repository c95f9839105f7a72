// Command classroom measures grading the way a classroom uses it: every
// exercise of the built-in course, submitted with its reference solution
// through the HTTP API (POST /api/exercises/{id}/submit with {"code": …}),
// and beside each the same cases run by a native `python3 -I` subprocess
// (the sandbox's own harness, no isolation at all), in the same run.
//
// For each exercise it prints the warm p50 (one submission at a time, with
// a pause so the warm pool is full), and the sustained rate (clients
// submitting back to back). Then bursts of 30 and of 100 simultaneous
// submissions of the course's mix (the exercises in turn): when the last
// verdict came, how many failed. Then the server's peak resident memory,
// with its worker processes.
//
//	go run ./bench/sandbox/classroom -url http://127.0.0.1:8080 -pid $(pidof learn)
//
// bench/sandbox/run-classroom starts a server with the default pool sizes
// and runs this against it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"learn/lessons"
)

// exercise is one exercise of the course, ready to submit.
type exercise struct {
	id, kind string
	body     []byte // the HTTP request body
	native   []byte // the native harness's stdin
	mcp      bool
}

func main() {
	var (
		base     = flag.String("url", "http://127.0.0.1:18290", "the server")
		pid      = flag.Int("pid", 0, "the server's process, whose memory (with its children) to sample")
		root     = flag.String("root", ".", "the repository (for the harness files)")
		warmN    = flag.Int("warm", 12, "submissions one at a time, per exercise")
		pause    = flag.Duration("pause", 400*time.Millisecond, "pause between warm submissions, so the pool is full")
		clients  = flag.Int("clients", 8, "clients submitting back to back, for the sustained rate")
		sustainN = flag.Int("sustain", 48, "submissions per exercise for the sustained rate")
		python   = flag.String("python", "", "the native peer's interpreter (default: python3's real executable)")
	)
	flag.Parse()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		log.Fatal(err)
	}
	harness, err := os.ReadFile(filepath.Join(*root, "sandbox", "harness", "harness.py"))
	if err != nil {
		log.Fatal(err)
	}
	mcpSrc, err := os.ReadFile(filepath.Join(*root, "sandbox", "harness", "mcp.py"))
	if err != nil {
		log.Fatal(err)
	}
	py := *python
	if py == "" {
		py = realPython()
	}
	var exs []exercise
	for _, l := range course.Lessons {
		for _, e := range l.Exercises() {
			exs = append(exs, newExercise(e))
		}
	}
	mem := &memSampler{pid: *pid}
	mem.start()
	client := &http.Client{Timeout: 60 * time.Second}
	url := strings.TrimRight(*base, "/")

	up := func() string {
		b, _ := os.ReadFile("/proc/loadavg")
		f := strings.Fields(string(b))
		if len(f) < 3 {
			return "?"
		}
		return strings.Join(f[:3], " ")
	}
	fmt.Printf("load average at start: %s\n", up())
	var cpuSum time.Duration
	gradings := 0
	fmt.Printf("%-22s %-6s %10s %10s %9s %12s %10s %9s %9s %7s\n", "exercise", "kind", "warm p50", "native", "warm/nat", "sustained/s", "native/s", "cpu/grd", "nat cpu", "failed")
	for _, ex := range exs {
		submit := func(ctx context.Context) error { return post(ctx, client, url, ex) }
		native := func(ctx context.Context) error { return runNative(ctx, py, string(harness), string(mcpSrc), ex) }
		// Warm up the route and the native peer's caches.
		_ = submit(context.Background())
		_ = native(context.Background())
		wp50, wfail := sequential(submit, *warmN, *pause)
		np50, _ := sequential(native, *warmN, *pause)
		c0 := mem.cpu()
		rate, sfail := sustained(submit, *clients, *sustainN)
		cpu := (mem.cpu() - c0) / time.Duration(*sustainN)
		n0 := reapedChildrenCPU()
		nrate, _ := sustained(native, *clients, *sustainN)
		ncpu := (reapedChildrenCPU() - n0) / time.Duration(*sustainN)
		fmt.Printf("%-22s %-6s %10s %10s %8.2fx %12.1f %10.1f %9s %9s %7d\n", ex.id, ex.kind, ms(wp50), ms(np50), float64(wp50)/float64(np50), rate, nrate, ms(cpu), ms(ncpu), wfail+sfail)
		cpuSum += cpu * time.Duration(*sustainN)
		gradings += *sustainN
	}
	if gradings > 0 && cpuSum > 0 {
		// What the rates would be with both cores free: CPU per grading
		// is what bounds throughput, and it moves less with other load.
		fmt.Printf("cpu/grd is the server's and its workers' CPU per sustained grading; with %d free cores that is at most %.1f gradings/s of the course mix\n", runtime.NumCPU(), float64(runtime.NumCPU())/(cpuSum.Seconds()/float64(gradings)))
	}
	for _, n := range []int{30, 100} {
		time.Sleep(time.Second) // let the pool refill
		last, failed, firstErr := burst(n, exs, func(ctx context.Context, ex exercise) error { return post(ctx, client, url, ex) })
		nlast, _, _ := burst(n, exs, func(ctx context.Context, ex exercise) error {
			return runNative(ctx, py, string(harness), string(mcpSrc), ex)
		})
		note := ""
		if firstErr != nil {
			note = "first error: " + firstErr.Error()
		}
		fmt.Printf("burst of %3d (course mix): last verdict after %s, %d failed; native peer %s %s\n", n, ms(last), failed, ms(nlast), note)
	}
	if *pid != 0 {
		fmt.Printf("server peak RSS with its workers: %s\n", mib(mem.peak.Load()))
	}
	fmt.Printf("load average at end: %s\n", up())
}

func newExercise(e *lessons.Exercise) exercise {
	body, _ := json.Marshal(map[string]string{"code": e.Solution})
	ex := exercise{id: e.ID, body: body, kind: e.Comparison()}
	const nonce = "00000000000000000000000000000000"
	var in bytes.Buffer
	if e.MCP != nil {
		ex.mcp, ex.kind = true, "mcp"
		version := e.MCP.Version
		if version == "" {
			version = "2.3.0"
		}
		fmt.Fprintf(&in, "LEARNMCP2 %s %d %s %d %d\n%s", nonce, 65536, version, len(e.Solution), len(e.MCP.Calls), e.Solution)
		for i, c := range e.MCP.Calls {
			method := c.Method
			if method == "" {
				method = "tools/call"
			}
			params := map[string]any{}
			if method == "tools/call" {
				params["name"], params["arguments"] = c.Tool, c.Arguments
			}
			req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": strconv.Itoa(i + 1), "method": method, "params": params})
			fmt.Fprintf(&in, "%d\n%s", len(req), req)
		}
	} else {
		cases := append(slices.Clone(e.Samples), e.Hidden...)
		fmt.Fprintf(&in, "LEARN2 %s %d %d %d\n%s", nonce, 65536, len(cases), len(e.Solution), e.Solution)
		for _, c := range cases {
			fmt.Fprintf(&in, "%d\n%s", len(c.Stdin), c.Stdin)
		}
	}
	ex.native = in.Bytes()
	return ex
}

// post submits the exercise's solution and wants it passed.
func post(ctx context.Context, client *http.Client, url string, ex exercise) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/exercises/"+ex.id+"/submit", bytes.NewReader(ex.body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d: %.160s", ex.id, resp.StatusCode, b)
	}
	var rep struct {
		Passed bool `json:"passed"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", ex.id, err)
	}
	if !rep.Passed {
		return fmt.Errorf("%s: the reference solution did not pass: %.300s", ex.id, b)
	}
	return nil
}

// runNative runs the exercise's cases in the sandbox's harness under the
// host's python3 -I, one fresh process, and wants every case to have run.
func runNative(ctx context.Context, python, harness, mcpSrc string, ex exercise) error {
	args := []string{"-I", "-S", "-c", harness}
	if ex.mcp {
		args = append(args, "mcp", mcpSrc)
	}
	cmd := exec.CommandContext(ctx, python, args...)
	cmd.Stdin = bytes.NewReader(ex.native)
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("native %s: %w", ex.id, err)
	}
	if !bytes.Contains(out, []byte(" -1 done 0\n")) || bytes.Contains(out, []byte(" end 5\nerror")) {
		return fmt.Errorf("native %s: the harness did not finish every case", ex.id)
	}
	return nil
}

// sequential runs n gradings one at a time with a pause between them and
// returns the median latency and the failures.
func sequential(g func(context.Context) error, n int, pause time.Duration) (time.Duration, int) {
	var lat []time.Duration
	failed := 0
	for range n {
		time.Sleep(pause)
		t := time.Now()
		if err := g(context.Background()); err != nil {
			failed++
			log.Print(err)
			continue
		}
		lat = append(lat, time.Since(t))
	}
	return median(lat), failed
}

// sustained runs n gradings from c clients back to back and returns the
// gradings per second and the failures.
func sustained(g func(context.Context) error, c, n int) (float64, int) {
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	t := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := g(context.Background()); err != nil {
					if failed.Add(1) == 1 {
						log.Print(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(t).Seconds(), int(failed.Load())
}

// burst sends n submissions at once, the exercises in turn, and returns
// when the last answer came, how many failed and the first failure.
func burst(n int, exs []exercise, g func(context.Context, exercise) error) (time.Duration, int, error) {
	var wg sync.WaitGroup
	var failed atomic.Int64
	var once sync.Once
	var first error
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := g(context.Background(), exs[i%len(exs)]); err != nil {
				failed.Add(1)
				once.Do(func() { first = err })
			}
		}()
	}
	t := time.Now()
	close(start)
	wg.Wait()
	return time.Since(t), int(failed.Load()), first
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// realPython finds python3's real executable past a version-manager shim,
// so the peer's time is the interpreter's, not the shim's.
func realPython() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "python3"
	}
	return strings.TrimSpace(string(out))
}

// memSampler samples the resident memory of a process and its children.
type memSampler struct {
	pid  int
	peak atomic.Int64
}

func (m *memSampler) start() {
	if m.pid == 0 {
		return
	}
	go func() {
		for {
			if r := m.now(); r > m.peak.Load() {
				m.peak.Store(r)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

// cpu is the CPU time of the process and its children.
func (m *memSampler) cpu() time.Duration {
	var total time.Duration
	for _, p := range append([]int{m.pid}, children(m.pid)...) {
		total += procCPU(p)
	}
	return total
}

// procCPU is a process's user and system time, from /proc (clock ticks of
// 10 ms).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// reapedChildrenCPU is the CPU time of this process's reaped children (the
// native peer's python3 processes).
func reapedChildrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (m *memSampler) now() int64 {
	var total int64
	for _, p := range append([]int{m.pid}, children(m.pid)...) {
		total += statusKB(p, "VmRSS:") * 1024
	}
	return total
}

func children(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

func statusKB(pid int, key string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, key) {
			f := strings.Fields(line)
			if len(f) >= 2 {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				return n
			}
		}
	}
	return 0
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }
