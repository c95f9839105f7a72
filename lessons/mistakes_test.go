package lessons

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"learn/quiz"
)

// camelAttribute is a read of a camelCase hint as an attribute of
// tool.annotations, which SDK v2 does not have (attributes are snake_case).
var camelAttribute = regexp.MustCompile(`annotations\.(readOnlyHint|destructiveHint|idempotentHint|openWorldHint|title\b)`)

// paramsWords mark a failure about the params of a proper request.
var paramsWords = regexp.MustCompile(`(?i)(no tool name|no name|without a name|tools/call needs|params (hold|have|lack|without)|_meta)`)

// TestCourseAvoidsOldMistakes fails on each mistake a close reading once
// found in the course, wherever a test can see it.
func TestCourseAvoidsOldMistakes(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatalf("load the built-in course:\n%v", err)
	}
	for _, l := range c.Lessons {
		src, err := fs.ReadFile(BuiltIn(), l.File)
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		t.Run(l.Slug, func(t *testing.T) {
			for _, s := range l.Segments {
				if s.Widget == nil {
					continue
				}
				if ex := s.Widget.Exercise; ex != nil {
					for what, code := range map[string]string{"starter": ex.Starter, "solution": ex.Solution} {
						if m := camelAttribute.FindString(code); m != "" {
							t.Errorf("exercise %s: the %s reads %q; SDK v2 attributes are snake_case (read_only_hint, …)", ex.ID, what, m)
						}
					}
					for _, cs := range append(append([]ExerciseCase(nil), ex.Samples...), ex.Hidden...) {
						if strings.Contains(cs.Expected, "-32600") && paramsWords.MatchString(cs.Stdin+cs.Expected) {
							t.Errorf("exercise %s case %q expects -32600 for params that do not fit; that is -32602", ex.ID, cs.Name)
						}
					}
				}
				for _, item := range classifyItems(s.Widget.Value) {
					if strings.Contains(item.label, "-32600") && paramsWords.MatchString(item.text) {
						t.Errorf("%s: %q is keyed %q; params that do not fit a proper request are -32602", s.Widget.ID, item.text, item.label)
					}
				}
			}
			for _, bad := range []struct{ re, why string }{
				{`(?i)(person|human)[^.\n]*must (always )?be able to (refuse|deny|say no)`, "the human in the loop is a SHOULD, not a MUST"},
				{`(?i)a person must always`, "the human in the loop is a SHOULD, not a MUST"},
				{`(?i)can inform a decision but`, "serverInfo and clientInfo SHOULD NOT be relied on for security decisions"},
				{`(?i)holds four yes-or-no hints`, "annotations have five members: title and four hints"},
				{`(?i)schema gives it a default`, "the schema has no default keyword for the hints"},
				{`(?i)safety decision[^.\n]*on (annotations|them) alone`, "the rule is: treat annotations from an untrusted server as untrusted"},
				{`"requiredCapabilities": \{\s*"sampling"`, "sampling is deprecated in 2026-07-28"},
				{`(?i)will fail the same way\.`, "a resend of a transient failure may succeed"},
				{`(?i)had to fail the request with an error`, "in 2025-11-25 a server MAY return -32042; it could also send a URL-mode request"},
			} {
				if m := regexp.MustCompile(bad.re).FindString(text); m != "" {
					t.Errorf("%s says %q: %s", l.File, m, bad.why)
				}
			}
		})
	}
}

type keyedItem struct{ text, label string }

// classifyItems returns every classify item of a widget or quiz with the
// label of its answer.
func classifyItems(w quiz.Widget) []keyedItem {
	var out []keyedItem
	label := func(cats []quiz.Category, id string) string {
		for _, c := range cats {
			if c.ID == id {
				return c.Label
			}
		}
		return ""
	}
	switch x := w.(type) {
	case *quiz.Classify:
		for _, it := range x.Items {
			out = append(out, keyedItem{it.Text, label(x.Categories, it.Answer)})
		}
	case *quiz.Quiz:
		for i := range x.Questions {
			for v := 0; v < x.Questions[i].VariantCount(); v++ {
				qn := x.Questions[i].VariantAt(v)
				if qn.Kind == quiz.QuestionClassify {
					out = append(out, keyedItem{qn.Text, label(qn.Categories, qn.Answer)})
				}
				for _, o := range qn.Options {
					if o.Correct {
						out = append(out, keyedItem{qn.Prompt, o.Text})
					}
				}
			}
		}
	}
	return out
}

// TestCoursePracticeAndQuizzes checks that every lesson has a graded
// exercise, puts its takeaways before the quiz, says what passing gives,
// and gives at least half of its quiz slots a second variant with options
// drawn in a new order per attempt.
func TestCoursePracticeAndQuizzes(t *testing.T) {
	c, err := Load(BuiltIn())
	if err != nil {
		t.Fatalf("load the built-in course:\n%v", err)
	}
	for _, l := range c.Lessons {
		t.Run(l.Slug, func(t *testing.T) {
			exercises, quizAt := 0, -1
			for i, s := range l.Segments {
				if s.Widget != nil && s.Widget.Exercise != nil {
					exercises++
				}
				if s.Widget != nil && s.Widget.Kind == quiz.KindQuiz {
					quizAt = i
				}
			}
			if exercises == 0 {
				t.Error("no graded exercise")
			}
			if quizAt < 0 {
				t.Fatal("no quiz")
			}
			if l.TakeawaysAt > quizAt {
				t.Errorf("the takeaways come after the quiz (segment %d, quiz at %d)", l.TakeawaysAt, quizAt)
			}
			intro := ""
			if quizAt > 0 {
				intro = string(l.Segments[quizAt-1].HTML)
			}
			if !strings.Contains(intro, "XP") || !strings.Contains(intro, "review") {
				t.Errorf("the text before the quiz does not say what passing gives (XP) and that missed questions come back in review: %q", intro)
			}
			q, _ := l.Quiz()
			withVariants := 0
			for i := range q.Questions {
				if q.Questions[i].VariantCount() > 1 {
					withVariants++
				}
			}
			if 2*withVariants < len(q.Questions) {
				t.Errorf("%d of %d questions have a second variant, want at least half", withVariants, len(q.Questions))
			}
			if !q.ShuffleOptions {
				t.Error("the quiz does not shuffle options between attempts")
			}
			first, second := quiz.DrawFor(q, "content-test", 1), quiz.DrawFor(q, "content-test", 2)
			if fmt.Sprint(first.Variants) == fmt.Sprint(second.Variants) {
				t.Error("a retry shows the same variants")
			}
		})
	}
}
