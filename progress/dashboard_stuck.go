package progress

// Where a class is stuck: the widget items, quiz questions and exercises
// its learners missed first, each answer described in words.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"learn/lessons"
	"learn/quiz"
)

// item is one gradable item of a widget: a classify item, an annotate
// tool, or a quiz question, as a question GradeQuestion can grade.
type item struct {
	question quiz.Question
	// always is true when every try shows the item (a classify item, a
	// tool, a quiz question without variants), so an absent answer is a
	// miss; false for a variant shown to some tries only.
	always bool
}

// widgetItem finds the item id of a classify or annotate widget as a
// question.
func widgetItem(w *lessons.Widget, itemID string) (item, bool) {
	switch x := w.Value.(type) {
	case *quiz.Classify:
		q, ok := x.ItemQuestion(itemID)
		return item{q, true}, ok
	case *quiz.Annotate:
		q, ok := x.ToolQuestion(itemID)
		return item{q, true}, ok
	}
	return item{}, false
}

// shownAnswer is one item of an attempt as the learner saw it, with the
// stored answer to it.
type shownAnswer struct {
	it    item
	value json.RawMessage
}

// shownItems pairs a stored attempt's answers with the items they answer.
// A quiz's answers are keyed by question slot; the version each slot
// showed is the learner's draw for that attempt, so the answer is graded
// against the question they saw (its id is the version's). The order of
// options does not change a grade, so versions come from the cache.
func (c *gradeCache) shownItems(w *lessons.Widget, answers map[string]json.RawMessage, learnerID string, attempt int) []shownAnswer {
	var out []shownAnswer
	if x, ok := w.Value.(*quiz.Quiz); ok {
		draw := QuizDraw(Actor{ID: learnerID}, x, attempt)
		for i := range x.Questions {
			value, ok := answers[x.Questions[i].ID]
			if !ok {
				continue
			}
			v := 0
			if i < len(draw.Variants) {
				v = draw.Variants[i]
			}
			out = append(out, shownAnswer{it: c.version(x, i, v), value: value})
		}
		return out
	}
	ids := make([]string, 0, len(answers))
	for id := range answers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if it, ok := widgetItem(w, id); ok {
			out = append(out, shownAnswer{it: it, value: answers[id]})
		}
	}
	return out
}

// gradeCache remembers, for one page, the question versions built, the
// answer sets decoded and each distinct answer's grade: a class gives the
// same few answers, so each is graded once.
type gradeCache struct {
	versions map[versionKey]item
	decoded  map[string]map[string]json.RawMessage
	verdicts map[verdictKey]verdict
}

// versionKey names version v of slot i of one quiz; verdictKey one answer
// to one question of one widget. Widgets are compared by identity: two
// lessons may both have a widget called "quiz".
type versionKey struct {
	quiz *quiz.Quiz
	i, v int
}

type verdictKey struct {
	widget           *lessons.Widget
	question, answer string
}

// verdict is one answer to one question, graded and put in words.
type verdict struct {
	right bool
	given string
}

func newGradeCache() *gradeCache {
	return &gradeCache{versions: map[versionKey]item{}, decoded: map[string]map[string]json.RawMessage{}, verdicts: map[verdictKey]verdict{}}
}

// version returns version v of slot i of a quiz as an item.
func (c *gradeCache) version(x *quiz.Quiz, i, v int) item {
	key := versionKey{x, i, v}
	it, ok := c.versions[key]
	if !ok {
		it = item{question: x.Questions[i].VariantAt(v), always: x.Questions[i].VariantCount() == 1}
		c.versions[key] = it
	}
	return it
}

// decode parses a stored answer set once.
func (c *gradeCache) decode(answers string) (map[string]json.RawMessage, bool) {
	if m, ok := c.decoded[answers]; ok {
		return m, m != nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(answers), &m) != nil {
		m = nil
	}
	c.decoded[answers] = m
	return m, m != nil
}

// grade grades one stored answer to q once.
func (c *gradeCache) grade(w *lessons.Widget, q *quiz.Question, value json.RawMessage) verdict {
	key := verdictKey{w, q.ID, string(value)}
	if v, ok := c.verdicts[key]; ok {
		return v
	}
	given := choices(q.Kind, string(value))
	v := verdict{right: quiz.GradeQuestion(q, given).Right, given: describe(q, given)}
	c.verdicts[key] = v
	return v
}

