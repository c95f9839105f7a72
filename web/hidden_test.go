package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHiddenCasesCarryNoBits submits programs that fail each hidden case in
// a way of their own choosing (an exception, wrong output, an output flood,
// a loop that runs out of time, memory) through the JSON API: whatever the
// program chose, every failed hidden case reads the same, "failed" with
// the author's message, so a submission cannot carry a hidden input out in
// the kind of its failures. Sample cases keep their whole verdict.
func TestHiddenCasesCarryNoBits(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	programs := map[string]string{
		"raises":  "import sys\nline = sys.stdin.readline()\nraise ValueError(line)\n",
		"wrong":   "import sys\nprint(sys.stdin.readline()[::-1])\n",
		"floods":  "print('x' * 200000)\n",
		"hogs":    "x = [bytearray(1 << 20) for _ in range(500)]\n",
		"by-char": "import sys\nline = sys.stdin.readline()\nif ord(line[0]) % 2:\n    raise KeyError(line)\nprint(line[:3])\n",
	}
	type hidden struct{ Name, Verdict, Message string }
	seen := map[string][]hidden{}
	for name, code := range programs {
		body, _ := json.Marshal(map[string]string{"code": code})
		resp, err := http.Post(ts.URL+"/api/exercises/report-a-failure/submit", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var out apiExerciseResponse
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d, %v", name, resp.StatusCode, err)
		}
		sampleVerdicts := map[string]bool{}
		for _, c := range out.Cases {
			if !c.Hidden {
				sampleVerdicts[string(c.Verdict)] = true
				continue
			}
			if c.Verdict != "failed" && c.Verdict != "passed" {
				t.Errorf("%s: hidden case %q says %q, more than passed or failed", name, c.Name, c.Verdict)
			}
			if c.Actual != "" || c.Error != "" || c.Stderr != "" || c.Diff != "" || c.Expected != "" {
				t.Errorf("%s: hidden case %q carries output: %+v", name, c.Name, c)
			}
			seen[name] = append(seen[name], hidden{c.Name, string(c.Verdict), c.Message})
		}
		if name == "raises" && !sampleVerdicts["error"] {
			t.Errorf("raises: the sample cases lost their verdict kind: %v", sampleVerdicts)
		}
	}
	want := seen["raises"]
	if len(want) == 0 {
		t.Fatal("no hidden case was reported")
	}
	for name, got := range seen {
		if len(got) != len(want) {
			t.Errorf("%s: %d hidden cases, want %d", name, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: hidden case %d reads %+v, but after an exception %+v: the program chose what it says", name, i, got[i], want[i])
			}
			if got[i].Verdict == "failed" && !strings.HasPrefix(got[i].Message, "A hidden case failed") {
				t.Errorf("%s: hidden case message %q", name, got[i].Message)
			}
		}
	}
}
