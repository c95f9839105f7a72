package sandbox

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the longest-common-subsequence table; past it Diff
// pairs lines by position instead.
const maxDiffCells = 1 << 22

// maxDiffLines bounds the lines a diff shows.
const maxDiffLines = 200

// Diff returns a line diff from expected to actual: "  " marks a line both
// have, "- " a line only expected has, "+ " a line only actual has. It
// returns "" when they are equal.
func Diff(expected, actual string) string {
	if expected == actual {
		return ""
	}
	e := splitLines(expected)
	a := splitLines(actual)
	var ops []string
	if (len(e)+1)*(len(a)+1) <= maxDiffCells {
		ops = lcsDiff(e, a)
	} else {
		ops = positionalDiff(e, a)
	}
	if len(ops) > maxDiffLines {
		more := len(ops) - maxDiffLines
		ops = append(ops[:maxDiffLines], fmt.Sprintf("… %d more lines", more))
	}
	return strings.Join(ops, "\n") + "\n"
}

// splitLines splits s into lines. A final newline does not make an empty
// last line, but its absence is shown when it is the only difference.
func splitLines(s string) []line {
	if s == "" {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	lines := make([]line, len(parts))
	for i, p := range parts {
		lines[i] = line{text: p}
	}
	lines[len(lines)-1].noEOL = !strings.HasSuffix(s, "\n")
	return lines
}

// line is one line of output; noEOL marks a last line without "\n".
type line struct {
	text  string
	noEOL bool
}

func lcsDiff(e, a []line) []string {
	n, m := len(e), len(a)
	// t[i][j] = length of the LCS of e[i:] and a[j:].
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if e[i] == a[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var ops []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && e[i] == a[j]:
			ops = append(ops, "  "+show(e[i]))
			i++
			j++
		case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, "- "+show(e[i]))
			i++
		default:
			ops = append(ops, "+ "+show(a[j]))
			j++
		}
	}
	return ops
}

func positionalDiff(e, a []line) []string {
	var ops []string
	for i := 0; i < max(len(e), len(a)); i++ {
		switch {
		case i < len(e) && i < len(a) && e[i] == a[i]:
			ops = append(ops, "  "+show(e[i]))
		default:
			if i < len(e) {
				ops = append(ops, "- "+show(e[i]))
			}
			if i < len(a) {
				ops = append(ops, "+ "+show(a[i]))
			}
		}
	}
	return ops
}

// show makes the end of a line visible where whitespace is the difference.
func show(l line) string {
	s := l.text
	if t := strings.TrimRight(s, " \t\r"); t != s {
		s = t + strings.NewReplacer(" ", "·", "\t", "→", "\r", "\\r").Replace(s[len(t):])
	}
	if l.noEOL {
		s += "  (no newline at end)"
	}
	return s
}
