package lessons

import (
	"strings"

	"github.com/alecthomas/chroma/v2/lexers"

	"learn/quiz"
)

// blockNames are the names of the blocks a lesson may hold, each with the
// most edits (letters added, removed or changed) a misspelling of it may
// have: short names fewer, so that ordinary words stay code blocks.
var blockNames = []struct {
	name  string
	edits int
}{
	{quiz.KindQuiz, 1}, {KindFAQ, 1},
	{quiz.KindClassify, 2}, {quiz.KindAnnotate, 2}, {KindExercise, 2},
}

// misspeltBlock returns the block name info is a misspelling of: one
// within that name's edits, ignoring case, that is not a language the
// highlighter knows (so "json" or "toml" stay code).
func misspeltBlock(info string) (string, bool) {
	lower := strings.ToLower(info)
	for _, b := range blockNames {
		if info == b.name || editDistance(lower, b.name) > b.edits {
			continue
		}
		if lexers.Get(info) != nil {
			return "", false
		}
		return b.name, true
	}
	return "", false
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
