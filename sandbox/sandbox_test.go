package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// variants are the two ways the sandbox can run interpreters; the tests that
// depend on how a run is stopped run against both.
var variants = []string{"workers", "inprocess"}

func verdicts(rep Report) []Verdict {
	var v []Verdict
	for _, c := range rep.Cases {
		v = append(v, c.Verdict)
	}
	return v
}

// brief shows a case result for a failure message, each text cut short.
func brief(c CaseResult) string {
	cut := func(s string) string {
		if len(s) > 300 {
			return s[:300] + "…"
		}
		return s
	}
	return fmt.Sprintf("{%s %q message=%q actual=%q error=%q stderr=%q diff=%q}", c.Name, c.Verdict, c.Message, cut(c.Actual), cut(c.Error), cut(c.Stderr), cut(c.Diff))
}

func allVerdicts(n int, v Verdict) []Verdict {
	out := make([]Verdict, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestGradeReportAFailure(t *testing.T) {
	n := len(reportAFailureCases)
	tests := []struct {
		name   string
		code   string
		want   []Verdict
		passed bool
	}{
		{"reference solution", reportAFailureSolution, allVerdicts(n, VerdictPassed), true},
		{"starter", reportAFailureStarter, allVerdicts(n, VerdictWrongOutput), false},
		{"splits on every pipe", reportAFailureNaive, func() []Verdict {
			v := allVerdicts(n, VerdictPassed)
			v[5] = VerdictWrongOutput
			return v
		}(), false},
		{"syntax error", "line = input(\nprint(line)\n", allVerdicts(n, VerdictError), false},
		{"prints nothing", "input()\n", allVerdicts(n, VerdictWrongOutput), false},
	}
	for _, variant := range variants {
		s := sharedSandbox(t, variant)
		for _, tt := range tests {
			t.Run(variant+"/"+tt.name, func(t *testing.T) {
				rep, err := s.Grade(context.Background(), tt.code, reportAFailureCases, CompareTrimmedLines)
				if err != nil {
					t.Fatal(err)
				}
				if got := verdicts(rep); fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("verdicts = %v, want %v\n%s", got, tt.want, brief(rep.Cases[0]))
				}
				if rep.Passed != tt.passed {
					t.Errorf("Passed = %v, want %v", rep.Passed, tt.passed)
				}
				for _, c := range rep.Cases {
					if c.Message == "" {
						t.Errorf("case %q has no message", c.Name)
					}
				}
			})
		}
	}
}

func TestGradeWrongOutputHasDiff(t *testing.T) {
	s := sharedSandbox(t, "workers")
	rep, err := s.Grade(context.Background(), reportAFailureStarter, reportAFailureCases[:1], CompareTrimmedLines)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cases[0]
	if c.Verdict != VerdictWrongOutput {
		t.Fatalf("verdict %q, want wrong output", c.Verdict)
	}
	want := "- error -32602 Unknown tool: get_weathr\n+ error -32603 Unknown tool: get_weathr\n"
	if c.Diff != want || c.Actual != "error -32603 Unknown tool: get_weathr\n" || c.Expected != reportAFailureCases[0].Expected {
		t.Errorf("diff %q actual %q expected %q", c.Diff, c.Actual, c.Expected)
	}
}

func TestGradeErrorsShowOnlyLearnerCode(t *testing.T) {
	tests := []struct {
		name     string
		code     string
		contains []string
	}{
		{
			name: "syntax error",
			code: "line = input()\nif line\n    print(line)\n",
			contains: []string{
				"  File \"main.py\", line 2\n",
				"    if line\n",
				"SyntaxError: expected ':'",
			},
		},
		{
			name: "exception in a function",
			code: "def parse(line):\n    kind, message = line.split('|')\n    return kind\n\nparse(input())\n",
			contains: []string{
				"Traceback (most recent call last):\n",
				"  File \"main.py\", line 5, in <module>\n    parse(input())\n",
				"  File \"main.py\", line 2, in parse\n    kind, message = line.split('|')\n",
				"ValueError: not enough values to unpack (expected 2, got 1)\n",
			},
		},
		{
			name:     "exception inside the standard library",
			code:     "import json\njson.loads(input())\n",
			contains: []string{"  File \"main.py\", line 2, in <module>\n", "json.decoder.JSONDecodeError: "},
		},
		{
			name:     "chained exception",
			code:     "try:\n    {}['x']\nexcept KeyError as e:\n    raise ValueError('bad') from e\n",
			contains: []string{"KeyError: 'x'\n", "direct cause", "ValueError: bad\n"},
		},
		{
			name:     "deep recursion",
			code:     "def f(n):\n    return f(n + 1)\nf(0)\n",
			contains: []string{"[Previous line repeated", "RecursionError: maximum recursion depth exceeded"},
		},
	}
	s := sharedSandbox(t, "workers")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := s.Grade(context.Background(), tt.code, []Case{{Name: "one", Stdin: "no pipe here\n", Expected: "x\n"}}, CompareExact)
			if err != nil {
				t.Fatal(err)
			}
			c := rep.Cases[0]
			if c.Verdict != VerdictError {
				t.Fatalf("verdict %q, want error: %s", c.Verdict, brief(c))
			}
			for _, want := range tt.contains {
				if !strings.Contains(c.Error, want) {
					t.Errorf("traceback lacks %q:\n%s", want, c.Error)
				}
			}
			for _, bad := range []string{"<string>", "/usr/local/lib", "harness", "_run_case", "exec(code"} {
				if strings.Contains(c.Error, bad) {
					t.Errorf("traceback shows %q:\n%s", bad, c.Error)
				}
			}
			if !strings.Contains(c.Message, "main.py") && !strings.Contains(c.Message, "line") {
				t.Errorf("message %q does not point at a line", c.Message)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		verdict Verdict
		limit   Limit
		stdout  string // a prefix Run's stdout must have, if not empty
		marker  bool   // Run's stdout must end with the cut marker
	}{
		{name: "tight loop", code: "while True:\n    pass\n", verdict: VerdictTimeout, limit: LimitTime},
		{name: "sleep past the deadline", code: "import time\ntime.sleep(30)\n", verdict: VerdictTimeout, limit: LimitTime},
		{name: "one huge string", code: "x = 'a' * (200 * 1024 * 1024)\n", verdict: VerdictMemoryLimit, limit: LimitMemory},
		{name: "list that grows", code: "l = []\nwhile True:\n    l.append(bytearray(8 << 20))\n", verdict: VerdictMemoryLimit, limit: LimitMemory},
		{name: "print flood", code: "print('start')\nwhile True:\n    print('x' * 100)\n", verdict: VerdictOutputLimit, limit: LimitOutput, stdout: "start\nxxxx", marker: true},
		{name: "flood straight to fd 1", code: "import os\nwhile True:\n    os.write(1, b'y' * 4096)\n", verdict: VerdictOutputLimit, limit: LimitOutput},
		{name: "stderr flood", code: "import sys\nwhile True:\n    sys.stderr.write('e' * 100)\n", verdict: VerdictOutputLimit, limit: LimitOutput},
	}
	for _, variant := range variants {
		s := sharedSandbox(t, variant)
		timeout := s.Config().Timeout
		for _, tt := range tests {
			t.Run(variant+"/"+tt.name, func(t *testing.T) {
				// The previous case's runaway Run cost a worker, which is
				// being replaced; wait for a ready one so the clock below
				// measures the stop, not the replacement on a busy machine.
				if _, err := s.Grade(context.Background(), "print('x')\n", []Case{{Name: "ready", Expected: "x\n"}}, CompareTrimmedLines); err != nil {
					t.Fatal(err)
				}
				box := s
				if tt.limit != LimitTime {
					// Only the time limit may depend on the clock.
					box = sharedSandbox(t, variant+"-long")
				}
				rep, err := box.Grade(context.Background(), tt.code, []Case{{Name: "a", Expected: "x\n"}, {Name: "b", Expected: "x\n"}}, CompareTrimmedLines)
				// The deadline runs from the hand-over: a cold start on a
				// busy machine does not count.
				elapsed := rep.Ran
				if err != nil {
					t.Fatal(err)
				}
				if got := rep.Cases[0].Verdict; got != tt.verdict {
					t.Errorf("verdict %q, want %q: %s", got, tt.verdict, brief(rep.Cases[0]))
				}
				if tt.verdict == VerdictTimeout {
					if elapsed >= timeout+time.Second {
						t.Errorf("stopped after %v, want under the %v deadline + 1 s", elapsed, timeout)
					}
					if rep.Cases[1].Verdict != VerdictTimeout || !strings.Contains(rep.Cases[1].Message, "Not run") {
						t.Errorf("case after the timeout: %s", brief(rep.Cases[1]))
					}
				}
				res, err := box.Run(context.Background(), tt.code, "")
				if err != nil {
					t.Fatal(err)
				}
				if res.Limit != tt.limit || res.Message == "" {
					t.Errorf("Run: limit %q message %q, want limit %q", res.Limit, res.Message, tt.limit)
				}
				if !strings.HasPrefix(res.Stdout, tt.stdout) {
					t.Errorf("Run stdout starts %q, want %q", res.Stdout[:min(len(res.Stdout), 40)], tt.stdout)
				}
				if tt.marker && !strings.HasSuffix(res.Stdout, "[output cut at 64 KiB]\n") {
					t.Errorf("Run stdout ends %q, want the cut marker", res.Stdout[max(0, len(res.Stdout)-40):])
				}
			})
		}
	}
}

func TestLimitEdges(t *testing.T) {
	s := sharedSandbox(t, "workers")
	limit := s.Config().MaxOutputBytes
	tests := []struct {
		name  string
		code  string
		limit Limit
	}{
		{"stdout at the limit", fmt.Sprintf("import sys\nsys.stdout.write('x' * %d)\n", limit), LimitNone},
		{"stdout one past the limit", fmt.Sprintf("import sys\nsys.stdout.write('x' * %d)\n", limit+1), LimitOutput},
		{"multibyte stdout past the limit in bytes", fmt.Sprintf("print('é' * %d)\n", limit/2+1), LimitOutput},
		{"stderr at the limit", fmt.Sprintf("import sys\nsys.stderr.write('x' * %d)\n", limit), LimitNone},
		{"stderr one past the limit", fmt.Sprintf("import sys\nsys.stderr.write('x' * %d)\n", limit+1), LimitOutput},
		{"40 MiB of 64 MiB memory", "b = bytearray(40 * 1024 * 1024)\nprint(len(b))\n", LimitNone},
		{"80 MiB of 64 MiB memory", "b = bytearray(80 * 1024 * 1024)\nprint(len(b))\n", LimitMemory},
		{"sleep well inside the deadline", "import time\ntime.sleep(0.2)\nprint('woke')\n", LimitNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Run(context.Background(), tt.code, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.Limit != tt.limit {
				t.Errorf("limit %q, want %q (exit %d, %s)", res.Limit, tt.limit, res.ExitCode, res.Message)
			}
			if len(res.Stdout) > limit+len(outputCutMarker(s.Config().limits())) {
				t.Errorf("stdout is %d bytes, over the limit", len(res.Stdout))
			}
		})
	}

	t.Run("code at the size limit runs", func(t *testing.T) {
		code := "print('ok')\n#" + strings.Repeat("x", s.Config().MaxCodeBytes-14) + "\n"
		if len(code) != s.Config().MaxCodeBytes {
			t.Fatalf("code is %d bytes", len(code))
		}
		res, err := s.Run(context.Background(), code, "")
		if err != nil || res.Stdout != "ok\n" {
			t.Fatalf("Run = %+v, %v", res, err)
		}
	})
	t.Run("code over the size limit is rejected", func(t *testing.T) {
		code := strings.Repeat("#", s.Config().MaxCodeBytes+1)
		_, err := s.Grade(context.Background(), code, reportAFailureCases, CompareExact)
		if !errors.Is(err, ErrCodeTooLarge) {
			t.Fatalf("err = %v, want ErrCodeTooLarge", err)
		}
	})
}

func TestRun(t *testing.T) {
	s := sharedSandbox(t, "workers")
	tests := []struct {
		name   string
		code   string
		stdin  string
		stdout string
		stderr string
		exit   int
	}{
		{"echo stdin", "import sys\nfor line in sys.stdin:\n    print(line.strip().upper())\n", "a\nb\n", "A\nB\n", "", 0},
		{"exit code", "import sys\nprint('bye')\nsys.exit(3)\n", "", "bye\n", "", 3},
		{"exit with a message", "exit('fatal: no input')\n", "", "", "fatal: no input\n", 1},
		{"exception", "print('before')\nraise RuntimeError('boom')\n", "", "before\n", "Traceback (most recent call last):\n  File \"main.py\", line 2, in <module>\n    raise RuntimeError('boom')\nRuntimeError: boom\n", 1},
		{"input at end of stdin", "input()\n", "", "", "Traceback (most recent call last):\n  File \"main.py\", line 1, in <module>\n    input()\nEOFError: EOF when reading a line\n", 1},
		{"syntax error", "print('a'\n", "", "", "  File \"main.py\", line 1\n    print('a'\n         ^\nSyntaxError: '(' was never closed\n", 1},
		{"standard library", "import json, re, dataclasses\nprint(json.dumps({'a': re.sub('x', 'y', 'xx')}))\n", "", "{\"a\": \"yy\"}\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Run(context.Background(), tt.code, tt.stdin)
			if err != nil {
				t.Fatal(err)
			}
			if res.Stdout != tt.stdout || res.Stderr != tt.stderr || res.ExitCode != tt.exit {
				t.Errorf("Run = stdout %q stderr %q exit %d\nwant stdout %q stderr %q exit %d", res.Stdout, res.Stderr, res.ExitCode, tt.stdout, tt.stderr, tt.exit)
			}
		})
	}
}

