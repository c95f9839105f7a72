package web

import (
	"encoding/json"
	"io/fs"
	"net/http/httptest"
	"strings"
	"testing"

	"learn/lessons"
)

// distinctiveLines returns the lines of a grader solution (wrong or other
// right) that appear nowhere a page may show them: not in the starter, the
// reference solution, the prompt or the lesson's text outside the block.
func distinctiveLines(ex *lessons.Exercise, code, prose string) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		line = strings.TrimSpace(line)
		if len(line) < 12 || strings.Contains(ex.Starter, line) || strings.Contains(ex.Solution, line) ||
			strings.Contains(ex.Prompt, line) || strings.Contains(prose, line) {
			continue
		}
		out = append(out, line)
	}
	return out
}

// TestGraderSolutionsNeverShown renders every lesson page of the built-in
// course, and sends each exercise's starter to the JSON API's run and
// submit, and finds no wrong or other right solution (its note or any line
// of its own) in what comes back.
func TestGraderSolutionsNeverShown(t *testing.T) {
	s := newTestServer(t, func(c *testSetup) { c.Grader = testSandbox(t); c.Limits.RunsPerMinute = 600; c.Limits.RunBurst = 100 })
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	checked := 0
	for _, l := range s.course().Lessons {
		src, err := fs.ReadFile(lessons.BuiltIn(), l.File)
		if err != nil {
			t.Fatal(err)
		}
		status, page := c.get("/lessons/" + l.Slug)
		if status != 200 {
			t.Fatalf("GET %s = %d", l.Slug, status)
		}
		page = htmlText(page)
		for _, ex := range l.Exercises() {
			// The lesson's text without its exercise blocks.
			prose := string(src)
			if i := strings.Index(prose, "id: "+ex.ID+"\n"); i >= 0 {
				if j := strings.Index(prose[i:], "\n```\n"); j >= 0 {
					prose = prose[:i] + prose[i+j:]
				}
			}
			var api []string
			for _, mode := range []string{"run", "submit"} {
				b, _ := json.Marshal(apiExerciseRequest{Code: ex.Starter})
				status, _, body := apiPost(t, c.http, ts.URL+"/api/exercises/"+ex.ID+"/"+mode, string(b))
				if status != 200 {
					t.Fatalf("%s %s = %d %s", mode, ex.ID, status, body)
				}
				var decoded any
				if err := json.Unmarshal([]byte(body), &decoded); err != nil {
					t.Fatalf("%s %s: %v", mode, ex.ID, err)
				}
				text, _ := json.Marshal(decoded)
				api = append(api, mode+": "+string(text), mode+" raw: "+body)
			}
			sols := append(append([]lessons.GraderSolution(nil), ex.WrongSolutions...), ex.OtherSolutions...)
			if len(sols) == 0 {
				t.Errorf("%s lists no grader solutions to look for", ex.ID)
			}
			for _, sol := range sols {
				wants := append([]string{sol.Note}, distinctiveLines(ex, sol.Code, prose)...)
				for _, w := range wants {
					checked++
					if strings.Contains(page, w) {
						t.Errorf("%s: the lesson page shows %q of a grader solution of %s (%s)", l.Slug, w, ex.ID, sol.Note)
					}
					for _, a := range api {
						if strings.Contains(a, w) || strings.Contains(a, strings.ReplaceAll(strings.ReplaceAll(w, `"`, `\"`), "<", `\u003c`)) {
							t.Errorf("%s: the API's %s shows %q of a grader solution (%s)", ex.ID, strings.SplitN(a, ":", 2)[0], w, sol.Note)
						}
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d strings were looked for: the course's exercises list too few grader solutions", checked)
	}
}
