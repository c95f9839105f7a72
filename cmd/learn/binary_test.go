package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/lessons"
	"learn/sandbox"
)

// TestReleaseBinary builds learn as `make build` does, copies the binary
// alone into an empty folder and runs it there with a fresh home and
// cache and no node_modules in reach: the server grades a passing and a
// failing submission, serves every asset its pages name, and `learn grade`
// passes the reference solution.
func TestReleaseBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the release binary")
	}
	built := buildRelease(t)
	dir := t.TempDir()
	exe := filepath.Join(dir, "learn")
	copyFile(t, built, exe, 0o755)
	cache := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + cache, "PATH=/usr/bin:/bin"}

	// Workers at the server's priority, as in startProcess.
	p := startLearn(t, exe, dir, env, "serve", "--addr", "127.0.0.1:0", "--worker-nice", "0")
	waitProcessReady(t, p, 3*time.Minute)
	if !strings.Contains(p.logText(), "interpreter: the interpreter built into this program") {
		t.Errorf("the binary did not use its built-in interpreter:\n%s", p.logText())
	}
	// The snapshot start, from the instrumented module built in, once the
	// images are taken (after /readyz, on this cold cache).
	for deadline := time.Now().Add(5 * time.Minute); !strings.Contains(p.logText(), "interpreters start from snapshot images"); {
		if strings.Contains(p.logText(), "the snapshot start is off") || time.Now().After(deadline) {
			t.Fatalf("the binary does not start interpreters from snapshot images:\n%s", p.logText())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if entries, err := os.ReadDir(filepath.Join(cache, "learn", "sandbox", "wazero-nodebug")); err != nil || len(entries) == 0 {
		t.Errorf("no compiled code cached under XDG_CACHE_HOME (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "learn.db")); err != nil {
		t.Errorf("the database is not in the working folder: %v", err)
	}

	ex, lesson := courseExercise(t, "report-a-failure")
	c := newClient(t)
	for _, tt := range []struct {
		name, code string
		passed     bool
	}{
		{"reference solution", ex.Solution, true},
		{"starter code", ex.Starter, false},
	} {
		t.Run("submit "+tt.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]string{"code": tt.code})
			resp, err := c.Post(p.base+"/api/exercises/report-a-failure/submit", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var r struct {
				Passed bool `json:"passed"`
				Cases  []struct {
					Name    string `json:"name"`
					Verdict string `json:"verdict"`
				} `json:"cases"`
			}
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || json.Unmarshal(raw, &r) != nil {
				t.Fatalf("submit = %d %s", resp.StatusCode, raw)
			}
			if r.Passed != tt.passed || len(r.Cases) != len(ex.Samples)+len(ex.Hidden) {
				t.Fatalf("passed = %v with %d cases, want %v with %d: %s", r.Passed, len(r.Cases), tt.passed, len(ex.Samples)+len(ex.Hidden), raw)
			}
			for _, cs := range r.Cases {
				if tt.passed && cs.Verdict != string(sandbox.VerdictPassed) {
					t.Errorf("case %q: %s, want passed", cs.Name, cs.Verdict)
				}
			}
		})
	}

	t.Run("every asset a page names is served", func(t *testing.T) {
		_, page := get(t, c, p.base+"/lessons/"+lesson.Slug)
		urls := regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`).FindAllStringSubmatch(page, -1)
		var names []string
		for _, u := range urls {
			resp, body := get(t, c, p.base+u[1])
			if resp.StatusCode != 200 || len(body) == 0 {
				t.Errorf("GET %s = %d, %d bytes", u[1], resp.StatusCode, len(body))
			}
			names = append(names, u[1])
		}
		all := strings.Join(names, " ")
		for _, want := range []string{"/static/app.", "/static/editor.", "/static/highlight.", "/static/favicon."} {
			if !strings.Contains(all, want) {
				t.Errorf("the lesson page names no %s* asset; it names %s", want, all)
			}
		}
	})
	p.stop(t)

	t.Run("learn grade", func(t *testing.T) {
		solution := filepath.Join(dir, "solution.py")
		if err := os.WriteFile(solution, []byte(ex.Solution), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "grade", "report-a-failure", "solution.py")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("learn grade: %v\n%s", err, out)
		}
		want := strconv.Itoa(len(ex.Samples)+len(ex.Hidden)) + " passed, 0 failed"
		if !strings.Contains(string(out), want) {
			t.Errorf("learn grade printed no %q:\n%s", want, out)
		}
	})
}

// TestServeWithoutInterpreter starts a server whose --python-wasm names a
// missing file: pages are served, /readyz answers 503 with the reason and
// its fix, and the log says so once.
func TestServeWithoutInterpreter(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nowhere", "python.wasm")
	env := append(os.Environ(), "LEARN_TEST_RUN_MAIN=1")
	p := startLearn(t, os.Args[0], dir, env, "serve", "--addr", "127.0.0.1:0", "--python-wasm", missing)
	c := newClient(t)
	if resp, _ := get(t, c, p.base+"/"); resp.StatusCode != 200 {
		t.Errorf("home page = %d, want 200 without an interpreter", resp.StatusCode)
	}
	deadline := time.Now().Add(30 * time.Second)
	var status int
	var body string
	for {
		resp, b := get(t, c, p.base+"/readyz")
		status, body = resp.StatusCode, b
		if strings.Contains(body, "not found") || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if status != http.StatusServiceUnavailable {
		t.Errorf("/readyz = %d, want 503", status)
	}
	for _, want := range []string{"sandbox: Python is unavailable: python.wasm not found at " + missing, "make setup", "make build", "--python-wasm"} {
		if !strings.Contains(body, want) {
			t.Errorf("/readyz does not say %q:\n%s", want, body)
		}
	}
	get(t, c, p.base+"/readyz")
	p.stop(t)
	if n := strings.Count(p.logText(), "warm-up failed"); n != 1 {
		t.Errorf("the log reports the missing interpreter %d times, want once:\n%s", n, p.logText())
	}
	if !strings.Contains(p.logText(), "make setup") {
		t.Errorf("the log gives no fix:\n%s", p.logText())
	}
}

// buildRelease copies the interpreter where the release build embeds it
// and builds learn with the release tag, as `make build` does, into a
// temporary folder.
func buildRelease(t *testing.T) string {
	t.Helper()
	root := sandboxModuleRoot(t)
	wasm := filepath.Join(root, sandbox.DefaultWasmPath)
	if _, err := os.Stat(wasm); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the release build embeds %s, which is missing: run make setup", wasm)
		}
		t.Skipf("skipped: node_modules is not installed, and the release build embeds its python.wasm (run make setup)")
	}
	if bundles, _ := filepath.Glob(filepath.Join(root, "static", "dist", "*.js")); len(bundles) == 0 {
		t.Fatalf("static/dist has no bundles, and a release build embeds them: run make setup")
	}
	snap := filepath.Join(root, sandbox.DefaultSnapshotWasmPath)
	if _, err := os.Stat(snap); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the release build embeds %s, which is missing: run make snapshot", snap)
		}
		t.Skipf("skipped: the release build embeds the snapshot start's module, which make snapshot builds (%v)", err)
	}
	for _, f := range []struct{ from, name string }{{wasm, sandbox.ModuleFile}, {snap, sandbox.SnapshotModuleFile}} {
		embedded := filepath.Join(root, "sandbox", "pywasm", f.name)
		if sameFile(f.from, embedded) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(embedded), 0o755); err != nil {
			t.Fatal(err)
		}
		tmp := embedded + ".tmp"
		copyFile(t, f.from, tmp, 0o644)
		if err := os.Rename(tmp, embedded); err != nil {
			t.Fatal(err)
		}
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the release binary: %v", err)
	}
	out := filepath.Join(t.TempDir(), "learn")
	cmd := exec.Command(goCmd, "build", "-tags", "release", "-trimpath", "-o", out, "./cmd/learn")
	cmd.Dir = root
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags release: %v\n%s", err, b)
	}
	t.Logf("built the release binary in %v", time.Since(start).Round(time.Millisecond))
	return out
}

// sandboxModuleRoot is the repository root: the folder above the working
// directory that holds go.mod.
func sandboxModuleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = filepath.Dir(dir)
	}
}

// sameFile reports whether b exists with a's contents.
func sameFile(a, b string) bool {
	x, err := os.ReadFile(a)
	if err != nil {
		return false
	}
	y, err := os.ReadFile(b)
	return err == nil && bytes.Equal(x, y)
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}

// courseExercise returns an exercise of the built-in course and its lesson.
func courseExercise(t *testing.T, id string) (*lessons.Exercise, *lessons.Lesson) {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	ex, lesson, ok := course.Exercise(id)
	if !ok {
		t.Fatalf("the built-in course has no exercise %q", id)
	}
	return ex, lesson
}

// reportAFailureSolution is the reference solution of report-a-failure.
func reportAFailureSolution(t *testing.T) string {
	t.Helper()
	ex, _ := courseExercise(t, "report-a-failure")
	return ex.Solution
}

// learnServer is a `learn serve` process started by startLearn.
type learnServer struct {
	cmd  *exec.Cmd
	base string // http://host:port
	mu   sync.Mutex
	logs strings.Builder
	done chan error
}

func (p *learnServer) logText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// stop ends the server with SIGINT and waits for its log to close.
func (p *learnServer) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Errorf("learn serve did not stop within 30 s of SIGINT")
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// startLearn runs exe with args in dir under env, and returns once its log
// says where it serves (so --addr may use port 0).
func startLearn(t *testing.T, exe, dir string, env []string, args ...string) *learnServer {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir, cmd.Env = dir, env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &learnServer{cmd: cmd, done: make(chan error, 1)}
	serving := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.logs.WriteString(line + "\n")
			p.mu.Unlock()
			var entry struct{ Msg, URL string }
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "serving" {
				select {
				case serving <- entry.URL:
				default:
				}
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	select {
	case p.base = <-serving:
		return p
	case err := <-p.done:
		p.done <- err
		t.Fatalf("learn %s exited before serving: %v\n%s", strings.Join(args, " "), err, p.logText())
	case <-time.After(60 * time.Second):
		t.Fatalf("learn %s did not serve within 60 s:\n%s", strings.Join(args, " "), p.logText())
	}
	return nil
}

// waitProcessReady polls the process's /readyz until it answers 200.
func waitProcessReady(t *testing.T, p *learnServer, limit time.Duration) {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(limit)
	for {
		resp, err := c.Get(p.base + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz = %d %s after %v\n%s", resp.StatusCode, body, limit, p.logText())
			}
		} else if !errors.Is(err, os.ErrDeadlineExceeded) && time.Now().After(deadline) {
			t.Fatalf("/readyz: %v\n%s", err, p.logText())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