// TestEscapes tries to reach outside the sandbox; each attempt must fail
// harmlessly. The program prints what it got, so the test sees it.
func TestEscapes(t *testing.T) {
	try := func(body string) string {
		return "try:\n    r = " + body + "\n    print('GOT', repr(r)[:200])\nexcept BaseException as e:\n    print('DENIED', type(e).__name__)\n"
	}
	tests := []struct {
		name string
		code string
		want string
	}{
		{"read /etc/passwd", try("open('/etc/passwd').read()"), "DENIED FileNotFoundError\n"},
		{"list the root", try("__import__('os').listdir('/')"), "DENIED FileNotFoundError\n"},
		{"list the host's home", try("__import__('os').listdir('/root')"), "DENIED FileNotFoundError\n"},
		{"environment", "import os\nprint(dict(os.environ))\n", "{}\n"},
		{"open a socket", try("__import__('socket').socket().connect(('127.0.0.1', 80))"), "DENIED OSError\n"},
		{"start a subprocess", try("__import__('subprocess').run(['ls'])"), "DENIED OSError\n"},
		{"os.system", try("__import__('os').system('ls')"), "DENIED AttributeError\n"},
		{"fork", try("__import__('os').fork()"), "DENIED AttributeError\n"},
		{"write a file", try("open('/tmp/pwned', 'w').write('x')"), "DENIED FileNotFoundError\n"},
		{"write beside the stdlib", try("open('/usr/local/lib/python3.12/pwned.py', 'w').write('x')"), "DENIED FileNotFoundError\n"},
		{"import ctypes", try("__import__('ctypes')"), "DENIED ModuleNotFoundError\n"},
		{"read stdin past the submission", try("__import__('os').read(0, 100)"), "GOT b''\n"},
	}
	s := sharedSandbox(t, "workers")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Run(context.Background(), tt.code, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.Stdout != tt.want {
				t.Errorf("stdout %q, want %q (stderr %q)", res.Stdout, tt.want, res.Stderr)
			}
		})
	}
}

