package lessons

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"learn/quiz"
)

// coverage lists, per lesson slug, terms the lesson that teaches them must
// mention: every code, hint, SDK exception and result type the course
// promises to teach.
var coverage = map[string][]string{
	"two-ways-to-fail": {"protocol error", "tool execution error", "isError", "MAY", "SHOULD", "2025-11-25", "SEP-1303", "-32602", "expired"},
	"json-rpc-error-object": {"code", "message", "data", "-32700", "-32600", "-32601", "-32602", "-32603",
		"-32020", "-32021", "-32022", "requiredCapabilities", "-32000", "-32001", "-32002", "-32042", "-32099", "-32019", "one concise sentence"},
	"errors-a-model-can-act-on": {"valid value", "stack trace", "token", "Same failure, same words", "loop"},
	"python-sdk-exceptions": {"ToolError", "MCPError", "INTERNAL_ERROR", "KeyError", "ValueError", "Unknown tool", "2.3.0", "2.0.0",
		"lookup_order", "smarter model", "Error executing tool", "MCPServer"},
	"tool-annotations": {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title", "untrusted", "default"},
	"security-duties":  {"MUST", "SHOULD", "validate", "rate", "sanitize", "confirmation", "deny", "prompt injection", "audit"},
	"designing-tools":  {"description", "idempotency key", "_meta", "resource_link", "output"},
	"results-beyond-text": {"text", "image", "audio", "resource_link", "resource", "structuredContent", "outputSchema",
		"resultType", "complete", "input_required", "task", "notifications/progress", "expire"},
}

// TestCourseContent checks that the built-in course is whole: eight or more
// lessons, each with objectives, takeaways, a widget or an exercise, a quiz
// of six or more questions with explanations on every option, and the
// terms its topic must cover.
func TestCourseContent(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatalf("load the built-in course:\n%v", err)
	}
	if len(c.Lessons) < 8 {
		t.Fatalf("the course has %d lessons, want at least 8", len(c.Lessons))
	}
	for slug := range coverage {
		if _, ok := c.Lesson(slug); !ok {
			t.Errorf("the course has no lesson %q", slug)
		}
	}
	for _, l := range c.Lessons {
		t.Run(l.Slug, func(t *testing.T) {
			if len(l.Objectives) == 0 || l.Minutes <= 0 {
				t.Error("no objectives or minutes")
			}
			if strings.Count(string(l.Takeaways), "<li>") < 3 {
				t.Error("fewer than three key takeaways")
			}
			q, ok := l.Quiz()
			if !ok {
				t.Fatal("no end-of-lesson quiz")
			}
			if len(q.Questions) < 6 {
				t.Errorf("the quiz has %d questions, want at least 6", len(q.Questions))
			}
			if q.PassMark() > len(q.Questions) {
				t.Errorf("pass mark %d above %d questions", q.PassMark(), len(q.Questions))
			}
			// Three blind attempts fit before the retry rule's first wait;
			// together they must pass with odds under one in a thousand.
			if odds := q.BlindPassOdds(); 3*odds >= 1e-3 {
				t.Errorf("a blind attempt passes the quiz with odds %.2g, three of them %.2g: raise the pass mark or give questions more choices", odds, 3*odds)
			}
			for _, qn := range q.Questions {
				for _, o := range qn.Options {
					if strings.TrimSpace(o.Explanation) == "" {
						t.Errorf("question %s option %s has no explanation", qn.ID, o.ID)
					}
				}
				if (qn.Kind == quiz.QuestionClassify || qn.Kind == quiz.QuestionAnnotate) && qn.Explanation == "" && qn.Tool == nil {
					t.Errorf("question %s has no explanation", qn.ID)
				}
			}
			practice := 0
			for _, s := range l.Segments {
				if s.Widget != nil && s.Widget.Kind != quiz.KindQuiz {
					practice++
				}
			}
			if practice == 0 {
				t.Error("no classify, annotate or exercise block to practise with")
			}
			src, err := fs.ReadFile(BuiltIn(), l.File)
			if err != nil {
				t.Fatal(err)
			}
			for _, term := range coverage[l.Slug] {
				if !bytes.Contains(src, []byte(term)) {
					t.Errorf("the lesson never mentions %q", term)
				}
			}
		})
	}
}

// courseExercises maps each exercise the course promises to the slug of the
// lesson that holds it.
var courseExercises = map[string]string{
	"report-a-failure":    "two-ways-to-fail",
	"build-the-response":  "json-rpc-error-object",
	"rewrite-the-message": "errors-a-model-can-act-on",
}

// mcpExercises are the playground exercises graded by the host's own MCP
// calls, and their lessons.
var mcpExercises = map[string]string{
	"lookup-order":     "python-sdk-exceptions",
	"which-exception":  "python-sdk-exceptions",
	"annotate-in-code": "tool-annotations",
}

// TestCourseExercises checks that each promised exercise is in its lesson
// with samples, at least five hidden cases and XP; that "Build the
// response" is graded as JSON against the MCP schema and "Rewrite the
// message" by checks on every case; and that no exercise draft is left in
// a comment.
func TestCourseExercises(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatalf("load the built-in course:\n%v", err)
	}
	for id, slug := range mcpExercises {
		t.Run(id, func(t *testing.T) {
			ex, l, ok := c.Exercise(id)
			if !ok {
				t.Fatalf("the course has no MCP exercise %q", id)
			}
			if l.Slug != slug {
				t.Errorf("exercise %s is in lesson %s, want %s", id, l.Slug, slug)
			}
			if ex.MCP == nil || len(ex.MCP.Calls) < 2 {
				t.Errorf("exercise %s is not graded by the host's MCP calls", id)
			}
		})
	}
	for id, slug := range courseExercises {
		t.Run(id, func(t *testing.T) {
			ex, l, ok := c.Exercise(id)
			if !ok {
				t.Fatalf("the course has no exercise %q", id)
			}
			if l.Slug != slug {
				t.Errorf("exercise %s is in lesson %s, want %s", id, l.Slug, slug)
			}
			if len(ex.Samples) == 0 || len(ex.Hidden) < 5 || ex.XPValue() <= 0 {
				t.Errorf("%d samples, %d hidden cases, %d XP; want samples, 5 or more hidden cases and XP", len(ex.Samples), len(ex.Hidden), ex.XPValue())
			}
			switch id {
			case "build-the-response":
				if ex.Comparison() != CompareJSON || ex.Schema != "JSONRPCResponse" {
					t.Errorf("compare %q schema %q, want json against JSONRPCResponse", ex.Comparison(), ex.Schema)
				}
			case "rewrite-the-message":
				for _, cs := range append(append([]ExerciseCase(nil), ex.Samples...), ex.Hidden...) {
					if cs.Checks == nil || len(cs.Checks.Contains) == 0 || cs.Checks.MaxLength == 0 || len(cs.Checks.NotContains) == 0 {
						t.Errorf("case %q is not graded by contains, max_length and not_contains checks: %+v", cs.Name, cs.Checks)
					}
				}
			}
		})
	}
	for _, l := range c.Lessons {
		src, err := fs.ReadFile(BuiltIn(), l.File)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte("<!-- exercise")) {
			t.Errorf("%s still holds an exercise draft in a comment", l.File)
		}
	}
}
