package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/sandbox"
)

func TestMain(m *testing.M) {
	// The sandbox starts this test binary again as its worker processes.
	sandbox.WorkerMain()
	os.Exit(m.Run())
}

// shared sandbox for the package's tests: starting one costs a second.
var (
	boxOnce sync.Once
	box     *sandbox.Sandbox
	boxErr  error
)

func testSandbox(t *testing.T) *sandbox.Sandbox {
	t.Helper()
	boxOnce.Do(func() {
		cfg := sandbox.DefaultConfig()
		cfg.WasmPath = filepath.Join("..", sandbox.DefaultWasmPath)
		cfg.PoolSize = 2
		cfg.QueueSize = 4
		if box, boxErr = sandbox.New(cfg); boxErr == nil {
			boxErr = box.Warm(context.Background(), nil)
		}
	})
	if boxErr != nil {
		t.Fatalf("start the sandbox (run \"npm ci\" if the interpreter is missing): %v", boxErr)
	}
	return box
}

func apiPost(t *testing.T, c *http.Client, url, body string) (int, http.Header, string) {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestExerciseAPI(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	code := func(src string) string { b, _ := json.Marshal(apiExerciseRequest{Code: src}); return string(b) }
	ex, _, _ := s.course().Exercise("report-a-failure")

	t.Run("run grades the samples only", func(t *testing.T) {
		status, _, body := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/run", code(ex.Solution))
		var r apiExerciseResponse
		if status != 200 || json.Unmarshal([]byte(body), &r) != nil || !r.Passed || len(r.Cases) != len(ex.Samples) || r.Awarded != 0 {
			t.Fatalf("run = %d %s", status, body)
		}
	})
	t.Run("submit hides what hidden cases expect", func(t *testing.T) {
		status, _, body := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/submit", code("print('nope')"))
		var r apiExerciseResponse
		if status != 200 || json.Unmarshal([]byte(body), &r) != nil || r.Passed {
			t.Fatalf("submit = %d %s", status, body)
		}
		for _, h := range ex.Hidden {
			if strings.Contains(body, h.Expected) || strings.Contains(body, h.Stdin) {
				t.Errorf("the answer reveals hidden case %q: %s", h.Name, body)
			}
		}
		hidden := 0
		for _, cr := range r.Cases {
			if cr.Hidden {
				hidden++
				if cr.Expected != "" || cr.Actual != "" || cr.Diff != "" || cr.Message == "" {
					t.Errorf("hidden case %q carries %+v", cr.Name, cr)
				}
			}
		}
		if hidden != len(ex.Hidden) {
			t.Errorf("%d hidden cases reported, want %d by name", hidden, len(ex.Hidden))
		}
	})
	t.Run("a right submission earns XP once", func(t *testing.T) {
		for i, want := range []int{ex.XPValue(), 0} {
			_, _, body := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/submit", code(ex.Solution))
			var r apiExerciseResponse
			if json.Unmarshal([]byte(body), &r) != nil || !r.Passed || r.Awarded != want {
				t.Errorf("submission %d: %s, want %d XP awarded", i+1, body, want)
			}
		}
	})
	for _, tt := range []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"unknown exercise", "/api/exercises/nope/run", code("print(1)"), 404, "There is no exercise"},
		{"not json", "/api/exercises/report-a-failure/run", "print(1)", 400, `{\"code\": \"print(42)\"}`},
		{"unknown field", "/api/exercises/report-a-failure/run", `{"source": "x"}`, 400, "unknown field"},
		{"code too large", "/api/exercises/report-a-failure/run", code(strings.Repeat("#", 70<<10)), 413, "longer than this server accepts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, h, body := apiPost(t, c.http, ts.URL+tt.path, tt.body)
			if status != tt.status || !strings.Contains(body, tt.want) || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
				t.Errorf("POST %s = %d %s, want %d with %q as JSON", tt.path, status, body, tt.status, tt.want)
			}
		})
	}
}

