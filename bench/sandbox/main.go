// Command sandbox benchmarks grading the report-a-failure reference solution:
// p50 and p99 latency and gradings per second at 1, 4 and 16 concurrent
// clients, for the sandbox with a warm pool and cold (pool 0), in worker
// processes and in process, and in the same run its peers: native
// `python3 -I` running the same harness as a subprocess, and Pyodide in
// Node, cold and warm. It prints the resident memory of the sandbox's
// processes (this one and its workers).
//
//	go run ./bench/sandbox                 # from the repository root
//	go run ./bench/sandbox -url http://127.0.0.1:8080 -pid $(pidof learn)
//
// With -url the target is the HTTP API instead (POST
// /api/exercises/{id}/submit with {"code": ...}); -pid names the server
// process whose memory (with its children) to sample. Pyodide needs
// `npm ci` in bench/sandbox once; without it that peer is skipped.
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
	"time"

	"learn/sandbox"
)

const solution = `line = input()
kind, message = line.split("|", 1)
if kind == "unknown_tool":
    print("error -32602 " + message)
elif kind == "malformed":
    print("error -32600 " + message)
else:
    print("result isError=true " + message)
`

// cases are the exercise's three sample and six hidden cases.
var cases = []sandbox.Case{
	{Name: "Unknown tool", Stdin: "unknown_tool|Unknown tool: get_weathr\n", Expected: "error -32602 Unknown tool: get_weathr\n"},
	{Name: "Bad date", Stdin: "invalid_input|Date must be YYYY-MM-DD, got 2024-13-45\n", Expected: "result isError=true Date must be YYYY-MM-DD, got 2024-13-45\n"},
	{Name: "Malformed", Stdin: "malformed|Missing jsonrpc field\n", Expected: "error -32600 Missing jsonrpc field\n"},
	{Name: "Upstream down", Stdin: "api_failure|Weather service timed out after 10 s\n", Expected: "result isError=true Weather service timed out after 10 s\n", Hidden: true},
	{Name: "Refund too late", Stdin: "business_rule|Orders can be refunded within 30 days\n", Expected: "result isError=true Orders can be refunded within 30 days\n", Hidden: true},
	{Name: "Pipe in message", Stdin: "invalid_input|Use a|b format\n", Expected: "result isError=true Use a|b format\n", Hidden: true},
	{Name: "No newline", Stdin: "unknown_tool|Unknown tool: x", Expected: "error -32602 Unknown tool: x\n", Hidden: true},
	{Name: "Empty message", Stdin: "malformed|\n", Expected: "error -32600\n", Hidden: true},
	{Name: "Unicode", Stdin: "api_failure|Service indisponible — réessayez\n", Expected: "result isError=true Service indisponible — réessayez\n", Hidden: true},
}

// grader grades the solution once and reports whether every case passed.
type grader func(ctx context.Context) (bool, error)

type result struct {
	name     string
	clients  int
	n        int
	p50, p99 time.Duration
	perSec   float64
	cpu      time.Duration // CPU per grading, where measured
	failed   int
	note     string
}

