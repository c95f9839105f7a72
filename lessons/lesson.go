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
// A course folder also holds course.yaml (see Info): the course's title,
// tagline, introduction, authors, licence and language. Without it the
// course loads with defaults and a warning.
//
// A faq block holds the author's questions and answers (see KindFAQ); it
// is taken out of the flow and shown first in the lesson's questions
// section. Headings, widgets and exercises are the lesson's Parts, which a
// learner's question can be tied to.
//
// Loading never stops at the first problem: Load returns every problem in
// the folder as Problems, each formatted "file:line: message". A problem is
// an error (the course does not load) or a warning (it loads, and learn
// check shows it): a lesson with no practice, a quiz with fewer than
// MinQuizQuestions questions, an image without alt text, a front-matter xp
// that differs from what the lesson earns, a missing course.yaml.
//
// # XP
//
// A lesson's XP is what its parts earn (EarnableXP): quiz.WidgetXP for each
// classify and annotate widget's first fully correct check, the quiz's xp
// (default quiz.DefaultQuizXP) on its first pass, and each exercise's xp
// (default DefaultExerciseXP) on its first passing submission. Pages show
// that sum; a front-matter xp is only checked against it.
package lessons

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"

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
	// FAQ is the author's questions and answers (the faq block), shown
	// first in the lesson's questions section; nil when there is none.
	FAQ []FAQ
	// FAQSource is the faq block as written, fences included ("" without
	// one), for the authoring guide.
	FAQSource string
	// Parts are the headings, widgets and exercises a learner's question
	// can be tied to, in reading order.
	Parts []Part
	// Sources are the documents the lesson teaches from (the front
	// matter's sources), listed at its end; nil when it names none.
	Sources []Source
}

// Source is a document a lesson teaches from: a title and its public
// address, from the front matter:
//
//	sources:
//	  - title: "MCP specification 2026-07-28: Tools"
//	    url: https://modelcontextprotocol.io/specification/2026-07-28/server/tools
type Source struct {
	Title string `yaml:"title"`
	URL   string `yaml:"url"`
}

// problems says what is wrong with the source: it needs a title and an
// absolute http or https address with a host.
func (s Source) problems() []string {
	var ps []string
	if strings.TrimSpace(s.Title) == "" {
		ps = append(ps, `has no title: name the document, such as "title: MCP specification: Tools"`)
	}
	u, err := url.Parse(strings.TrimSpace(s.URL))
	switch {
	case strings.TrimSpace(s.URL) == "":
		ps = append(ps, "has no url: give the document's public address, such as \"url: https://modelcontextprotocol.io/specification/2026-07-28/server/tools\"")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || s.URL != strings.TrimSpace(s.URL):
		ps = append(ps, fmt.Sprintf("url %q is not an http or https address: write it whole, such as \"https://modelcontextprotocol.io/…\"", s.URL))
	}
	return ps
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
	// Source is the block as the author wrote it, fences included.
	Source string
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

// Course is a loaded course: its description and its lessons in order.
type Course struct {
	Info    Info
	Lessons []*Lesson
	// Warnings are the problems the course loaded with.
	Warnings Problems
	bySlug   map[string]int
	// assets are the images and downloads the lessons use, by URL path.
	assets map[string]*Asset
}

// EarnableXP is the XP a learner can earn in the lesson: quiz.WidgetXP for
// each classify and annotate widget, the quiz's XPValue and each
// exercise's XPValue. Review XP is earned later and is not counted.
func (l *Lesson) EarnableXP() int {
	total := 0
	for _, part := range l.xpParts() {
		total += part.xp
	}
	return total
}

type xpPart struct {
	what string
	xp   int
}

// xpParts lists what earns XP in the lesson, in reading order.
func (l *Lesson) xpParts() []xpPart {
	var parts []xpPart
	for _, s := range l.Segments {
		w := s.Widget
		switch {
		case w == nil:
		case w.Exercise != nil:
			parts = append(parts, xpPart{"exercise " + w.ID, w.Exercise.XPValue()})
		case w.Kind == quiz.KindQuiz:
			if q, ok := w.Value.(*quiz.Quiz); ok {
				parts = append(parts, xpPart{"the quiz", q.XPValue()})
			}
		default:
			parts = append(parts, xpPart{w.Kind + " " + w.ID, quiz.WidgetXP})
		}
	}
	return parts
}

// xpBreakdown says where the lesson's XP comes from, such as
// "classify kinds 5 + the quiz 50".
func (l *Lesson) xpBreakdown() string {
	parts := l.xpParts()
	if len(parts) == 0 {
		return "nothing in it earns XP"
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = fmt.Sprintf("%s %d", p.what, p.xp)
	}
	return strings.Join(out, " + ")
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
