// Package lessons is the course model: lessons written as markdown files with
// YAML front matter, rendered once when the course loads.
//
// A lesson file looks like this:
//
//	---
//	title: Two ways a tool call fails
//	slug: two-ways-to-fail
//	order: 1
//	summary: One sentence for the course home page.
//	objectives:
//	  - Tell a protocol error from a tool execution error
//	minutes: 12
//	xp: 50
//	---
//	Intro paragraph…
//
//	## A section
//	…
//	## Key takeaways
//	- …
//
// The body is CommonMark with GitHub tables. Headings get ids and a
// self-link. Fenced code is highlighted by chroma with CSS classes; the
// words after the language in the info string are flags: "linenos" numbers
// the lines, and on a json block "mcp=Name" marks it as an MCP message that
// must validate against the schema definition Name (tests check every one).
// The last "## Key takeaways" section is taken out of the flow and shown in
// its own box, at the place it was written (see Lesson.TakeawaysAt); a
// lesson puts it before its quiz, so a learner reads the summary first.
//
// A fenced block whose info string names a widget (classify, annotate,
// quiz, exercise) is an interactive part; its body is YAML. A widget the
// server does not implement is a Problem naming the file, line and widget,
// never silently dropped.
//
// Loading never stops at the first problem: Load returns every problem in
// the folder as Problems, each formatted "file:line: message".
package lessons

import (
	"html/template"

	"learn/quiz"
)

// Lesson is one rendered lesson.
type Lesson struct {
	Title      string
	Slug       string
	Order      int
	Summary    string
	Objectives []string
	Minutes    int
	XP         int

	// File is the lesson's path inside the course folder.
	File string
	// Segments is the rendered body in reading order: HTML and widgets.
	Segments []Segment
	// Takeaways is the rendered "Key takeaways" section, without its heading.
	Takeaways template.HTML
	// TakeawaysAt is where the takeaways box stands in the reading order:
	// the number of Segments the author wrote before the "Key takeaways"
	// heading. It is len(Segments) when the section ends the lesson; the
	// built-in course puts it before the quiz, so a page shows Segments[:i],
	// the box, then Segments[i:].
	TakeawaysAt int
	// Examples are the fenced code blocks, for content tests and checks.
	Examples []CodeExample
}

// Segment is one piece of a lesson body: either rendered HTML or a widget.
type Segment struct {
	HTML   template.HTML
	Widget *Widget
}

// Widget is an interactive block of a lesson.
type Widget struct {
	Kind string // the fence's info string: classify, annotate, quiz or exercise
	ID   string // the block's id, unique in its lesson
	Line int    // line of the opening fence in the lesson file
	// Value is the decoded quiz block: *quiz.Classify, *quiz.Annotate or
	// *quiz.Quiz, by Kind; nil for an exercise.
	Value quiz.Widget
	// Exercise is the decoded exercise block; nil for the others.
	Exercise *Exercise
}

// CodeExample is one fenced code block of a lesson.
type CodeExample struct {
	Language string
	// Schema is the MCP schema definition the block must validate against
	// (from "mcp=Name" in the info string), or "" when it is not marked.
	Schema string
	Code   string
	Line   int
}

// Course is a loaded course: its lessons in order.
type Course struct {
	Lessons []*Lesson
	bySlug  map[string]int
}

// Lesson returns the lesson with this slug.
func (c *Course) Lesson(slug string) (*Lesson, bool) {
	i, ok := c.bySlug[slug]
	if !ok {
		return nil, false
	}
	return c.Lessons[i], true
}

// Neighbours returns the lessons before and after the one with this slug;
// either is nil at the ends of the course.
func (c *Course) Neighbours(slug string) (prev, next *Lesson) {
	i, ok := c.bySlug[slug]
	if !ok {
		return nil, nil
	}
	if i > 0 {
		prev = c.Lessons[i-1]
	}
	if i+1 < len(c.Lessons) {
		next = c.Lessons[i+1]
	}
	return prev, next
}

// Number returns the lesson's 1-based position in the course, or 0.
func (c *Course) Number(slug string) int {
	i, ok := c.bySlug[slug]
	if !ok {
		return 0
	}
	return i + 1
}
