package progress

import (
	"testing"

	"learn/lessons"
)

// TestLMSScoreKeys: the keys a lesson's score sums are one per thing the
// lesson's earnable XP counts, each unique, so the score given reaches
// the score maximum exactly when everything is earned.
func TestLMSScoreKeys(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range course.Lessons {
		sc := lmsScore(l)
		parts := 0
		for _, seg := range l.Segments {
			if seg.Widget != nil && (seg.Widget.Exercise != nil || seg.Widget.Kind == "quiz" || seg.Widget.Kind == "classify" || seg.Widget.Kind == "annotate") {
				parts++
			}
		}
		seen := map[string]bool{}
		for _, k := range sc.AwardKeys {
			if seen[k] {
				t.Errorf("%s: the key %s is there twice", l.Slug, k)
			}
			seen[k] = true
		}
		if sc.LessonSlug != l.Slug || sc.Maximum != l.EarnableXP() || len(sc.AwardKeys) != parts || parts == 0 {
			t.Errorf("%s: %+v; want %d keys and maximum %d", l.Slug, sc, parts, l.EarnableXP())
		}
	}
}
