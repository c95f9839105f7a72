package quiz

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// DefaultPassMark is the pass mark of a quiz that does not set pass: 5, as in
// "5 of 6".
const DefaultPassMark = 5

// The kinds of quiz question.
const (
	// QuestionSingle has options of which exactly one is correct.
	QuestionSingle = "single"
	// QuestionMultiple has options of which one or more are correct; the
	// learner must choose exactly the correct set.
	QuestionMultiple = "multiple"
	// QuestionClassify asks for the category of one item.
	QuestionClassify = "classify"
	// QuestionAnnotate asks for the four hints of one tool.
	QuestionAnnotate = "annotate"
)

// Quiz is the end-of-lesson quiz.
type Quiz struct {
	// ID is unique within the lesson.
	ID string `yaml:"id"`
	// Pass is the pass mark, the number of right answers needed; nil means
	// DefaultPassMark. It must lie between 1 and the number of questions.
	Pass *int `yaml:"pass"`
	// XP is what the first pass earns; nil means DefaultQuizXP. Zero is
	// allowed (a practice quiz).
	XP *int `yaml:"xp"`
	// Shuffle asks for the questions in an order of their own for each
	// learner and attempt (see Order and Draw).
	Shuffle bool `yaml:"shuffle"`
	// ShuffleOptions asks for the options of single and multiple
	// questions in an order of their own for each learner and attempt
	// (see Draw). An option with Pin keeps its place, so "all of the
	// above" can stay last; an option whose text points at the others
	// ("above", "below") must be pinned.
	ShuffleOptions bool `yaml:"shuffle_options"`
	// Questions are in authored order; at least one.
	Questions []Question `yaml:"questions"`
}

// Question is one quiz question. Which fields apply depends on Kind.
type Question struct {
	// ID is unique within the quiz.
	ID string `yaml:"id"`
	// Kind is single, multiple, classify or annotate; "" means single.
	Kind string `yaml:"kind"`
	// Prompt is the question.
	Prompt string `yaml:"prompt"`

	// Options, for single and multiple: at least two, each with an
	// explanation.
	Options []Option `yaml:"options"`

	// Text, Categories, Answer and Explanation are for classify: the item
	// to sort, the choices, the right category id and why.
	Text        string     `yaml:"text"`
	Categories  []Category `yaml:"categories"`
	Answer      string     `yaml:"answer"`
	Explanation string     `yaml:"explanation"`
	// WhyNot, for classify, says why the item is not each wrong category,
	// keyed by category id (see ClassifyItem.WhyNot); the learner sees the
	// text of the category chosen.
	WhyNot map[string]string `yaml:"why_not"`

	// Tool is for annotate: one tool with its key.
	Tool *Tool `yaml:"tool"`

	// Variants are other versions of this question slot, drawn in turn
	// by Draw so that a retry asks the same thing in other words. Each is
	// a whole question; its id defaults to the slot's id followed by
	// ".v2", ".v3", … and its kind to the slot's kind. A variant has no
	// variants of its own. The question as written is variant 0.
	Variants []Question `yaml:"variants"`
}

// Option is one choice of a single or multiple question.
type Option struct {
	ID   string `yaml:"id"`
	Text string `yaml:"text"`
	// Correct marks a right option.
	Correct bool `yaml:"correct"`
	// Explanation says why the option is right or wrong; shown after the
	// attempt (before a pass, only for the options the learner chose).
	Explanation string `yaml:"explanation"`
	// Pin keeps the option in its written place when the quiz shuffles
	// options (for "all of the above").
	Pin bool `yaml:"pin"`
}

// Kind returns KindQuiz.
func (q *Quiz) Kind() string { return KindQuiz }

// WidgetID returns q.ID.
func (q *Quiz) WidgetID() string { return q.ID }

// PassMark returns the pass mark: Pass, or DefaultPassMark when unset.
func (q *Quiz) PassMark() int {
	if q.Pass == nil {
		return DefaultPassMark
	}
	return *q.Pass
}

// XPValue returns the XP the first pass earns: XP, or DefaultQuizXP when unset.
func (q *Quiz) XPValue() int {
	if q.XP == nil {
		return DefaultQuizXP
	}
	return *q.XP
}

