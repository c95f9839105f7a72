package quiz

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const variantQuiz = `
id: quiz
pass: 2
shuffle: true
shuffle_options: true
questions:
  - id: channel
    prompt: How does a tool report that its upstream API is down?
    options:
      - {id: a, text: A JSON-RPC error, explanation: EXPL-A}
      - {id: b, text: A result with isError true, correct: true, explanation: EXPL-B}
      - {id: c, text: Closing the connection, explanation: EXPL-C}
      - {id: d, text: None of the above, pin: true, explanation: EXPL-D}
    variants:
      - prompt: A date argument cannot be parsed. How is that reported?
        options:
          - {id: a, text: A result with isError true, correct: true, explanation: EXPL-VA}
          - {id: b, text: -32600, explanation: EXPL-VB}
          - {id: c, text: -32602, explanation: EXPL-VC}
          - {id: d, text: None of the above, pin: true, explanation: EXPL-VD}
      - id: channel-three
        prompt: The tool's bank declines a card. How is that reported?
        options:
          - {id: a, text: -32603, explanation: EXPL-WA}
          - {id: b, text: A result with isError true, correct: true, explanation: EXPL-WB}
          - {id: c, text: An empty result, explanation: EXPL-WC}
          - {id: d, text: None of the above, pin: true, explanation: EXPL-WD}
  - id: kind
    kind: classify
    prompt: Which kind of error?
    text: An expired session handle.
    categories: [{id: protocol, label: Protocol error}, {id: execution, label: Tool execution error}]
    answer: execution
    explanation: EXPL-CLASSIFY
    why_not: {protocol: WHYNOT-PROTOCOL}
  - id: hints
    kind: annotate
    prompt: Set the hints.
    tool:
      name: delete_file
      description: Deletes a file.
      hints:
        readOnlyHint: {value: false, explanation: EXPL-RO}
        destructiveHint: {value: true, explanation: EXPL-DE}
        idempotentHint: {value: true, explanation: EXPL-ID}
        openWorldHint: {value: false, explanation: EXPL-OW}
`

func decodeQuiz(t *testing.T, src string) *Quiz {
	t.Helper()
	w, ps := DecodeString(KindQuiz, src)
	if len(ps) > 0 {
		t.Fatalf("decode: %v", ps)
	}
	return w.(*Quiz)
}

func TestDrawIsDeterministicAndRotatesVariants(t *testing.T) {
	q := decodeQuiz(t, variantQuiz)
	for _, learner := range []string{"l-1", "l-2", "someone-else"} {
		seen := map[int]bool{}
		prev := -1
		for attempt := 1; attempt <= 3; attempt++ {
			d := DrawFor(q, learner, attempt)
			if again := DrawFor(q, learner, attempt); !reflect.DeepEqual(d, again) {
				t.Fatalf("%s attempt %d: two draws differ: %+v and %+v", learner, attempt, d, again)
			}
			v := d.Variants[0]
			if v == prev {
				t.Errorf("%s attempt %d shows variant %d again", learner, attempt, v)
			}
			prev = v
			seen[v] = true
			if d.Variants[1] != 0 || d.Variants[2] != 0 {
				t.Errorf("slots without variants drew %v", d.Variants)
			}
		}
		if len(seen) != 3 {
			t.Errorf("%s met variants %v in three attempts, want all three", learner, seen)
		}
	}
}

func TestDrawPinsOptions(t *testing.T) {
	q := decodeQuiz(t, variantQuiz)
	orders := map[string]bool{}
	for attempt := 1; attempt <= 40; attempt++ {
		d := DrawFor(q, "l-1", attempt)
		if d.Variants[0] != 0 {
			continue
		}
		o := d.Options[0]
		if o[3] != 3 {
			t.Fatalf("attempt %d moved the pinned option: %v", attempt, o)
		}
		sorted := slices.Clone(o)
		slices.Sort(sorted)
		if !reflect.DeepEqual(sorted, []int{0, 1, 2, 3}) {
			t.Fatalf("attempt %d: %v is not a permutation", attempt, o)
		}
		orders[sprintInts(o)] = true
	}
	if len(orders) < 2 {
		t.Errorf("40 attempts showed only the option orders %v", orders)
	}
}

