package quiz

import (
	"math"
	"testing"
)

func TestBlindPassOdds(t *testing.T) {
	single := func(n int) Question {
		q := Question{ID: "s", Kind: QuestionSingle}
		for range n {
			q.Options = append(q.Options, Option{ID: "o"})
		}
		return q
	}
	multiple := single(3)
	multiple.Kind = QuestionMultiple
	classify := Question{ID: "c", Kind: QuestionClassify, Categories: make([]Category, 3)}
	yes, no := true, false
	readOnlyTool := Question{ID: "a", Kind: QuestionAnnotate, Tool: &Tool{Hints: ToolHints{ReadOnly: &HintKey{Value: &yes}}}}
	writingTool := Question{ID: "a", Kind: QuestionAnnotate, Tool: &Tool{Hints: ToolHints{ReadOnly: &HintKey{Value: &no}}}}
	two := single(2)
	two.Variants = []Question{single(4)}
	pass := func(n int) *int { return &n }
	tests := []struct {
		name string
		quiz Quiz
		want float64
	}{
		{"one single of four", Quiz{Questions: []Question{single(4)}, Pass: pass(1)}, 0.25},
		{"both of two singles of two", Quiz{Questions: []Question{single(2), single(2)}, Pass: pass(2)}, 0.25},
		{"one of two singles of two", Quiz{Questions: []Question{single(2), single(2)}, Pass: pass(1)}, 0.75},
		{"a multiple of three: one of seven sets", Quiz{Questions: []Question{multiple}, Pass: pass(1)}, 1.0 / 7},
		{"a classify of three", Quiz{Questions: []Question{classify}, Pass: pass(1)}, 1.0 / 3},
		{"a read-only tool: two hints matter", Quiz{Questions: []Question{readOnlyTool}, Pass: pass(1)}, 0.25},
		{"a writing tool: four hints matter", Quiz{Questions: []Question{writingTool}, Pass: pass(1)}, 1.0 / 16},
		{"versions are averaged", Quiz{Questions: []Question{two}, Pass: pass(1)}, (0.5 + 0.25) / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.quiz.BlindPassOdds(); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("BlindPassOdds = %g, want %g", got, tt.want)
			}
		})
	}
}