// QuestionByID returns the question with the given id: a slot's id gives
// the question as written (variant 0), a variant's id (see VariantAt) that
// variant, so a review card for a missed variant shows that variant.
func (q *Quiz) QuestionByID(id string) (*Question, bool) {
	for i := range q.Questions {
		if q.Questions[i].ID == id {
			return &q.Questions[i], true
		}
	}
	for i := range q.Questions {
		qn := &q.Questions[i]
		for v := 1; v < qn.VariantCount(); v++ {
			if vq := qn.VariantAt(v); vq.ID == id {
				return &vq, true
			}
		}
	}
	return nil, false
}

// VariantCount is the number of versions of the slot: 1 plus its Variants.
func (qn *Question) VariantCount() int { return 1 + len(qn.Variants) }

// VariantAt returns version v of the slot with its defaults applied: v 0
// is the question as written; v from 1 is Variants[v-1] with its id
// defaulting to "SLOT.v(v+1)" and its kind to the slot's. A v out of range
// gives version 0. The result is a copy with no Variants.
func (qn *Question) VariantAt(v int) Question {
	if v <= 0 || v > len(qn.Variants) {
		out := *qn
		out.Variants = nil
		return out
	}
	out := qn.Variants[v-1]
	if out.ID == "" {
		out.ID = fmt.Sprintf("%s.v%d", qn.ID, v+1)
	}
	if out.Kind == "" {
		out.Kind = qn.kind()
	}
	out.Variants = nil
	return out
}

// whyNotOption is the explanation of a category option: why the item does
// not fit it, "" for the right one.
func whyNotOption(qn *Question, id string) string {
	if id == qn.Answer {
		return ""
	}
	return whyNotFor(qn.WhyNot, qn.Categories, id)
}

// MissingWhyNot lists, for each classify question and variant, the wrong
// categories without a why-not text, as "question-id: category-id".
func (q *Quiz) MissingWhyNot() []string {
	var out []string
	for i := range q.Questions {
		slot := &q.Questions[i]
		for v := range slot.VariantCount() {
			qn := slot.VariantAt(v)
			if qn.kind() != QuestionClassify {
				continue
			}
			for _, id := range missingWhyNot(qn.WhyNot, qn.Answer, qn.Categories) {
				out = append(out, qn.ID+": "+id)
			}
		}
	}
	return out
}

// MissingCues lists, for each annotate question and variant, the hints
// that matter without a cue of their own, as "question-id: tool: hint".
func (q *Quiz) MissingCues() []string {
	var out []string
	for i := range q.Questions {
		slot := &q.Questions[i]
		for v := range slot.VariantCount() {
			qn := slot.VariantAt(v)
			if qn.kind() != QuestionAnnotate || qn.Tool == nil {
				continue
			}
			for _, m := range qn.Tool.missingCues() {
				out = append(out, qn.ID+": "+m)
			}
		}
	}
	return out
}

// kind returns the question's kind with the default applied.
func (qn *Question) kind() string {
	if qn.Kind == "" {
		return QuestionSingle
	}
	return qn.Kind
}

// Validate reports a pass mark outside 1..len(Questions), a negative XP,
// duplicate question ids and every problem of every question (see
// Question.Validate).
func (q *Quiz) Validate() []Problem {
	var ps []Problem
	ps = append(ps, checkID("id", q.ID, "quiz")...)
	n := len(q.Questions)
	if n == 0 {
		ps = append(ps, Problem{Path: "questions", Message: "no questions; list at least one, each with id, kind, prompt and options"})
	}
	if pm := q.PassMark(); n > 0 && (pm < 1 || pm > n) {
		msg := fmt.Sprintf("pass mark %d is outside the %d questions; set pass: to a number from 1 to %d", pm, n, n)
		if q.Pass == nil {
			msg = fmt.Sprintf("the default pass mark %d is above the %d questions; set pass: to a number from 1 to %d", pm, n, n)
		}
		ps = append(ps, Problem{Path: "pass", Message: msg})
	}
	if q.XP != nil && *q.XP < 0 {
		ps = append(ps, Problem{Path: "xp", Message: fmt.Sprintf("%d is negative; give 0 or more (leave it out for %d)", *q.XP, DefaultQuizXP)})
	}
	ids := make([]string, n)
	for i := range q.Questions {
		ids[i] = q.Questions[i].ID
		p := indexPath("questions", i)
		ps = append(ps, q.Questions[i].validate(p)...)
		ps = append(ps, q.validateVariants(p, &q.Questions[i])...)
	}
	ps = append(ps, dupIDs("questions", "id", ids)...)
	return append(ps, q.dupVariantIDs()...)
}

