package lessons

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// lessonWith is a lesson whose body holds block, starting on line 10.
func lessonWith(block string) string {
	return "---\ntitle: T\nslug: t\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\n" + block + "\n\n## Key takeaways\n- x\n"
}

// kindsBlock is a valid classify block whose fence is on line 10 of
// lessonWith; item text is on line 19.
const kindsBlock = "```classify\n" + `id: k
prompt: Which?
categories:
  - id: a
    label: A
  - id: b
    label: B
items:
  - id: one
    text: One
    answer: a
    explanation: Because.
` + "```"

// TestYAMLMistakes checks that a YAML mistake is reported once, on the
// line of the file where it is, in plain words with the fix, and without
// the parser's own line number or words.
func TestYAMLMistakes(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		at     string // "file:line: " the problem starts with
		plain  string // words the message holds
		parser string // the parser's words the message must not hold
	}{
		{"item key indented one space short", lessonWith(strings.Replace(kindsBlock, "    text: One", "   text: One", 1)),
			"01-t.md:20: ", `start every item of a list with "- " at the same indentation`, "did not find expected"},
		{"a key indented too far", lessonWith(strings.Replace(kindsBlock, "    answer: a", "      answer: a", 1)),
			"01-t.md:21: ", `": "`, "mapping values are not allowed"},
		{"a tab", lessonWith(strings.Replace(kindsBlock, "    answer: a", "\tanswer: a", 1)),
			"01-t.md:21: ", "spaces", "cannot start any token"},
		{"an unclosed quote", lessonWith(strings.Replace(kindsBlock, "prompt: Which?", `prompt: "Which?`, 1)),
			"01-t.md:12: ", "quoted value is not closed", "end of stream"},
		{"front matter", strings.Replace(lessonWith(kindsBlock), "\nminutes: 3", "\n minutes: 3", 1),
			"01-t.md:8: ", "bad front matter", "did not find expected"},
		{"course.yaml", "", "course.yaml:2: ", "not valid YAML", "line 2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"01-t.md": {Data: []byte(lessonWith(kindsBlock))}}
			if tt.src != "" {
				fsys["01-t.md"] = &fstest.MapFile{Data: []byte(tt.src)}
			} else {
				fsys["course.yaml"] = &fstest.MapFile{Data: []byte("title: T\n  brand: [x\n")}
			}
			_, err := Load(fsys)
			var ps Problems
			if !errors.As(err, &ps) || len(ps.Errors()) != 1 {
				t.Fatalf("want one problem, got %v", err)
			}
			got := ps.Errors()[0].String()
			if !strings.HasPrefix(got, tt.at) || !strings.Contains(got, tt.plain) || strings.Contains(got, tt.parser) {
				t.Errorf("got  %s\nwant it to start %q, hold %q and not %q", got, tt.at, tt.plain, tt.parser)
			}
			if yamlLineRef.MatchString(got) {
				t.Errorf("got %s: a second line number", got)
			}
		})
	}
}

// TestMisspeltBlocks checks which fenced block names are taken for a
// misspelt widget, and that the built-in course and guide have none.
func TestMisspeltBlocks(t *testing.T) {
	tests := []struct {
		info, want string
	}{
		{"clasify", "classify"}, {"classfy", "classify"}, {"clasiffy", "classify"}, {"Classify", "classify"},
		{"annotat", "annotate"}, {"anotate", "annotate"}, {"exercize", "exercise"}, {"excercise", "exercise"},
		{"quizz", "quiz"}, {"qiz", "quiz"}, {"Quiz", "quiz"}, {"faqs", "faq"}, {"fac", "faq"},
		// Not misspellings: the names themselves, words too far, and
		// languages the highlighter knows.
		{"classify", ""}, {"quiz", ""}, {"faq", ""}, {"clsfy", ""}, {"qu", ""}, {"fa", "faq"}, {"go", ""},
		{"json", ""}, {"python", ""}, {"text", ""}, {"exercises", "exercise"}, {"bash", ""}, {"c", ""},
	}
	for _, tt := range tests {
		got, _ := misspeltBlock(tt.info)
		if got != tt.want {
			t.Errorf("misspeltBlock(%q) = %q, want %q", tt.info, got, tt.want)
		}
	}
	_, err := Load(fstest.MapFS{"01-t.md": {Data: []byte(lessonWith(strings.Replace(kindsBlock, "```classify", "```clasify", 1)))}})
	if err == nil || !strings.Contains(err.Error(), `01-t.md:10: unknown block "clasify": did you mean "classify"?`) {
		t.Errorf("Load = %v, want the misspelt block on line 10", err)
	}
}

// TestLoadSound checks that a course with one broken lesson keeps the
// sound one, with every problem listed.
func TestLoadSound(t *testing.T) {
	broken := strings.Replace(lessonWith(kindsBlock), "slug: t\norder: 1", "slug: u\norder: 2", 1)
	broken = strings.Replace(broken, "```classify", "```quizz", 1)
	c, ps, err := LoadSound(fstest.MapFS{"01-t.md": {Data: []byte(lessonWith(kindsBlock))}, "02-u.md": {Data: []byte(broken)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lessons) != 1 || c.Lessons[0].File != "01-t.md" {
		t.Errorf("lessons = %v, want 01-t.md alone", c.Lessons)
	}
	if errs := ps.Errors(); len(errs) != 1 || errs[0].File != "02-u.md" {
		t.Errorf("errors = %v, want the one of 02-u.md", errs)
	}
	if _, err := Load(fstest.MapFS{"01-t.md": {Data: []byte(lessonWith(kindsBlock))}, "02-u.md": {Data: []byte(broken)}}); err == nil {
		t.Error("Load of a broken course gave no error")
	}
}
