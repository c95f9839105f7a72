package web

import (
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// repeatedPhrase returns a run of four words that a message says twice,
// or "": a case's message and the author's advice after it should not
// tell the learner the same thing twice.
func repeatedPhrase(msg string) string {
	words := strings.Fields(strings.ToLower(regexp.MustCompile(`[^\pL\pN_ ]+`).ReplaceAllString(msg, " ")))
	seen := map[string]bool{}
	for i := 0; i+4 <= len(words); i++ {
		p := strings.Join(words[i:i+4], " ")
		if seen[p] {
			return p
		}
		seen[p] = true
	}
	return ""
}

// TestGraderMessagesSayEachThingOnce runs the starter and every wrong
// solution of each MCP exercise of the built-in course and finds no case
// message that says a phrase twice (the grader's message, then advice
// repeating it).
func TestGraderMessagesSayEachThingOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	checked := 0
	for _, l := range s.course().Lessons {
		for _, ex := range l.Exercises() {
			if ex.MCP == nil {
				continue
			}
			codes := []string{ex.Starter}
			for _, w := range ex.WrongSolutions {
				codes = append(codes, w.Code)
			}
			for _, code := range codes {
				b, _ := json.Marshal(apiExerciseRequest{Code: code})
				status, _, body := apiPost(t, c.http, ts.URL+"/api/exercises/"+ex.ID+"/run", string(b))
				if status != 200 {
					t.Fatalf("run %s = %d %s", ex.ID, status, body)
				}
				var res struct {
					Cases []struct {
						Name, Message string
					} `json:"cases"`
				}
				if err := json.Unmarshal([]byte(body), &res); err != nil {
					t.Fatalf("run %s: %v", ex.ID, err)
				}
				for _, cs := range res.Cases {
					checked++
					if p := repeatedPhrase(cs.Message); p != "" {
						t.Errorf("%s, case %q says %q twice: %s", ex.ID, cs.Name, p, cs.Message)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no MCP case message was checked")
	}
}