// validateVariants checks each variant of one slot as a question of its
// own, that it has no variants, that it is as hard as the slot (see
// sameShape), and, with ShuffleOptions, that options pointing at the
// others are pinned (for the slot and every variant).
func (q *Quiz) validateVariants(path string, qn *Question) []Problem {
	var ps []Problem
	ps = append(ps, q.checkPins(path, qn)...)
	for j := range qn.Variants {
		vp := indexPath(joinPath(path, "variants"), j)
		raw := &qn.Variants[j]
		if len(raw.Variants) > 0 {
			ps = append(ps, Problem{Path: joinPath(vp, "variants"), Message: "a variant has no variants of its own; list every version under the slot's variants"})
		}
		v := qn.VariantAt(j + 1)
		ps = append(ps, v.validate(vp)...)
		ps = append(ps, sameShape(vp, qn, &v)...)
		ps = append(ps, q.checkPins(vp, &v)...)
	}
	return ps
}

// sameShape reports a variant that a learner would find easier or harder
// than the question it stands for, judged by its form: a variant must have
// the slot's kind (a single-answer version of a multiple-answer question
// asks for less), a single or multiple variant as many options as the
// slot, and a classify variant as many categories (one choice fewer raises
// the odds of a guess). A variant with a misspelt kind is left to
// validate, which names the kinds.
func sameShape(path string, slot, v *Question) []Problem {
	sk, vk := slot.kind(), v.kind()
	if !knownKind(sk) || !knownKind(vk) {
		return nil
	}
	if sk != vk {
		return []Problem{{Path: joinPath(path, "kind"), Message: fmt.Sprintf("the variant is a %s question but its slot is %s; a retry must ask the same kind of question, so make it %s", vk, sk, sk)}}
	}
	switch sk {
	case QuestionSingle, QuestionMultiple:
		if n, m := len(slot.Options), len(v.Options); n != m {
			return []Problem{{Path: joinPath(path, "options"), Message: fmt.Sprintf("%d options where the question has %d; give every variant as many options as its question, so a retry is no easier to guess", m, n)}}
		}
	case QuestionClassify:
		if n, m := len(slot.Categories), len(v.Categories); n != m {
			return []Problem{{Path: joinPath(path, "categories"), Message: fmt.Sprintf("%d categories where the question has %d; give every variant as many categories as its question, so a retry is no easier to guess", m, n)}}
		}
	}
	return nil
}

// knownKind reports whether k, with the default applied, is a kind of
// question this package grades.
func knownKind(k string) bool {
	switch k {
	case QuestionSingle, QuestionMultiple, QuestionClassify, QuestionAnnotate:
		return true
	}
	return false
}

// pointsAtOthers matches option texts that refer to the other options, which
// must keep their place when options are shuffled.
var pointsAtOthers = regexp.MustCompile(`(?i)\b(above|below|previous|preceding|none of these|all of these|both of these)\b`)

func (q *Quiz) checkPins(path string, qn *Question) []Problem {
	if !q.ShuffleOptions {
		return nil
	}
	var ps []Problem
	for i, o := range qn.Options {
		if !o.Pin && pointsAtOthers.MatchString(o.Text) {
			ps = append(ps, Problem{Path: joinPath(indexPath(joinPath(path, "options"), i), "text"), Message: fmt.Sprintf("%q refers to the other options, but shuffle_options moves them; add pin: true to keep this option in place", o.Text)})
		}
	}
	return ps
}

// dupVariantIDs reports a variant id that is also the id of a slot or of
// another variant.
func (q *Quiz) dupVariantIDs() []Problem {
	seen := map[string]string{}
	for i := range q.Questions {
		if id := q.Questions[i].ID; id != "" {
			seen[id] = indexPath("questions", i)
		}
	}
	var ps []Problem
	for i := range q.Questions {
		qn := &q.Questions[i]
		for j := range qn.Variants {
			v := qn.VariantAt(j + 1)
			p := indexPath(joinPath(indexPath("questions", i), "variants"), j)
			if first, ok := seen[v.ID]; ok {
				ps = append(ps, Problem{Path: joinPath(p, "id"), Message: fmt.Sprintf("%q is already used by %s; every question and variant id must be unique in the quiz", v.ID, first)})
				continue
			}
			seen[v.ID] = p
		}
	}
	return ps
}