func TestExerciseLimits(t *testing.T) {
	t.Run("per-learner rate gives 429 with Retry-After", func(t *testing.T) {
		s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 2; c.Limits.RunBurst = 2 })
		ts := httptest.NewServer(s)
		defer ts.Close()
		c := newClient(t, ts.URL)
		var statuses []int
		var retry string
		for range 3 {
			status, h, _ := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/run", `{"code": "print(1)"}`)
			statuses = append(statuses, status)
			retry = h.Get("Retry-After")
		}
		if statuses[0] != 200 || statuses[1] != 200 || statuses[2] != http.StatusTooManyRequests || retry == "" {
			t.Errorf("statuses %v, last Retry-After %q; want 200, 200, 429 with Retry-After", statuses, retry)
		}
		// Another learner is not held back by the first one's runs.
		other := newClient(t, ts.URL)
		if status, _, _ := apiPost(t, other.http, ts.URL+"/api/exercises/report-a-failure/run", `{"code": "print(1)"}`); status != 200 {
			t.Errorf("another learner got %d, want 200", status)
		}
	})
	t.Run("a full sandbox answers 503 with Retry-After and pages keep serving", func(t *testing.T) {
		cfg := sandbox.DefaultConfig()
		cfg.WasmPath = filepath.Join("..", sandbox.DefaultWasmPath)
		cfg.MaxConcurrent, cfg.QueueSize, cfg.PoolSize = 1, 1, 0
		cfg.Timeout = 3 * time.Second
		small, err := sandbox.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer small.Close(context.Background())
		if err := small.Warm(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		s := newTestServer(t, func(c *testSetup) { c.Grader = small; c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
		ts := httptest.NewServer(s)
		defer ts.Close()
		const clients = 6
		var wg sync.WaitGroup
		statuses := make(chan int, clients)
		retries := make(chan string, clients)
		for range clients {
			c := newClient(t, ts.URL)
			wg.Go(func() {
				status, h, _ := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/run", `{"code": "while True: pass"}`)
				statuses <- status
				retries <- h.Get("Retry-After")
			})
		}
		time.Sleep(300 * time.Millisecond)
		if status, _ := newClient(t, ts.URL).get("/lessons/two-ways-to-fail"); status != 200 {
			t.Errorf("a lesson page answered %d while the sandbox was full", status)
		}
		wg.Wait()
		close(statuses)
		close(retries)
		busy := 0
		for st := range statuses {
			if st == http.StatusServiceUnavailable {
				busy++
			}
		}
		withRetry := 0
		for r := range retries {
			if r != "" {
				withRetry++
			}
		}
		if withRetry != busy {
			t.Errorf("%d answers were 503 but %d carried Retry-After", busy, withRetry)
		}
		if busy == 0 {
			t.Errorf("no run of %d at once was refused with 503 by a sandbox that holds 2", clients)
		}
	})
}

func TestMCPExerciseAPI(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	ex, _, ok := s.course().Exercise("lookup-order")
	if !ok {
		t.Fatal("the course has no lookup-order exercise")
	}
	for _, tt := range []struct {
		name, code string
		passed     bool
	}{
		{"starter", ex.Starter, false},
		{"prints passed", "print('passed')\n", false},
		{"reference solution", ex.Solution, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(apiExerciseRequest{Code: tt.code})
			status, _, body := apiPost(t, c.http, ts.URL+"/api/exercises/lookup-order/submit", string(b))
			var r map[string]any
			if status != 200 || json.Unmarshal([]byte(body), &r) != nil {
				t.Fatalf("submit = %d %s", status, body)
			}
			if r["passed"] != tt.passed {
				t.Errorf("passed = %v, want %v: %.600s", r["passed"], tt.passed, body)
			}
			if _, ok := r["mcp"]; !ok {
				t.Errorf("the answer carries no transcript: %.300s", body)
			}
		})
	}
}

func TestMissingInterpreterAnswers503(t *testing.T) {
	cfg := sandbox.DefaultConfig()
	cfg.WasmPath = filepath.Join(t.TempDir(), "no", "python.wasm")
	cfg.CacheDir = ""
	box, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close(context.Background())
	if err := box.Warm(context.Background(), nil); err == nil {
		t.Fatal("warming a sandbox without its interpreter succeeded")
	}
	s := newTestServer(t, func(c *testSetup) { c.Grader = box })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	ex, lesson, _ := s.course().Exercise("report-a-failure")
	for _, mode := range []string{"run", "submit"} {
		status, hdr, body := apiPost(t, c.http, ts.URL+"/api/exercises/report-a-failure/"+mode, `{"code": "print(1)"}`)
		if status != http.StatusServiceUnavailable || !strings.Contains(body, "python.wasm not found") || !strings.Contains(body, "make setup") {
			t.Errorf("API %s = %d %s, want 503 with the reason and its fix", mode, status, body)
		}
		if strings.Contains(body, cfg.WasmPath) {
			t.Errorf("API %s names the server's folders: %s", mode, body)
		}
		if hdr.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("API %s answered %q", mode, hdr.Get("Content-Type"))
		}
	}
	status, body := c.post("/lessons/"+lesson.Slug+"/exercises/"+ex.ID, url.Values{"code": {"print(1)"}, "mode": {"submit"}}, "")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "python.wasm not found") || !strings.Contains(body, "print(1)") {
		t.Errorf("form submit = %d, want 503 with the reason in the panel and the code kept:\n%.600s", status, body)
	}
}
