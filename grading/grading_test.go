package grading

import (
	"testing"

	"learn/lessons"
	"learn/quiz"
	"learn/sandbox"
)

func TestCompileBuiltInCourse(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	book, err := Compile(course)
	if err != nil {
		t.Fatal(err)
	}
	var exercises []*lessons.Exercise
	for _, l := range course.Lessons {
		exercises = append(exercises, l.Exercises()...)
	}
	if len(exercises) == 0 {
		t.Fatal("the built-in course has no exercises")
	}
	for _, ex := range exercises {
		p, ok := book.Plan(ex.ID)
		if !ok || p.Exercise != ex {
			t.Errorf("Plan(%q) does not find its plan", ex.ID)
			continue
		}
		if p.MCP() != (ex.MCP != nil) {
			t.Errorf("%s: MCP() = %v", ex.ID, p.MCP())
			continue
		}
		if p.MCP() {
			if len(p.MCPCalls(Run)) != len(ex.MCP.SampleCalls()) || len(p.MCPCalls(Submit)) != len(ex.MCP.Calls) {
				t.Errorf("%s: %d run and %d submit calls, want %d and %d", ex.ID, len(p.MCPCalls(Run)), len(p.MCPCalls(Submit)),
					len(ex.MCP.SampleCalls()), len(ex.MCP.Calls))
			}
			for _, c := range p.MCPCalls(Run) {
				if c.Hidden {
					t.Errorf("%s: Run sends hidden call %q", ex.ID, c.Name)
				}
			}
			continue
		}
		if len(p.sample) != len(ex.Samples) || len(p.all) != len(ex.Samples)+len(ex.Hidden) {
			t.Errorf("%s: %d sample and %d cases, want %d and %d", ex.ID, len(p.sample), len(p.all), len(ex.Samples), len(ex.Samples)+len(ex.Hidden))
		}
		for i, c := range p.all {
			if c.Hidden != (i >= len(ex.Samples)) {
				t.Errorf("%s: case %d (%s) hidden = %v", ex.ID, i, c.Name, c.Hidden)
			}
		}
	}
}

func TestNewPlanRejectsUnknownComparison(t *testing.T) {
	if _, err := NewPlan(&lessons.Exercise{ID: "x", Compare: "fuzzy"}); err == nil {
		t.Error("a plan with comparison \"fuzzy\" was built")
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"submit": Submit, "run": Run, "": Run, "SUBMIT": Run, "other": Run} {
		if got := ParseMode(in); got != want {
			t.Errorf("ParseMode(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHintDefaultsAgree holds the sandbox's defaults for unset annotation
// hints (which judge a learner's tools/list) equal to the quiz's (which
// the lessons teach and the annotate widgets grade), hint by hint.
func TestHintDefaultsAgree(t *testing.T) {
	for _, h := range quiz.AllHints() {
		got, known := sandbox.HintDefault(string(h))
		if !known {
			t.Errorf("the sandbox knows no default for %s", h)
			continue
		}
		if got != h.Default() {
			t.Errorf("%s: the sandbox assumes %v when unset, the quiz teaches %v", h, got, h.Default())
		}
	}
	if _, known := sandbox.HintDefault("noSuchHint"); known {
		t.Error("the sandbox claims a default for a hint MCP does not define")
	}
}