// Validate reports the problems of one question on its own, with paths from
// the question (used for questions built by ItemQuestion or ToolQuestion).
func (qn *Question) Validate() []Problem {
	return qn.validate("")
}

func (qn *Question) validate(path string) []Problem {
	var ps []Problem
	ps = append(ps, checkID(joinPath(path, "id"), qn.ID, "q1")...)
	ps = append(ps, checkText(joinPath(path, "prompt"), qn.Prompt, "the question")...)
	unused := func(field string, set bool) {
		if set {
			ps = append(ps, Problem{Path: joinPath(path, field), Message: fmt.Sprintf("not used by a %s question; remove it or change kind", qn.kind())})
		}
	}
	switch qn.kind() {
	case QuestionSingle, QuestionMultiple:
		ps = append(ps, qn.validateOptions(path)...)
		unused("text", qn.Text != "")
		unused("categories", len(qn.Categories) > 0)
		unused("answer", qn.Answer != "")
		unused("explanation", qn.Explanation != "")
		unused("why_not", len(qn.WhyNot) > 0)
		unused("tool", qn.Tool != nil)
	case QuestionClassify:
		ps = append(ps, checkText(joinPath(path, "text"), qn.Text, "the item to classify, such as a failure in a sentence")...)
		ps = append(ps, validateCategories(joinPath(path, "categories"), qn.Categories)...)
		ps = append(ps, checkAnswer(joinPath(path, "answer"), qn.Answer, qn.Categories)...)
		ps = append(ps, checkText(joinPath(path, "explanation"), qn.Explanation, "one or two sentences saying why the item belongs in its category")...)
		ps = append(ps, checkWhyNot(joinPath(path, "why_not"), qn.WhyNot, qn.Answer, qn.Categories)...)
		unused("options", len(qn.Options) > 0)
		unused("tool", qn.Tool != nil)
	case QuestionAnnotate:
		if qn.Tool == nil {
			ps = append(ps, Problem{Path: joinPath(path, "tool"), Message: "missing; give tool: with name, description and hints"})
		} else {
			ps = append(ps, validateTool(joinPath(path, "tool"), *qn.Tool)...)
		}
		unused("options", len(qn.Options) > 0)
		unused("text", qn.Text != "")
		unused("categories", len(qn.Categories) > 0)
		unused("answer", qn.Answer != "")
		unused("explanation", qn.Explanation != "")
		unused("why_not", len(qn.WhyNot) > 0)
	default:
		ps = append(ps, Problem{Path: joinPath(path, "kind"), Message: fmt.Sprintf("unknown kind %q; use single, multiple, classify or annotate", qn.Kind)})
	}
	return ps
}

func (qn *Question) validateOptions(path string) []Problem {
	var ps []Problem
	op := joinPath(path, "options")
	if len(qn.Options) < 2 {
		ps = append(ps, Problem{Path: op, Message: fmt.Sprintf("%d options; list at least two, each with id, text, explanation and, on the right ones, correct: true", len(qn.Options))})
	}
	ids := make([]string, len(qn.Options))
	correct := 0
	for i, o := range qn.Options {
		p := indexPath(op, i)
		ids[i] = o.ID
		ps = append(ps, checkID(joinPath(p, "id"), o.ID, string(rune('a'+i%26)))...)
		ps = append(ps, checkText(joinPath(p, "text"), o.Text, "the option as the learner reads it")...)
		ps = append(ps, checkText(joinPath(p, "explanation"), o.Explanation, "a sentence saying why this option is right or wrong")...)
		if o.Correct {
			correct++
		}
	}
	ps = append(ps, dupIDs(op, "id", ids)...)
	switch {
	case correct == 0 && len(qn.Options) > 0:
		ps = append(ps, Problem{Path: op, Message: "no option is marked correct; add correct: true to the right option"})
	case correct > 1 && qn.kind() == QuestionSingle:
		ps = append(ps, Problem{Path: op, Message: fmt.Sprintf("%d options are marked correct in a single-choice question; mark exactly one, or set kind: multiple", correct)})
	}
	return ps
}

// QuizView is what the page shows of a quiz: questions and choices in the
// order given, no keys and no explanations.
type QuizView struct {
	ID       string
	PassMark int
	XP       int
	// Questions are in the order passed to View.
	Questions []QuestionView
}

