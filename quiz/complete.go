package quiz

import (
	"fmt"
	"strings"
)

// Unanswered names one item a post left without an answer: a quiz
// question, a classify item or an annotate tool. It holds only what the
// page already shows, so a refusal built from it reveals nothing.
type Unanswered struct {
	// ID is the id the form field carries: a quiz slot id, a classify
	// item id or an annotate tool name.
	ID string
	// Number is the 1-based position on the page.
	Number int
	// Title is how the page names the item: the question's prompt, the
	// item's text or the tool's name.
	Title string
	// Hints, for annotate, are the hints still to set.
	Hints []Hint
}

// IncompleteError refuses a post that does not answer every item. Its
// message names the unanswered items by number and title and says what to
// do; it holds no key and no explanation.
type IncompleteError struct {
	// Kind is the widget's kind: KindQuiz, KindClassify or KindAnnotate.
	Kind string
	// Items are the unanswered items in page order; never empty.
	Items []Unanswered
	// Total is the number of items the widget has.
	Total int
}

// Error returns a sentence such as "2 of 8 questions are not answered:
// question 3 (Which question best decides…) and question 6 (…). Answer
// every question, then check again."
func (e *IncompleteError) Error() string {
	noun := map[string]string{KindQuiz: "question", KindClassify: "item", KindAnnotate: "tool"}[e.Kind]
	if noun == "" {
		noun = "item"
	}
	var parts []string
	for _, u := range e.Items {
		p := fmt.Sprintf("%s %d (%s)", noun, u.Number, shorten(u.Title, 60))
		if len(u.Hints) > 0 {
			hs := make([]string, len(u.Hints))
			for i, h := range u.Hints {
				hs[i] = string(h)
			}
			p += ": " + strings.Join(hs, ", ")
		}
		parts = append(parts, p)
	}
	list := parts[0]
	if len(parts) > 1 {
		list = strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	verb := "is"
	if len(e.Items) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%d of %d %ss %s not answered: %s. Answer every %s, then check again.", len(e.Items), e.Total, noun, verb, list, noun)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// answered reports whether choices hold a non-empty choice.
func answered(choices []string) bool {
	for _, c := range choices {
		if c != "" {
			return true
		}
	}
	return false
}

// missingHints returns the hints a learner must still set on one tool:
// readOnlyHint and openWorldHint always; destructiveHint and idempotentHint
// unless the learner's own readOnlyHint answer is true, since they mean
// nothing for a read-only tool.
func missingHints(given map[Hint]bool) []Hint {
	var out []Hint
	ro, roSet := given[ReadOnlyHint]
	for _, h := range AllHints() {
		if _, ok := given[h]; ok {
			continue
		}
		if h.dependsOnReadOnly() && roSet && ro {
			continue
		}
		out = append(out, h)
	}
	return out
}

// Unanswered lists the questions of attempt d that answers leave open, in
// page order. A single, multiple or classify question needs one non-empty
// choice; an annotate question needs every hint missingHints asks for.
// Whether a choice is a valid one is grading's business, not this check's.
func (q *Quiz) Unanswered(d Draw, answers QuizAnswers) []Unanswered {
	var out []Unanswered
	for n, i := range q.slots(d) {
		if i < 0 || i >= len(q.Questions) {
			continue
		}
		qn := q.drawn(d, i)
		choices := answers[q.Questions[i].ID]
		u := Unanswered{ID: q.Questions[i].ID, Number: n + 1, Title: qn.Prompt}
		if qn.kind() == QuestionAnnotate {
			hints, _ := ParseHintChoices(choices)
			if u.Hints = missingHints(hints); len(u.Hints) > 0 {
				out = append(out, u)
			}
			continue
		}
		if !answered(choices) {
			out = append(out, u)
		}
	}
	return out
}

// CheckComplete returns an *IncompleteError when answers leave a question
// of attempt d open, and nil when every question is answered.
func (q *Quiz) CheckComplete(d Draw, answers QuizAnswers) error {
	if us := q.Unanswered(d, answers); len(us) > 0 {
		return &IncompleteError{Kind: KindQuiz, Items: us, Total: len(q.Questions)}
	}
	return nil
}

// Unanswered lists the items answers leave without a category, in page
// order.
func (c *Classify) Unanswered(answers ClassifyAnswers) []Unanswered {
	var out []Unanswered
	for i, it := range c.Items {
		if answers[it.ID] == "" {
			out = append(out, Unanswered{ID: it.ID, Number: i + 1, Title: it.Text})
		}
	}
	return out
}

// CheckComplete returns an *IncompleteError when an item has no answer.
func (c *Classify) CheckComplete(answers ClassifyAnswers) error {
	if us := c.Unanswered(answers); len(us) > 0 {
		return &IncompleteError{Kind: KindClassify, Items: us, Total: len(c.Items)}
	}
	return nil
}

// Unanswered lists the tools whose hints answers leave open (see
// missingHints), in page order.
func (a *Annotate) Unanswered(answers AnnotateAnswers) []Unanswered {
	var out []Unanswered
	for i, t := range a.Tools {
		if hs := missingHints(answers[t.Name]); len(hs) > 0 {
			out = append(out, Unanswered{ID: t.Name, Number: i + 1, Title: t.Name, Hints: hs})
		}
	}
	return out
}

// CheckComplete returns an *IncompleteError when a tool has a hint left
// open.
func (a *Annotate) CheckComplete(answers AnnotateAnswers) error {
	if us := a.Unanswered(answers); len(us) > 0 {
		return &IncompleteError{Kind: KindAnnotate, Items: us, Total: len(a.Tools)}
	}
	return nil
}
