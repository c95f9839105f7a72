package progress

import (
	"slices"
	"testing"

	"learn/quiz"
)

func TestPostedOrder(t *testing.T) {
	q := &quiz.Quiz{Questions: []quiz.Question{{ID: "a"}, {ID: "b"}, {ID: "c"}}}
	tests := []struct {
		posted string
		want   []int
		ok     bool
	}{
		{"c,a,b", []int{2, 0, 1}, true},
		{"a,b,c", []int{0, 1, 2}, true},
		{"", nil, false},
		{"a,b", nil, false},
		{"a,a,b", nil, false},
		{"a,b,x", nil, false},
	}
	for _, tt := range tests {
		got, ok := postedOrder(q, tt.posted)
		if ok != tt.ok || (ok && !slices.Equal(got, tt.want)) {
			t.Errorf("postedOrder(%q) = %v, %v; want %v, %v", tt.posted, got, ok, tt.want, tt.ok)
		}
	}
}