// QuestionView is a question as the page shows it.
type QuestionView struct {
	// ID is the slot's id, which names the form field ("q.ID").
	ID string
	// VariantID is the id of the version shown (ID for variant 0).
	VariantID string
	// Number is the 1-based position on the page; 0 when unknown.
	Number int
	Kind   string
	Prompt string
	// Options, for single and multiple.
	Options []OptionView
	// Text and Categories, for classify.
	Text       string
	Categories []CategoryView
	// Tool and Hints, for annotate. The learner's answer for each hint is
	// HintView.TrueChoice or FalseChoice.
	Tool  *ToolView
	Hints []HintView
}

// OptionView is an option as the page shows it.
type OptionView struct {
	ID   string
	Text string
}

// View returns the keyless view of one question.
func (qn *Question) View() QuestionView {
	v := QuestionView{ID: qn.ID, VariantID: qn.ID, Kind: qn.kind(), Prompt: qn.Prompt}
	switch v.Kind {
	case QuestionSingle, QuestionMultiple:
		for _, o := range qn.Options {
			v.Options = append(v.Options, OptionView{ID: o.ID, Text: o.Text})
		}
	case QuestionClassify:
		v.Text = qn.Text
		v.Categories = categoryViews(qn.Categories)
	case QuestionAnnotate:
		v.Hints = hintViews()
		if qn.Tool != nil {
			tv := qn.Tool.View()
			v.Tool = &tv
			v.Hints = tv.Hints
		}
	}
	return v
}

// View returns the keyless view of the quiz with its questions in the given
// order of indexes (from Order); a nil order means authored order. Indexes
// out of range are skipped.
func (q *Quiz) View(order []int) QuizView {
	v := QuizView{ID: q.ID, PassMark: q.PassMark(), XP: q.XPValue()}
	for i, qn := range Arrange(q.Questions, order) {
		qv := qn.View()
		qv.Number = i + 1
		v.Questions = append(v.Questions, qv)
	}
	return v
}

// Arrange returns items in the given order of indexes; a nil order returns a
// copy in the original order. Indexes out of range are skipped.
func Arrange[T any](items []T, order []int) []T {
	if order == nil {
		return slices.Clone(items)
	}
	out := make([]T, 0, len(order))
	for _, i := range order {
		if i >= 0 && i < len(items) {
			out = append(out, items[i])
		}
	}
	return out
}

// QuizAnswers maps a question id to the learner's choices: option ids for
// single and multiple, one category id for classify, and for annotate one
// HintChoice value per hint (such as "readOnlyHint=true"). A question left
// out, or with no choices, is unanswered.
type QuizAnswers map[string][]string

// HintChoice encodes the learner's value for a hint as an answer to an
// annotate question: "readOnlyHint=true".
func HintChoice(h Hint, v bool) string { return string(h) + "=" + strconv.FormatBool(v) }

// ParseHintChoices decodes HintChoice values into a map. Values that are not
// a known hint with true or false are returned in bad.
func ParseHintChoices(choices []string) (hints map[Hint]bool, bad []string) {
	hints = map[Hint]bool{}
	for _, c := range choices {
		name, val, _ := strings.Cut(c, "=")
		b, err := strconv.ParseBool(val)
		h := Hint(name)
		if err != nil || (h != ReadOnlyHint && h != DestructiveHint && h != IdempotentHint && h != OpenWorldHint) {
			bad = append(bad, c)
			continue
		}
		hints[h] = b
	}
	return hints, bad
}

// QuizResult is the verdict on a quiz attempt.
type QuizResult struct {
	// Questions are in authored order; use Arrange with the attempt's
	// order to show them as the learner saw them.
	Questions []QuestionFeedback
	// Score counts right questions out of Total.
	Score, Total int
	PassMark     int
	Passed       bool
	// Missed lists the ids of wrong or unanswered questions, which enter
	// the review queue. After GradeDraw they are the ids of the variants
	// shown (see VariantAt), which QuestionByID finds again.
	Missed []string
	// Redacted is true when the feedback was cut to what a learner who has
	// not passed may see (see Redact): no right keys, and explanations
	// only for the options chosen.
	Redacted bool
}

