package lessons

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"learn/internal/reference"
)

// TestLoadHintsAndSources checks the hints of an exercise block and the
// sources of the front matter: each problem on its line, and a good block
// decoded with its hints rendered.
func TestLoadHintsAndSources(t *testing.T) {
	const front = "title: T\nslug: s\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n"
	const body = "Text.\n\n```exercise\nid: x\ntitle: X\nprompt: P\nstarter: pass\nsolution: |\n  print(input().split('|', 1)[1])\n%s" +
		"samples:\n  - name: A\n    stdin: a|b\n    expected: b\n```\n\n## Key takeaways\n- x\n"
	tests := []struct {
		name    string
		sources string // front-matter lines
		hints   string // exercise-block lines
		// marker → a part of the problem reported on marker's line
		want map[string]string
	}{
		{"source without title", "sources:\n  - url: https://example.org/a\n", "",
			map[string]string{"url: https://example.org/a": "source 1 has no title"}},
		{"source without url", "sources:\n  - title: A page\n", "",
			map[string]string{"  - title: A page": "source 1 has no url"}},
		{"source not http", "sources:\n  - title: A page\n    url: ftp://example.org/a\n", "",
			map[string]string{"url: ftp://": `url "ftp://example.org/a" is not an http or https address`}},
		{"source relative", "sources:\n  - title: A page\n    url: /specification\n", "",
			map[string]string{"url: /spec": "is not an http or https address"}},
		{"unknown source field", "sources:\n  - title: A page\n    href: https://example.org\n", "",
			map[string]string{"---": "field href not found"}},
		{"empty hint", "", "hints:\n  - Look at the bar.\n  - \"\"\n",
			map[string]string{"hints:": "hint 2 is empty"}},
		{"too many hints", "", "hints: [a, b, c, d, e, f]\n",
			map[string]string{"hints:": "6 hints is too many"}},
		{"hint gives the code", "", "hints:\n  - \"Write print(input().split('|', 1)[1]) and you are done.\"\n",
			map[string]string{"hints:": "hint 1 quotes the solution's line"}},
		{"show_solution not a bool", "", "show_solution: maybe\n",
			map[string]string{"show_solution: maybe": "cannot unmarshal"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "---\n" + front + tt.sources + "---\n" + fmt.Sprintf(body, tt.hints)
			_, err := Load(fstest.MapFS{"a.md": {Data: []byte(src)}})
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load error = %v, want Problems", err)
			}
			for marker, part := range tt.want {
				want := fmt.Sprintf("a.md:%d: ", lineOf(src, marker))
				if marker == "---" {
					want = "a.md:"
				}
				found := false
				for _, p := range ps {
					found = found || strings.HasPrefix(p.String(), want) && strings.Contains(p.String(), part)
				}
				if !found {
					t.Errorf("no problem %q…%q in:\n%s", want, part, ps.Error())
				}
			}
		})
	}
	t.Run("good", func(t *testing.T) {
		src := "---\n" + front + "sources:\n  - title: The tools page\n    url: https://example.org/tools\n---\n" +
			fmt.Sprintf(body, "hints:\n  - Split at the **first** bar.\n  - Print what follows it.\nshow_solution: false\n")
		c, err := Load(fstest.MapFS{"a.md": {Data: []byte(src)}})
		if err != nil {
			t.Fatal(err)
		}
		l := c.Lessons[0]
		if len(l.Sources) != 1 || l.Sources[0] != (Source{Title: "The tools page", URL: "https://example.org/tools"}) {
			t.Errorf("Sources = %+v", l.Sources)
		}
		ex := l.Exercises()[0]
		if len(ex.HintsHTML) != 2 || !strings.Contains(string(ex.HintsHTML[0]), "<strong>first</strong>") {
			t.Errorf("HintsHTML = %q, want two rendered hints", ex.HintsHTML)
		}
		if ex.SolutionShown() {
			t.Error("show_solution: false, yet SolutionShown")
		}
	})
}

// TestBuiltInLessonsLeadTheWay holds the built-in course to what it
// promises: every lesson cites its sources, each a public address the
// reference lists, and every exercise has two or three hints.
func TestBuiltInLessonsLeadTheWay(t *testing.T) {
	listed, err := os.ReadFile(reference.Path(t, "sources.md"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range c.Lessons {
		if len(l.Sources) == 0 {
			t.Errorf("%s cites no sources", l.Slug)
		}
		for _, s := range l.Sources {
			if !strings.Contains(string(listed), "- "+s.URL+"\n") && !strings.Contains(string(listed), "- "+s.URL+" (") {
				t.Errorf("%s cites %s, which the reference's sources.md does not list", l.Slug, s.URL)
			}
		}
		for _, ex := range l.Exercises() {
			if n := len(ex.Hints); n < 2 || n > 3 {
				t.Errorf("%s: exercise %s has %d hints, want two or three", l.Slug, ex.ID, n)
			}
			if !ex.SolutionShown() {
				t.Errorf("%s: exercise %s hides its reference solution; the built-in course shows each after solving", l.Slug, ex.ID)
			}
		}
	}
}
