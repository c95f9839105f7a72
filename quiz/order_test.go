package quiz

import (
	"fmt"
	"slices"
	"testing"
)

func quizOf(n int, shuffle bool) *Quiz {
	q := &Quiz{ID: "quiz", Shuffle: shuffle}
	for i := range n {
		q.Questions = append(q.Questions, Question{ID: fmt.Sprintf("q%d", i)})
	}
	return q
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name string
		q    *Quiz
		seed string
	}{
		{"no shuffle", quizOf(6, false), AttemptSeed("ada", 1)},
		{"shuffle six", quizOf(6, true), AttemptSeed("ada", 1)},
		{"shuffle one", quizOf(1, true), AttemptSeed("ada", 1)},
		{"shuffle none", quizOf(0, true), AttemptSeed("ada", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Order(tt.q, tt.seed)
			sorted := slices.Sorted(slices.Values(got))
			for i, v := range sorted {
				if v != i {
					t.Fatalf("%v is not a permutation of 0..%d", got, len(tt.q.Questions)-1)
				}
			}
			if again := Order(tt.q, tt.seed); !slices.Equal(got, again) {
				t.Errorf("same seed gave %v then %v", got, again)
			}
			if !tt.q.Shuffle && !slices.Equal(got, sorted) {
				t.Errorf("no shuffle gave %v", got)
			}
		})
	}
}

func TestOrderVariesByAttempt(t *testing.T) {
	q := quizOf(6, true)
	seen := map[string]bool{}
	for attempt := 1; attempt <= 20; attempt++ {
		seen[fmt.Sprint(Order(q, AttemptSeed("ada", attempt)))] = true
	}
	// 20 draws from 720 orders: at least 15 distinct is all but certain
	// and, the generator being deterministic, the same on every run.
	if len(seen) < 15 {
		t.Errorf("20 attempts gave only %d distinct orders", len(seen))
	}
	if slices.Equal(Order(q, AttemptSeed("ada", 1)), Order(q, AttemptSeed("bob", 1))) &&
		slices.Equal(Order(q, AttemptSeed("ada", 2)), Order(q, AttemptSeed("bob", 2))) {
		t.Error("two learners see the same orders")
	}
}

// TestOrderPinned pins one order so a change of algorithm, which would
// reorder the questions of attempts in progress, is noticed.
func TestOrderPinned(t *testing.T) {
	got := Order(quizOf(6, true), AttemptSeed("learner-1", 1))
	want := []int{5, 2, 1, 3, 4, 0}
	if !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v", got, want)
	}
}

func TestArrange(t *testing.T) {
	items := []string{"a", "b", "c"}
	tests := []struct {
		name  string
		order []int
		want  []string
	}{
		{"nil keeps order", nil, []string{"a", "b", "c"}},
		{"reversed", []int{2, 1, 0}, []string{"c", "b", "a"}},
		{"out of range skipped", []int{5, 0, -1}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Arrange(items, tt.order); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