// QuestionFeedback is the verdict on one question.
type QuestionFeedback struct {
	// ID is the slot's id; VariantID the version graded (ID for variant 0).
	ID, VariantID string
	// Number is the 1-based position the question had on the page.
	Number int
	Kind   string
	Prompt string
	Right  bool
	// Message says right, wrong or not answered, in a sentence.
	Message string
	// Options, for single, multiple and (as categories) classify: every
	// choice with whether it was chosen, whether it is correct and its
	// explanation.
	Options []OptionFeedback
	// Text and Explanation, for classify: the item and why.
	Text        string
	Explanation string
	// Tool and Hints, for annotate.
	Tool  *ToolView
	Hints []HintFeedback
}

// OptionFeedback is one choice after the attempt.
type OptionFeedback struct {
	ID          string
	Text        string
	Chosen      bool
	Correct     bool
	Explanation string
}

// GradeQuestion grades one question against the learner's choices (see
// QuizAnswers). It serves the quiz and the review queue alike.
//
// single: right when exactly the correct option is chosen. multiple: right
// when exactly the correct set is chosen. classify: right when the one choice
// is the answer. annotate: right when every hint that matters is right.
// Choices naming no option are wrong; no choices at all is unanswered, which
// is wrong.
func GradeQuestion(qn *Question, choices []string) QuestionFeedback {
	f := QuestionFeedback{ID: qn.ID, VariantID: qn.ID, Kind: qn.kind(), Prompt: qn.Prompt}
	chosen := map[string]bool{}
	var distinct []string
	for _, c := range choices {
		if c != "" && !chosen[c] {
			chosen[c] = true
			distinct = append(distinct, c)
		}
	}
	switch f.Kind {
	case QuestionSingle, QuestionMultiple:
		known := map[string]bool{}
		want := 0
		missedRight, chosenWrong := 0, 0
		for _, o := range qn.Options {
			known[o.ID] = true
			f.Options = append(f.Options, OptionFeedback{ID: o.ID, Text: o.Text, Chosen: chosen[o.ID], Correct: o.Correct, Explanation: o.Explanation})
			if o.Correct {
				want++
				if !chosen[o.ID] {
					missedRight++
				}
			} else if chosen[o.ID] {
				chosenWrong++
			}
		}
		unknown := 0
		for _, c := range distinct {
			if !known[c] {
				unknown++
			}
		}
		switch {
		case len(distinct) == 0:
			f.Message = "Not answered."
		case unknown > 0:
			f.Message = "Your answer names an option this question does not have."
		case f.Kind == QuestionSingle && len(distinct) > 1:
			f.Message = "Choose one option only."
		case missedRight == 0 && chosenWrong == 0:
			f.Right = true
			f.Message = "Right."
		case f.Kind == QuestionSingle:
			f.Message = "Not quite: see the right option and why."
		default:
			f.Message = fmt.Sprintf("Not quite: %d of the %d right options chosen, and %d wrong.", want-missedRight, want, chosenWrong)
		}
	case QuestionClassify:
		f.Text, f.Explanation = qn.Text, qn.Explanation
		for _, c := range qn.Categories {
			// A wrong category's explanation is why the item does not fit it.
			f.Options = append(f.Options, OptionFeedback{ID: c.ID, Text: c.Label, Chosen: chosen[c.ID], Correct: c.ID == qn.Answer, Explanation: whyNotOption(qn, c.ID)})
		}
		given := ""
		if len(distinct) == 1 {
			given = distinct[0]
		}
		it := gradeCategory(qn.ID, qn.Text, qn.Categories, qn.Answer, given)
		f.Right, f.Message = it.Right, it.Message
		if len(distinct) > 1 {
			f.Right, f.Message = false, "Choose one category only."
		}
	case QuestionAnnotate:
		if qn.Tool == nil {
			f.Message = "This question has no tool."
			break
		}
		tv := qn.Tool.View()
		f.Tool = &tv
		hints, bad := ParseHintChoices(distinct)
		tf := gradeTool(*qn.Tool, hints)
		f.Hints = tf.Hints
		switch {
		case len(distinct) == 0:
			f.Message = "Not answered."
		case len(bad) > 0:
			f.Message = "Your answer names a hint value this question does not have."
		case tf.Right:
			f.Right = true
			f.Message = "Right: every hint that matters is set correctly."
		default:
			f.Message = "Not quite: see each hint below."
		}
	default:
		f.Message = fmt.Sprintf("This question has an unknown kind %q.", qn.Kind)
	}
	return f
}
