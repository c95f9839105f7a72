package lessons

import (
	"fmt"
	"strings"
)

// Severity says whether a problem stops a course from loading.
type Severity string

// Severities. The zero Severity is an error, so a Problem built without one
// stops the course.
const (
	// SeverityError is a problem that stops the course from loading; learn
	// check fails on it.
	SeverityError Severity = "error"
	// SeverityWarning is a problem the course loads with: learn check
	// shows it and fails on it only with --strict.
	SeverityWarning Severity = "warning"
)

// Problem is one thing wrong with a course folder, found while loading it.
// Message says what is wrong and what a valid value looks like.
type Problem struct {
	File    string
	Line    int // 1-based; 0 when the problem is not tied to a line
	Column  int // 1-based; 0 when not known
	Message string
	// Detail, when set, is text shown on lines of its own below the
	// message, such as each case's expected and actual output as a diff.
	Detail string
	// Severity is SeverityError when empty.
	Severity Severity
}

// Level returns the problem's severity, SeverityError when it is unset.
func (p Problem) Level() Severity {
	if p.Severity == "" {
		return SeverityError
	}
	return p.Severity
}

// IsWarning reports whether the problem is only a warning.
func (p Problem) IsWarning() bool { return p.Level() == SeverityWarning }

// String formats the problem as "file:line:column: message" (line and
// column when known), the form editors and terminals link to. A warning's
// message starts with "warning: ". The detail follows on lines indented by
// four spaces.
func (p Problem) String() string {
	where := p.File
	if p.Line > 0 {
		where += fmt.Sprintf(":%d", p.Line)
		if p.Column > 0 {
			where += fmt.Sprintf(":%d", p.Column)
		}
	}
	msg := p.Message
	if p.IsWarning() {
		msg = "warning: " + msg
	}
	if d := strings.TrimRight(p.Detail, "\n"); d != "" {
		msg += "\n    " + strings.ReplaceAll(d, "\n", "\n    ")
	}
	return where + ": " + msg
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

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if !p.IsWarning() {
			out = append(out, p)
		}
	}
	return out
}

// Warnings returns the problems that are warnings.
func (ps Problems) Warnings() Problems {
	var out Problems
	for _, p := range ps {
		if p.IsWarning() {
			out = append(out, p)
		}
	}
	return out
}

// warning returns a warning problem.
func warning(file string, line int, format string, args ...any) Problem {
	return Problem{File: file, Line: line, Message: fmt.Sprintf(format, args...), Severity: SeverityWarning}
}
