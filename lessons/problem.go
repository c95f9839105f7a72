package lessons

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a course folder, found while loading it.
// Message says what is wrong and what a valid value looks like.
type Problem struct {
	File    string
	Line    int // 1-based; 0 when the problem is not tied to a line
	Message string
}

// String formats the problem as "file:line: message", the form editors and
// terminals link to.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

// Problems is every problem found in a course. As an error it lists them one
// per line.
type Problems []Problem

// Error implements error.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}
