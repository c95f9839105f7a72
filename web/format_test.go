package web

import (
	"testing"
	"time"
)

func TestPlural(t *testing.T) {
	tests := []struct {
		n         int
		one, many string
		want      string
	}{
		{0, "lesson", "lessons", "0 lessons"},
		{1, "lesson", "lessons", "1 lesson"},
		{2, "lesson", "lessons", "2 lessons"},
		{0, "activity", "activities", "0 activities"},
		{1, "activity", "activities", "1 activity"},
		{2, "activity", "activities", "2 activities"},
		{0, "quiz", "quizzes", "0 quizzes"},
		{1, "quiz", "quizzes", "1 quiz"},
		{2, "quiz", "quizzes", "2 quizzes"},
	}
	for _, tt := range tests {
		if got := Plural(tt.n, tt.one, tt.many); got != tt.want {
			t.Errorf("Plural(%d, %q, %q) = %q, want %q", tt.n, tt.one, tt.many, got, tt.want)
		}
	}
}

// TestCountsOnPages renders each count the pages show at 0, 1 and 2.
func TestCountsOnPages(t *testing.T) {
	tests := []struct {
		name string
		say  func(n int) string
		want [3]string
	}{
		{"hidden cases", func(n int) string { return hiddenNote(n, "case", "cases") },
			[3]string{"no hidden cases", "plus 1 hidden case on submit", "plus 2 hidden cases on submit"}},
		{"hidden calls", func(n int) string { return hiddenNote(n, "call", "calls") },
			[3]string{"no hidden calls", "plus 1 hidden call on submit", "plus 2 hidden calls on submit"}},
		{"days", func(n int) string { return dayWord(n) }, [3]string{"days", "day", "days"}},
		{"activities", func(n int) string { return Plural(n, "activity", "activities") },
			[3]string{"0 activities", "1 activity", "2 activities"}},
		{"minutes", func(n int) string { return untilText(time.Duration(n) * time.Minute) },
			[3]string{"less than a minute", "1 minute", "2 minutes"}},
	}
	for _, tt := range tests {
		for n := 0; n <= 2; n++ {
			if got := tt.say(n); got != tt.want[n] {
				t.Errorf("%s at %d = %q, want %q", tt.name, n, got, tt.want[n])
			}
		}
	}
}