func main() {
	sandbox.WorkerMain()
	var (
		root     = flag.String("root", ".", "repository root")
		levels   = flag.String("clients", "1,4,16", "concurrent clients, comma-separated")
		perLevel = flag.Int("n", 48, "gradings per client level (at least 3 per client)")
		url      = flag.String("url", "", "benchmark the HTTP API at this base URL instead of the Go API")
		exercise = flag.String("exercise", "report-a-failure", "exercise id for -url")
		pid      = flag.Int("pid", 0, "with -url: the server's process id, to sample its memory")
		inproc   = flag.Bool("inprocess", true, "also measure the in-process mode")
		peers    = flag.Bool("peers", true, "also measure native python3 and Pyodide")
		pyCold   = flag.Int("pyodide-cold", 3, "Pyodide cold gradings")
		python   = flag.String("python", "", "the native peer's interpreter (default: python3's real executable, past any shim)")
	)
	flag.Parse()
	var clients []int
	for _, f := range strings.Split(*levels, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			log.Fatalf("bad -clients %q", *levels)
		}
		clients = append(clients, c)
	}
	ctx := context.Background()
	var results []result
	mem := &memSampler{}

	if *url != "" {
		mem.pid = *pid
		mem.start()
		g := httpGrader(*url, *exercise)
		results = append(results, measureIdle("HTTP API, idle pool", g, 20))
		for _, c := range clients {
			results = append(results, measure("HTTP API", g, c, max(*perLevel, 3*c), nil))
		}
	} else {
		mem.pid = os.Getpid()
		mem.start()
		type mode struct {
			name      string
			pool      int
			inProcess bool
		}
		modes := []mode{
			{"sandbox warm (workers)", sandbox.DefaultPoolSize, false},
			{"sandbox cold (workers)", 0, false},
		}
		if *inproc {
			modes = append(modes,
				mode{"sandbox warm (in process)", sandbox.DefaultPoolSize, true},
				mode{"sandbox cold (in process)", 0, true})
		}
		for _, m := range modes {
			cfg := sandbox.DefaultConfig()
			cfg.WasmPath = filepath.Join(*root, sandbox.DefaultWasmPath)
			cfg.PoolSize = m.pool
			cfg.InProcess = m.inProcess
			cfg.QueueSize = 64
			s, err := sandbox.New(cfg)
			if err != nil {
				log.Fatal(err)
			}
			t := time.Now()
			if err := s.Warm(ctx, nil); err != nil {
				log.Fatalf("%s: %v", m.name, err)
			}
			fmt.Fprintf(os.Stderr, "%s: warm in %v\n", m.name, time.Since(t).Round(time.Millisecond))
			g := func(ctx context.Context) (bool, error) {
				rep, err := s.Grade(ctx, solution, cases, sandbox.CompareTrimmedLines)
				return rep.Passed, err
			}
			if m.pool > 0 {
				results = append(results, measureIdle(m.name+", idle pool", g, 20))
			}
			for _, c := range clients {
				results = append(results, measure(m.name, g, c, max(*perLevel, 3*c), mem.cpu))
			}
			r := mem.now()
			results[len(results)-1].note = fmt.Sprintf("RSS after: %s", mib(r))
			if err := s.Close(ctx); err != nil {
				log.Print(err)
			}
		}
	}
	if *peers {
		harness, err := os.ReadFile(filepath.Join(*root, "sandbox", "harness", "harness.py"))
		if err != nil {
			log.Fatal(err)
		}
		py := *python
		if py == "" {
			// Resolve shims (pyenv's cost 500 ms a start) to the binary.
			out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
			if err != nil {
				log.Fatalf("python3: %v", err)
			}
			py = strings.TrimSpace(string(out))
		}
		g := nativeGrader(py, string(harness))
		for _, c := range clients {
			results = append(results, measure("native python3 -I subprocess", g, c, max(*perLevel, 3*c), childCPU))
			results[len(results)-1].note = "(no isolation)"
		}
		results = append(results, pyodide(*root, *pyCold)...)
	}
	fmt.Printf("\nreport-a-failure reference solution, %d cases per grading; %d cores (%s/%s)\n\n", len(cases), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("%-40s %7s %5s %9s %9s %11s %8s %s\n", "target", "clients", "n", "p50", "p99", "gradings/s", "cpu/grd", "")
	for _, r := range results {
		cpu := "-"
		if r.cpu > 0 {
			cpu = ms(r.cpu)
		}
		note := r.note
		if r.failed > 0 {
			note = fmt.Sprintf("%d FAILED %s", r.failed, note)
		}
		fmt.Printf("%-40s %7d %5d %9s %9s %11.1f %8s %s\n", r.name, r.clients, r.n, ms(r.p50), ms(r.p99), r.perSec, cpu, note)
	}
	if *url == "" {
		fmt.Printf("\nsandbox memory (this process and its workers): peak %s\n", mib(mem.peak.Load()))
	} else if *pid != 0 {
		fmt.Printf("\nserver memory (pid %d and its children): peak %s\n", *pid, mib(mem.peak.Load()))
	}
}