func sprintInts(o []int) string {
	var b strings.Builder
	for _, i := range o {
		b.WriteByte(byte('0' + i))
	}
	return b.String()
}

func TestViewAndGradeDraw(t *testing.T) {
	q := decodeQuiz(t, variantQuiz)
	var d Draw
	for a := 1; ; a++ {
		d = DrawFor(q, "l-1", a)
		if d.Variants[0] == 2 {
			break
		}
	}
	v := q.ViewDraw(d)
	var slot QuestionView
	for i, qv := range v.Questions {
		if qv.Number != i+1 {
			t.Errorf("question %d numbered %d", i+1, qv.Number)
		}
		if qv.ID == "channel" {
			slot = qv
		}
	}
	if slot.VariantID != "channel-three" || !strings.Contains(slot.Prompt, "bank declines") {
		t.Fatalf("slot channel shows %q (%s), want the variant channel-three", slot.VariantID, slot.Prompt)
	}
	answers := QuizAnswers{"channel": {"a"}, "kind": {"execution"}, "hints": {"readOnlyHint=false", "destructiveHint=true", "idempotentHint=true", "openWorldHint=false"}}
	r := GradeDraw(q, d, answers)
	if r.Score != 2 || !r.Passed || !reflect.DeepEqual(r.Missed, []string{"channel-three"}) {
		t.Fatalf("score %d passed %v missed %v, want 2, true, [channel-three]", r.Score, r.Passed, r.Missed)
	}
	if got, ok := q.QuestionByID("channel-three"); !ok || !strings.Contains(got.Prompt, "bank") {
		t.Errorf("QuestionByID(channel-three) = %v, %v", got, ok)
	}
	if got, ok := q.QuestionByID("channel.v2"); !ok || !strings.Contains(got.Prompt, "date argument") {
		t.Errorf("QuestionByID(channel.v2) = %v, %v", got, ok)
	}
}

func TestVariantProblems(t *testing.T) {
	base := "id: quiz\npass: 1\nshuffle_options: true\nquestions:\n  - id: q1\n    prompt: P\n    options:\n      - {id: a, text: Yes, correct: true, explanation: E}\n      - {id: b, text: No, explanation: E}\n"
	tests := []struct {
		name, extra, want string
		line              int
	}{
		{"variant without a right option", "    variants:\n      - prompt: P2\n        options:\n          - {id: a, text: Yes, explanation: E}\n          - {id: b, text: No, explanation: E}\n",
			"questions[0].variants[0].options: no option is marked correct", 12},
		{"variant id taken", "    variants:\n      - id: q1\n        prompt: P2\n        options:\n          - {id: a, text: Yes, correct: true, explanation: E}\n          - {id: b, text: No, explanation: E}\n",
			"questions[0].variants[0].id: \"q1\" is already used", 11},
		{"unpinned all of the above", "      - {id: c, text: All of the above, explanation: E}\n",
			"questions[0].options[2].text: \"All of the above\" refers to the other options", 10},
		{"nested variants", "    variants:\n      - prompt: P2\n        options:\n          - {id: a, text: Yes, correct: true, explanation: E}\n          - {id: b, text: No, explanation: E}\n        variants:\n          - prompt: P3\n",
			"questions[0].variants[0].variants: a variant has no variants", 15},
		{"misspelt key in a variant", "    variants:\n      - promt: P2\n",
			"questions[0].variants[0].promt: unknown key", 11},
		{"variant with an option more", "    variants:\n      - prompt: P2\n        options:\n          - {id: a, text: Yes, correct: true, explanation: E}\n          - {id: b, text: No, explanation: E}\n          - {id: c, text: Maybe, explanation: E}\n",
			"questions[0].variants[0].options: 3 options where the question has 2", 12},
		{"variant with an option fewer", "      - {id: c, text: Maybe, explanation: E}\n    variants:\n      - prompt: P2\n        options:\n          - {id: a, text: Yes, correct: true, explanation: E}\n          - {id: b, text: No, explanation: E}\n",
			"questions[0].variants[0].options: 2 options where the question has 3", 13},
		{"multiple-answer variant of a single-answer slot", "    variants:\n      - kind: multiple\n        prompt: P2\n        options:\n          - {id: a, text: Yes, correct: true, explanation: E}\n          - {id: b, text: No, correct: true, explanation: E}\n",
			"questions[0].variants[0].kind: the variant is a multiple question but its slot is single", 11},
		{"classify variant of a single-answer slot", "    variants:\n      - kind: classify\n        prompt: P2\n        text: T\n        categories: [{id: x, label: X}, {id: y, label: Y}]\n        answer: x\n        explanation: E\n",
			"questions[0].variants[0].kind: the variant is a classify question but its slot is single", 11},
	}
	classify := "id: quiz\npass: 1\nquestions:\n  - id: q1\n    kind: classify\n    prompt: P\n    text: T\n    categories: [{id: x, label: X}, {id: y, label: Y}, {id: z, label: Z}]\n    answer: x\n    explanation: E\n" +
		"    variants:\n      - prompt: P2\n        text: T2\n        categories: [{id: x, label: X}, {id: y, label: Y}]\n        answer: y\n        explanation: E\n"
	t.Run("classify variant with a category fewer", func(t *testing.T) {
		_, ps := DecodeString(KindQuiz, classify)
		want := "questions[0].variants[0].categories: 2 categories where the question has 3"
		for _, p := range ps {
			if strings.Contains(p.String(), want) {
				if p.Line != 14 {
					t.Errorf("problem %q on line %d, want 14", p, p.Line)
				}
				return
			}
		}
		t.Errorf("no problem containing %q; got %v", want, ps)
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := DecodeString(KindQuiz, base+tt.extra)
			for _, p := range ps {
				if strings.Contains(p.String(), tt.want) {
					if p.Line != tt.line {
						t.Errorf("problem %q on line %d, want %d", p, p.Line, tt.line)
					}
					return
				}
			}
			t.Errorf("no problem containing %q; got %v", tt.want, ps)
		})
	}
}