// choices turns an item's stored answer (JSON, see AnswerCount) into the
// choices GradeQuestion takes.
func choices(kind, value string) []string {
	switch kind {
	case quiz.QuestionClassify:
		var v string
		if json.Unmarshal([]byte(value), &v) == nil && v != "" {
			return []string{v}
		}
		var list []string
		if json.Unmarshal([]byte(value), &list) == nil {
			return list
		}
	case quiz.QuestionAnnotate:
		var hints map[quiz.Hint]bool
		if json.Unmarshal([]byte(value), &hints) == nil {
			var out []string
			for _, h := range quiz.AllHints() {
				if v, ok := hints[h]; ok {
					out = append(out, quiz.HintChoice(h, v))
				}
			}
			return out
		}
		var list []string
		if json.Unmarshal([]byte(value), &list) == nil {
			return list
		}
	default:
		var list []string
		if json.Unmarshal([]byte(value), &list) == nil {
			return list
		}
	}
	return nil
}

// describe says in words what a learner chose for q.
func describe(q *quiz.Question, given []string) string {
	if len(given) == 0 {
		return "no answer"
	}
	switch q.Kind {
	case quiz.QuestionClassify:
		for _, c := range q.Categories {
			if len(given) == 1 && c.ID == given[0] {
				return c.Label
			}
		}
	case quiz.QuestionAnnotate:
		hints, _ := quiz.ParseHintChoices(given)
		var wrong []string
		for _, h := range quiz.AllHints() {
			v, ok := hints[h]
			if !ok || q.Tool == nil || !q.Tool.Matters(h) {
				continue
			}
			if k := q.Tool.Hints.Get(h); k != nil && k.Value != nil && *k.Value != v {
				wrong = append(wrong, fmt.Sprintf("%s %t", h, v))
			}
		}
		if len(wrong) > 0 {
			return strings.Join(wrong, ", ")
		}
	default:
		var texts []string
		for _, g := range given {
			for _, o := range q.Options {
				if o.ID == g {
					texts = append(texts, o.Text)
				}
			}
		}
		if len(texts) > 0 {
			return strings.Join(texts, " + ")
		}
	}
	return strings.Join(given, ", ")
}

// prompt is how an item is named in the stuck list.
func prompt(q *quiz.Question) string {
	switch q.Kind {
	case quiz.QuestionClassify:
		return q.Text
	case quiz.QuestionAnnotate:
		if q.Tool != nil {
			return "Annotations of " + q.Tool.Name
		}
	}
	return q.Prompt
}

// stuckItems grades the class's first-try answers against the course and
// ranks items by how many learners missed them, past the minimum
// (StuckMinMissed). Versions of one quiz question count together, under
// the question.
func (s *Service) stuckItems(t FirstTries) []StuckItem {
	type key struct{ lesson, widget, item string }
	// tally counts one item or version.
	type tally struct {
		it              item
		answered, right int
		wrong           map[string]int
	}
	type agg struct {
		lesson   *lessons.Lesson
		widget   *lessons.Widget
		versions map[string]*tally
		order    []string
	}
	tried := map[[2]string]int{}
	items := map[key]*agg{}
	var order []key
	cache := newGradeCache()
	versions := map[*lessons.Widget]map[string]versionRef{}
	for _, set := range t.Answers {
		lesson, w, err := s.lessonWidget(set.LessonSlug, set.WidgetID)
		if err != nil {
			continue // the course changed; old answers no longer name its items
		}
		tried[[2]string{set.LessonSlug, set.WidgetID}] += set.Count
		answers, ok := cache.decode(set.Answers)
		if !ok {
			continue
		}
		for _, shown := range cache.shownItems(w, answers, set.LearnerID, 1) {
			ref := versionOf(versions, w, shown.it.question.ID)
			k := key{set.LessonSlug, set.WidgetID, ref.slot}
			a, ok := items[k]
			if !ok {
				a = &agg{lesson: lesson, widget: w, versions: map[string]*tally{}}
				items[k] = a
				order = append(order, k)
			}
			id := shown.it.question.ID
			tl, ok := a.versions[id]
			if !ok {
				tl = &tally{it: shown.it, wrong: map[string]int{}}
				a.versions[id] = tl
				a.order = append(a.order, id)
			}
			v := cache.grade(w, &tl.it.question, shown.value)
			tl.answered += set.Count
			if v.right {
				tl.right += set.Count
			} else {
				tl.wrong[v.given] += set.Count
			}
		}
	}
	var out []StuckItem
	for _, k := range order {
		a := items[k]
		st := StuckItem{Lesson: a.lesson, Where: stuckWhere(a.widget), Link: "/lessons/" + a.lesson.Slug + "#w-" + a.widget.ID}
		wrong := map[string]int{}
		refs := versions[a.widget]
		slices.SortStableFunc(a.order, func(x, y string) int { return cmp.Compare(refs[x].index, refs[y].index) })
		for _, id := range a.order {
			tl := a.versions[id]
			total := tl.answered
			if tl.it.always {
				// An item every try shows and a try left unanswered is a miss.
				total = max(total, tried[[2]string{k.lesson, k.widget}])
			}
			sv := StuckVersion{Prompt: prompt(&tl.it.question), Tried: total, Missed: total - tl.right}
			sv.WrongAnswer, sv.WrongCount = mostChosen(tl.wrong)
			st.Tried += sv.Tried
			st.Missed += sv.Missed
			for ans, n := range tl.wrong {
				wrong[ans] += n
			}
			if st.Prompt == "" {
				st.Prompt = sv.Prompt
			}
			st.Versions = append(st.Versions, sv)
		}
		if _, variants := a.widget.Value.(*quiz.Quiz); !variants || len(st.Versions) < 2 {
			st.Versions = nil
		}
		if first, ok := stuckFirstVersion(a.widget, k.item); ok {
			st.Prompt = first
		}
		st.WrongAnswer, st.WrongCount = mostChosen(wrong)
		if st.Missed >= StuckMinMissed || (st.Missed > 0 && st.Tried < StuckSmallClass) {
			out = append(out, st)
		}
	}
	slices.SortStableFunc(out, func(a, b StuckItem) int {
		return cmp.Or(cmp.Compare(b.Missed, a.Missed), cmp.Compare(b.MissRate(), a.MissRate()),
			cmp.Compare(a.Lesson.Order, b.Lesson.Order), cmp.Compare(a.Prompt, b.Prompt))
	})
	return out
}