// TestNothingLeaksBetweenSubmissions leaves traces everywhere one submission
// can, then looks for them from later submissions; and checks that cases of
// one submission get fresh globals.
func TestNothingLeaksBetweenSubmissions(t *testing.T) {
	const plant = `import os, sys, builtins
secret = 's3cret'
os.planted = secret
builtins.planted = secret
sys.modules['planted'] = type(sys)('planted')
sys.planted = secret
try:
    open('planted.txt', 'w').write(secret)
except OSError:
    pass
print('planted')
`
	const look = `import os, sys, builtins
found = []
for name, where in [('globals', 'secret' in globals()), ('os', hasattr(os, 'planted')),
        ('builtins', hasattr(builtins, 'planted')), ('sys.modules', 'planted' in sys.modules),
        ('sys', hasattr(sys, 'planted'))]:
    if where:
        found.append(name)
try:
    open('planted.txt').read()
    found.append('file')
except OSError:
    pass
print('found', found)
`
	for _, variant := range variants {
		s := sharedSandbox(t, variant)
		t.Run(variant, func(t *testing.T) {
			for i := range 4 {
				res, err := s.Run(context.Background(), plant, "")
				if err != nil || res.Stdout != "planted\n" {
					t.Fatalf("plant %d: %+v %v", i, res, err)
				}
				res, err = s.Run(context.Background(), look, "")
				if err != nil {
					t.Fatal(err)
				}
				if res.Stdout != "found []\n" {
					t.Errorf("look %d: %q", i, res.Stdout)
				}
			}
		})
	}
	t.Run("fresh globals per case", func(t *testing.T) {
		s := sharedSandbox(t, "workers")
		code := "try:\n    seen\n    print('stale')\nexcept NameError:\n    print('fresh')\nseen = True\n"
		cases := []Case{{Name: "1", Expected: "fresh\n"}, {Name: "2", Expected: "fresh\n"}, {Name: "3", Expected: "fresh\n"}}
		rep, err := s.Grade(context.Background(), code, cases, CompareExact)
		if err != nil || !rep.Passed {
			t.Fatalf("%+v %v", rep, err)
		}
	})
}