// TestVariantSameShape checks that variants as hard as their slot pass: a
// variant that leaves the kind to default, one that spells it out, a
// multiple-answer variant with another number of right options, and a
// classify variant with other categories, as many of them.
func TestVariantSameShape(t *testing.T) {
	src := `
id: quiz
pass: 1
questions:
  - id: one
    kind: multiple
    prompt: P
    options:
      - {id: a, text: A, correct: true, explanation: E}
      - {id: b, text: B, correct: true, explanation: E}
      - {id: c, text: C, explanation: E}
    variants:
      - prompt: P2
        options:
          - {id: a, text: A, correct: true, explanation: E}
          - {id: b, text: B, explanation: E}
          - {id: c, text: C, explanation: E}
      - kind: multiple
        prompt: P3
        options:
          - {id: a, text: A, correct: true, explanation: E}
          - {id: b, text: B, correct: true, explanation: E}
          - {id: c, text: C, correct: true, explanation: E}
  - id: two
    kind: classify
    prompt: P
    text: T
    categories: [{id: x, label: X}, {id: y, label: Y}]
    answer: x
    explanation: E
    variants:
      - prompt: P2
        text: T2
        categories: [{id: y, label: Y}, {id: z, label: Z}]
        answer: z
        explanation: E
`
	if _, ps := DecodeString(KindQuiz, src); len(ps) > 0 {
		t.Errorf("variants as hard as their slot were refused: %v", ps)
	}
}

// TestDocExample decodes the full quiz example of the package doc, so the
// documented format stays valid.
func TestDocExample(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	start := strings.Index(doc, "// # Variants")
	if start < 0 {
		t.Fatal("doc.go has no Variants section")
	}
	var body []string
	in := false
	for _, line := range strings.Split(doc[start:], "\n") {
		switch {
		case strings.HasPrefix(line, "//\t```quiz"):
			in = true
		case in && strings.HasPrefix(line, "//\t```"):
			q := decodeQuiz(t, strings.Join(body, "\n"))
			if q.Questions[0].VariantCount() != 3 || !q.ShuffleOptions || !q.Questions[0].Options[2].Pin {
				t.Errorf("the example lost its variants, shuffle_options or pin: %+v", q)
			}
			return
		case in:
			body = append(body, strings.TrimPrefix(line, "//\t"))
		}
	}
	t.Fatal("no quiz example in the Variants section")
}
