package lessons

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"go.yaml.in/yaml/v3"

	"learn/quiz"
)

// KindFAQ names the author's questions-and-answers block of a lesson.
//
// A lesson may hold one faq block; its body is YAML, a list of entries
// with a question (plain text) and an answer (markdown):
//
//	```faq
//	- question: Can a tool return both content and an error?
//	  answer: |
//	    Yes. Set `isError: true` and put the explanation in `content`.
//	```
//
// The entries are taken out of the flow (the block shows nothing where it
// stands) and shown first in the lesson's questions section.
const KindFAQ = "faq"

// FAQ limits: a short list of short entries.
const (
	maxFAQEntries     = 8
	maxFAQQuestionLen = 200
	maxFAQAnswerLen   = 2000
)

// FAQ is one question the author answers for every learner of a lesson.
type FAQ struct {
	Question string
	// Answer is the rendered markdown answer.
	Answer template.HTML
	// Line is the line of the entry in the lesson file.
	Line int
}

// Part is a place in a lesson a learner's question can be tied to: a
// heading, a widget or an exercise.
type Part struct {
	// Kind is "heading", "widget" or "exercise".
	Kind string
	// ID is the heading's anchor or the block's id.
	ID string
	// Title is what the page calls the part.
	Title string
}

// Key is how a post names the part: "kind:id".
func (p Part) Key() string { return p.Kind + ":" + p.ID }

// Part returns the lesson's part with this key ("kind:id").
func (l *Lesson) Part(key string) (Part, bool) {
	for _, p := range l.Parts {
		if p.Key() == key {
			return p, true
		}
	}
	return Part{}, false
}

// faqEntry is one entry of a faq block as written.
type faqEntry struct {
	Question string `yaml:"question"`
	Answer   string `yaml:"answer"`
}

// decodeFAQ decodes a faq block whose opening fence is on line of file,
// rendering each answer with the lesson renderer.
func (r *renderer) decodeFAQ(file string, body []byte, line int) ([]FAQ, []Problem) {
	example := "a faq block is a YAML list of entries, each with \"question:\" (one line of text) and \"answer:\" (markdown)"
	var node yaml.Node
	if err := yaml.Unmarshal(body, &node); err != nil {
		at, msg := yamlSyntax(body, err)
		return nil, []Problem{{File: file, Line: line + at, Message: fmt.Sprintf("the faq block is not valid YAML: %s; %s", msg, example)}}
	}
	if node.Kind != yaml.DocumentNode || len(node.Content) == 0 || node.Content[0].Kind != yaml.SequenceNode {
		return nil, []Problem{{File: file, Line: line + 1, Message: example}}
	}
	seq := node.Content[0]
	var ps []Problem
	if len(seq.Content) == 0 || len(seq.Content) > maxFAQEntries {
		ps = append(ps, Problem{File: file, Line: line + 1, Message: fmt.Sprintf("the faq block has %d entries; give 1 to %d", len(seq.Content), maxFAQEntries)})
	}
	var out []FAQ
	for i, item := range seq.Content {
		at := line + item.Line
		var e faqEntry
		if item.Kind != yaml.MappingNode {
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d: %s", i+1, example)})
			continue
		}
		for k := 0; k+1 < len(item.Content); k += 2 {
			if key := item.Content[k].Value; key != "question" && key != "answer" {
				ps = append(ps, Problem{File: file, Line: line + item.Content[k].Line, Message: fmt.Sprintf("faq entry %d: unknown field %q; %s", i+1, key, example)})
			}
		}
		if err := item.Decode(&e); err != nil {
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d: %s; %s", i+1, yamlErrorText(err, line), example)})
			continue
		}
		e.Question = strings.TrimSpace(e.Question)
		e.Answer = strings.TrimSpace(e.Answer)
		switch {
		case e.Question == "":
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d has no question: add \"question:\" with one line of text", i+1)})
			continue
		case strings.Contains(e.Question, "\n") || len(e.Question) > maxFAQQuestionLen:
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d: the question must be one line of at most %d characters", i+1, maxFAQQuestionLen)})
			continue
		case e.Answer == "":
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d (%q) has no answer: add \"answer: |\" with markdown below it", i+1, e.Question)})
			continue
		case len(e.Answer) > maxFAQAnswerLen:
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d: the answer is longer than %d bytes; keep it short and link to the lesson's sections", i+1, maxFAQAnswerLen)})
			continue
		}
		var html bytes.Buffer
		if err := r.md.Convert([]byte(e.Answer), &html); err != nil {
			ps = append(ps, Problem{File: file, Line: at, Message: fmt.Sprintf("faq entry %d: cannot render the answer: %v", i+1, err)})
			continue
		}
		out = append(out, FAQ{Question: e.Question, Answer: template.HTML(html.String()), Line: at})
	}
	return out, ps
}

// widgetPart returns the part a widget stands for.
func widgetPart(w *Widget) Part {
	if w.Exercise != nil {
		return Part{Kind: "exercise", ID: w.ID, Title: "Practice: " + w.Exercise.Title}
	}
	p := Part{Kind: "widget", ID: w.ID}
	switch v := w.Value.(type) {
	case *quiz.Classify:
		p.Title = "Try it: " + v.Prompt
	case *quiz.Annotate:
		p.Title = "Annotate the tools: " + v.Prompt
	default:
		p.Title = "Lesson quiz"
	}
	return p
}
