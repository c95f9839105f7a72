package quiz

import (
	"fmt"
	"slices"
)

// Classify is the "Which kind of error?" widget: the learner sorts items,
// each a failure described in a sentence, into named categories.
type Classify struct {
	// ID is unique within the lesson.
	ID string `yaml:"id"`
	// Prompt is the question shown above the items.
	Prompt string `yaml:"prompt"`
	// Categories are the choices for every item; at least two.
	Categories []Category `yaml:"categories"`
	// Items are the things to sort; at least one.
	Items []ClassifyItem `yaml:"items"`
}

// Category is one bucket of a classify widget or question.
type Category struct {
	// ID is what an answer names, such as "protocol".
	ID string `yaml:"id"`
	// Label is shown to the learner, such as "Protocol error".
	Label string `yaml:"label"`
	// WhyNot, optional, says what an item would need to fit this category,
	// shown to a learner who chose it wrongly when the item has no why_not
	// of its own for it.
	WhyNot string `yaml:"why_not"`
}

// ClassifyItem is one thing to sort, with its key and its explanation.
type ClassifyItem struct {
	ID string `yaml:"id"`
	// Text describes the failure in a sentence.
	Text string `yaml:"text"`
	// Answer is the id of the right category.
	Answer string `yaml:"answer"`
	// Explanation, one or two sentences written for this item, is shown
	// once the learner has it right.
	Explanation string `yaml:"explanation"`
	// WhyNot says, for a category other than the answer, why the item does
	// not fit it: keyed by category id, shown when the learner chooses that
	// category, so a wrong choice teaches without naming the right one.
	// Optional; a wrong category without one is a warning (see
	// MissingWhyNot).
	WhyNot map[string]string `yaml:"why_not"`
}

// Kind returns KindClassify.
func (c *Classify) Kind() string { return KindClassify }

// WidgetID returns c.ID.
func (c *Classify) WidgetID() string { return c.ID }

// Validate reports missing or duplicate ids, empty text, answers that name no
// category and missing explanations.
func (c *Classify) Validate() []Problem {
	var ps []Problem
	ps = append(ps, checkID("id", c.ID, "error-kinds")...)
	ps = append(ps, checkText("prompt", c.Prompt, "the question, such as \"Which kind of error is each of these?\"")...)
	ps = append(ps, validateCategories("categories", c.Categories)...)
	if len(c.Items) == 0 {
		ps = append(ps, Problem{Path: "items", Message: "no items; list at least one, each with id, text, answer and explanation"})
	}
	ids := make([]string, len(c.Items))
	for i, it := range c.Items {
		p := indexPath("items", i)
		ids[i] = it.ID
		ps = append(ps, checkID(joinPath(p, "id"), it.ID, fmt.Sprintf("item-%d", i+1))...)
		ps = append(ps, checkText(joinPath(p, "text"), it.Text, "the failure in a sentence")...)
		ps = append(ps, checkAnswer(joinPath(p, "answer"), it.Answer, c.Categories)...)
		ps = append(ps, checkText(joinPath(p, "explanation"), it.Explanation, "one or two sentences saying why this item belongs in its category")...)
		ps = append(ps, checkWhyNot(joinPath(p, "why_not"), it.WhyNot, it.Answer, c.Categories)...)
	}
	ps = append(ps, dupIDs("items", "id", ids)...)
	return ps
}

func validateCategories(path string, cats []Category) []Problem {
	var ps []Problem
	if len(cats) < 2 {
		ps = append(ps, Problem{Path: path, Message: fmt.Sprintf("%d categories; list at least two, each with id and label, such as {id: protocol, label: Protocol error}", len(cats))})
	}
	ids := make([]string, len(cats))
	for i, c := range cats {
		p := indexPath(path, i)
		ids[i] = c.ID
		ps = append(ps, checkID(joinPath(p, "id"), c.ID, "protocol")...)
		ps = append(ps, checkText(joinPath(p, "label"), c.Label, "the name shown to the learner, such as \"Protocol error\"")...)
		ps = append(ps, checkOptionalText(joinPath(p, "why_not"), c.WhyNot, "what an item needs to be a "+c.Label)...)
	}
	return append(ps, dupIDs(path, "id", ids)...)
}

func checkAnswer(path, answer string, cats []Category) []Problem {
	ids := make([]string, len(cats))
	for i, c := range cats {
		if c.ID == answer && answer != "" {
			return nil
		}
		ids[i] = c.ID
	}
	if answer == "" {
		return []Problem{{Path: path, Message: fmt.Sprintf("missing; name the right category, one of %q", ids)}}
	}
	return []Problem{{Path: path, Message: fmt.Sprintf("unknown category %q; the answer must be one of the category ids %q", answer, ids)}}
}

// checkWhyNot reports why-not texts that name no category, that name the
// right one, or that are empty.
func checkWhyNot(path string, whyNot map[string]string, answer string, cats []Category) []Problem {
	var ps []Problem
	for _, id := range sortedKeys(whyNot) {
		p := joinPath(path, id)
		switch {
		case categoryLabel(cats, id) == "":
			ps = append(ps, Problem{Path: p, Message: fmt.Sprintf("%q is not one of the category ids %q; key each text by a wrong category's id", id, categoryIDs(cats))})
		case id == answer:
			ps = append(ps, Problem{Path: p, Message: fmt.Sprintf("%q is the right category; why_not explains the wrong ones, and explanation the right one", id)})
		default:
			ps = append(ps, checkText(p, whyNot[id], "a sentence saying why the item is not a "+categoryLabel(cats, id))...)
		}
	}
	return ps
}