func TestConcurrentSubmissions(t *testing.T) {
	for _, variant := range variants {
		s := sharedSandbox(t, variant)
		t.Run(variant, func(t *testing.T) {
			const n = 20
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					code, want := reportAFailureSolution, true
					if i%2 == 1 {
						code, want = reportAFailureNaive, false
					}
					rep, err := s.Grade(context.Background(), code, reportAFailureCases, CompareTrimmedLines)
					switch {
					case err != nil:
						errs <- fmt.Errorf("submission %d: %w", i, err)
					case rep.Passed != want:
						errs <- fmt.Errorf("submission %d: passed %v, want %v: %v", i, rep.Passed, want, verdicts(rep))
					case !want && rep.Cases[5].Verdict != VerdictWrongOutput:
						errs <- fmt.Errorf("submission %d: %v", i, verdicts(rep))
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestForgedFramesCannotPass: the guest can print anything, including frames
// of the harness protocol, even with the run's nonce dug out of the
// harness's memory; the host still decides from expected outputs it never
// sends.
func TestForgedFramesCannotPass(t *testing.T) {
	tests := []struct {
		name string
		code string
		// forged: the forgery reached the host as case output, so the test
		// shows the host judging it, not the forgery failing to run.
		forged bool
	}{
		{"prints passed", "print('passed')\nprint('PASS: all cases passed')\n", false},
		{"frame with a made-up nonce", "import os\nfor i in range(10):\n    os.write(1, b'\\x1e' + b'0' * 32 + b' %d end 8\\nok 0 0 0' % i)\n", false},
		{"frame without a nonce", "import os\nos.write(1, b'\\x1e -1 done 0\\n')\nprint('passed')\n", false},
		{"frames with the real nonce from the harness's frames", `import os, sys
nonce = None
f = sys._getframe()
while f is not None and nonce is None:
    for fn in list(f.f_locals.values()):
        for cell in getattr(fn, '__closure__', None) or ():
            v = cell.cell_contents
            if isinstance(v, bytes) and len(v) == 32:
                nonce = v
    f = f.f_back
assert nonce, 'nonce not found'
def frame(case, kind, payload):
    os.write(1, b'\x1e' + nonce + b' %d %s %d\n' % (case, kind, len(payload)) + payload)
# Claim every case printed "passed" and ended well, then stop the harness.
frame(0, b'out', b'passed\n')
frame(0, b'err', b'')
frame(0, b'end', b'ok 0 0 0')
for i in range(1, 9):
    frame(i, b'start', b'')
    frame(i, b'out', b'passed\n')
    frame(i, b'err', b'')
    frame(i, b'end', b'ok 0 0 0')
frame(-1, b'done', b'')
os._exit(0)
`, true},
	}
	s := sharedSandbox(t, "workers")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := s.Grade(context.Background(), tt.code, reportAFailureCases, CompareTrimmedLines)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed {
				t.Fatalf("a forged submission passed: %v", verdicts(rep))
			}
			if tt.forged {
				for _, c := range rep.Cases {
					if c.Verdict != VerdictWrongOutput || c.Actual != "passed\n" {
						t.Errorf("the forgery did not reach the host as written: %s", brief(c))
					}
				}
			}
			for _, c := range rep.Cases {
				if c.Verdict == VerdictPassed {
					t.Errorf("case %q passed: %s", c.Name, brief(c))
				}
			}
		})
	}
}

func TestBusy(t *testing.T) {
	cfg := testConfig(t)
	cfg.InProcess = true
	cfg.MaxConcurrent = 1
	cfg.QueueSize = 1
	cfg.PoolSize = 0
	cfg.Timeout = time.Second
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if err := s.Warm(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// One runs, one waits; the third finds the queue full.
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = s.Run(context.Background(), "while True:\n    pass\n", "")
		}()
	}
	for len(s.admit) < 2 {
		time.Sleep(time.Millisecond)
	}
	_, err = s.Run(context.Background(), "print(1)\n", "")
	var busy *BusyError
	if !errors.Is(err, ErrBusy) || !errors.As(err, &busy) || busy.RetryAfter < time.Second {
		t.Errorf("err = %v, want ErrBusy with a Retry-After", err)
	}
	// Two 1 s runs ahead of it on one slot: a few seconds, not minutes.
	if busy != nil && busy.RetryAfter > 5*time.Second {
		t.Errorf("Retry-After %v for two runs of a second ahead", busy.RetryAfter)
	}
	wg.Wait()
	res, err := s.Run(context.Background(), "print(1)\n", "")
	if err != nil || res.Stdout != "1\n" {
		t.Errorf("after the queue drained: %+v %v", res, err)
	}
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		ok     bool
	}{
		{"defaults", func(*Config) {}, true},
		{"memory at the minimum", func(c *Config) { c.MemoryLimitBytes = MinMemoryLimitBytes }, true},
		{"memory below the minimum", func(c *Config) { c.MemoryLimitBytes = MinMemoryLimitBytes - 1 }, false},
		{"no timeout", func(c *Config) { c.Timeout = 0 }, false},
		{"no slots", func(c *Config) { c.MaxConcurrent = 0 }, false},
		{"no queue", func(c *Config) { c.QueueSize = 0 }, true},
		{"negative pool", func(c *Config) { c.PoolSize = -1 }, false},
		{"no output", func(c *Config) { c.MaxOutputBytes = 0 }, false},
		{"no code", func(c *Config) { c.MaxCodeBytes = 0 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tt.change(&cfg)
			_, err := New(cfg)
			if (err == nil) != tt.ok {
				t.Errorf("New: %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestMemoryLimitAtMinimum(t *testing.T) {
	cfg := testConfig(t)
	cfg.InProcess = true
	cfg.MemoryLimitBytes = MinMemoryLimitBytes
	cfg.PoolSize = 0
	cfg.MaxConcurrent = 1
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	res, err := s.Run(context.Background(), "print('small')\nx = bytearray(8 * 1024 * 1024)\n", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "small\n" || res.Limit != LimitMemory {
		t.Errorf("Run = %+v, want it to start, print and then hit the memory limit", res)
	}
}

// TestForgedLastFrameThenSpin: a submission that writes the harness's last
// frame itself and keeps running gets its answer at once, is stopped at its
// deadline all the same, and leaves the sandbox working.
func TestForgedLastFrameThenSpin(t *testing.T) {
	const code = `import os, sys
f = sys._getframe()
nonce = None
while f is not None and nonce is None:
    for fn in list(f.f_locals.values()):
        for cell in getattr(fn, '__closure__', None) or ():
            if isinstance(cell.cell_contents, bytes) and len(cell.cell_contents) == 32:
                nonce = cell.cell_contents
    f = f.f_back
assert nonce, 'nonce not found'

os.write(1, b'\x1e' + nonce + b' -1 done 0\n')
while True:
    pass
`
	for _, variant := range variants {
		s := sharedSandbox(t, variant)
		t.Run(variant, func(t *testing.T) {
			rep, err := s.Grade(context.Background(), code, reportAFailureCases, CompareTrimmedLines)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed {
				t.Fatal("passed")
			}
			// A forged last frame earns nothing: the case it forged in is
			// an error (or, when the host had not yet read that far, a
			// timeout at the deadline) and no case passes.
			if v := rep.Cases[0].Verdict; v != VerdictError && v != VerdictTimeout {
				t.Errorf("first case %s, want error or timeout", brief(rep.Cases[0]))
			}
			for _, c := range rep.Cases {
				if c.Verdict == VerdictPassed {
					t.Errorf("case %s passed after a forged frame", c.Name)
				}
			}
			// The spinning guest holds its slot until its deadline; the
			// sandbox must then serve again.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			for range 4 {
				rep, err := s.Grade(ctx, reportAFailureSolution, reportAFailureCases, CompareTrimmedLines)
				if err != nil || !rep.Passed {
					t.Fatalf("after the forgery: %v %v", verdicts(rep), err)
				}
			}
		})
	}
}

// TestRunawayNeighbours: submissions that loop forever, exhaust memory or
// flood output, graded at the same time as good ones, cost only their own
// verdicts.
func TestRunawayNeighbours(t *testing.T) {
	bad := []struct {
		code    string
		verdict Verdict
	}{
		{"while True:\n    pass\n", VerdictTimeout},
		// One allocation past the cap: it fails at once, long before the
		// 2 s deadline even when a busy machine slows the interpreter's
		// start (a growing list is TestLimits' job).
		{"x = ' ' * (200 * 1024 * 1024)\n", VerdictMemoryLimit},
		{"import os\nwhile True:\n    os.write(1, b'z' * 4096)\n", VerdictOutputLimit},
	}
	for _, variant := range variants {
		s := sharedSandbox(t, variant)
		t.Run(variant, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make(chan error, 16)
			for i := range 12 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i < len(bad) {
						rep, err := s.Grade(context.Background(), bad[i].code, reportAFailureCases[:1], CompareTrimmedLines)
						if err != nil || rep.Cases[0].Verdict != bad[i].verdict {
							errs <- fmt.Errorf("runaway %d: %v %v", i, verdicts(rep), err)
						}
						return
					}
					rep, err := s.Grade(context.Background(), reportAFailureSolution, reportAFailureCases, CompareTrimmedLines)
					if err != nil || !rep.Passed {
						errs <- fmt.Errorf("good %d: %v %v", i, verdicts(rep), err)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestCloseReleasesWaiters: Close ends runs in progress and releases callers
// waiting in the queue; later calls get ErrClosed.
func TestCloseReleasesWaiters(t *testing.T) {
	for _, variant := range variants {
		t.Run(variant, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.InProcess = variant == "inprocess"
			cfg.MaxConcurrent = 1
			cfg.PoolSize = 1
			cfg.Timeout = 30 * time.Second
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Warm(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 3)
			for range 3 {
				go func() {
					_, err := s.Run(context.Background(), "while True:\n    pass\n", "")
					done <- err
				}()
			}
			for len(s.admit) < 3 {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(100 * time.Millisecond)
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.Close(ctx); err != nil {
				t.Errorf("Close: %v", err)
			}
			for range 3 {
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("a caller is still waiting after Close")
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Close took %v", d)
			}
			if _, err := s.Run(context.Background(), "print(1)", ""); !errors.Is(err, ErrClosed) {
				t.Errorf("Run after Close: %v, want ErrClosed", err)
			}
		})
	}
}
