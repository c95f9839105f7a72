package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"learn/internal/reference"
)

// htmlTag matches a tag, so rendered answers are compared as text.
var htmlTag = regexp.MustCompile(`<[^>]+>`)

// faqLesson is a small lesson with a faq block starting on line 12.
func faqLesson(faq string) string {
	return "---\ntitle: F\nslug: f\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n" +
		"```faq\n" + faq + "```\n\n## Key takeaways\n- x\n"
}

func TestFAQDecodes(t *testing.T) {
	src := faqLesson("- question: Why?\n  answer: |\n    Because `isError` is **true**.\n- question: And then?\n  answer: Nothing.\n")
	c, err := Load(fstest.MapFS{"01-f.md": {Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	l := c.Lessons[0]
	if len(l.FAQ) != 2 || l.FAQ[0].Question != "Why?" || !strings.Contains(string(l.FAQ[0].Answer), "<code>isError</code>") || l.FAQ[1].Line != 16 {
		t.Errorf("FAQ = %+v", l.FAQ)
	}
	for _, s := range l.Segments {
		if strings.Contains(string(s.HTML), "question:") {
			t.Errorf("the faq block stayed in the body: %s", s.HTML)
		}
	}
}

func TestFAQProblemsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name, faq string
		want      string
	}{
		{"not YAML", "- question: [unclosed\n", "01-f.md:13: the faq block is not valid YAML"},
		{"not a list", "question: Why?\nanswer: Because.\n", "01-f.md:13: a faq block is a YAML list"},
		{"no answer", "- question: Why?\n", `01-f.md:13: faq entry 1 ("Why?") has no answer`},
		{"no question", "- answer: Because.\n", "01-f.md:13: faq entry 1 has no question"},
		{"unknown field", "- question: Why?\n  answer: Because.\n  anwser: typo\n", `01-f.md:15: faq entry 1: unknown field "anwser"`},
		{"second entry", "- question: Why?\n  answer: Because.\n- question: How?\n", `01-f.md:15: faq entry 2 ("How?") has no answer`},
		{"empty", "[]\n", "01-f.md:13: the faq block has 0 entries"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"01-f.md": {Data: []byte(faqLesson(tc.faq))}})
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load = %v, want Problems", err)
			}
			if !strings.Contains(ps.Error(), tc.want) {
				t.Errorf("problems:\n%s\nwant one containing %q", ps.Error(), tc.want)
			}
		})
	}
	t.Run("two blocks", func(t *testing.T) {
		src := faqLesson("- question: A?\n  answer: B.\n```\n\n```faq\n- question: C?\n  answer: D.\n")
		_, err := Load(fstest.MapFS{"01-f.md": {Data: []byte(src)}})
		if err == nil || !strings.Contains(err.Error(), "01-f.md:17: a lesson has one faq block") {
			t.Errorf("Load = %v", err)
		}
	})
}

func TestLessonParts(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	l := c.Lessons[0]
	for _, key := range []string{"widget:which-channel", "heading:who-sees-what", "widget:quiz"} {
		if _, ok := l.Part(key); !ok {
			t.Errorf("lesson 1 has no part %q; parts: %v", key, l.Parts)
		}
	}
	hasExercise := false
	for _, p := range l.Parts {
		hasExercise = hasExercise || p.Kind == "exercise"
	}
	if !hasExercise {
		t.Error("lesson 1's exercise is not a part")
	}
}

// TestBuiltInFAQ checks that every lesson answers two or three questions,
// in the course's own words (the originality test leaves fenced blocks
// out, so the FAQ is checked here against the same 10-word runs).
func TestBuiltInFAQ(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	refDir := reference.Path(t)
	var refs []string
	for _, glob := range []string{"seeds/*.txt", "*.md"} {
		paths, _ := filepath.Glob(filepath.Join(refDir, glob))
		refs = append(refs, paths...)
	}
	if len(refs) < 3 {
		t.Fatalf("the reference folder %s holds %d documents, want the seeds and the fact sheet", refDir, len(refs))
	}
	shingles := map[string]string{}
	for _, p := range refs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		w := words(string(b))
		for i := 0; i+shingleWords <= len(w); i++ {
			shingles[strings.Join(w[i:i+shingleWords], " ")] = filepath.Base(p)
		}
	}
	for _, l := range c.Lessons {
		if n := len(l.FAQ); n < 2 || n > 3 {
			t.Errorf("%s has %d FAQ entries, want 2 or 3", l.File, n)
		}
		for _, f := range l.FAQ {
			w := words(f.Question + " " + htmlTag.ReplaceAllString(string(f.Answer), ""))
			for i := 0; i+shingleWords <= len(w); i++ {
				run := strings.Join(w[i:i+shingleWords], " ")
				if ref, ok := shingles[run]; ok {
					t.Errorf("%s:%d: the FAQ copies %q from %s", l.File, f.Line, run, ref)
				}
			}
		}
	}
}