// whyNotFor returns why an item does not fit the category given: the
// item's own text for it, else the category's; "" if neither is written.
func whyNotFor(whyNot map[string]string, cats []Category, given string) string {
	if t := whyNot[given]; t != "" {
		return t
	}
	for _, c := range cats {
		if c.ID == given {
			return c.WhyNot
		}
	}
	return ""
}

// missingWhyNot returns the ids of the wrong categories that have no
// why-not text, the item's or the category's.
func missingWhyNot(whyNot map[string]string, answer string, cats []Category) []string {
	var out []string
	for _, c := range cats {
		if c.ID != answer && whyNotFor(whyNot, cats, c.ID) == "" {
			out = append(out, c.ID)
		}
	}
	return out
}

// MissingWhyNot lists, for each item, the wrong categories without a
// why-not text, as "item-id: category-id"; a learner who picks one of them
// is only told to think again.
func (c *Classify) MissingWhyNot() []string {
	var out []string
	for _, it := range c.Items {
		for _, id := range missingWhyNot(it.WhyNot, it.Answer, c.Categories) {
			out = append(out, it.ID+": "+id)
		}
	}
	return out
}

func categoryIDs(cats []Category) []string {
	ids := make([]string, len(cats))
	for i, c := range cats {
		ids[i] = c.ID
	}
	return ids
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func categoryLabel(cats []Category, id string) string {
	for _, c := range cats {
		if c.ID == id {
			return c.Label
		}
	}
	return ""
}

// ClassifyView is what the page shows of a classify widget: no answers and
// no explanations.
type ClassifyView struct {
	ID         string
	Prompt     string
	Categories []CategoryView
	Items      []ItemView
}

// CategoryView is a category as the page shows it.
type CategoryView struct {
	ID    string
	Label string
}

// ItemView is a classify item as the page shows it.
type ItemView struct {
	ID   string
	Text string
}

// View returns the keyless view the page is rendered from.
func (c *Classify) View() ClassifyView {
	v := ClassifyView{ID: c.ID, Prompt: c.Prompt, Categories: categoryViews(c.Categories)}
	for _, it := range c.Items {
		v.Items = append(v.Items, ItemView{ID: it.ID, Text: it.Text})
	}
	return v
}

func categoryViews(cats []Category) []CategoryView {
	var vs []CategoryView
	for _, c := range cats {
		vs = append(vs, CategoryView{ID: c.ID, Label: c.Label})
	}
	return vs
}

// ClassifyAnswers maps an item id to the category id the learner chose.
type ClassifyAnswers map[string]string

// ClassifyFeedback is the verdict on a classify check.
type ClassifyFeedback struct {
	// Items are in the widget's order, one per item.
	Items []ItemFeedback
	// Score counts the right items; Total is the number of items.
	Score, Total int
	// AllCorrect is Score == Total: the check that earns WidgetXP.
	AllCorrect bool
	// Missed lists the ids of wrong or unanswered items, which enter the
	// review queue.
	Missed []string
}

// ItemFeedback is the verdict on one classify item.
type ItemFeedback struct {
	ID   string
	Text string
	// Given is the category id chosen ("" if none) and GivenLabel its label
	// ("" if none or unknown).
	Given, GivenLabel string
	// Answer and AnswerLabel are the right category.
	Answer, AnswerLabel string
	Right               bool
	// Message says right, wrong or not answered, in a sentence.
	Message string
	// Explanation is the author's explanation for this item.
	Explanation string
	// WhyNot is the author's reason the chosen category does not fit (""
	// when the item is right, unanswered, or the author wrote none).
	WhyNot string
}

// GradeClassify checks every item of c against answers. An unanswered item
// is wrong, and so is an answer naming a category c does not have.
func GradeClassify(c *Classify, answers ClassifyAnswers) ClassifyFeedback {
	fb := ClassifyFeedback{Total: len(c.Items)}
	for _, it := range c.Items {
		f := gradeCategory(it.ID, it.Text, c.Categories, it.Answer, answers[it.ID])
		f.Explanation = it.Explanation
		if !f.Right {
			f.WhyNot = whyNotFor(it.WhyNot, c.Categories, f.Given)
		}
		if f.Right {
			fb.Score++
		} else {
			fb.Missed = append(fb.Missed, it.ID)
		}
		fb.Items = append(fb.Items, f)
	}
	fb.AllCorrect = fb.Total > 0 && fb.Score == fb.Total
	return fb
}

func gradeCategory(id, text string, cats []Category, answer, given string) ItemFeedback {
	f := ItemFeedback{
		ID: id, Text: text,
		Given: given, GivenLabel: categoryLabel(cats, given),
		Answer: answer, AnswerLabel: categoryLabel(cats, answer),
	}
	switch {
	case given == "":
		f.Message = fmt.Sprintf("Not answered. It is a %s.", f.AnswerLabel)
	case f.GivenLabel == "":
		f.Message = fmt.Sprintf("%q is not one of the categories. It is a %s.", given, f.AnswerLabel)
	case given == answer:
		f.Right = true
		f.Message = fmt.Sprintf("Right: a %s.", f.AnswerLabel)
	default:
		f.Message = fmt.Sprintf("Not a %s: it is a %s.", f.GivenLabel, f.AnswerLabel)
	}
	return f
}

// ItemQuestion returns the item with the given id as a quiz question of kind
// classify, so a review can show and grade it alone. ok is false if there is
// no such item.
func (c *Classify) ItemQuestion(itemID string) (q Question, ok bool) {
	for _, it := range c.Items {
		if it.ID == itemID {
			return Question{
				ID: it.ID, Kind: QuestionClassify, Prompt: c.Prompt, Text: it.Text,
				Categories: c.Categories, Answer: it.Answer, Explanation: it.Explanation, WhyNot: it.WhyNot,
			}, true
		}
	}
	return Question{}, false
}