// mostChosen returns the answer chosen most often (the first in order on
// a tie) and how often.
func mostChosen(counts map[string]int) (string, int) {
	best, n := "", 0
	for ans, c := range counts {
		if c > n || (c == n && ans < best) {
			best, n = ans, c
		}
	}
	return best, n
}

// versionRef places a shown question: the item it counts under (a quiz
// question's slot, so every version of it together; any other item
// itself) and its place among the slot's versions, for listing them in
// the order written.
type versionRef struct {
	slot  string
	index int
}

// versionOf returns where question id of widget w stands, from refs, which
// it fills once per widget (VariantAt builds a version each time it is
// called, too dear for every answer of a class).
func versionOf(refs map[*lessons.Widget]map[string]versionRef, w *lessons.Widget, id string) versionRef {
	m, ok := refs[w]
	if !ok {
		m = map[string]versionRef{}
		if x, isQuiz := w.Value.(*quiz.Quiz); isQuiz {
			for i := range x.Questions {
				qn := &x.Questions[i]
				for v := range qn.VariantCount() {
					m[qn.VariantAt(v).ID] = versionRef{slot: qn.ID, index: v}
				}
			}
		}
		refs[w] = m
	}
	if r, ok := m[id]; ok {
		return r
	}
	return versionRef{slot: id}
}

// stuckFirstVersion is a quiz question's title in the stuck list: its
// version as written.
func stuckFirstVersion(w *lessons.Widget, slot string) (string, bool) {
	x, ok := w.Value.(*quiz.Quiz)
	if !ok {
		return "", false
	}
	for i := range x.Questions {
		if qn := x.Questions[i]; qn.ID == slot {
			return prompt(&qn), true
		}
	}
	return "", false
}

// stuckWhere names a widget in words, as its title on the lesson page.
func stuckWhere(w *lessons.Widget) string {
	switch x := w.Value.(type) {
	case *quiz.Quiz:
		return "Lesson quiz"
	case *quiz.Classify:
		return "Try it: " + x.Prompt
	case *quiz.Annotate:
		return "Annotate the tools: " + x.Prompt
	}
	return w.ID
}

func (s *Service) stuckExercises(stats []ExerciseStat, fails []CaseFailure) []StuckExercise {
	worst := map[string]CaseFailure{}
	for _, f := range fails {
		w, ok := worst[f.ExerciseID]
		if !ok || f.Count > w.Count || (f.Count == w.Count && f.Case < w.Case) {
			worst[f.ExerciseID] = f
		}
	}
	var out []StuckExercise
	for _, st := range stats {
		ex, lesson, ok := s.Course().Exercise(st.ExerciseID)
		if !ok || st.Failed == 0 {
			continue
		}
		w := worst[st.ExerciseID]
		out = append(out, StuckExercise{Lesson: lesson, Exercise: ex, ExerciseStat: st, Case: w.Case, Verdict: w.Verdict, CaseCount: w.Count})
	}
	slices.SortStableFunc(out, func(a, b StuckExercise) int {
		return cmp.Or(cmp.Compare(b.FailRate(), a.FailRate()), cmp.Compare(b.Failed, a.Failed), cmp.Compare(a.ExerciseID, b.ExerciseID))
	})
	if len(out) > maxStuck {
		out = out[:maxStuck]
	}
	return out
}