// measure runs n gradings with c clients back to back.
func measure(name string, g grader, c, n int, cpu func() time.Duration) result {
	var next atomic.Int64
	lat := make([]time.Duration, n)
	var failed atomic.Int64
	var wg sync.WaitGroup
	var cpu0 time.Duration
	if cpu != nil {
		cpu0 = cpu()
	}
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t := time.Now()
				ok, err := g(context.Background())
				lat[i] = time.Since(t)
				if err != nil || !ok {
					if failed.Add(1) == 1 {
						log.Printf("%s: passed=%v err=%v", name, ok, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	r := result{name: name, clients: c, n: n, perSec: float64(n) / wall.Seconds(), failed: int(failed.Load())}
	r.p50, r.p99 = percentiles(lat)
	if cpu != nil {
		r.cpu = (cpu() - cpu0) / time.Duration(n)
	}
	fmt.Fprintf(os.Stderr, "%s, %d clients: p50 %s\n", name, c, ms(r.p50))
	return r
}

// measureIdle grades one at a time with a pause between, so the pool is
// full each time: the latency a learner sees on a quiet server.
func measureIdle(name string, g grader, n int) result {
	lat := make([]time.Duration, n)
	failed := 0
	for i := range lat {
		time.Sleep(400 * time.Millisecond)
		t := time.Now()
		ok, err := g(context.Background())
		lat[i] = time.Since(t)
		if err != nil || !ok {
			failed++
		}
	}
	r := result{name: name, clients: 1, n: n, failed: failed, note: "(400 ms between gradings)"}
	r.p50, r.p99 = percentiles(lat)
	return r
}

func percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	s := slices.Clone(lat)
	slices.Sort(s)
	at := func(q float64) time.Duration {
		i := int(q*float64(len(s))+0.5) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return at(0.50), at(0.99)
}

// nativeGrader runs the sandbox's own harness under the host's python3 -I,
// one subprocess per grading: the floor, with no isolation at all.
func nativeGrader(python, harness string) grader {
	return func(ctx context.Context) (bool, error) {
		nonce := "00000000000000000000000000000000"
		var in bytes.Buffer
		// Natively there is nothing to hide from: every case's input goes
		// in at once.
		fmt.Fprintf(&in, "LEARN2 %s %d %d %d\n%s", nonce, 65536, len(cases), len(solution), solution)
		for _, c := range cases {
			fmt.Fprintf(&in, "%d\n%s", len(c.Stdin), c.Stdin)
		}
		cmd := exec.CommandContext(ctx, python, "-I", "-S", "-c", harness)
		cmd.Stdin = &in
		out, err := cmd.Output()
		if err != nil {
			return false, err
		}
		// The same check as the sandbox's: each case's stdout frame against
		// its expected output.
		for i, c := range cases {
			head := []byte("\x1e" + nonce + " " + strconv.Itoa(i) + " out ")
			k := bytes.Index(out, head)
			if k < 0 {
				return false, nil
			}
			rest := out[k+len(head):]
			nl := bytes.IndexByte(rest, '\n')
			n, err := strconv.Atoi(string(rest[:max(nl, 0)]))
			if nl < 0 || err != nil || nl+1+n > len(rest) {
				return false, nil
			}
			if !sandbox.Same(c.Expected, string(rest[nl+1:nl+1+n]), sandbox.CompareTrimmedLines) {
				return false, nil
			}
		}
		return true, nil
	}
}

func httpGrader(base, exercise string) grader {
	body, _ := json.Marshal(map[string]string{"code": solution})
	url := strings.TrimRight(base, "/") + "/api/exercises/" + exercise + "/submit"
	client := &http.Client{Timeout: 30 * time.Second}
	return func(ctx context.Context) (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return false, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return false, fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
		}
		var rep struct {
			Passed bool `json:"passed"`
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			return false, err
		}
		return rep.Passed, nil
	}
}

// pyodide runs the Node peer and turns its timings into results.
func pyodide(root string, cold int) []result {
	dir := filepath.Join(root, "bench", "sandbox")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "pyodide")); err != nil {
		fmt.Fprintln(os.Stderr, "pyodide: skipped (run npm ci in bench/sandbox)")
		return nil
	}
	type jcase struct {
		Stdin    string `json:"stdin"`
		Expected string `json:"expected"`
	}
	req := struct {
		Code  string  `json:"code"`
		Cases []jcase `json:"cases"`
		Cold  int     `json:"cold"`
		Warm  int     `json:"warm"`
	}{Code: solution, Cold: cold, Warm: 48}
	for _, c := range cases {
		req.Cases = append(req.Cases, jcase{c.Stdin, c.Expected})
	}
	in, _ := json.Marshal(req)
	cmd := exec.Command("node", "pyodide_peer.mjs")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pyodide: %v\n", err)
		return nil
	}
	var res struct {
		Cold, Warm []float64
		OK         bool
		RSSBytes   int64
	}
	if err := json.Unmarshal(out, &res); err != nil {
		fmt.Fprintf(os.Stderr, "pyodide: %v: %s\n", err, out)
		return nil
	}
	toResult := func(name string, v []float64, note string) result {
		lat := make([]time.Duration, len(v))
		var total time.Duration
		for i, x := range v {
			lat[i] = time.Duration(x * float64(time.Millisecond))
			total += lat[i]
		}
		r := result{name: name, clients: 1, n: len(v), note: note}
		if !res.OK {
			r.failed = len(v)
		}
		if len(v) > 0 {
			r.p50, r.p99 = percentiles(lat)
			r.perSec = float64(len(v)) / total.Seconds()
		}
		return r
	}
	return []result{
		toResult("Pyodide in Node, cold", res.Cold, "(fresh interpreter per grading)"),
		toResult("Pyodide in Node, warm", res.Warm, fmt.Sprintf("(one interpreter reused: not isolated; node RSS %s)", mib(res.RSSBytes))),
	}
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

// now is the RSS of the process and its children, in bytes.
func (m *memSampler) now() int64 {
	var total int64
	for _, p := range append([]int{m.pid}, children(m.pid)...) {
		total += statusKB(p, "VmRSS:") * 1024
	}
	return total
}

// cpu is the CPU time of the process and its children.
func (m *memSampler) cpu() time.Duration {
	var total time.Duration
	for _, p := range append([]int{m.pid}, children(m.pid)...) {
		total += procCPU(p)
	}
	return total
}

// childCPU is the CPU time of this process's reaped children (the native
// peer's python3 processes) plus its own.
func childCPU() time.Duration {
	return procCPU(os.Getpid()) + reapedChildrenCPU()
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

// procCPU reads utime+stime of a process (clock ticks of 10 ms).
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

// reapedChildrenCPU reads cutime+cstime of this process.
func reapedChildrenCPU() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 15 {
		return 0
	}
	u, _ := strconv.ParseInt(f[13], 10, 64)
	s, _ := strconv.ParseInt(f[14], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

func mib(b int64) string {
	return strconv.FormatFloat(float64(b)/(1<<20), 'f', 0, 64) + " MiB"
}
