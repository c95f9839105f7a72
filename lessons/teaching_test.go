package lessons

import (
	"testing"

	"learn/quiz"
)

// TestCourseFeedbackTeaches: every wrong choice of every built-in classify
// item and question has a why_not, every hint that matters of every
// built-in tool a cue of its own, and every annotate block a thinking
// prompt, so feedback on a wrong answer always teaches something.
func TestCourseFeedbackTeaches(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatalf("load the built-in course:\n%v", err)
	}
	checked := 0
	for _, l := range c.Lessons {
		for _, seg := range l.Segments {
			if seg.Widget == nil {
				continue
			}
			var gaps []string
			switch x := seg.Widget.Value.(type) {
			case *quiz.Classify:
				gaps = x.MissingWhyNot()
				checked += len(x.Items)
			case *quiz.Annotate:
				gaps = x.MissingCues()
				checked += len(x.Tools)
				if x.Think == "" {
					t.Errorf("%s: annotate block %s has no thinking prompt (think:)", l.File, x.ID)
				}
			case *quiz.Quiz:
				gaps = append(x.MissingWhyNot(), x.MissingCues()...)
				checked += len(x.Questions)
			}
			for _, g := range gaps {
				t.Errorf("%s: block %s lacks a why_not or cue for %s", l.File, seg.Widget.ID, g)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no classify, annotate or quiz block was checked")
	}
}
