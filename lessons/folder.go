package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Limits on what a course folder may hold, so that a mistaken or hostile
// file cannot stall the server that loads it: the size of one file, and
// how deeply markdown may nest (each quote or list level multiplies the
// renderer's work).
const (
	// MaxLessonBytes is the largest lesson file: seven times the largest
	// built-in lesson.
	MaxLessonBytes = 256 << 10
	// MaxInfoBytes is the largest course.yaml.
	MaxInfoBytes = 64 << 10
	// MaxNesting is how many quotes and list levels deep a lesson's
	// markdown may nest, outside fenced code.
	MaxNesting = 16
)

// OpenFolder opens a course folder for Load. Every file is read through an
// os.Root, so a symbolic link or a ".." that leads out of the folder is an
// error naming the file, and nothing outside is ever read. Close the
// returned closer when the course is loaded.
//
// Errors: the folder is missing, is not a folder, or cannot be opened;
// the message says which and what to give instead.
func OpenFolder(dir string) (fs.FS, io.Closer, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("lessons: the course folder %s does not exist: give the folder that holds course.yaml and the lesson .md files", dir)
	case err != nil:
		return nil, nil, fmt.Errorf("lessons: open the course folder %s: %w", dir, err)
	case !st.IsDir():
		return nil, nil, fmt.Errorf("lessons: %s is a file, not a folder: give the folder that holds course.yaml and the lesson .md files", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("lessons: open the course folder %s: %w", dir, err)
	}
	return root.FS(), root, nil
}

// readCapped reads a file of the course that may hold at most max bytes.
// A larger one is a problem naming the limit, read no further.
func readCapped(fsys fs.FS, name string, max int64) ([]byte, *Problem) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, &Problem{File: name, Message: fmt.Sprintf("cannot read the file: %v", err)}
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &Problem{File: name, Message: fmt.Sprintf("cannot read the file: %v", err)}
	}
	if int64(len(src)) > max {
		return nil, &Problem{File: name, Message: fmt.Sprintf("the file is larger than %d KiB, the limit for one file: split it into shorter lessons", max>>10)}
	}
	return src, nil
}

// nestingProblem finds the first line of a lesson whose markdown nests
// deeper than MaxNesting: block quotes and list items opened on the line
// (such as "> > -" or "- - -"), plus the levels its indentation opens
// (two columns each), outside fenced code blocks. line is the file's line
// of src's first line.
func nestingProblem(name string, src []byte, line int) *Problem {
	fence := ""
	for i, raw := range bytes.Split(src, []byte("\n")) {
		l := strings.TrimRight(string(raw), "\r")
		trimmed := strings.TrimLeft(l, " \t")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if depth := nesting(l); depth > MaxNesting {
			return &Problem{File: name, Line: line + i, Message: fmt.Sprintf("the markdown nests %d levels deep (quotes and lists), more than the %d allowed: flatten it", depth, MaxNesting)}
		}
	}
	return nil
}

// nesting counts the container levels one line opens: two columns of
// indentation each, then each quote marker or list marker in a row.
func nesting(l string) int {
	depth, col, i := 0, 0, 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		if l[i] == '\t' {
			col += 4
		} else {
			col++
		}
		i++
	}
	depth += col / 2
	for i < len(l) {
		switch {
		case l[i] == '>':
			i++
		case (l[i] == '-' || l[i] == '*' || l[i] == '+') && i+1 < len(l) && (l[i+1] == ' ' || l[i+1] == '\t'):
			i += 2
		case l[i] >= '0' && l[i] <= '9':
			j := i
			for j < len(l) && j-i < 9 && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j+1 < len(l) && (l[j] == '.' || l[j] == ')') && (l[j+1] == ' ' || l[j+1] == '\t') {
				i = j + 2
			} else {
				return depth
			}
		default:
			return depth
		}
		depth++
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
	}
	return depth
}
